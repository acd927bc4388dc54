// Reader for the Phar Lap PE container of a Fighters Anthology .SH shape. Every byte is read
// through ByteReader, and every value taken from the file is checked before it is used as an
// offset or a count, so a damaged file ends in an InputError that says where and what, never in
// undefined behaviour. The choices that go beyond the PE format itself are in
// docs/fa-container.md.
#include "interp/fa/pe_image.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_map>

#include "core/byte_reader.h"
#include "core/input_error.h"
#include "interp/fa/assumptions.h"
#include "interp/fa/pe_layout.h"

namespace shapevm::fa {

namespace {

using namespace pe_layout;

constexpr size_t kLfanewOffset = 0x3C;
constexpr size_t kFileHeaderSize = 24;  // signature (4) + COFF file header (20)
constexpr size_t kImportDirectory = 1;
constexpr size_t kBaseRelocationDirectory = 5;
constexpr uint16_t kRelocPadding = 0;
constexpr uint16_t kRelocHighLow = 3;

// Shows two signature bytes the way a person would look for them in a hex dump: printable
// characters as themselves, anything else as \xNN, so a corrupt header reads unambiguously.
std::string show_bytes(std::span<const uint8_t> bytes) {
  std::string out;
  for (uint8_t b : bytes) {
    if (b >= 0x20 && b < 0x7F && b != '\'' && b != '\\') {
      out.push_back(static_cast<char>(b));
    } else {
      out += fmt::format("\\x{:02x}", b);
    }
  }
  return out;
}

// Reads the optional-header field at `field` only if SizeOfOptionalHeader says the header is
// that long; a shorter header leaves the default (zero) in place rather than reading whatever
// follows it (which is the section table).
class OptionalHeaderReader {
 public:
  OptionalHeaderReader(const ByteReader& r, size_t base, size_t declared_size)
      : r_(r), base_(base), declared_size_(declared_size) {}

  bool covers(size_t field, size_t width) const { return field + width <= declared_size_; }
  void u16(size_t field, uint16_t& out, std::string_view what) const {
    if (covers(field, 2)) out = r_.u16(base_ + field, what);
  }
  void u32(size_t field, uint32_t& out, std::string_view what) const {
    if (covers(field, 4)) out = r_.u32(base_ + field, what);
  }

 private:
  const ByteReader& r_;
  size_t base_;
  size_t declared_size_;
};

class Parser {
 public:
  Parser(std::span<const uint8_t> file, const std::string& source) : r_(file, source) {
    img_.source = source;
  }

  PharLapImage run() {
    read_headers();
    read_section_table();
    read_code();
    read_imports();
    read_relocations();
    find_trampolines();
    return std::move(img_);
  }

 private:
  void read_headers() {
    auto mz = r_.bytes(0, 2, "'MZ' signature");
    if (mz[0] != 'M' || mz[1] != 'Z') {
      r_.fail(0, fmt::format("expected 'MZ' signature, found '{}'", show_bytes(mz)));
    }
    const uint32_t pe = r_.u32(kLfanewOffset, "e_lfanew");
    img_.pe_offset = pe;

    auto sig = r_.bytes(pe, 4, "'PL' signature at e_lfanew");
    const bool pl = sig[0] == 'P' && sig[1] == 'L';
    const bool pe_sig = sig[0] == 'P' && sig[1] == 'E';
    if (!pl && !pe_sig) {
      r_.fail(pe, fmt::format("expected 'PL' signature at e_lfanew, found '{}'",
                              show_bytes(sig.first(2))));
    }
    if (sig[2] != 0 || sig[3] != 0) {
      r_.fail(size_t{pe} + 2, fmt::format("expected two zero bytes after the '{}' signature, "
                                          "found '{}'",
                                          pl ? "PL" : "PE", show_bytes(sig.subspan(2, 2))));
    }
    img_.signature = pl ? "PL" : "PE";

    const size_t fh = size_t{pe} + 4;
    img_.machine = r_.u16(fh + 0, "file header Machine");
    img_.number_of_sections = r_.u16(fh + 2, "file header NumberOfSections");
    img_.time_date_stamp = r_.u32(fh + 4, "file header TimeDateStamp");
    img_.size_of_optional_header = r_.u16(fh + 16, "file header SizeOfOptionalHeader");
    img_.characteristics = r_.u16(fh + 18, "file header Characteristics");

    read_optional_header(size_t{pe} + kFileHeaderSize, img_.size_of_optional_header);
  }

