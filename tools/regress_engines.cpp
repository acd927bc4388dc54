#include "tools/regress_engines.h"

namespace shapevm::tools {

harness::EngineRegistry builtin_case_engines() {
  harness::EngineRegistry engines;
  engines.add("fa", make_fa_case_renderer);
  return engines;
}

}  // namespace shapevm::tools
