// OffsetMap: every key inserted is found with its own value, through growth and through keys
// that land in the same slot; keys never inserted are not found.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "core/offset_map.h"

namespace core_offset_map_tests {

using shapevm::OffsetMap;

TEST_CASE("OffsetMap: an empty map finds nothing") {
  OffsetMap<int> map;
  CHECK(map.find(0) == nullptr);
  CHECK(map.find(0xFFFFFFFFu) == nullptr);
  CHECK(map.size() == 0);
}

TEST_CASE("OffsetMap: every key keeps its own value as the table grows") {
  // Close keys, as the offsets of adjacent instructions are, and keys that differ only in their
  // high bits: 5,000 in all, so the table grows from 16 slots to 16,384.
  std::vector<uint32_t> keys;
  for (uint32_t i = 0; i < 2500; ++i) keys.push_back(i * 3);
  for (uint32_t i = 1; i <= 2500; ++i) keys.push_back(i << 16);
  std::vector<int> values(keys.size());
  OffsetMap<int> map;
  for (size_t i = 0; i < keys.size(); ++i) {
    map.insert(keys[i], &values[i]);
    // The key just inserted and the first one stay found at every size.
    REQUIRE(map.find(keys[i]) == &values[i]);
    REQUIRE(map.find(keys[0]) == &values[0]);
  }
  CHECK(map.size() == keys.size());
  size_t wrong = 0;
  for (size_t i = 0; i < keys.size(); ++i) wrong += map.find(keys[i]) != &values[i];
  CHECK(wrong == 0);
  // Keys between and beyond the inserted ones are absent.
  CHECK(map.find(1) == nullptr);
  CHECK(map.find(2500 * 3) == nullptr);
  CHECK(map.find((2501u << 16)) == nullptr);
  CHECK(map.find(0xFFFFFFFFu) == nullptr);
}

TEST_CASE("OffsetMap: keys that hash to one slot are all found") {
  // Six keys whose hash picks slot 5 of the first table (16 slots, which holds up to 8 before it
  // grows): each one probes past the ones inserted before it.
  OffsetMap<int> probe;
  std::vector<int> values(6);
  std::vector<uint32_t> same_slot;
  for (uint32_t k = 0; same_slot.size() < values.size(); ++k)
    if (((k * 0x9E3779B1u) >> 28) == 5) same_slot.push_back(k);
  for (size_t i = 0; i < same_slot.size(); ++i) probe.insert(same_slot[i], &values[i]);
  for (size_t i = 0; i < same_slot.size(); ++i) CHECK(probe.find(same_slot[i]) == &values[i]);
  CHECK(probe.find(same_slot.back() + 1) == nullptr);
}

}  // namespace core_offset_map_tests