  void read_optional_header(size_t base, size_t declared) {
    if (declared == 0) return;
    // The whole declared header must be present, even the parts we do not interpret: the
    // section table is located after it.
    r_.require(base, declared, "optional header (SizeOfOptionalHeader)");
    OptionalHeaderReader o(r_, base, declared);
    PeOptionalHeader h;
    o.u16(0x00, h.magic, "optional header Magic");
    o.u32(0x04, h.size_of_code, "optional header SizeOfCode");
    o.u32(0x08, h.size_of_initialized_data, "optional header SizeOfInitializedData");
    o.u32(0x0C, h.size_of_uninitialized_data, "optional header SizeOfUninitializedData");
    o.u32(0x10, h.entry_point, "optional header AddressOfEntryPoint");
    o.u32(0x14, h.base_of_code, "optional header BaseOfCode");
    o.u32(0x18, h.base_of_data, "optional header BaseOfData");
    o.u32(0x1C, h.image_base, "optional header ImageBase");
    o.u32(0x20, h.section_alignment, "optional header SectionAlignment");
    o.u32(0x24, h.file_alignment, "optional header FileAlignment");
    o.u32(0x38, h.size_of_image, "optional header SizeOfImage");
    o.u32(0x3C, h.size_of_headers, "optional header SizeOfHeaders");
    o.u16(0x44, h.subsystem, "optional header Subsystem");
    o.u32(0x5C, h.number_of_rva_and_sizes, "optional header NumberOfRvaAndSizes");
    // NumberOfRvaAndSizes is untrusted: only entries that fit inside the declared header count,
    // which also bounds the vector by the 16-bit SizeOfOptionalHeader.
    const size_t room = declared > 0x60 ? (declared - 0x60) / 8 : 0;
    const size_t count = std::min<size_t>(h.number_of_rva_and_sizes, room);
    for (size_t i = 0; i < count; ++i) {
      PeOptionalHeader::DataDirectory d;
      d.rva = r_.u32(base + 0x60 + 8 * i, "data directory RVA");
      d.size = r_.u32(base + 0x64 + 8 * i, "data directory size");
      h.data_directories.push_back(d);
    }
    img_.image_base = h.image_base;
    img_.optional_header = std::move(h);
  }

  void read_section_table() {
    table_offset_ = size_t{img_.pe_offset} + kFileHeaderSize + size_t{img_.size_of_optional_header};
    const size_t n = img_.number_of_sections;
    r_.require(table_offset_, n * kSectionEntrySize, fmt::format("section table of {} entries", n));
    img_.sections.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      const size_t e = table_offset_ + i * kSectionEntrySize;
      PeSection s;
      s.name = r_.fixed_string(e, 8, "section name");
      s.virtual_size = r_.u32(e + 8, "section VirtualSize");
      s.virtual_address = r_.u32(e + 12, "section VirtualAddress");
      s.raw_size = r_.u32(e + 16, "section SizeOfRawData");
      s.raw_offset = r_.u32(e + 20, "section PointerToRawData");
      s.characteristics = r_.u32(e + 36, "section Characteristics");
      img_.sections.push_back(std::move(s));
    }
  }

  // The bytes of a section that are meaningful: the raw data is zero-padded up to the file
  // alignment, so when VirtualSize is set it is the better length (but never beyond the raw
  // data actually stored). A deviation from the seed's SizeOfRawData (assumptions.h, D1).
  static uint32_t content_size(const PeSection& s) {
    if (!assumed::kCodeLengthCappedByVirtualSize) return s.raw_size;
    return s.virtual_size > 0 ? std::min(s.virtual_size, s.raw_size) : s.raw_size;
  }

