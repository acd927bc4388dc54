// The FA assembler: encodings, errors with line numbers, and the disasm → asm round trip over the
// bundled examples (the generated-shape round trip lives in test_fa_generator.cpp).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/byte_reader.h"
#include "core/input_error.h"
#include "interp/fa/listing.h"
#include "tests/fa/shape_text.h"

namespace tools_fa_assembler_tests {

using namespace shapevm;
using shapevm::testing::build_shape;
using shapevm::testing::with_header;

namespace {

std::vector<uint8_t> code_of(const std::string& body) {
  auto b = build_shape(with_header(body));
  const auto& code = b.shape.code();
  return std::vector<uint8_t>(code.begin() + fa::kHeaderSize, code.end());
}

std::string error_of(const std::string& text) {
  try {
    fa::assemble_fa(text, "t.fas");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("assembler: control-flow encodings use the seed's displacement origins") {
  CHECK(code_of("Jump @x\nx:\n") == std::vector<uint8_t>{0x48, 0, 0, 0});
  CHECK(code_of("ShortJump @x\nx:\n") == std::vector<uint8_t>{0x38, 0, 0});
  CHECK(code_of("x:\nJump @x\n") == std::vector<uint8_t>{0x48, 0, 0xFC, 0xFF});
  CHECK(code_of("JumpToDetail @x threshold=3\nx:\n") == std::vector<uint8_t>{0xA6, 0, 0, 0, 3, 0});
  CHECK(code_of("JumpToLOD @x size=0x120 threshold=9\nx:\n") ==
        std::vector<uint8_t>{0xC8, 0, 0x20, 0x01, 9, 0, 0, 0});
  CHECK(code_of("JumpToFrame @a, @b\na:\nb:\n") == std::vector<uint8_t>{0x40, 0, 2, 0, 4, 0, 2, 0});
  CHECK(code_of("Unk08 raw=1234 pad=0x07\n") == std::vector<uint8_t>{0x08, 0x07, 0x12, 0x34});
  CHECK(code_of("VertexInfo index=258 color=0x30 normal=1,-1,127\n") ==
        std::vector<uint8_t>{0xF6, 2, 1, 0x30, 1, 0xFF, 127});
  CHECK(code_of("TextureFile \"_A10.PIC\"\n") ==
        std::vector<uint8_t>{0xE2, 0, '_', 'A', '1', '0', '.', 'P', 'I', 'C', 0, 0, 0, 0, 0, 0});
}

TEST_CASE("assembler: errors name the line and what was expected") {
  CHECK(error_of(with_header("Jump @nowhere\n")).find("line 2: undefined label nowhere") !=
        std::string::npos);
  CHECK(error_of(with_header("Frobnicate\n")).find("unknown instruction") != std::string::npos);
  CHECK(error_of("EndShape\n").find("expected `.header") != std::string::npos);
  CHECK(error_of(with_header("Face content=0x40 layout=0 color=1 shadow=0 idx=1,2,3\n"))
            .find("0x40") != std::string::npos);
  CHECK(
      error_of(with_header("Face content=0 layout=0 color=1 shadow=0 idx=1,2,300\n")).find("u16") !=
      std::string::npos);
  CHECK(error_of(with_header(".stub _PLgearDown\n")).find("no .import") != std::string::npos);
  CHECK(error_of(with_header(".db 00 {x}\n")).find("undefined label x") != std::string::npos);
  std::string far = "Jump @x\n .db";
  for (int i = 0; i < 33000; ++i) far += " 00";
  far += "\nx:\n";
  CHECK(error_of(with_header(far)).find("does not fit") != std::string::npos);
}

TEST_CASE("assembler: {refs} become HIGHLOW relocations of image base + code VA + offset") {
  auto b = build_shape(".image base=0x10000\n.import _PLgearDown\n" +
                       with_header("x:\n .db {x} {_PLgearDown}\n .stub _PLgearDown\n"));
  const auto& img = b.shape.image;
  CHECK(img.image_base == 0x10000);
  // {x} points at CODE offset 14; the stub sits at 14 + 8.
  CHECK(img.code_pointer(14) == 0x10000 + img.code_va + 14);
  CHECK(load_u32(img.code.data() + 14) == img.code_pointer(14));
  CHECK(load_u32(img.code.data() + 18) == img.code_pointer(22));
  REQUIRE(img.trampolines.size() == 1);
  CHECK(img.trampolines[0].import_name == "_PLgearDown");
  int in_stream = 0;
  for (const auto& r : img.relocations) in_stream += r.site_code_offset && *r.site_code_offset < 22;
  CHECK(in_stream == 2);
}

TEST_CASE("disasm → asm round trip is byte-identical for every bundled example") {
  int examples = 0;
  for (const auto& entry : std::filesystem::directory_iterator(SHAPEVM_SOURCE_DIR "/examples/fa")) {
    if (entry.path().extension() != ".fas") continue;
    ++examples;
    INFO(entry.path().string());
    auto first = fa::assemble_fa(read_text(entry.path()), entry.path().string());
    fa::Shape shape = fa::load_shape(first.file, "example.SH");
    fa::WalkResult walk = fa::walk_shape(shape);
    CHECK(walk.diagnostics.empty());
    std::string listing = fa::render_listing_text(shape, fa::make_listing(shape, walk));
    auto second = fa::assemble_fa(listing, "relisted");
    CHECK(second.file == first.file);
  }
  CHECK(examples >= 3);
}

TEST_CASE("disasm → asm keeps an X86Code pad byte and a relocated dword that points outside CODE") {
  const std::string text = ".import do_start_interp\n" + with_header(R"(
    X86Code pad=0x1a
    x86 68 {join} 68 {do_start_interp} c3
join:
    ShortEOF
    .db {=0x93004127} 00
    .stub do_start_interp
)");
  auto first = fa::assemble_fa(text, "t.fas");
  fa::Shape shape = fa::load_shape(first.file, "t.SH");
  CHECK(shape.code()[15] == 0x1A);
  fa::WalkResult walk = fa::walk_shape(shape);
  std::string listing = fa::render_listing_text(shape, fa::make_listing(shape, walk));
  CHECK(listing.find("X86Code pad=0x1a") != std::string::npos);
  CHECK(listing.find("{=0x93004127}") != std::string::npos);
  auto second = fa::assemble_fa(listing, "relisted");
  CHECK(second.file == first.file);
  int raw = 0;
  for (const auto& r : shape.image.relocations) raw += r.stored_value == 0x93004127;
  CHECK(raw == 1);
}

}  // namespace tools_fa_assembler_tests
