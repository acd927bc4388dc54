// Errors about bad input. Every reader reports where it stopped (file, byte offset) and what it
// expected there; the CLI turns an InputError into a message on stderr and exit code 2.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace shapevm {

class InputError : public std::runtime_error {
 public:
  // `source` names the input as the user gave it (e.g. "FA_2.LIB:A10.SH"); `offset` is a byte
  // offset inside that input; `expected` says what a well-formed file has there.
  InputError(std::string source, uint64_t offset, std::string expected);
  // An error about the input as a whole (missing file, usage of a container) with no offset.
  InputError(std::string source, std::string problem);

  const std::string& source() const { return source_; }
  bool has_offset() const { return has_offset_; }
  uint64_t offset() const { return offset_; }
  const std::string& expected() const { return expected_; }

 private:
  std::string source_;
  uint64_t offset_ = 0;
  bool has_offset_ = false;
  std::string expected_;
};

}  // namespace shapevm
