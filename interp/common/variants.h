// The `variants` request and report (Engine::variants). Kept out of engine.h because the report
// holds a JSON value, and the full JSON library costs every file that includes it about three
// seconds to compile: engine.h is included by nearly every file, this one by few.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "interp/common/engine.h"
#include "interp/common/state.h"

namespace shapevm {

// The whole-model variants an engine derives for an object type and which it draws for an object
// in a given state (FA: the damage variants of seed 002).
struct VariantsRequest {
  std::string name;                      // the type's program name ("A10.SH")
  std::vector<Setting> settings;         // the object's state: "class", "health", "damage-set", ...
  std::optional<EngineInput> container;  // check the names against this container's members
};
struct VariantsReport {
  std::string text;
  nlohmann::json json;
  size_t missing = 0;  // names the container lacks
};

}  // namespace shapevm
