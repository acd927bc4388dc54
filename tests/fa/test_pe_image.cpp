// The Phar Lap PE container: build_pharlap output read back by parse_pharlap, the older-game
// variants, hand-patched files for the reading rules, and every error path the reader reports.
// FA-01: 'MZ' signature, e_lfanew at 0x3C, the "PL" header, the section table at
//        pe + 24 + SizeOfOptionalHeader.
// FA-02: CODE is the first section with PointerToRawData > 0, which is its file offset.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/byte_writer.h"
#include "core/input_error.h"
#include "interp/fa/pe_image.h"
#include "interp/fa/pe_writer.h"

namespace fa_pe_image_tests {

namespace {

using shapevm::InputError;
using shapevm::put_u16;
using shapevm::put_u32;
using shapevm::fa::build_pharlap;
using shapevm::fa::CodeFixup;
using shapevm::fa::ImageBuildInput;
using shapevm::fa::parse_pharlap;
using shapevm::fa::PharLapImage;

using Bytes = std::vector<uint8_t>;

// Where the writer puts things; the reader is checked against these independently.
constexpr size_t kPe = 0x80;
constexpr size_t kOpt = kPe + 24;
constexpr size_t kTable = kOpt + 224;
constexpr size_t kImportDirField = kOpt + 0x68;

uint32_t get32(const Bytes& b, size_t off) {
  return uint32_t{b[off]} | uint32_t{b[off + 1]} << 8 | uint32_t{b[off + 2]} << 16 |
         uint32_t{b[off + 3]} << 24;
}
uint16_t get16(const Bytes& b, size_t off) {
  return static_cast<uint16_t>(b[off] | b[off + 1] << 8);
}

// A small shape: a NOP body holding two relocated pointers (one at a stub), four imports of
// which two are functions, and stubs for the functions plus one data import.
ImageBuildInput sample_input() {
  ImageBuildInput in;
  in.code_body.assign(100, 0x90);
  in.imports = {"do_start_interp", "_PLgearDown", "_ErrorExit", "_PLslots"};
  in.stubs = {"do_start_interp", "_ErrorExit", "_PLslots"};
  in.fixups = {{4, 0x20}, {40, 100 + 6}};  // the second points at stub 1 (_ErrorExit)
  return in;
}

size_t rva_to_file(const PharLapImage& img, uint32_t rva) {
  for (const auto& s : img.sections) {
    if (s.raw_offset != 0 && rva >= s.virtual_address &&
        rva - s.virtual_address < std::max(s.virtual_size, s.raw_size)) {
      return s.raw_offset + (rva - s.virtual_address);
    }
  }
  FAIL("rva " << rva << " maps nowhere");
  return 0;
}

// Parses `file` expecting an InputError at `offset` whose message contains `fragment`.
void check_error(const Bytes& file, uint64_t offset, const std::string& fragment) {
  try {
    parse_pharlap(file, "T.SH");
    FAIL("parse succeeded; expected an error containing: " << fragment);
  } catch (const InputError& e) {
    INFO("message: " << e.what());
    CHECK(e.source() == "T.SH");
    CHECK(e.has_offset());
    CHECK(e.offset() == offset);
    CHECK(std::string(e.what()).find(fragment) != std::string::npos);
  }
}

// Parses anything: success and InputError are both fine, any other outcome is a failure (and
// memory errors are caught by the sanitizers).
void parse_must_not_crash(const Bytes& file) {
  try {
    parse_pharlap(file, "F.SH");
  } catch (const InputError&) {
  }
}

}  // namespace

TEST_CASE("is_function_import knows exactly the six function imports") {
  using shapevm::fa::is_function_import;
  for (const char* f : {"do_start_interp", "_ErrorExit", "@HARDNumLoaded@8", "@HardpointAngle@4",
                        "_InsectWingAngle@0", "_CATGUYDraw@4"}) {
    CHECK(is_function_import(f));
  }
  for (const char* d : {"_PLgearDown", "_PLslots", "", "do_start_interp2", "_errorexit"}) {
    CHECK_FALSE(is_function_import(d));
  }
}

TEST_CASE("FA-01/FA-02: build_pharlap writes the shipped header layout") {
  const Bytes file = build_pharlap(sample_input());
  REQUIRE(file.size() == 0x800);  // headers + three 0x200-byte sections
  CHECK(file[0] == 'M');
  CHECK(file[1] == 'Z');
  CHECK(get32(file, 0x3C) == kPe);
  CHECK(file[kPe] == 'P');
  CHECK(file[kPe + 1] == 'L');
  CHECK(get16(file, kPe + 2) == 0);
  CHECK(get16(file, kPe + 4) == 0x014C);
  CHECK(get16(file, kPe + 6) == 3);
  CHECK(get32(file, kPe + 8) == 0);  // TimeDateStamp: keeps output deterministic
  CHECK(get16(file, kPe + 20) == 224);
  CHECK(get16(file, kPe + 22) == 0xA18E);
  // Raw data consecutive from 0x200, each padded to 0x200 with zeros.
  CHECK(get32(file, kTable + 20) == 0x200);
  CHECK(get32(file, kTable + 40 + 20) == 0x400);
  CHECK(get32(file, kTable + 80 + 20) == 0x600);
  const uint32_t code_size = 100 + 3 * 6;
  CHECK(get32(file, kTable + 8) == code_size);
  CHECK(std::all_of(file.begin() + 0x200 + code_size, file.begin() + 0x400,
                    [](uint8_t b) { return b == 0; }));
}

TEST_CASE("FA-01/FA-02: build then parse round-trips code, imports, relocations, trampolines") {
  const ImageBuildInput in = sample_input();
  const Bytes file = build_pharlap(in);
  const PharLapImage img = parse_pharlap(file, "RT.SH");

  CHECK(img.source == "RT.SH");
  CHECK(img.pe_offset == kPe);
  CHECK(img.signature == "PL");
  CHECK(img.machine == 0x014C);
  CHECK(img.number_of_sections == 3);
  CHECK(img.size_of_optional_header == 224);
  CHECK(img.characteristics == 0xA18E);

  // Sections: names, characteristics, alignment.
  REQUIRE(img.sections.size() == 3);
  CHECK(img.sections[0].name == "CODE");
  CHECK(img.sections[0].characteristics == 0xE0000020);
  CHECK(img.sections[1].name == ".idata");
  CHECK(img.sections[1].characteristics == 0xC0000040);
  CHECK(img.sections[2].name == ".reloc");
  CHECK(img.sections[2].characteristics == 0x42000040);
  CHECK(img.sections[0].virtual_address == 0x1000);
  CHECK(img.sections[1].virtual_address == 0x2000);
  CHECK(img.sections[2].virtual_address == 0x3000);
  for (const auto& s : img.sections) CHECK(s.raw_size % 0x200 == 0);

  // FA-02: CODE is section 0 and its bytes come from PointerToRawData.
  CHECK(img.code_section == 0);
  CHECK(img.code_va == 0x1000);
  CHECK(img.image_base == 0);
  REQUIRE(img.code.size() == 100 + 18);
  CHECK(std::equal(img.code.begin(), img.code.end(), file.begin() + 0x200));
  CHECK(img.code[0] == 0x90);
  CHECK(img.code_pointer(0x20) == 0x1020);

  // Optional header.
  REQUIRE(img.optional_header.has_value());
  const auto& oh = *img.optional_header;
  CHECK(oh.magic == 0x10B);
  CHECK(oh.size_of_code == 0x200);
  CHECK(oh.size_of_initialized_data == 0x400);
  CHECK(oh.size_of_uninitialized_data == 0);
  CHECK(oh.entry_point == 0);
  CHECK(oh.base_of_code == 0x1000);
  CHECK(oh.base_of_data == 0);
  CHECK(oh.image_base == 0);
  CHECK(oh.section_alignment == 0x1000);
  CHECK(oh.file_alignment == 0x200);
  CHECK(oh.size_of_image == 0x4000);
  CHECK(oh.size_of_headers == 0x200);
  CHECK(oh.subsystem == 0x42);
  CHECK(oh.number_of_rva_and_sizes == 16);
  REQUIRE(oh.data_directories.size() == 16);
  CHECK(oh.data_directories[1].rva == 0x2000);
  CHECK(oh.data_directories[1].size == img.sections[1].virtual_size);
  CHECK(oh.data_directories[5].rva == 0x3000);
  CHECK(oh.data_directories[5].size == img.sections[2].virtual_size);
  for (size_t i : {0, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}) {
    CHECK(oh.data_directories[i].rva == 0);
    CHECK(oh.data_directories[i].size == 0);
  }

  // Imports in .idata order, slots consecutive in the IAT.
  CHECK(img.import_dll == "main.dll");
  REQUIRE(img.imports.size() == 4);
  for (size_t i = 0; i < 4; ++i) {
    CHECK(img.imports[i].name == in.imports[i]);
    CHECK(img.imports[i].slot_rva == img.imports[0].slot_rva + 4 * i);
  }
  CHECK(img.imports[0].is_function);
  CHECK_FALSE(img.imports[1].is_function);
  CHECK(img.imports[2].is_function);
  CHECK_FALSE(img.imports[3].is_function);
  CHECK(img.imports[0].slot_rva >= 0x2000);
  CHECK(img.imports[0].slot_rva < 0x3000);

  // Trampolines: three stubs at the end, bound to their names on the unrelocated operand.
  CHECK(img.stub_area_offset == 100);
  REQUIRE(img.trampolines.size() == 3);
  const char* names[] = {"do_start_interp", "_ErrorExit", "_PLslots"};
  const size_t slot_of[] = {0, 2, 3};
  for (size_t k = 0; k < 3; ++k) {
    const auto& t = img.trampolines[k];
    CHECK(t.code_offset == 100 + 6 * k);
    CHECK(t.import_name == names[k]);
    CHECK(t.operand == img.imports[slot_of[k]].slot_rva);
    CHECK_FALSE(t.operand_includes_image_base);
    CHECK(t.is_function == (k != 2));
    CHECK(img.trampoline_at(static_cast<uint32_t>(100 + 6 * k)) == &t);
  }
  CHECK(img.trampoline_at(0) == nullptr);
  CHECK(img.trampoline_at(101) == nullptr);
  CHECK(img.trampoline_at(200) == nullptr);

  // Relocations: the two fixups and the three stub operands, ascending by site.
  REQUIRE(img.relocations.size() == 5);
  std::vector<uint32_t> sites;
  for (const auto& r : img.relocations) {
    REQUIRE(r.site_code_offset.has_value());
    sites.push_back(*r.site_code_offset);
    CHECK(r.site_rva == 0x1000 + *r.site_code_offset);
  }
  const std::vector<uint32_t> expected_sites = {4, 40, 102, 108, 114};
  CHECK(sites == expected_sites);
  CHECK(img.relocations[0].stored_value == 0x1020);
  CHECK(img.relocations[0].target_code_offset == 0x20u);
  CHECK(img.relocations[1].target_code_offset == 106u);
  CHECK(img.trampoline_at(*img.relocations[1].target_code_offset)->import_name == "_ErrorExit");
  // A stub operand holds an IAT slot RVA, which is not a pointer into CODE.
  CHECK(img.relocations[2].stored_value == img.imports[0].slot_rva);
  CHECK_FALSE(img.relocations[2].target_code_offset.has_value());
}

TEST_CASE("build_pharlap is deterministic and independent of fixup order") {
  ImageBuildInput a = sample_input();
  ImageBuildInput b = sample_input();
  std::reverse(b.fixups.begin(), b.fixups.end());
  CHECK(build_pharlap(a) == build_pharlap(a));
  CHECK(build_pharlap(a) == build_pharlap(b));
}

TEST_CASE("relocation blocks are split per 4 KiB page and padded to 4 bytes") {
  ImageBuildInput in;
  in.code_body.assign(0x1800, 0x90);
  in.imports = {"_PLslots"};
  in.fixups = {{0x10, 0}, {0xFF0, 0x1000}, {0x1004, 0x10}};
  const Bytes file = build_pharlap(in);
  const PharLapImage img = parse_pharlap(file, "P.SH");
  const auto& reloc = img.sections[2];
  const size_t r = reloc.raw_offset;
  // Page 0x1000: two entries (8 + 4 bytes); page 0x2000: one entry plus a padding entry.
  CHECK(get32(file, r) == 0x1000);
  CHECK(get32(file, r + 4) == 12);
  CHECK(get32(file, r + 12) == 0x2000);
  CHECK(get32(file, r + 16) == 12);
  CHECK(get16(file, r + 22) == 0);
  CHECK(reloc.virtual_size == 24);
  REQUIRE(img.relocations.size() == 3);
  CHECK(img.relocations[1].site_code_offset == 0xFF0u);
  CHECK(img.relocations[1].target_code_offset == 0x1000u);
  CHECK(img.relocations[2].site_code_offset == 0x1004u);
  CHECK(img.trampolines.empty());
  CHECK(img.stub_area_offset == 0x1800);
  // CODE spans two pages, so .idata starts at 0x3000.
  CHECK(img.sections[1].virtual_address == 0x3000);
}

TEST_CASE("a shape without relocations or stubs still parses") {
  ImageBuildInput in;
  in.code_body = {0xC3};
  in.imports = {"_PLslots"};
  const Bytes file = build_pharlap(in);
  const PharLapImage img = parse_pharlap(file, "E.SH");
  CHECK(img.code == Bytes{0xC3});
  CHECK(img.relocations.empty());
  CHECK(img.trampolines.empty());
  CHECK(img.stub_area_offset == 1);
  CHECK(img.sections[2].raw_offset == 0);
  REQUIRE(img.imports.size() == 1);
  CHECK(img.imports[0].name == "_PLslots");
}

TEST_CASE("ImageBase 0x10000 variant: pointers include ImageBase, stubs hold slot RVAs") {
  ImageBuildInput in = sample_input();
  in.layout.image_base = 0x10000;
  const Bytes file = build_pharlap(in);
  const PharLapImage img = parse_pharlap(file, "I.SH");
  CHECK(img.image_base == 0x10000);
  CHECK(img.optional_header->image_base == 0x10000);
  CHECK(img.code_pointer(0x20) == 0x11020);
  REQUIRE(img.relocations.size() == 5);
  CHECK(img.relocations[0].stored_value == 0x11020);
  CHECK(img.relocations[0].target_code_offset == 0x20u);
  CHECK(img.relocations[1].target_code_offset == 106u);
  REQUIRE(img.trampolines.size() == 3);
  for (const auto& t : img.trampolines) CHECK_FALSE(t.operand_includes_image_base);
  CHECK(img.trampolines[1].import_name == "_ErrorExit");
}

TEST_CASE("USNF variant: stub operands include ImageBase, are not relocated, still bind") {
  ImageBuildInput in = sample_input();
  in.layout.image_base = 0x10000;
  in.layout.stub_operands_include_image_base = true;
  in.layout.relocate_stub_operands = false;
  in.layout.code_section_name = ".text";
  const Bytes file = build_pharlap(in);
  const PharLapImage img = parse_pharlap(file, "U.SH");
  CHECK(img.sections[0].name == ".text");
  CHECK(img.code_section == 0);
  REQUIRE(img.trampolines.size() == 3);
  const size_t slot_of[] = {0, 2, 3};
  for (size_t k = 0; k < 3; ++k) {
    const auto& t = img.trampolines[k];
    CHECK(t.operand_includes_image_base);
    CHECK(t.operand == img.imports[slot_of[k]].slot_rva + 0x10000);
    CHECK(t.import_name == img.imports[slot_of[k]].name);
  }
  CHECK(img.stub_area_offset == 100);
  // Only the two body fixups are relocated: the stub block is absent from .reloc.
  REQUIRE(img.relocations.size() == 2);
  CHECK(img.relocations[0].site_code_offset == 4u);
  CHECK(img.relocations[1].site_code_offset == 40u);
}

TEST_CASE("FA-02: a first section without raw data (.bss) is skipped; CODE is the next one") {
  const Bytes built = build_pharlap(sample_input());
  const PharLapImage expect = parse_pharlap(built, "B.SH");
  // Make room for a fourth section entry by moving the PL header from 0x80 to 0x40 (over the
  // DOS stub): 0x40 + 24 + 224 + 4*40 = 0x1d8 still fits before the raw data at 0x200.
  Bytes f = built;
  std::fill(f.begin() + 0x40, f.begin() + 0x200, 0);
  put_u32(f, 0x3C, 0x40);
  std::copy(built.begin() + kPe, built.begin() + kTable, f.begin() + 0x40);
  put_u16(f, 0x40 + 6, 4);
  const size_t table = 0x40 + 24 + 224;
  const char bss[] = ".bss";
  std::copy(bss, bss + 4, f.begin() + table);
  put_u32(f, table + 8, 0x1000);   // VirtualSize
  put_u32(f, table + 12, 0x4000);  // VirtualAddress, after .reloc
  put_u32(f, table + 36, 0xC0000080);
  std::copy(built.begin() + kTable, built.begin() + kTable + 120, f.begin() + table + 40);

  const PharLapImage img = parse_pharlap(f, "B.SH");
  CHECK(img.pe_offset == 0x40);
  REQUIRE(img.sections.size() == 4);
  CHECK(img.sections[0].name == ".bss");
  CHECK(img.code_section == 1);
  CHECK(img.sections[1].raw_offset == 0x200);
  CHECK(img.code == expect.code);
  CHECK(img.imports.size() == expect.imports.size());
  CHECK(img.relocations.size() == expect.relocations.size());
  CHECK(img.trampolines.size() == expect.trampolines.size());

  // .bss has no bytes in the file, so an RVA inside it maps to nothing (rather than to the
  // headers at PointerToRawData 0).
  Bytes g = f;
  const size_t iat0 = rva_to_file(img, img.imports[0].slot_rva);
  put_u32(g, iat0, 0x4010);
  check_error(g, iat0, "import hint/name entry RVA 0x4010 maps to no section");
}

TEST_CASE("FA-01: a 'PE' signature is accepted like 'PL'") {
  Bytes f = build_pharlap(sample_input());
  f[kPe + 1] = 'E';
  const PharLapImage img = parse_pharlap(f, "PE.SH");
  CHECK(img.signature == "PE");
  CHECK(img.trampolines.size() == 3);
}

TEST_CASE("FA-01: without an optional header, .idata and .reloc are found by section name") {
  const Bytes built = build_pharlap(sample_input());
  // SizeOfOptionalHeader 0 moves the section table to pe + 24.
  Bytes f = built;
  put_u16(f, kPe + 20, 0);
  std::fill(f.begin() + kOpt, f.begin() + 0x200, 0);
  std::copy(built.begin() + kTable, built.begin() + kTable + 120, f.begin() + kOpt);
  const PharLapImage img = parse_pharlap(f, "N.SH");
  CHECK_FALSE(img.optional_header.has_value());
  CHECK(img.image_base == 0);
  CHECK(img.imports.size() == 4);
  CHECK(img.relocations.size() == 5);
  CHECK(img.trampolines.size() == 3);
}

TEST_CASE("CODE length is VirtualSize when set, else SizeOfRawData") {
  Bytes f = build_pharlap(sample_input());
  CHECK(parse_pharlap(f, "L.SH").code.size() == 118);
  put_u32(f, kTable + 8, 0);  // VirtualSize 0: the padded raw size is all there is
  const PharLapImage img = parse_pharlap(f, "L.SH");
  CHECK(img.code.size() == 0x200);
  // The scan starts in the zero padding, so no stubs are seen.
  CHECK(img.trampolines.empty());
  CHECK(img.stub_area_offset == 0x200);
  put_u32(f, kTable + 8, 0x300);  // larger than the raw data: capped by it
  CHECK(parse_pharlap(f, "L.SH").code.size() == 0x200);
}

TEST_CASE("build_pharlap rejects inconsistent input") {
  auto bad = [](auto mutate) {
    ImageBuildInput in = sample_input();
    mutate(in);
    CHECK_THROWS_AS(build_pharlap(in), std::invalid_argument);
  };
  bad([](ImageBuildInput& in) { in.stubs.push_back("_Nope"); });
  bad([](ImageBuildInput& in) { in.imports.push_back("_PLslots"); });
  bad([](ImageBuildInput& in) { in.imports.push_back(""); });
  bad([](ImageBuildInput& in) { in.fixups.push_back({98, 0}); });    // overlaps stub 0
  bad([](ImageBuildInput& in) { in.fixups.push_back({100, 0}); });   // inside the stubs
  bad([](ImageBuildInput& in) { in.fixups.push_back({60, 118}); });  // target past CODE
  bad([](ImageBuildInput& in) { in.fixups.push_back({6, 0}); });     // overlaps the one at 4
  bad([](ImageBuildInput& in) { in.fixups.push_back({0xFFFFFFFE, 0}); });
  bad([](ImageBuildInput& in) { in.layout.code_va = 0x1800; });
  bad([](ImageBuildInput& in) { in.layout.code_va = 0; });
  bad([](ImageBuildInput& in) { in.layout.code_section_name = "TOOLONGNAME"; });
  bad([](ImageBuildInput& in) { in.layout.image_base = 0xFFFFF000; });
  // The last valid positions are accepted.
  ImageBuildInput ok = sample_input();
  ok.fixups.push_back({96, 117});
  CHECK_NOTHROW(build_pharlap(ok));
}

TEST_CASE("errors: empty file and short DOS header name the offset and expectation") {
  CHECK_THROWS_WITH_AS(
      parse_pharlap({}, "A10.SH"),
      "A10.SH: offset 0x0: expected 'MZ' signature (2 bytes), but the input is 0 bytes long",
      InputError);
  Bytes f(50, 0);
  f[0] = 'M';
  f[1] = 'Z';
  CHECK_THROWS_WITH_AS(
      parse_pharlap(f, "A10.SH"),
      "A10.SH: offset 0x3c: expected e_lfanew (4 bytes), but the input is 50 bytes long",
      InputError);
}

TEST_CASE("errors: FA-01 header checks") {
  const Bytes good = build_pharlap(sample_input());
  {
    Bytes f = good;
    f[0] = 'Z';
    check_error(f, 0, "expected 'MZ' signature, found 'ZZ'");
  }
  {
    Bytes f = good;
    put_u32(f, 0x3C, 0x10000);
    check_error(f, 0x10000,
                "expected 'PL' signature at e_lfanew (4 bytes), but the input is 2048 bytes long");
  }
  {
    Bytes f = good;
    f[kPe] = 'X';
    f[kPe + 1] = 'Y';
    check_error(f, kPe, "expected 'PL' signature at e_lfanew, found 'XY'");
  }
  {
    Bytes f = good;
    f[kPe + 3] = 1;
    check_error(f, kPe + 2, "expected two zero bytes after the 'PL' signature");
  }
  {
    Bytes f(good.begin(), good.begin() + 0x1E0);
    check_error(f, kTable, "expected section table of 3 entries (120 bytes), but the input is 480");
  }
  {
    Bytes f(good.begin(), good.begin() + 0x100);
    check_error(f, kOpt, "expected optional header (SizeOfOptionalHeader) (224 bytes)");
  }
}

TEST_CASE("errors: FA-02 CODE section") {
  const Bytes good = build_pharlap(sample_input());
  {
    Bytes f = good;
    for (size_t i = 0; i < 3; ++i) put_u32(f, kTable + 40 * i + 20, 0);
    check_error(f, kTable, "section table has no section with raw data");
  }
  {
    Bytes f = good;
    put_u32(f, kTable + 16, 0x100000);
    check_error(f, 0x200,
                "CODE section raw data [0x200, 0x100200) runs past the end of the file "
                "(0x800 bytes)");
  }
  {
    Bytes f = good;
    put_u32(f, kTable + 20, 0xFFFFFFFF);  // PointerToRawData near 4 GiB must not wrap
    check_error(f, 0xFFFFFFFF, "runs past the end of the file");
  }
}

TEST_CASE("errors: imports") {
  const Bytes good = build_pharlap(sample_input());
  const PharLapImage img = parse_pharlap(good, "T.SH");
  const size_t iat0 = rva_to_file(img, img.imports[0].slot_rva);
  {
    Bytes f = good;
    put_u32(f, kImportDirField, 0x900000);
    check_error(f, kImportDirField, "import directory RVA 0x900000 maps to no section");
  }
  {
    // Point the first import at the tail of .reloc, fill the rest of the file with 'A's: its
    // name then has no terminating NUL before the end of the file.
    Bytes f = good;
    const auto& reloc = img.sections[2];
    REQUIRE(reloc.virtual_size % 0x200 != 0);
    const size_t tail = reloc.raw_offset + reloc.virtual_size;
    std::fill(f.begin() + tail, f.end(), 'A');
    put_u32(f, iat0, reloc.virtual_address + reloc.virtual_size);
    check_error(f, tail + 2, "expected import name terminated by a NUL byte");
  }
  {
    Bytes f = good;
    put_u32(f, iat0 + 4, 0x80000007);
    check_error(f, iat0 + 4, "found an import by ordinal (entry 0x80000007)");
  }
  {
    Bytes f = good;
    put_u32(f, iat0, 0x7000);
    check_error(f, iat0, "import hint/name entry RVA 0x7000 maps to no section");
  }
}

TEST_CASE("errors: relocations") {
  const Bytes good = build_pharlap(sample_input());
  const PharLapImage img = parse_pharlap(good, "T.SH");
  const auto& reloc = img.sections[2];
  const size_t r = reloc.raw_offset;
  {
    Bytes f = good;
    put_u32(f, r + 4, 4);
    check_error(f, r + 4, "expected a relocation block size that is even and at least 8, found 4");
  }
  {
    Bytes f = good;
    put_u32(f, r + 4, 13);
    check_error(f, r + 4, "found 13");
  }
  {
    Bytes f = good;
    put_u32(f, r + 4, 0x1000);
    check_error(f, r + 4, "runs past the end of the relocation table");
  }
  {
    Bytes f = good;
    put_u16(f, r + 8, static_cast<uint16_t>(0x2000 | (get16(f, r + 8) & 0xFFF)));
    check_error(f, r + 8, "found type 2");
  }
  {
    Bytes f = good;
    put_u32(f, r, 0xF00000);
    check_error(f, r + 8, "relocation site RVA 0xf00004 maps to no section");
  }
  {
    // The site maps into .reloc's raw range, but the file ends two bytes into it.
    Bytes f(good.begin(), good.begin() + r + reloc.virtual_size);
    put_u32(f, r, reloc.virtual_address);
    put_u16(f, r + 8, static_cast<uint16_t>(0x3000 | (reloc.virtual_size - 2)));
    check_error(f, r + 8, "does not have 4 bytes inside the file");
  }
}

TEST_CASE("errors: a trampoline operand that matches no import slot") {
  Bytes f = build_pharlap(sample_input());
  put_u32(f, 0x200 + 106 + 2, 0x12345678);
  check_error(f, 0x200 + 106, "trampoline t32 0x12345678 matches no import slot");
}

TEST_CASE("every truncation of a built file parses or throws InputError") {
  for (const bool usnf : {false, true}) {
    ImageBuildInput in = sample_input();
    if (usnf) {
      in.layout.image_base = 0x10000;
      in.layout.stub_operands_include_image_base = true;
      in.layout.relocate_stub_operands = false;
    }
    const Bytes good = build_pharlap(in);
    for (size_t n = 0; n <= good.size(); ++n) {
      parse_must_not_crash(Bytes(good.begin(), good.begin() + n));
    }
  }
}

TEST_CASE("2000 random single-byte corruptions parse or throw InputError") {
  const Bytes good = build_pharlap(sample_input());
  std::mt19937 rng(12345);  // fixed seed: a failure reproduces
  std::uniform_int_distribution<size_t> pos(0, good.size() - 1);
  std::uniform_int_distribution<int> flip(1, 255);
  for (int i = 0; i < 2000; ++i) {
    Bytes f = good;
    f[pos(rng)] ^= static_cast<uint8_t>(flip(rng));
    parse_must_not_crash(f);
  }
}

TEST_CASE("2000 random 32-bit header and table overwrites parse or throw InputError") {
  // Single bytes rarely produce extreme values; whole fields do (huge sizes, RVAs near 4 GiB).
  const Bytes good = build_pharlap(sample_input());
  const PharLapImage img = parse_pharlap(good, "T.SH");
  const size_t idata = img.sections[1].raw_offset;
  const size_t reloc = img.sections[2].raw_offset;
  std::mt19937 rng(54321);
  std::uniform_int_distribution<int> region(0, 2);
  std::uniform_int_distribution<uint32_t> value;
  std::uniform_int_distribution<int> special(0, 3);
  for (int i = 0; i < 2000; ++i) {
    Bytes f = good;
    size_t at = 0;
    switch (region(rng)) {
      case 0:
        at = std::uniform_int_distribution<size_t>(0x3C, 0x1F0 - 4)(rng) & ~size_t{1};
        break;
      case 1:
        at = std::uniform_int_distribution<size_t>(idata, idata + 0x80)(rng) & ~size_t{1};
        break;
      default:
        at = std::uniform_int_distribution<size_t>(reloc, reloc + 0x20)(rng) & ~size_t{1};
    }
    const uint32_t choices[] = {value(rng), 0, 0xFFFFFFFF, 0x80000000};
    put_u32(f, at, choices[special(rng)]);
    parse_must_not_crash(f);
  }
}

}  // namespace fa_pe_image_tests
