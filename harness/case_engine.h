// How the regression runner reaches an engine without knowing it: each engine registers, under
// its name ("fa", later "apache", ...), a factory of case renderers. The runner makes one renderer
// per worker thread and engine, so a renderer (and the interpreter inside) is never shared.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "harness/regress_manifest.h"
#include "raster/framebuffer.h"
#include "raster/palette.h"

namespace shapevm::harness {

struct RenderedCase {
  raster::Framebuffer frame;
  raster::Palette palette;            // the case's palette, as the engine reads its palette files
  std::vector<std::string> warnings;  // e.g. missing textures; reported, not failures
};

class CaseRenderer {
 public:
  virtual ~CaseRenderer() = default;
  // Runs the case's shape in its state and draws the frame. Throws InputError for bad input (a
  // missing or malformed file, a state the engine cannot take, a run that stopped on an error).
  virtual RenderedCase render(const RegressCase& c) = 0;
};

using CaseRendererFactory = std::function<std::unique_ptr<CaseRenderer>()>;

class EngineRegistry {
 public:
  // Registers (or replaces) the engine called `name`.
  void add(std::string name, CaseRendererFactory factory) {
    factories_[std::move(name)] = std::move(factory);
  }
  const CaseRendererFactory* find(std::string_view name) const {
    auto it = factories_.find(std::string(name));
    return it == factories_.end() ? nullptr : &it->second;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& [name, factory] : factories_) out.push_back(name);
    return out;
  }

 private:
  std::map<std::string, CaseRendererFactory> factories_;
};

}  // namespace shapevm::harness
