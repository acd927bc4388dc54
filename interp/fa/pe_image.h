// The Phar Lap PE ("PL") container of a Fighters Anthology .SH shape: MZ header, e_lfanew, the
// "PL" file header, optional header, section table, the CODE section (the first section with raw
// data), the .idata imports from main.dll, the .reloc HIGHLOW base relocations, and the 6-byte
// `FF 25 t32` trampolines at the end of CODE bound to their import names.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shapevm::fa {

struct PeSection {
  std::string name;  // up to 8 characters, NUL padding removed
  uint32_t virtual_size = 0;
  uint32_t virtual_address = 0;
  uint32_t raw_size = 0;    // SizeOfRawData
  uint32_t raw_offset = 0;  // PointerToRawData
  uint32_t characteristics = 0;
};

// PE32 optional-header fields (present when SizeOfOptionalHeader covers them).
struct PeOptionalHeader {
  uint16_t magic = 0;  // 0x10B
  uint32_t size_of_code = 0;
  uint32_t size_of_initialized_data = 0;
  uint32_t size_of_uninitialized_data = 0;
  uint32_t entry_point = 0;
  uint32_t base_of_code = 0;
  uint32_t base_of_data = 0;
  uint32_t image_base = 0;
  uint32_t section_alignment = 0;
  uint32_t file_alignment = 0;
  uint32_t size_of_image = 0;
  uint32_t size_of_headers = 0;
  uint16_t subsystem = 0;
  uint32_t number_of_rva_and_sizes = 0;
  struct DataDirectory {
    uint32_t rva = 0;
    uint32_t size = 0;
  };
  std::vector<DataDirectory> data_directories;  // [1] imports, [5] base relocations
};

// True for the import names that are functions (entered by push/push/ret); all others are data.
bool is_function_import(std::string_view name);

struct PeImport {
  std::string name;       // e.g. "_PLgearDown", "do_start_interp"
  uint32_t slot_rva = 0;  // RVA of its IAT slot (IAT RVA + 4*i)
  bool is_function = false;
};

struct PeRelocation {
  uint32_t site_rva = 0;      // where the 32-bit value to fix up lives
  uint32_t stored_value = 0;  // the unrelocated 32-bit value at the site
  // When the site lies in CODE: its offset from the start of CODE.
  std::optional<uint32_t> site_code_offset;
  // When stored_value - (image_base + code VA) lands inside CODE: that offset.
  std::optional<uint32_t> target_code_offset;
};

struct PeTrampoline {
  uint32_t code_offset = 0;  // offset of the FF 25 within CODE
  uint32_t operand = 0;      // the unrelocated t32
  std::string import_name;
  bool is_function = false;
  bool operand_includes_image_base = false;  // USNF-era: t32 - ImageBase names the slot
};

struct PharLapImage {
  std::string source;
  uint32_t pe_offset = 0;  // e_lfanew
  std::string signature;   // "PL" (or "PE")
  uint16_t machine = 0;
  uint16_t number_of_sections = 0;
  uint32_t time_date_stamp = 0;
  uint16_t size_of_optional_header = 0;
  uint16_t characteristics = 0;
  std::optional<PeOptionalHeader> optional_header;
  std::vector<PeSection> sections;
  size_t code_section = 0;  // index into sections

  std::vector<uint8_t> code;  // the CODE bytes (see docs/fa.md for how the length is chosen)
  uint32_t image_base = 0;    // optional header ImageBase (0 when absent)
  uint32_t code_va = 0;       // CODE VirtualAddress (0x1000 in FA)

  std::string import_dll;  // "main.dll" in FA shapes ("" when there is no import table)
  std::vector<PeImport> imports;
  std::vector<PeRelocation> relocations;
  std::vector<PeTrampoline> trampolines;  // ascending code_offset
  uint32_t stub_area_offset = 0;          // first trampoline's code offset; code.size() when none

  // What an unrelocated pointer to CODE offset `off` holds: image_base + code_va + off.
  uint32_t code_pointer(uint32_t off) const { return image_base + code_va + off; }
  const PeTrampoline* trampoline_at(uint32_t code_offset) const;
};

// Parses a whole .SH file. Throws InputError naming `source`, the offset and the expectation on
// a truncated or inconsistent file.
PharLapImage parse_pharlap(std::span<const uint8_t> file, const std::string& source);

}  // namespace shapevm::fa
