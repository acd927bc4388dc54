// libFuzzer target: the decompressors on their own, with the output caps they run under. The
// first byte picks the decoder; the rest is the stream.
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/input_error.h"
#include "interp/bi2/tpwm.h"
#include "interp/fa/dcl_explode.h"
#include "interp/shp/refpack.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::span<const uint8_t> stream(data + 1, size - 1);
  try {
    switch (data[0] % 3) {
      case 0:
        (void)shapevm::fa::dcl_explode(stream, "fuzz-input", 1 << 20);
        break;
      case 1:
        (void)shapevm::bi2::tpwm_decode(stream, "fuzz-input");
        break;
      case 2:
        (void)shapevm::shp::refpack_decompress(stream, "fuzz-input");
        break;
    }
  } catch (const shapevm::InputError&) {
  }
  return 0;
}
