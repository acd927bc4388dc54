// The generated FA shapes the benchmarks run (seed 7 of the generator, as `shapevm gen` makes
// them), assembled and loaded.
#pragma once

#include <cstdint>

#include "interp/fa/assembler.h"
#include "interp/fa/generator.h"
#include "interp/fa/shape.h"

namespace shapevm::bench {

inline fa::Shape generated_fa_shape(uint32_t index) {
  const fa::AssembledShape assembled =
      fa::assemble_fa(fa::generate_fa_shape(7, index), "bench.fas");
  return fa::load_shape(assembled.file, "bench.SH");
}

}  // namespace shapevm::bench
