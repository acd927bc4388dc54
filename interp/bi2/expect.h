// The readers' one way to reject input: "SOURCE: offset 0xN: expected WHAT" (core/input_error.h),
// so every message says where and what a well-formed file has there.
#pragma once

#include <string>

#include "core/byte_reader.h"

namespace shapevm::bi2 {

[[noreturn]] inline void expected(const ByteReader& r, size_t offset, const std::string& what) {
  r.fail(offset, "expected " + what);
}

}  // namespace shapevm::bi2
