// Robustness over generated archives (interp/apache/generator.h): every record of a synthetic
// archive runs cleanly and draws, and archives with corrupted bytes either fail with an InputError
// or run to a bounded end — never anything else (this suite also runs under ASan/UBSan).
#include <doctest/doctest.h>

#include "core/input_error.h"
#include "harness/frame_renderer.h"
#include "interp/apache/generator.h"
#include "interp/apache/interpreter.h"
#include "tests/apache/apache_fixture.h"

namespace apache_generated_tests {

using namespace shapevm;

namespace {

struct Counter : EventSink {
  uint64_t faces = 0, errors = 0;
  bool wants_ops() const override { return true; }
  void on_face(const FaceEvent&) override { ++faces; }
  void on_diagnostic(const DiagnosticEvent& e) override {
    if (e.level == DiagnosticLevel::kError) ++errors;
  }
};

}  // namespace

TEST_CASE("generated archive: every record runs cleanly in several states and draws") {
  testing::ApacheFixture f(apache::generate_apache_archive(11, 150));
  CHECK(f.archive.populated() == 150);
  apache::Interpreter interp(f.archive, f.tables, &*f.textures);
  raster::Framebuffer frame(160, 120);
  uint64_t faces = 0;
  for (const auto& rec : f.archive.records()) {
    for (uint32_t anim : {0u, 0x13u, 0x33u}) {
      apache::RunState s;
      s.anim = anim;
      s.width = 160;
      s.height = 120;
      s.focal_pixels = 120;
      harness::FrameSettings settings;
      settings.focal_pixels = 120;
      harness::FrameRenderer renderer(frame, settings);
      Counter counter;
      MultiSink both;
      both.add(&renderer);
      both.add(&counter);
      const auto r = interp.run(rec.index, s, both);
      INFO("record " << rec.index << " anim " << anim << ": " << r.reason);
      CHECK(r.clean);
      CHECK(counter.errors == 0);
      faces += counter.faces;
    }
  }
  CHECK(faces > 150 * 3 * 3);
}

TEST_CASE("corrupted archives fail with an InputError or run to a bounded end") {
  const apache::AssembledArchive base =
      apache::assemble_apache(apache::generate_apache_archive(5, 40), "gen.apa");
  const auto tables = apache::build_shading_tables(apache::default_3dpal());
  uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  int rejected = 0, ran = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<uint8_t> bytes = base.archive;
    for (int k = 0; k < 4; ++k) bytes[next() % bytes.size()] = static_cast<uint8_t>(next());
    if (trial % 10 == 0) bytes.resize(next() % bytes.size());
    try {
      apache::Archive archive(bytes, "fuzz.BIN");
      apache::Interpreter interp(archive, tables, nullptr);
      for (const auto& rec : archive.records()) {
        apache::RunState s;
        s.anim = static_cast<uint32_t>(next());
        s.step_limit = 5000;
        Counter counter;
        interp.run(rec.index, s, counter);  // malformed programs end unclean, never crash
        ++ran;
      }
    } catch (const InputError&) {
      ++rejected;
    }
  }
  CHECK(rejected > 0);
  CHECK(ran > 0);
}

}  // namespace apache_generated_tests
