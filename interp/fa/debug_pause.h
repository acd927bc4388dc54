// The FA interpreter's debug hook (debug_hook.h) seen as the engine-neutral pause interface
// (interp/common/pause.h): registers (the object position, the texture), the engine globals, the
// vertex pool (the memory view "pool": "pool[N].x|y|z|vx|vy|vz") and, inside an x86 block, the x86
// registers. It declares its native code as "x86".
#pragma once

#include <cstdint>

#include "interp/common/pause.h"
#include "interp/fa/debug_hook.h"
#include "interp/fa/shape.h"

namespace shapevm::fa {

// Forwards every pause of the interpreter to `handler` as a PausePoint.
class PauseBridge : public DebugHook {
 public:
  // `code_base`: where the sandbox maps CODE (native offsets are relative to it).
  PauseBridge(PauseHandler& handler, const Shape& shape, uint32_t code_base)
      : handler_(handler), shape_(shape), code_base_(code_base) {}
  bool pause(const DebugView& view) override;

 private:
  PauseHandler& handler_;
  const Shape& shape_;
  uint32_t code_base_;
};

}  // namespace shapevm::fa
