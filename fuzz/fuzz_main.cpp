// The libFuzzer entry point of one target, chosen at build time (SHAPEVM_FUZZ_TARGET names it:
// fuzz/CMakeLists.txt builds one program per entry of fuzz/targets.cpp).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "fuzz/targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto* target = shapevm::fuzzing::find_fuzz_target(SHAPEVM_FUZZ_TARGET);
  if (target == nullptr) std::abort();
  (void)target->run({data, size});
  return 0;
}
