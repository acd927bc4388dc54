// The synthetic FA shape generator (interp/fa/generator.h) and `shapevm gen fa`: determinism,
// every generated text assembling into a shape that walks without diagnostics, the project's
// disasm/asm round trip over 200 generated shapes (a project acceptance test), the structure
// statistics the benchmarks and fuzzers rely on, clean interpreter runs, and the CLI.
// SHAPEVM_GEN_STRESS=N runs the per-shape checks over N shapes instead of 200.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "interp/fa/assembler.h"
#include "interp/fa/generator.h"
#include "interp/fa/instruction.h"
#include "interp/fa/interpreter.h"
#include "interp/fa/listing.h"
#include "interp/fa/palette_pal.h"
#include "interp/fa/shape.h"
#include "interp/fa/shape_info.h"
#include "interp/fa/walker.h"
#include "tests/fa/recording_sink.h"
#include "tests/tools/run_cli.h"

using namespace shapevm;

namespace {

constexpr uint64_t kSeed = 20240601;
constexpr uint32_t kRoundTripShapes = 200;

std::string diagnostics_text(const fa::WalkResult& walk) {
  std::string out;
  for (const auto& d : walk.diagnostics) out += fmt::format("0x{:04x}: {}\n", d.offset, d.message);
  return out;
}

uint64_t fnv1a(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

// The CODE offset the generator states in its first comment line ("EndObject at 0xNNNN").
uint32_t stated_end(const std::string& text) {
  const std::string key = "EndObject at 0x";
  const auto at = text.find(key);
  if (at == std::string::npos || at > text.find('\n')) return UINT32_MAX;
  return static_cast<uint32_t>(std::stoul(text.substr(at + key.size(), 4), nullptr, 16));
}

struct Generated {
  std::string text;
  fa::AssembledShape assembled;
  fa::Shape shape;
  fa::WalkResult walk;
};

Generated generate(uint64_t seed, uint32_t index) {
  Generated g;
  g.text = fa::generate_fa_shape(seed, index);
  g.assembled = fa::assemble_fa(g.text, fa::generated_shape_stem(index) + ".fas");
  g.shape = fa::load_shape(g.assembled.file, fa::generated_shape_stem(index) + ".SH");
  g.walk = fa::walk_shape(g.shape);
  return g;
}

// The shapes the suite checks: 200 of kSeed, generated once. SHAPEVM_GEN_STRESS=N checks N
// shapes instead (a longer soak of the same assertions).
const std::vector<Generated>& shapes() {
  static const std::vector<Generated> all = [] {
    uint32_t count = kRoundTripShapes;
    if (const char* env = std::getenv("SHAPEVM_GEN_STRESS"))
      count = static_cast<uint32_t>(std::max(1L, std::atol(env)));
    std::vector<Generated> out;
    out.reserve(count);
    for (uint32_t i = 0; i < count; ++i) out.push_back(generate(kSeed, i));
    return out;
  }();
  return all;
}

// Every face corner names a pool slot that some VertexBuffer earlier in the stream wrote.
std::string first_bad_index(const fa::Shape& shape, const fa::WalkResult& walk) {
  const auto& code = shape.code();
  std::vector<bool> written;
  for (const auto& item : walk.items) {
    if (item.kind != fa::ItemKind::kInstruction) continue;
    if (item.insn->op == 0x82) {
      const auto vb = fa::parse_vertex_buffer(code, item.offset);
      if (!vb.aligned())
        return fmt::format("push_at {} at 0x{:04x} is not a multiple of 8", vb.push_at,
                           item.offset);
      if (written.size() < vb.first_slot() + vb.count) written.resize(vb.first_slot() + vb.count);
      for (uint32_t i = 0; i < vb.count; ++i) written[vb.first_slot() + i] = true;
    } else if (item.insn->op == 0xFC) {
      const auto face = fa::parse_face(code, item.offset);
      if (face.indices.size() < 3)
        return fmt::format("face at 0x{:04x} has {} corners", item.offset, face.indices.size());
      for (uint16_t s : face.indices)
        if (s >= written.size() || !written[s])
          return fmt::format("face at 0x{:04x} uses unwritten slot {}", item.offset, s);
      const bool wide = face.layout & fa::kLayoutShortIndices;
      const bool needs_wide = *std::max_element(face.indices.begin(), face.indices.end()) > 255;
      if (needs_wide && !wide)
        return fmt::format("face at 0x{:04x} needs u16 indices", item.offset);
    }
  }
  return "";
}

}  // namespace

TEST_CASE("fa generator: the same seed and index give the same text; others differ") {
  CHECK(fa::generate_fa_shape(1, 0) == fa::generate_fa_shape(1, 0));
  CHECK(fa::generate_fa_shape(kSeed, 17) == fa::generate_fa_shape(kSeed, 17));
  CHECK(fa::generate_fa_shape(1, 0) != fa::generate_fa_shape(1, 1));
  CHECK(fa::generate_fa_shape(1, 0) != fa::generate_fa_shape(2, 0));
  std::set<std::string> texts;
  for (uint32_t i = 0; i < 50; ++i) texts.insert(fa::generate_fa_shape(kSeed, i));
  CHECK(texts.size() == 50);
  // Pinned output: the generator uses no libm transcendental and no std distribution, so these
  // hashes hold on every platform. Update them only when the generator is changed on purpose.
  CHECK(fnv1a(fa::generate_fa_shape(1, 0)) == 0x5e4c3ec87853d96full);
  CHECK(fnv1a(fa::generate_fa_shape(kSeed, 7)) == 0x007ec517bec79459ull);
  CHECK(fa::generated_shape_stem(0) == "GEN00001");
  CHECK(fa::generated_shape_stem(99999) == "GEN100000");
}

TEST_CASE("fa generator: 200 generated shapes assemble, load and walk without diagnostics") {
  for (uint32_t i = 0; i < shapes().size(); ++i) {
    CAPTURE(i);
    const Generated& g = shapes()[i];
    INFO(diagnostics_text(g.walk));
    CHECK(g.walk.diagnostics.empty());
    CHECK(g.assembled.labels.at("end") == stated_end(g.text));
    CHECK(first_bad_index(g.shape, g.walk) == "");
    // Exactly one EndObject, the last instruction: nothing is skipped, the trailer follows.
    size_t skipped = 0;
    for (const auto& item : g.walk.items) skipped += item.kind == fa::ItemKind::kSkipped;
    CHECK(skipped == 0);
    REQUIRE(g.walk.obj_end_offset.has_value());
    CHECK(*g.walk.obj_end_offset == g.assembled.labels.at("end"));
    CHECK(g.shape.image.trampolines.size() == g.shape.image.imports.size());
    // Sizes stay realistic: a few KB to a few tens of KB.
    CHECK(g.assembled.file.size() >= 1500);
    CHECK(g.assembled.file.size() <= 40 * 1024);
  }
}

TEST_CASE("fa generator: disasm/asm round trip over 200 generated shapes is byte-exact") {
  size_t x86_lines = 0;
  for (uint32_t i = 0; i < shapes().size(); ++i) {
    CAPTURE(i);
    const Generated& g = shapes()[i];
    const fa::Listing listing = fa::make_listing(g.shape, g.walk);
    const std::string text = fa::render_listing_text(g.shape, listing);
    for (const auto& line : listing.lines) {
      if (line.kind != "x86") continue;
      ++x86_lines;
      INFO(line.comment);
      CHECK(line.comment.find("(not x86)") == std::string::npos);  // Capstone decodes every byte
    }
    fa::AssembledShape again;
    REQUIRE_NOTHROW(again = fa::assemble_fa(text, "listing.fas"));
    CHECK(again.file.size() == g.assembled.file.size());
    const bool identical = again.file == g.assembled.file;
    if (!identical) {
      const auto mismatch = std::mismatch(again.file.begin(), again.file.end(),
                                          g.assembled.file.begin(), g.assembled.file.end());
      INFO("first difference at file offset " << (mismatch.first - again.file.begin()));
      CHECK(identical);
    }
  }
  CHECK(x86_lines > 0);
}

TEST_CASE("fa generator: shapes have the corpus's structure") {
  std::vector<uint32_t> vertices, faces;
  size_t with_x86 = 0, with_frames = 0, with_damage = 0, with_selectors = 0, with_calls = 0,
         with_detail = 0;
  size_t with_untraced = 0, textured = 0;
  std::set<int> scales;
  std::set<uint8_t> face_layouts;
  const size_t n = shapes().size();
  for (uint32_t i = 0; i < shapes().size(); ++i) {
    CAPTURE(i);
    const Generated& g = shapes()[i];
    const fa::ShapeInfo info = fa::analyze_shape(g.shape, g.walk);
    CHECK(info.lod_levels() >= 2);
    CHECK(info.lod_sites >= 1);
    CHECK(info.faces >= 6);
    vertices.push_back(info.vertices);
    faces.push_back(info.faces);
    with_x86 += info.x86_blocks > 0;
    with_frames += info.frame_tables > 0;
    with_damage += info.damage_branches > 0;
    with_selectors += info.selectors > 0;
    with_calls += info.calls > 0;
    with_detail += info.detail_sites > 0;
    textured += info.textured_faces > 0;
    scales.insert(g.shape.header.scale);
    for (const auto& [mnemonic, count] : info.opcode_counts)
      if (mnemonic.rfind("Unk", 0) == 0) {
        ++with_untraced;
        break;
      }
    for (const auto& item : g.walk.items)
      if (item.kind == fa::ItemKind::kInstruction && item.insn->op == 0xFC)
        face_layouts.insert(g.shape.code()[item.offset + 2]);
    // The x86 shapes import do_start_interp, and every selector chain ends by re-entering it.
    const bool imports_interp =
        std::any_of(g.shape.image.imports.begin(), g.shape.image.imports.end(),
                    [](const auto& imp) { return imp.name == "do_start_interp"; });
    CHECK(imports_interp == (info.x86_blocks > 0));
    // The header's radius sits between the largest vertex norm and the extents' norm.
    CHECK(g.shape.header.radius >= 10);
  }
  std::sort(vertices.begin(), vertices.end());
  std::sort(faces.begin(), faces.end());
  const uint32_t median_vertices = vertices[vertices.size() / 2];
  const uint32_t median_faces = faces[faces.size() / 2];
  CHECK(median_vertices >= 100);
  CHECK(median_faces >= 100);
  // About 40% of shapes carry x86 selectors; most carry the other families.
  CHECK(with_x86 >= n * 30 / 100);
  CHECK(with_x86 <= n * 50 / 100);
  CHECK(with_frames >= n / 5);
  CHECK(with_damage >= n / 20);
  CHECK(with_selectors >= n / 2);
  CHECK(with_calls >= n / 2);
  CHECK(with_detail >= n * 3 / 4);
  CHECK(with_untraced >= n / 2);
  CHECK(textured >= n / 2);
  CHECK(scales.count(8) == 1);
  CHECK(scales.size() >= 3);
  // Byte and u16 texcoords, byte centres and u16 indices all occur.
  auto any_layout = [&](uint8_t bit) {
    return std::any_of(face_layouts.begin(), face_layouts.end(),
                       [bit](uint8_t l) { return (l & bit) != 0; });
  };
  CHECK(any_layout(fa::kLayoutShortIndices));
  CHECK(any_layout(fa::kLayoutByteCenter));
  CHECK(any_layout(fa::kLayoutByteTexcoords));
}

TEST_CASE("fa generator: shapevm gen fa writes the files, refuses to overwrite without --force") {
  ScratchDir dir;
  const std::string out = shell_quote((dir / "gen").string());
  CliResult r = run_cli("gen fa --count 3 --seed 7 --text -o " + out);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("generated 3 shapes (") != std::string::npos);
  CHECK(r.out.find("total bytes) in ") != std::string::npos);
  for (const char* stem : {"GEN00001", "GEN00002", "GEN00003"}) {
    CHECK(std::filesystem::exists(dir / "gen" / (std::string(stem) + ".SH")));
    CHECK(std::filesystem::exists(dir / "gen" / (std::string(stem) + ".fas")));
  }
  CHECK_FALSE(std::filesystem::exists(dir / "gen" / "GEN00004.SH"));
  // Beside them the built-in palette as a PALETTE.PAL, which reads back within the 6-bit rounding.
  const auto pal = shapevm::read_file(dir / "gen" / "PALETTE.PAL");
  REQUIRE(pal.size() == 768);
  const auto read = fa::read_pal(pal, "PALETTE.PAL");
  for (size_t i = 0; i < 256; ++i) {
    CHECK((read.colors[i].r >> 2) == (raster::default_palette().colors[i].r >> 2));
    CHECK((read.colors[i].b >> 2) == (raster::default_palette().colors[i].b >> 2));
  }
  // The files are the generator's shapes for seed 7.
  const auto bytes = shapevm::read_file(dir / "gen" / "GEN00002.SH");
  CHECK(bytes == fa::assemble_fa(fa::generate_fa_shape(7, 1), "x.fas").file);