  void read_code() {
    const auto& secs = img_.sections;
    auto it =
        std::find_if(secs.begin(), secs.end(), [](const PeSection& s) { return s.raw_offset > 0; });
    if (it == secs.end()) r_.fail(table_offset_, "section table has no section with raw data");
    img_.code_section = static_cast<size_t>(it - secs.begin());
    const PeSection& code = *it;
    const uint64_t raw_end = uint64_t{code.raw_offset} + code.raw_size;
    if (raw_end > r_.size()) {
      r_.fail(code.raw_offset,
              fmt::format("CODE section raw data [0x{:x}, 0x{:x}) runs past the end of the "
                          "file (0x{:x} bytes)",
                          code.raw_offset, raw_end, r_.size()));
    }
    auto bytes = r_.bytes(code.raw_offset, content_size(code), "CODE section bytes");
    img_.code.assign(bytes.begin(), bytes.end());
    img_.code_va = code.virtual_address;
  }

  // File offset of an RVA, or nullopt when no section with raw data covers it. A section covers
  // [VirtualAddress, VirtualAddress + max(VirtualSize, SizeOfRawData)); sections without raw
  // data (.bss) exist only in memory, so nothing in them can be read from the file.
  std::optional<size_t> map_rva(uint32_t rva) const {
    for (const PeSection& s : img_.sections) {
      if (s.raw_offset == 0) continue;
      const uint32_t span = std::max(s.virtual_size, s.raw_size);
      const uint32_t delta = rva - s.virtual_address;  // wraps when rva < VA: then >= span
      if (rva >= s.virtual_address && delta < span) return size_t{s.raw_offset} + delta;
    }
    return std::nullopt;
  }

  // Like map_rva, but an unmapped RVA is an error reported at `field`, where the RVA was read.
  size_t require_rva(uint32_t rva, size_t field, std::string_view what) const {
    auto off = map_rva(rva);
    if (!off) r_.fail(field, fmt::format("{} RVA 0x{:x} maps to no section", what, rva));
    return *off;
  }

  const PeSection* section_named(std::string_view name) const {
    for (const PeSection& s : img_.sections) {
      if (s.name == name) return &s;
    }
    return nullptr;
  }

  const PeOptionalHeader::DataDirectory* directory(size_t index) const {
    if (!img_.optional_header) return nullptr;
    const auto& dirs = img_.optional_header->data_directories;
    if (index >= dirs.size() || dirs[index].rva == 0) return nullptr;
    return &dirs[index];
  }

  size_t directory_field(size_t index) const {
    return size_t{img_.pe_offset} + kFileHeaderSize + 0x60 + 8 * index;
  }

  // Names are charged against the file size: a linker writes each hint/name entry and each DLL
  // name once, so their total cannot exceed the file. Enforcing that keeps a crafted file whose
  // entries all point at one long string from costing memory quadratic in its size.
  void charge_name_bytes(size_t bytes, size_t at) {
    name_budget_used_ += bytes;
    if (name_budget_used_ > r_.size()) {
      r_.fail(at, "import names overlap one another (their total exceeds the file size)");
    }
  }

