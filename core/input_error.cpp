#include "core/input_error.h"

#include <fmt/format.h>

namespace shapevm {

InputError::InputError(std::string source, uint64_t offset, std::string expected)
    : std::runtime_error(fmt::format("{}: offset 0x{:x}: {}", source, offset, expected)),
      source_(std::move(source)),
      offset_(offset),
      has_offset_(true),
      expected_(std::move(expected)) {}

InputError::InputError(std::string source, std::string problem)
    : std::runtime_error(fmt::format("{}: {}", source, problem)),
      source_(std::move(source)),
      expected_(std::move(problem)) {}

}  // namespace shapevm
