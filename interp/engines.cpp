// The one list of engines (DESIGN.md): adding an engine is one folder under interp/ and one line
// here. Nothing else in the project names an engine.
#include "interp/apache/engine.h"
#include "interp/common/registry.h"
#include "interp/fa/engine.h"
#include "interp/shp/engine.h"

namespace shapevm {

std::vector<std::unique_ptr<Engine>> make_registered_engines() {
  std::vector<std::unique_ptr<Engine>> out;
  out.push_back(fa::make_engine());
  out.push_back(apache::make_engine());
  out.push_back(shp::make_engine());
  return out;
}

}  // namespace shapevm