  void read_imports() {
    size_t desc;
    if (const auto* d = directory(kImportDirectory)) {
      desc = require_rva(d->rva, directory_field(kImportDirectory), "import directory");
    } else if (const PeSection* s = section_named(".idata"); s && s->raw_offset > 0) {
      desc = s->raw_offset;
    } else {
      return;  // no import table: no imports, no trampolines can bind
    }

    // FA shapes have a single descriptor (main.dll). Should a file have several, their imports
    // are concatenated in descriptor order and import_dll names the first.
    for (bool first = true;; first = false, desc += kImportDescriptorSize) {
      auto raw = r_.bytes(desc, kImportDescriptorSize, "import descriptor");
      if (std::all_of(raw.begin(), raw.end(), [](uint8_t b) { return b == 0; })) break;
      const uint32_t ilt = load_u32(raw.data() + 0x0);
      const uint32_t name_rva = load_u32(raw.data() + 0xC);
      const uint32_t iat = load_u32(raw.data() + 0x10);

      const size_t name_off = require_rva(name_rva, desc + 0xC, "import DLL name");
      std::string dll = r_.c_string(name_off, "import DLL name");
      charge_name_bytes(dll.size() + 1, name_off);
      if (first) img_.import_dll = std::move(dll);

      // The IAT holds the slots the trampolines jump through; in an unbound file it has the
      // same entries as the ILT, which serves only when there is no IAT.
      const bool use_iat = iat != 0;
      const uint32_t table_rva = use_iat ? iat : ilt;
      if (table_rva == 0) {
        r_.fail(desc,
                "expected an import address table or import lookup table RVA in the "
                "import descriptor, found neither");
      }
      const size_t table = require_rva(table_rva, desc + (use_iat ? 0x10 : 0x0),
                                       use_iat ? "import address table" : "import lookup table");
      for (size_t i = 0;; ++i) {
        const size_t entry_off = table + 4 * i;
        const uint32_t entry = r_.u32(entry_off, "import address table entry");
        if (entry == 0) break;
        if (entry & 0x80000000u) {
          r_.fail(entry_off, fmt::format("expected an import by name, found an import by "
                                         "ordinal (entry 0x{:08x})",
                                         entry));
        }
        const size_t hint_off = require_rva(entry, entry_off, "import hint/name entry");
        r_.u16(hint_off, "import hint");
        PeImport imp;
        imp.name = r_.c_string(hint_off + 2, "import name");
        charge_name_bytes(imp.name.size() + 3, hint_off);
        imp.slot_rva = table_rva + static_cast<uint32_t>(4 * i);
        imp.is_function = is_function_import(imp.name);
        img_.imports.push_back(std::move(imp));
      }
    }
  }

  void read_relocations() {
    size_t start;
    size_t size;
    if (const auto* d = directory(kBaseRelocationDirectory)) {
      if (d->size == 0) return;  // declared but empty: nothing to map
      start = require_rva(d->rva, directory_field(kBaseRelocationDirectory),
                          "base relocation directory");
      size = d->size;
    } else if (const PeSection* s = section_named(".reloc"); s && s->raw_offset > 0) {
      start = s->raw_offset;
      size = content_size(*s);
    } else {
      return;
    }
    const size_t end = start + size;

    size_t block = start;
    while (block < end) {
      if (end - block < 8) {
        // A few bytes too short for a block header are tolerated as padding if they are zero.
        auto tail = r_.bytes(block, end - block, "relocation table padding");
        if (std::all_of(tail.begin(), tail.end(), [](uint8_t b) { return b == 0; })) break;
        r_.fail(block, fmt::format("expected a relocation block header (8 bytes), but only {} "
                                   "bytes of the relocation table remain",
                                   end - block));
      }
      const uint32_t page = r_.u32(block, "relocation block page RVA");
      const uint32_t block_size = r_.u32(block + 4, "relocation block size");
      if (block_size == 0) break;
      if (block_size < 8 || (block_size & 1) != 0) {
        r_.fail(block + 4, fmt::format("expected a relocation block size that is even and at "
                                       "least 8, found {}",
                                       block_size));
      }
      if (block_size > end - block) {
        r_.fail(block + 4, fmt::format("relocation block of {} bytes runs past the end of the "
                                       "relocation table at 0x{:x}",
                                       block_size, end));
      }
      for (size_t e = block + 8; e < block + block_size; e += 2) {
        const uint16_t entry = r_.u16(e, "relocation entry");
        const uint16_t type = entry >> 12;
        if (type == kRelocPadding) continue;
        if (type != kRelocHighLow) {
          r_.fail(e, fmt::format("expected relocation type 3 (HIGHLOW) or 0 (padding), found "
                                 "type {} (entry 0x{:04x})",
                                 type, entry));
        }
        add_relocation(page + (entry & 0xFFFu), e);
      }
      block += block_size;
    }
  }

