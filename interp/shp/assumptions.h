// The Starlancer engine's decisions that are assumed rather than traced from the game, in one
// place (docs/shp.md, "Assumptions"). Where the published analyses disagree, the choice made here
// is named with the alternative.
#pragma once

#include <cstdint>

// The drawing's own assumptions (colours, light, blending, LOD rule, clips) are kept beside it.
#include "interp/shp/draw_assumptions.h"  // IWYU pragma: export

namespace shapevm::shp::assumed {

// A part holds at most this many levels of detail (the analyses say "up to nine"); a level chunk
// counting more is refused as input the engine's part struct cannot hold.
inline constexpr uint32_t kMaxLevels = 9;

// The header chunk: the loader keeps its first record only; nothing after model_load is assumed
// to read more (unverified in the seed). Later header records are dropped by a rewrite.
inline constexpr bool kHeaderFirstRecordOnly = true;

// The HOG's compression: a member is RefPack only when it starts 10 FB (the engine's test). One
// analysis calls HOG storage uncompressed; the shipped resource.hog members are nearly all RefPack.
// Both are read: the member's first bytes decide.
inline constexpr bool kRefPackByMagic = true;

// Clip 0x00 is read as an i32 length (another analysis: u16 and a zero u16); the same bytes either
// way for the shipped values.
// Turret kind 0xF4 is read as a u32 (another analysis: u16); the same bytes for the shipped values.
// Part origin: in the model frame whatever the parent (another analysis: relative to the parent).
// Point lists 0x0D/0x0E: kept as {kind, points}; index = vertex (another analysis: face groups,
// index = level-0 face). The loader copies them the same either way.
// Attachment kinds follow one analysis (0 missile hardpoint ... 9 docking); another names 0 gun
// hardpoint, 6 cockpit view. Only `info` prints kind names.

// A limit of shapevm's, not the engine's: records the loader may copy into one model, counted
// over every chunk it takes. A record may be 0 bytes long in the file, so a small file could
// otherwise ask for billions of structs. The largest generated capital ship holds ~60,000.
inline constexpr uint64_t kMaxRecords = 4'000'000;

// A loaded model's step budget: chunk headers examined (each request examines at least one).
inline constexpr uint64_t kDefaultMaxSteps = 20'000'000;

}  // namespace shapevm::shp::assumed