  CliResult again = run_cli("gen fa --count 3 --seed 7 -o " + out);
  CHECK(again.exit_code == 2);
  CHECK(again.err.find("--force") != std::string::npos);
  CliResult forced = run_cli("gen fa --count 3 --seed 8 --force -o " + out);
  CHECK(forced.exit_code == 0);
  CHECK(shapevm::read_file(dir / "gen" / "GEN00002.SH") != bytes);

  CHECK(run_cli("gen fa --count 0 -o " + out).exit_code == 2);
  CHECK(run_cli("gen fa --count 3").exit_code == 2);
}

// Every ShortEOF but the last returns from a call, so each state of each shape (LOD level, frame,
// damage, detail) runs to the top-level return; x86 is skipped until the sandbox runs it.
TEST_CASE("fa generator: generated shapes run to a clean end in the interpreter") {
  size_t runs = 0;
  for (uint32_t i = 0; i < shapes().size(); ++i) {
    CAPTURE(i);
    const Generated& g = shapes()[i];
    fa::Interpreter interp(g.shape);
    const uint32_t levels = static_cast<uint32_t>(interp.lod_thresholds().size()) + 1;
    for (uint32_t lod = 0; lod < levels; ++lod) {
      for (uint32_t frame : {0u, 1u, 5u}) {
        for (bool destroyed : {false, true}) {
          for (uint16_t detail : {uint16_t{0}, uint16_t{0xFFFF}}) {
            fa::RunState state;
            state.lod = lod;
            state.frame = frame;
            state.destroyed = destroyed;
            state.detail = detail;
            shapevm::testing::RecordingSink sink;
            sink.ops = false;
            const fa::RunResult r = interp.run(state, sink);
            ++runs;
            INFO("lod " << lod << " frame " << frame << " destroyed " << destroyed << " detail "
                        << detail);
            INFO(r.reason);
            CHECK(r.clean);
            CHECK(r.stop == fa::StopReason::kTopLevelShortEof);
            // The coarsest level may be below the last block's cut-off and draw nothing.
            if (lod == 0) CHECK(r.faces > 0);
          }
        }
      }
    }
  }
  CHECK(runs > 0);
}
