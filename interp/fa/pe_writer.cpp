// Writer for the Phar Lap PE container of a Fighters Anthology .SH shape. The output mirrors the
// layout of the shipped files (see pe_writer.h) so that the reader, the disassembler and the
// interpreter see generated shapes exactly as they see real ones. Nothing here depends on the
// clock or on hashing order: equal inputs give equal bytes.
#include "interp/fa/pe_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string_view>

#include "core/byte_writer.h"
#include "interp/fa/pe_layout.h"

namespace shapevm::fa {

namespace {

using namespace pe_layout;

constexpr uint32_t kFileAlignment = 0x200;
constexpr uint32_t kSectionAlignment = 0x1000;
constexpr uint32_t kSizeOfHeaders = 0x200;
constexpr uint32_t kPeOffset = 0x80;  // where e_lfanew points: right after the DOS stub
constexpr uint32_t kOptionalHeaderSize = 224;
constexpr uint32_t kCodeCharacteristics = 0xE0000020;   // code, execute, read, write
constexpr uint32_t kIdataCharacteristics = 0xC0000040;  // initialized data, read, write
constexpr uint32_t kRelocCharacteristics = 0x42000040;  // initialized data, discardable, read
constexpr std::string_view kImportDll = "main.dll";

uint64_t align_up(uint64_t v, uint64_t a) {
  return (v + a - 1) / a * a;
}

// Address space a section occupies: an empty section still gets a page so that the next
// section's VirtualAddress differs from it.
uint64_t virtual_span(uint64_t size) {
  return std::max<uint64_t>(align_up(size, kSectionAlignment), kSectionAlignment);
}

void check_name(std::string_view name, std::string_view what) {
  if (name.empty()) throw std::invalid_argument(fmt::format("{} name is empty", what));
  if (name.find('\0') != std::string_view::npos) {
    throw std::invalid_argument(fmt::format("{} name contains a NUL byte", what));
  }
}

struct Idata {
  std::vector<uint8_t> bytes;
  uint32_t iat_offset = 0;  // within the section; slot i is at iat_offset + 4*i
};

// The import section: descriptor for main.dll plus the terminating zero descriptor, the import
// lookup table, the import address table (the same entries: the file is unbound), the hint/name
// entries and the DLL name. `va` is needed because every pointer inside is an RVA.
Idata build_idata(const std::vector<std::string>& imports, uint32_t va) {
  const uint32_t n = static_cast<uint32_t>(imports.size());
  const uint32_t ilt = 2 * kImportDescriptorSize;
  const uint32_t iat = ilt + 4 * (n + 1);
  const uint32_t names = iat + 4 * (n + 1);

  std::vector<uint32_t> hint_name_offsets;
  uint32_t cursor = names;
  for (const auto& name : imports) {
    hint_name_offsets.push_back(cursor);
    cursor += static_cast<uint32_t>(align_up(2 + name.size() + 1, 2));
  }
  const uint32_t dll = cursor;

  Idata out;
  out.iat_offset = iat;
  out.bytes.assign(dll + kImportDll.size() + 1, 0);
  put_u32(out.bytes, 0x0, va + ilt);
  put_u32(out.bytes, 0xC, va + dll);
  put_u32(out.bytes, 0x10, va + iat);
  for (uint32_t i = 0; i < n; ++i) {
    put_u32(out.bytes, ilt + 4 * i, va + hint_name_offsets[i]);
    put_u32(out.bytes, iat + 4 * i, va + hint_name_offsets[i]);
    // Hint 0: the loader (the game's own) resolves by name.
    std::copy(imports[i].begin(), imports[i].end(), out.bytes.begin() + hint_name_offsets[i] + 2);
  }
  std::copy(kImportDll.begin(), kImportDll.end(), out.bytes.begin() + dll);
  return out;
}

// HIGHLOW base relocations for the given RVAs, one block per 4 KiB page. Each block is padded
// with a type-0 entry so the next block header stays 4-byte aligned.
std::vector<uint8_t> build_reloc(std::vector<uint32_t> rvas) {
  std::sort(rvas.begin(), rvas.end());
  std::vector<uint8_t> out;
  for (size_t i = 0; i < rvas.size();) {
    const uint32_t page = rvas[i] & ~0xFFFu;
    size_t j = i;
    while (j < rvas.size() && (rvas[j] & ~0xFFFu) == page) ++j;
    const size_t entries = align_up(j - i, 2);
    append_u32(out, page);
    append_u32(out, static_cast<uint32_t>(8 + 2 * entries));
    for (size_t k = i; k < j; ++k)
      append_u16(out, static_cast<uint16_t>(0x3000 | (rvas[k] & 0xFFF)));
    if (entries != j - i) append_u16(out, 0);
    i = j;
  }
  return out;
}

struct SectionPlan {
  std::string name;
  uint32_t characteristics = 0;
  uint32_t va = 0;
  const std::vector<uint8_t>* content = nullptr;
  uint32_t raw_size = 0;
  uint32_t raw_offset = 0;
};

}  // namespace

std::vector<uint8_t> build_pharlap(const ImageBuildInput& input) {
  const ImageLayout& layout = input.layout;

  // --- Validate everything before laying anything out.
  check_name(layout.code_section_name, "code section");
  if (layout.code_section_name.size() > 8) {
    throw std::invalid_argument(fmt::format("code section name '{}' is longer than 8 characters",
                                            layout.code_section_name));
  }
  // The headers occupy the first page, so CODE cannot start there.
  if (layout.code_va == 0 || layout.code_va % kSectionAlignment != 0) {
    throw std::invalid_argument(fmt::format("code_va 0x{:x} must be a non-zero multiple of 0x{:x}",
                                            layout.code_va, kSectionAlignment));
  }
  std::map<std::string, uint32_t, std::less<>> import_index;
  for (size_t i = 0; i < input.imports.size(); ++i) {
    check_name(input.imports[i], "import");
    if (!import_index.emplace(input.imports[i], static_cast<uint32_t>(i)).second) {
      throw std::invalid_argument(fmt::format("duplicate import '{}'", input.imports[i]));
    }
  }
  for (const auto& stub : input.stubs) {
    if (!import_index.contains(stub)) {
      throw std::invalid_argument(fmt::format("stub names '{}', which is not an import", stub));
    }
  }
  const uint64_t body_size = input.code_body.size();
  const uint64_t code_size64 = body_size + uint64_t{kStubSize} * input.stubs.size();
  if (code_size64 > 0x7FFFFFFF) throw std::invalid_argument("CODE is too large for a PE image");
  const uint32_t code_size = static_cast<uint32_t>(code_size64);

  std::vector<CodeFixup> fixups = input.fixups;
  std::sort(fixups.begin(), fixups.end(),
            [](const CodeFixup& a, const CodeFixup& b) { return a.site < b.site; });
  for (size_t i = 0; i < fixups.size(); ++i) {
    const CodeFixup& f = fixups[i];
    // The stub operands are the import slots; a fixup there would overwrite them.
    if (uint64_t{f.site} + 4 > body_size) {
      throw std::invalid_argument(fmt::format(
          "fixup site 0x{:x} does not lie within the code body (0x{:x} bytes, stubs excluded)",
          f.site, body_size));
    }
    if (!f.raw && f.target >= code_size) {
      throw std::invalid_argument(
          fmt::format("fixup at 0x{:x} targets 0x{:x}, outside CODE (0x{:x} bytes)", f.site,
                      f.target, code_size));
    }
    if (i > 0 && fixups[i - 1].site + 4 > f.site) {
      throw std::invalid_argument(
          fmt::format("fixups at 0x{:x} and 0x{:x} overlap", fixups[i - 1].site, f.site));
    }
  }

  // --- Virtual layout: CODE, then .idata and .reloc on the following pages.
  const uint64_t idata_va64 = uint64_t{layout.code_va} + virtual_span(code_size);
  if (idata_va64 > 0xFFFFFFFF) throw std::invalid_argument("image does not fit in 32 bits");
  const uint32_t idata_va = static_cast<uint32_t>(idata_va64);
  Idata idata = build_idata(input.imports, idata_va);
  const uint64_t reloc_va64 = idata_va64 + virtual_span(idata.bytes.size());

  // --- CODE: body, stubs, then the fixed-up pointers.
  std::vector<uint8_t> code(input.code_body);
  code.reserve(code_size);
  std::vector<uint32_t> reloc_rvas;
  for (size_t k = 0; k < input.stubs.size(); ++k) {
    const uint32_t slot =
        idata_va + idata.iat_offset + 4 * import_index.find(input.stubs[k])->second;
    const uint32_t operand =
        layout.stub_operands_include_image_base ? slot + layout.image_base : slot;
    const uint32_t at = static_cast<uint32_t>(code.size());
    code.push_back(0xFF);
    code.push_back(0x25);
    append_u32(code, operand);
    if (layout.relocate_stub_operands) reloc_rvas.push_back(layout.code_va + at + 2);
  }
  for (const CodeFixup& f : fixups) {
    if (!f.raw) put_u32(code, f.site, layout.image_base + layout.code_va + f.target);
    reloc_rvas.push_back(layout.code_va + f.site);
  }
  std::vector<uint8_t> reloc = build_reloc(std::move(reloc_rvas));

  const uint64_t size_of_image = reloc_va64 + virtual_span(reloc.size());
  if (uint64_t{layout.image_base} + size_of_image > 0x100000000ull) {
    throw std::invalid_argument(
        fmt::format("image of 0x{:x} bytes at ImageBase 0x{:x} does not "
                    "fit in 32 bits",
                    size_of_image, layout.image_base));
  }
  const uint32_t reloc_va = static_cast<uint32_t>(reloc_va64);

  // --- File layout: raw data packed one after another from the end of the headers.
  std::vector<SectionPlan> plan = {
      {layout.code_section_name, kCodeCharacteristics, layout.code_va, &code},
      {".idata", kIdataCharacteristics, idata_va, &idata.bytes},
      {".reloc", kRelocCharacteristics, reloc_va, &reloc},
  };
  uint32_t file_cursor = kSizeOfHeaders;
  for (size_t i = 0; i < plan.size(); ++i) {
    SectionPlan& s = plan[i];
    s.raw_size = static_cast<uint32_t>(align_up(s.content->size(), kFileAlignment));
    // CODE always gets a file position, even when empty, because the reader identifies it as
    // the first section with one; an empty data section has none, as a linker would write it.
    s.raw_offset = (s.raw_size > 0 || i == 0) ? file_cursor : 0;
    file_cursor += s.raw_size;
  }
  std::vector<uint8_t> out(file_cursor, 0);

  // DOS header: enough for the file to be a valid MZ executable whose real-mode stub simply
  // exits with code 1 (mov ax,4C01h; int 21h) if run under DOS.
  out[0] = 'M';
  out[1] = 'Z';
  put_u16(out, 0x02, kPeOffset);  // bytes used in the last 512-byte page of the DOS image
  put_u16(out, 0x04, 1);          // pages in the DOS image
  put_u16(out, 0x08, 4);          // header size in paragraphs (0x40 bytes)
  put_u16(out, 0x0A, 0x10);       // extra paragraphs for the stub's stack
  put_u16(out, 0x0C, 0xFFFF);
  put_u16(out, 0x10, 0x140);  // SP: top of load module (0x40) plus the 0x100 extra bytes
  put_u16(out, 0x18, 0x40);   // relocation table offset (empty)
  put_u32(out, 0x3C, kPeOffset);
  const uint8_t stub[] = {0xB8, 0x01, 0x4C, 0xCD, 0x21};
  std::copy(std::begin(stub), std::end(stub), out.begin() + 0x40);

  // "PL" signature and COFF file header.
  const size_t pe = kPeOffset;
  out[pe] = 'P';
  out[pe + 1] = 'L';
  put_u16(out, pe + 4, 0x014C);  // i386
  put_u16(out, pe + 6, static_cast<uint16_t>(plan.size()));
  put_u16(out, pe + 20, kOptionalHeaderSize);
  put_u16(out, pe + 22, 0xA18E);

  // Optional header; fields not set here stay zero, as in the shipped files.
  const size_t o = pe + 24;
  put_u16(out, o + 0x00, 0x10B);
  put_u32(out, o + 0x04, plan[0].raw_size);
  put_u32(out, o + 0x08, plan[1].raw_size + plan[2].raw_size);
  put_u32(out, o + 0x14, layout.code_va);
  put_u32(out, o + 0x1C, layout.image_base);
  put_u32(out, o + 0x20, kSectionAlignment);
  put_u32(out, o + 0x24, kFileAlignment);
  put_u32(out, o + 0x38, static_cast<uint32_t>(size_of_image));
  put_u32(out, o + 0x3C, kSizeOfHeaders);
  put_u16(out, o + 0x44, 0x42);
  put_u32(out, o + 0x5C, 16);
  put_u32(out, o + 0x60 + 8 * 1, idata_va);
  put_u32(out, o + 0x64 + 8 * 1, static_cast<uint32_t>(idata.bytes.size()));
  put_u32(out, o + 0x60 + 8 * 5, reloc_va);
  put_u32(out, o + 0x64 + 8 * 5, static_cast<uint32_t>(reloc.size()));

  size_t entry = o + kOptionalHeaderSize;
  static_assert(kPeOffset + 24 + kOptionalHeaderSize + 3 * kSectionEntrySize <= kSizeOfHeaders);
  for (const SectionPlan& s : plan) {
    std::copy(s.name.begin(), s.name.end(), out.begin() + entry);
    put_u32(out, entry + 8, static_cast<uint32_t>(s.content->size()));
    put_u32(out, entry + 12, s.va);
    put_u32(out, entry + 16, s.raw_size);
    put_u32(out, entry + 20, s.raw_offset);
    put_u32(out, entry + 36, s.characteristics);
    std::copy(s.content->begin(), s.content->end(), out.begin() + s.raw_offset);
    entry += kSectionEntrySize;
  }
  return out;
}

}  // namespace shapevm::fa
