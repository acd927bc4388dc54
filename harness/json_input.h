// Reading JSON that a user hands over (a regression manifest, a trace, a DAP message). nlohmann
// throws more than parse_error: a number beyond a double's range (1e400) is out_of_range 406, and
// neither says which file. Every reader parses through parse_json_input, which turns every failure
// into an InputError naming the input and the byte offset where the reader stopped.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace shapevm::harness {

// `text` as JSON. Throws InputError(source, base_offset + offset, "valid JSON ...") on malformed
// text and on a number out of range, the offset being where the offending token starts.
nlohmann::json parse_json_input(std::string_view text, const std::string& source,
                                uint64_t base_offset = 0);

// Where parsing `text` stops: the byte offset of the token nlohmann rejects and its message;
// nullopt when `text` parses.
struct JsonFailure {
  uint64_t offset = 0;
  int id = 0;  // nlohmann's exception id: 1xx syntax, 406 a number out of range
  std::string message;
};
std::optional<JsonFailure> find_json_failure(std::string_view text);

}  // namespace shapevm::harness
