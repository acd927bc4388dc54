// Bad input is normal input: deterministic byte mutations and truncations of small models and
// RefPack streams are either read or refused with an InputError, never a crash (run under the
// AddressSanitizer build too).
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "core/input_error.h"
#include "interp/shp/generator.h"
#include "interp/shp/loader.h"
#include "interp/shp/refpack.h"
#include "interp/shp/text_writer.h"
#include "interp/shp/writer.h"

namespace shp_mutations_tests {

using namespace shapevm;
using namespace shapevm::shp;

namespace {

// Everything a reader does with a file: open, run with a trace-like sink, print, rewrite.
void exercise(const std::vector<uint8_t>& image) {
  struct AllOps : EventSink {
    bool wants_ops() const override { return true; }
  } sink;
  LoadOptions o;
  o.sink = &sink;
  o.source = "m.shp";
  o.max_steps = 100000;
  CHECK_NOTHROW((void)run_model_load(image, o));
  try {
    const Model m = load_model(image, "m.shp", 100000);
    (void)model_text(image, "m.shp");
    (void)write_model(m);
  } catch (const InputError&) {
  }
}

}  // namespace

TEST_CASE("shp: mutated and truncated models are read or refused, never crash") {
  // The smallest generated models (debris and fighters) as seeds.
  std::vector<std::vector<uint8_t>> seeds;
  for (uint32_t i = 0; i < 40 && seeds.size() < 3; ++i) {
    auto image = write_model(generate_model(11, i));
    if (image.size() < 40000) seeds.push_back(std::move(image));
  }
  REQUIRE(!seeds.empty());
  std::mt19937 rng(1234);
  for (const auto& seed : seeds) {
    for (int round = 0; round < 150; ++round) {
      std::vector<uint8_t> m = seed;
      const int edits = 1 + static_cast<int>(rng() % 4);
      for (int e = 0; e < edits; ++e) {
        const size_t at = rng() % m.size();
        switch (rng() % 3) {
          case 0:
            m[at] = static_cast<uint8_t>(rng());
            break;
          case 1:
            m[at] ^= 0xFF;
            break;
          case 2:
            m.resize(at);
            break;
        }
        if (m.empty()) break;
      }
      exercise(m);
    }
  }
}

TEST_CASE("shp: random RefPack streams decompress or are refused, never crash") {
  std::mt19937 rng(99);
  for (int round = 0; round < 2000; ++round) {
    std::vector<uint8_t> s = {0x10, 0xFB, 0, static_cast<uint8_t>(rng() % 4),
                              static_cast<uint8_t>(rng())};
    const size_t n = rng() % 64;
    for (size_t i = 0; i < n; ++i) s.push_back(static_cast<uint8_t>(rng()));
    try {
      const auto out = refpack_decompress(s, "r");
      CHECK(out.size() == refpack_declared_size(s, "r"));
    } catch (const InputError&) {
    }
  }
}

}  // namespace shp_mutations_tests
