// Tests of reading one member of a container in part (read_program_input): opening a member from
// the parts an engine loads and from the whole file, described as text to compare.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "core/input_error.h"
#include "harness/program_frame.h"
#include "interp/common/registry.h"

namespace shapevm::testing {

// Whether the `size` bytes at `offset` of a partly loaded file are all zero: never loaded (the
// tests' members never hold a run of zeros as long as a member).
inline bool never_loaded(std::span<const uint8_t> bytes, uint64_t offset, uint64_t size) {
  return std::all_of(bytes.begin() + static_cast<ptrdiff_t>(offset),
                     bytes.begin() + static_cast<ptrdiff_t>(offset + size),
                     [](uint8_t b) { return b == 0; });
}

// What opening `input` gives, as text: the program's info and listing, its run's outcome and
// the frame's pixels; or the refusal.
inline std::string opened(const EngineInput& input) {
  try {
    auto program = engine_for(input).open(input, {});
    const auto frame = harness::render_program(*program, {}, 0);
    const auto pixels = frame.frame.pixels();
    return program->info_text() + program->listing_text() + std::to_string(frame.outcome.ops) +
           "/" + std::to_string(frame.outcome.faces) + "/" + std::to_string(frame.faces_filled) +
           "/" + std::to_string(std::count(pixels.begin(), pixels.end(), uint8_t{0})) + "\n" +
           std::string(pixels.begin(), pixels.end());
  } catch (const InputError& e) {
    return std::string("refused: ") + e.what();
  }
}

// The whole file in a copy of its own: a read still held (here, by the registry's memory of the
// last bytes it recognised) would be handed to the next partial read instead.
inline std::string opened_whole(const std::string& spec) {
  EngineInput input = read_input(spec);
  input.bytes = SharedBytes(input.bytes.to_vector());
  return opened(input);
}

// The partial read, or why it was not one.
inline std::string opened_in_part(const std::string& spec, const std::string& path, bool& partial) {
  EngineInput input;
  try {
    input = read_program_input(spec, "", 0);
  } catch (const InputError& e) {
    partial = false;
    return std::string("refused: ") + e.what();
  }
  partial = !input.bytes.same_storage(read_file_shared(path)) && input.bytes != read_file(path);
  return opened(input);
}

// Opens `path`:`member` in part and whole, checks the two give the same program or the same
// refusal, and says whether it was read in part.
inline bool opens_alike(const std::string& path, const std::string& member) {
  const std::string spec = path + ":" + member;
  bool partial = false;
  CHECK(opened_in_part(spec, path, partial) == opened_whole(spec));
  return partial;
}

}  // namespace shapevm::testing
