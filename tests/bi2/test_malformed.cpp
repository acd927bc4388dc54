// Bad input is normal input: generated meshes, scenery lists, LIBs and TPWM streams with bytes
// flipped, cut short or extended are either read and drawn or rejected with an InputError naming
// the file and the offset — never a crash (the sanitizer build runs this too).
#include <doctest/doctest.h>

#include "core/input_error.h"
#include "interp/bi2/draw.h"
#include "interp/bi2/generator.h"
#include "interp/bi2/layer.h"
#include "interp/bi2/lib_archive.h"
#include "interp/bi2/mesh.h"
#include "interp/bi2/text.h"
#include "interp/bi2/tpwm.h"

namespace bi2_malformed_tests {

using namespace shapevm;
using namespace shapevm::bi2;

namespace {

struct Counter : EventSink {
  uint64_t faces = 0;
  void on_face(const FaceEvent&) override { ++faces; }
};

uint64_t next(uint64_t& s) {
  s ^= s << 13, s ^= s >> 7, s ^= s << 17;
  return s;
}

std::vector<uint8_t> mutate(std::vector<uint8_t> b, uint64_t& s) {
  switch (next(s) % 4) {
    case 0:
      for (int i = 0; i < 3; ++i) b[next(s) % b.size()] ^= static_cast<uint8_t>(1 + next(s) % 255);
      break;
    case 1:
      b.resize(next(s) % b.size());
      break;
    case 2:
      b.insert(b.begin() + static_cast<std::ptrdiff_t>(next(s) % b.size()),
               static_cast<uint8_t>(next(s)));
      break;
    default: {
      const size_t at = next(s) % (b.size() - 1);
      b[at] = static_cast<uint8_t>(next(s)), b[at + 1] = static_cast<uint8_t>(next(s));
    }
  }
  return b;
}

}  // namespace

TEST_CASE("malformed: mutated meshes are read and drawn or rejected with file and offset") {
  uint64_t s = 0x9E3779B97F4A7C15ull;
  int rejected = 0, drawn = 0;
  for (uint32_t i = 0; i < 400; ++i) {
    const auto good = write_mesh(i % 2 ? generate_unit(3, i) : generate_terrain(3, i));
    const auto bad = mutate(good, s);
    try {
      const Mesh m = read_mesh(bad, "M.3DOB");
      RunState state = run_state({}, m.parts.size());
      if (!m.parts.empty()) state.poses[0].angles = {30, 60, 90}, state.posed[0] = true;
      Counter sink;
      run_draw({{&m, {0, 0, 0}, -1, 0}}, state, sink, nullptr);
      CHECK(sink.faces == m.polygons.size());
      (void)mesh_text(m);
      ++drawn;
    } catch (const InputError& e) {
      CHECK(e.source() == "M.3DOB");
      CHECK(e.has_offset());
      ++rejected;
    }
  }
  CHECK(rejected > 100);
  CHECK(drawn > 10);
}

TEST_CASE("malformed: mutated LIBs, scenery lists and TPWM streams never crash") {
  uint64_t s = 12345;
  const auto archives = generate_archives(5, 8);
  for (int round = 0; round < 300; ++round) {
    const auto& f = archives[static_cast<size_t>(round) % archives.size()];
    const auto bad = mutate(f.bytes, s);
    try {
      const LibArchive lib(bad, f.name);
      for (const auto& m : lib.members()) {
        try {
          const auto member = lib.decoded(m);
          if (is_layer(member)) (void)read_layer(member, "L");
          if (is_mesh(member)) (void)read_mesh(member, "M");
        } catch (const InputError&) {
        }
      }
      (void)disassemble_file(bad, f.name);
    } catch (const InputError& e) {
      CHECK(!e.source().empty());
    }
  }
  const auto packed = tpwm_pack_literal(archives[0].bytes);
  for (int round = 0; round < 200; ++round) {
    auto bad = mutate(packed, s);
    try {
      (void)tpwm_decode(bad, "P");
    } catch (const InputError& e) {
      CHECK(e.has_offset());
    }
  }
}

}  // namespace bi2_malformed_tests
