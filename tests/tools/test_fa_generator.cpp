// The synthetic FA shape generator (interp/fa/generator.h) and `shapevm gen fa`: determinism,
// every generated text assembling into a shape that walks without diagnostics, the project's
// disasm/asm round trip over 200 generated shapes of each profile (a project acceptance test),
// the corpus profile's per-feature file counts against the seed's over 1,275 shapes, the stress
// profile's structure statistics the benchmarks and fuzzers rely on, clean interpreter runs, and
// the CLI. SHAPEVM_GEN_STRESS=N runs the per-shape checks over N shapes of each profile instead
// of 200.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
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

namespace tools_fa_generator_tests {

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

Generated generate(uint64_t seed, uint32_t index, fa::GeneratorProfile profile) {
  Generated g;
  g.text = fa::generate_fa_shape(seed, index, profile);
  g.assembled = fa::assemble_fa(g.text, fa::generated_shape_stem(index) + ".fas");
  g.shape = fa::load_shape(g.assembled.file, fa::generated_shape_stem(index) + ".SH");
  g.walk = fa::walk_shape(g.shape);
  return g;
}

// The shapes the suite checks: 200 of kSeed in each profile (stress first), generated once.
// SHAPEVM_GEN_STRESS=N checks N of each instead (a longer soak of the same assertions).
uint32_t per_profile() {
  uint32_t count = kRoundTripShapes;
  if (const char* env = std::getenv("SHAPEVM_GEN_STRESS"))
    count = static_cast<uint32_t>(std::max(1L, std::atol(env)));
  return count;
}

const std::vector<Generated>& profile_shapes(fa::GeneratorProfile profile) {
  static const auto make = [](fa::GeneratorProfile p) {
    std::vector<Generated> out;
    out.reserve(per_profile());
    for (uint32_t i = 0; i < per_profile(); ++i) out.push_back(generate(kSeed, i, p));
    return out;
  };
  static const std::vector<Generated> stress = make(fa::GeneratorProfile::kStress);
  static const std::vector<Generated> corpus = make(fa::GeneratorProfile::kCorpus);
  return profile == fa::GeneratorProfile::kStress ? stress : corpus;
}

// Both profiles' shapes, for the checks every generated shape must pass.
const std::vector<const Generated*>& shapes() {
  static const std::vector<const Generated*> all = [] {
    std::vector<const Generated*> out;
    for (auto p : {fa::GeneratorProfile::kStress, fa::GeneratorProfile::kCorpus})
      for (const auto& g : profile_shapes(p)) out.push_back(&g);
    return out;
  }();
  return all;
}

// The widths and relations of the x86 guards' compares (`cmp <width> [input], imm` + jcc).
struct GuardForms {
  std::set<unsigned> bits;
  std::set<fa::GuardRelation> relations;
  size_t reads = 0;
};

void add_guard_forms(const fa::ShapeInfo& info, GuardForms& forms) {
  for (const auto& block : info.articulations.blocks)
    for (const auto& read : block.reads) {
      if (!read.value) continue;
      ++forms.reads;
      forms.bits.insert(read.bits);
      forms.relations.insert(read.relation);
    }
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
  // The stress profile's are the hashes from before the corpus profile existed: --stress gives
  // the same files as `gen fa` gave then.
  constexpr auto kStress = fa::GeneratorProfile::kStress;
  CHECK(fnv1a(fa::generate_fa_shape(1, 0, kStress)) == 0x5e4c3ec87853d96full);
  CHECK(fnv1a(fa::generate_fa_shape(kSeed, 7, kStress)) == 0x007ec517bec79459ull);
  CHECK(fnv1a(fa::generate_fa_shape(1, 0)) == 0xab65fda23a158a12ull);
  CHECK(fnv1a(fa::generate_fa_shape(kSeed, 7)) == 0xdb8e47176770409full);
  CHECK(fa::generate_fa_shape(1, 0) != fa::generate_fa_shape(1, 0, kStress));
  CHECK(fa::generated_shape_stem(0) == "GEN00001");
  CHECK(fa::generated_shape_stem(99999) == "GEN100000");
}

TEST_CASE("fa generator: 200 shapes of each profile assemble, load and walk without diagnostics") {
  for (uint32_t i = 0; i < shapes().size(); ++i) {
    CAPTURE(i);
    const Generated& g = *shapes()[i];
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
    // Sizes stay realistic: a kilobyte to a few tens of KB.
    CHECK(g.assembled.file.size() >= 1000);
    CHECK(g.assembled.file.size() <= 40 * 1024);
  }
}

TEST_CASE("fa generator: disasm/asm round trip over 200 shapes of each profile is byte-exact") {
  size_t x86_lines = 0;
  for (uint32_t i = 0; i < shapes().size(); ++i) {
    CAPTURE(i);
    const Generated& g = *shapes()[i];
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

TEST_CASE("fa generator: stress shapes carry every structure often (coverage and fuzzing)") {
  std::vector<uint32_t> vertices, faces;
  size_t with_x86 = 0, with_frames = 0, with_damage = 0, with_selectors = 0, with_calls = 0,
         with_detail = 0;
  size_t with_untraced = 0, textured = 0;
  std::set<int> scales;
  std::set<uint8_t> face_layouts;
  const auto& stress = profile_shapes(fa::GeneratorProfile::kStress);
  const size_t n = stress.size();
  for (uint32_t i = 0; i < n; ++i) {
    CAPTURE(i);
    const Generated& g = stress[i];
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
  // Every guard form: byte, word and dword compares; ==, != and >= guards. And XformUnmask.
  GuardForms forms;
  size_t xform = 0;
  for (const Generated& g : stress) {
    const fa::ShapeInfo info = fa::analyze_shape(g.shape, g.walk);
    add_guard_forms(info, forms);
    xform += info.count_of("XformUnmask") > 0;
  }
  CHECK(forms.bits == std::set<unsigned>{8, 16, 32});
  CHECK(forms.relations.size() >= 3);
  CHECK(xform >= n / 20);
}

namespace {

// Files of a generated corpus that carry each feature, counted from the static walk as `info`
// reports them (every block, not one state).
struct FeatureFiles {
  uint32_t files = 0, x86 = 0, jump_to_frame = 0, jump_to_damage = 0, jump_to_detail = 0,
           jump_to_lod = 0, jump_to_lod_ops = 0, unmask = 0, jump = 0, short_jump = 0,
           xform_unmask = 0;
  uint32_t lod_files_one_block = 0;  // files with JumpToLOD but no coarser block chained
  GuardForms guards;
};

FeatureFiles count_features(fa::GeneratorProfile profile, uint32_t count) {
  FeatureFiles f;
  for (uint32_t i = 0; i < count; ++i) {
    const Generated g = generate(kSeed, i, profile);
    const fa::ShapeInfo info = fa::analyze_shape(g.shape, g.walk);
    const auto has = [&](const char* mnemonic) { return info.count_of(mnemonic) > 0; };
    ++f.files;
    f.x86 += info.x86_blocks > 0;
    f.jump_to_frame += has("JumpToFrame");
    f.jump_to_damage += has("JumpToDamage");
    f.jump_to_detail += has("JumpToDetail");
    f.jump_to_lod += has("JumpToLOD");
    f.jump_to_lod_ops += has("JumpToLOD") ? info.count_of("JumpToLOD") : 0;
    f.unmask += has("Unmask");
    f.jump += has("Jump");
    f.short_jump += has("ShortJump");
    f.xform_unmask += has("XformUnmask");
    f.lod_files_one_block += has("JumpToLOD") && info.lod_levels() < 2;
    add_guard_forms(info, f.guards);
  }
  return f;
}

// The stated tolerance: three binomial standard deviations of a corpus of `n` files in which a
// share p = seed / 1275 carry the feature, and never less than 4 files. A fixed seed makes the
// count itself deterministic; the tolerance says how far another seed may wander.
uint32_t tolerance(uint32_t seed_files, uint32_t n) {
  const double p = seed_files / double(fa::kCorpusCounts.files);
  return std::max<uint32_t>(4, static_cast<uint32_t>(std::ceil(3 * std::sqrt(n * p * (1 - p)))));
}

}  // namespace

// The corpus profile against the seed's counts over FA_2.LIB's 1,275 shapes (interp/fa/
// generator.h, docs/fa-generator.md). SHAPEVM_GEN_CORPUS=N generates N files instead of 1,275
// and scales the seed's counts to N.
TEST_CASE("fa generator: the default profile's per-feature file counts follow the seed's corpus") {
  uint32_t n = fa::kCorpusCounts.files;
  if (const char* env = std::getenv("SHAPEVM_GEN_CORPUS"))
    n = static_cast<uint32_t>(std::max(100L, std::atol(env)));
  const FeatureFiles got = count_features(fa::GeneratorProfile::kCorpus, n);
  const auto& seed = fa::kCorpusCounts;
  const auto expect = [&](const char* what, uint32_t generated, uint32_t seed_files) {
    const double scaled = seed_files * double(n) / seed.files;
    const uint32_t tol = tolerance(seed_files, n);
    MESSAGE(fmt::format("{:<14} generated {:>4} of {}, seed {:>4} of 1275 (scaled {:.0f}, +-{})",
                        what, generated, n, seed_files, scaled, tol));
    CHECK_MESSAGE(std::abs(generated - scaled) <= tol,
                  fmt::format("{}: {} files, the seed's share is {:.0f} +- {}", what, generated,
                              scaled, tol));
  };
  expect("x86", got.x86, seed.x86);
  expect("JumpToFrame", got.jump_to_frame, seed.jump_to_frame);
  expect("JumpToDamage", got.jump_to_damage, seed.jump_to_damage);
  expect("JumpToDetail", got.jump_to_detail, seed.jump_to_detail);
  expect("JumpToLOD", got.jump_to_lod, seed.jump_to_lod);
  expect("Unmask", got.unmask, seed.unmask);
  expect("Jump", got.jump, seed.jump);
  expect("ShortJump", got.short_jump, seed.short_jump);
  expect("XformUnmask", got.xform_unmask, seed.xform_unmask);
  // LOD blocks chain: 2,064 JumpToLOD over 1,098 files is 1.88 per file; every file with one
  // has a coarser block chained after its first.
  const double per_file = got.jump_to_lod_ops / double(std::max(1u, got.jump_to_lod));
  MESSAGE(fmt::format("JumpToLOD per LOD file: {:.2f} (seed {:.2f})", per_file,
                      seed.jump_to_lod_ops / double(seed.jump_to_lod)));
  CHECK(std::abs(per_file - seed.jump_to_lod_ops / double(seed.jump_to_lod)) <= 0.15);
  CHECK(got.lod_files_one_block == 0);
  // The guard form the seed names: cmp word [trampoline], imm8, one relation (a switch's case).
  CHECK(got.guards.reads >= got.x86);
  CHECK(got.guards.bits == std::set<unsigned>{16});
  CHECK(got.guards.relations.size() == 1);
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

  // --stress writes the stress profile's shapes (the mix from before the corpus profile).
  CliResult stress = run_cli("gen fa --count 2 --seed 7 --stress --force -o " + out);
  CHECK(stress.exit_code == 0);
  CHECK(shapevm::read_file(dir / "gen" / "GEN00002.SH") ==
        fa::assemble_fa(fa::generate_fa_shape(7, 1, fa::GeneratorProfile::kStress), "x.fas").file);
  // An engine without a stress profile does not take the flag.
  CHECK(run_cli("gen apache --count 1 --stress -o " + out).exit_code == 2);

  CHECK(run_cli("gen fa --count 0 -o " + out).exit_code == 2);
  CHECK(run_cli("gen fa --count 3").exit_code == 2);
}

// Every ShortEOF but the last returns from a call, so each state of each shape (LOD level, frame,
// damage, detail) runs to the top-level return; x86 is skipped until the sandbox runs it.
TEST_CASE("fa generator: generated shapes run to a clean end in the interpreter") {
  size_t runs = 0;
  for (uint32_t i = 0; i < shapes().size(); ++i) {
    CAPTURE(i);
    const Generated& g = *shapes()[i];
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

}  // namespace tools_fa_generator_tests
