// The state one drawing of a Starlancer model takes (docs/shp-drawing.md, "State"): the shared
// options --lod, --camera, --destroyed and --frame, and the --set names caps, light, clip,
// lod_rule, prefix and lightmaps. Parsed once per run; InputError names a malformed value.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "interp/common/state.h"

namespace shapevm::shp {

// Which reading of the level distances chooses a part's level (SL-15).
enum class LodRule : uint8_t {
  kSeed,    // a level applies beyond its distance (the seed)
  kPorted,  // a level's distance is its upper bound, the last one a cut-off (the ported selector)
};

struct DrawState {
  std::optional<uint32_t> lod;  // --lod: force this level (clamped to each part's last)
  LodRule lod_rule = LodRule::kSeed;
  bool caps = false;       // --set caps=1: draw cap faces (face flag bit 0)
  bool destroyed = false;  // --destroyed: draw damaged-model parts (part flag 0x04)
  // --camera distance,heading,pitch (distance in model units, 0 = fitted to the model).
  int64_t camera_distance = 0;
  int camera_heading = 0, camera_pitch = 0;
  std::array<int32_t, 3> light{};  // toward the light, model frame
  std::string clip;                // --set clip=NAME ("" = at rest)
  uint32_t frame = 0;              // --frame: 25 Hz steps into the clip
  std::string prefix;              // --set prefix=g|r|none: the texture lookup's context
  bool lightmaps = true;           // --set lightmaps=0: no l<name> pass for part flag 0x80
  int width = 640, height = 480;
};

DrawState parse_draw_state(const StateRequest& request);
nlohmann::json draw_state_to_json(const DrawState& state);
std::vector<Knob> draw_state_knobs();

}  // namespace shapevm::shp
