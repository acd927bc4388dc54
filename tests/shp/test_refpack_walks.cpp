// RefPack (SL-03) on random streams of every command form: the whole decoder against a
// byte-by-byte reading of the commands, and the head-only walk recognition uses
// (refpack_head) against the whole decoder, on valid streams and on damaged ones.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "interp/shp/generator.h"
#include "interp/shp/hog.h"
#include "interp/shp/refpack.h"
#include "tests/support/random_bytes.h"

namespace shp_refpack_walks_tests {

using namespace shapevm;
using namespace shapevm::shp;

namespace {

// A random valid stream and the output a byte-by-byte reading of its commands gives.
struct RandomStream {
  std::vector<uint8_t> bytes;
  std::vector<uint8_t> output;
  size_t overlapping = 0;  // copies from a distance shorter than their length
  size_t apart = 0;        // copies from further back
};

RandomStream random_stream(std::mt19937& rng, size_t commands) {
  RandomStream s;
  std::vector<uint8_t> body;
  auto pick = [&](size_t lo, size_t hi) { return lo + rng() % (hi - lo + 1); };
  auto literals = [&](size_t count) {
    for (size_t i = 0; i < count; ++i) {
      const auto b = static_cast<uint8_t>(rng());
      body.push_back(b);
      s.output.push_back(b);
    }
  };
  auto copy = [&](size_t distance, size_t length) {
    (distance < length ? s.overlapping : s.apart) += 1;
    const size_t from = s.output.size() - distance;
    for (size_t i = 0; i < length; ++i) s.output.push_back(s.output[from + i]);
  };
  for (size_t c = 0; c < commands; ++c) {
    const size_t form = rng() % 4;
    const size_t l = pick(0, 3);
    const size_t before = s.output.size() + l;  // output the copy may reach back into
    if (form == 3 || before == 0) {             // E0-FB: 4..112 literals
      const size_t n = pick(1, 28);
      body.push_back(static_cast<uint8_t>(0xE0 | (n - 1)));
      literals(n * 4);
      continue;
    }
    if (form == 0) {  // 0dd nnn ll, b1: N 3..10, D 1..1024
      const size_t n = pick(3, 10), d = pick(1, std::min<size_t>(1024, before));
      body.push_back(static_cast<uint8_t>(((d - 1) >> 8) << 5 | (n - 3) << 2 | l));
      body.push_back(static_cast<uint8_t>(d - 1));
      literals(l);
      copy(d, n);
    } else if (form == 1) {  // 10 nnnnnn, ll dddddd, b2: N 4..67, D 1..16384
      const size_t n = pick(4, 67), d = pick(1, std::min<size_t>(16384, before));
      body.push_back(static_cast<uint8_t>(0x80 | (n - 4)));
      body.push_back(static_cast<uint8_t>(l << 6 | (d - 1) >> 8));
      body.push_back(static_cast<uint8_t>(d - 1));
      literals(l);
      copy(d, n);
    } else {  // 110 D nn ll, b1, b2, b3: N 5..1028, D 1..131072
      const size_t n = pick(5, 1028), d = pick(1, std::min<size_t>(131072, before));
      body.push_back(static_cast<uint8_t>(0xC0 | ((d - 1) >> 16) << 4 | ((n - 5) >> 8) << 2 | l));
      body.push_back(static_cast<uint8_t>((d - 1) >> 8));
      body.push_back(static_cast<uint8_t>(d - 1));
      body.push_back(static_cast<uint8_t>(n - 5));
      literals(l);
      copy(d, n);
    }
  }
  const size_t last = pick(0, 3);
  body.push_back(static_cast<uint8_t>(0xFC | last));
  literals(last);
  const auto size = static_cast<uint32_t>(s.output.size());
  s.bytes = {0x10, 0xFB, static_cast<uint8_t>(size >> 16), static_cast<uint8_t>(size >> 8),
             static_cast<uint8_t>(size)};
  s.bytes.insert(s.bytes.end(), body.begin(), body.end());
  return s;
}

// What a walk gives: the output's first `keep` bytes, its size and the input the walk read (the
// head walk's), or the refusal.
struct Outcome {
  std::optional<std::string> refused;
  std::optional<uint64_t> refused_at;
  std::vector<uint8_t> head;
  size_t size = 0;
  size_t input_read = 0;
  bool operator==(const Outcome&) const = default;
};

template <typename Walk>
Outcome outcome_of(Walk&& walk) {
  Outcome o;
  try {
    walk(o);
  } catch (const InputError& e) {
    o.refused = e.what();
    if (e.has_offset()) o.refused_at = e.offset();
  }
  return o;
}

Outcome whole_walk(const std::vector<uint8_t>& bytes, size_t keep) {
  return outcome_of([&](Outcome& o) {
    const auto out = refpack_decompress(bytes, "s");
    o.head.assign(out.begin(), out.begin() + static_cast<ptrdiff_t>(std::min(keep, out.size())));
    o.size = out.size();
  });
}

Outcome head_walk(const std::vector<uint8_t>& bytes, size_t keep) {
  return outcome_of([&](Outcome& o) {
    RefPackHead h = refpack_head(bytes, "s", keep);
    o.head = std::move(h.head);
    o.size = h.size;
    o.input_read = h.input_read;
  });
}

}  // namespace

TEST_CASE("SL-03: random streams of every command form decompress as their commands read") {
  std::mt19937 rng(17);
  size_t overlapping = 0, apart = 0;
  for (int round = 0; round < 300; ++round) {
    const RandomStream s = random_stream(rng, 1 + rng() % 200);
    CAPTURE(round);
    REQUIRE(refpack_decompress(s.bytes, "s") == s.output);
    overlapping += s.overlapping;
    apart += s.apart;
  }
  // Both kinds of copy were taken: repeating what it writes, and from further back.
  CHECK(overlapping > 100);
  CHECK(apart > 100);
}

TEST_CASE(
    "SL-03: refpack_head walks only the commands that give the first bytes: it keeps what "
    "refpack_decompress gives, and refuses what it refuses among them, at the same offset") {
  std::mt19937 rng(23);
  size_t refused = 0, accepted = 0, stopped_early = 0, broken_further = 0;
  for (int round = 0; round < 600; ++round) {
    RandomStream s = random_stream(rng, 1 + rng() % 40);
    std::vector<uint8_t> bytes = s.bytes;
    // Two of three are damaged: bytes changed (a size, a command, a distance) or the end cut.
    const int damage = round % 3;
    for (int i = 0; damage != 0 && i < 1 + round % 4; ++i) {
      const size_t at = rng() % bytes.size();
      if (damage == 1) bytes[at] = static_cast<uint8_t>(rng());
      if (damage == 2) bytes.resize(std::max<size_t>(at, 2));
    }
    for (size_t keep : {0, 1, 6, 64, 100000}) {
      CAPTURE(round);
      CAPTURE(keep);
      const Outcome whole = whole_walk(bytes, keep), head = head_walk(bytes, keep);
      if (head.refused) {
        // A refusal is the decoder's, word for word and at the same offset.
        CHECK(head.refused == whole.refused);
        CHECK(head.refused_at == whole.refused_at);
        ++refused;
        continue;
      }
      ++accepted;
      CHECK(head.input_read <= bytes.size());
      // It read nothing past input_read: those bytes alone give the same.
      const std::vector<uint8_t> read(bytes.begin(),
                                      bytes.begin() + static_cast<ptrdiff_t>(head.input_read));
      CHECK(head_walk(read, keep) == head);
      if (keep >= head.size) {
        // The head is the whole output: the whole stream was walked and checked, as the
        // decoder checks it.
        CHECK_FALSE(whole.refused);
      }
      if (!whole.refused) {
        CHECK(head.head == whole.head);
        CHECK(head.size == whole.size);
        // (Counted for a head of some bytes: for none, the header alone is read.)
        stopped_early += keep > 0 && head.input_read < bytes.size() ? 1 : 0;
      } else {
        // Broken only after the commands the head walk read.
        CHECK(keep < head.size);
        REQUIRE(whole.refused_at);
        CHECK(*whole.refused_at >= head.input_read);
        broken_further += keep > 0 ? 1 : 0;
      }
    }
  }
  CHECK(refused > 0);
  CHECK(accepted > 0);
  CHECK(stopped_early > 0);   // valid streams whose head came before their end
  CHECK(broken_further > 0);  // damaged streams whose head still came whole
}

TEST_CASE("SL-03: the matching encoder round-trips, and its copies shorten repeating data") {
  // Random bytes (few matches), runs of one byte (overlapping copies), a repeated block from
  // further back than 16 KiB (4-byte commands), and every length near the edges.
  std::vector<std::vector<uint8_t>> inputs;
  for (size_t n : {0, 1, 2, 3, 4, 5, 7, 8, 112, 113, 1000})
    inputs.push_back(shapevm::testing::random_bytes(n, static_cast<uint32_t>(n)));
  inputs.push_back(std::vector<uint8_t>(5000, 0x41));
  std::vector<uint8_t> far = shapevm::testing::random_bytes(20000, 5);
  far.insert(far.end(), far.begin(), far.begin() + 3000);
  inputs.push_back(far);
  for (const auto& data : inputs) {
    CAPTURE(data.size());
    const auto packed = refpack_compress(data);
    CHECK(starts_refpack(packed));
    CHECK(refpack_decompress(packed, "t") == data);
  }
  CHECK(refpack_compress(inputs[11]).size() < 100);  // 5,000 x 'A'
  // The 3,000 repeated bytes are a few copies instead of literals.
  CHECK(refpack_compress(far).size() < refpack_compress_literal(far).size() - 2900);
  // A generated model's image (the writer's records of floats and indices) round-trips too.
  const auto hog = generate_resource_hog(3, 2);
  const Hog h = read_hog(hog, "g.hog");
  for (const HogEntry& e : h.entries) {
    const auto image = member_image(hog, e, e.name);
    const auto packed = refpack_compress(image);
    CHECK(refpack_decompress(packed, e.name) == image);
    CHECK(packed.size() < image.size());
  }
}

}  // namespace shp_refpack_walks_tests