  void add_relocation(uint32_t site_rva, size_t entry_off) {
    const size_t site = require_rva(site_rva, entry_off, "relocation site");
    if (!r_.has(site, 4)) {
      r_.fail(entry_off, fmt::format("relocation site RVA 0x{:x} (file offset 0x{:x}) does not "
                                     "have 4 bytes inside the file ({} bytes long)",
                                     site_rva, site, r_.size()));
    }
    PeRelocation rel;
    rel.site_rva = site_rva;
    rel.stored_value = r_.u32(site, "relocation site value");
    const uint64_t code_size = img_.code.size();
    const uint32_t site_delta = site_rva - img_.code_va;
    if (site_delta < code_size && code_size - site_delta >= 4) rel.site_code_offset = site_delta;
    // Unsigned wrap-around makes a value below the code base land far above code_size.
    const uint32_t target_delta = rel.stored_value - (img_.image_base + img_.code_va);
    if (target_delta < code_size) rel.target_code_offset = target_delta;
    img_.relocations.push_back(rel);
  }

  // The trampolines are a run of `FF 25 t32` stubs ending exactly at the end of CODE. They are
  // found by shape rather than through relocations because USNF-era files leave the stub
  // operands unrelocated.
  void find_trampolines() {
    const auto& code = img_.code;
    std::vector<uint32_t> offsets;
    for (size_t off = code.size(); off >= kStubSize;) {
      off -= kStubSize;
      if (code[off] != 0xFF || code[off + 1] != 0x25) break;
      offsets.push_back(static_cast<uint32_t>(off));
    }
    std::reverse(offsets.begin(), offsets.end());
    img_.stub_area_offset = offsets.empty() ? static_cast<uint32_t>(code.size()) : offsets.front();

    // First import wins should a crafted file repeat a slot.
    std::unordered_map<uint32_t, size_t> by_slot;
    for (size_t i = 0; i < img_.imports.size(); ++i) by_slot.emplace(img_.imports[i].slot_rva, i);

    const size_t code_file_offset = img_.sections[img_.code_section].raw_offset;
    for (uint32_t off : offsets) {
      PeTrampoline t;
      t.code_offset = off;
      t.operand = load_u32(code.data() + off + 2);
      auto hit = by_slot.find(t.operand);
      if (hit == by_slot.end()) {
        hit = by_slot.find(t.operand - img_.image_base);
        t.operand_includes_image_base = hit != by_slot.end();
      }
      if (hit == by_slot.end()) {
        r_.fail(code_file_offset + off,
                fmt::format("trampoline t32 0x{:08x} matches no import slot", t.operand));
      }
      const PeImport& imp = img_.imports[hit->second];
      t.import_name = imp.name;
      t.is_function = imp.is_function;
      img_.trampolines.push_back(std::move(t));
    }
  }

  ByteReader r_;
  PharLapImage img_;
  size_t table_offset_ = 0;
  size_t name_budget_used_ = 0;
};

}  // namespace

bool is_function_import(std::string_view name) {
  // The only imports the shape code calls (push/push/ret into them); every other import is a
  // variable of the game that the shape reads or writes.
  static constexpr std::array<std::string_view, 6> kFunctions = {
      "do_start_interp",   "_ErrorExit",         "@HARDNumLoaded@8",
      "@HardpointAngle@4", "_InsectWingAngle@0", "_CATGUYDraw@4",
  };
  return std::find(kFunctions.begin(), kFunctions.end(), name) != kFunctions.end();
}

const PeTrampoline* PharLapImage::trampoline_at(uint32_t code_offset) const {
  auto it =
      std::lower_bound(trampolines.begin(), trampolines.end(), code_offset,
                       [](const PeTrampoline& t, uint32_t off) { return t.code_offset < off; });
  return it != trampolines.end() && it->code_offset == code_offset ? &*it : nullptr;
}

PharLapImage parse_pharlap(std::span<const uint8_t> file, const std::string& source) {
  return Parser(file, source).run();
}

}  // namespace shapevm::fa
