#include "harness/json_input.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <optional>

#include "core/input_error.h"

namespace shapevm::harness {

namespace {

using nlohmann::json;

// A SAX handler that builds nothing and remembers where the parser gave up: the DOM parser's
// exceptions carry no position for some errors (out_of_range 406), the SAX interface always does.
struct FailurePosition {
  std::optional<JsonFailure> failure;

  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(json::number_integer_t) { return true; }
  bool number_unsigned(json::number_unsigned_t) { return true; }
  bool number_float(json::number_float_t, const json::string_t&) { return true; }
  bool string(json::string_t&) { return true; }
  bool binary(json::binary_t&) { return true; }
  bool start_object(std::size_t) { return true; }
  bool key(json::string_t&) { return true; }
  bool end_object() { return true; }
  bool start_array(std::size_t) { return true; }
  bool end_array() { return true; }
  bool parse_error(std::size_t position, const std::string& last_token, const json::exception& e) {
    // `position` counts the bytes read. A syntax error is at the last byte read; a number out of
    // range (406) was read whole, so the offset is where its token starts.
    std::size_t at = position > 0 ? position - 1 : 0;
    if (e.id == 406 && position >= last_token.size()) at = position - last_token.size();
    failure = JsonFailure{at, e.id, e.what()};
    return false;
  }
};

}  // namespace

std::optional<JsonFailure> find_json_failure(std::string_view text) {
  FailurePosition handler;
  json::sax_parse(text, &handler);
  return handler.failure;
}

json parse_json_input(std::string_view text, const std::string& source, uint64_t base_offset) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    const auto failure = find_json_failure(text);
    const uint64_t offset = failure ? failure->offset : 0;
    const bool range = failure ? failure->id == 406 : e.id == 406;
    throw InputError(
        source, base_offset + offset,
        fmt::format("{} ({})", range ? "a number within a double's range" : "valid JSON",
                    failure ? failure->message : e.what()));
  }
}

}  // namespace shapevm::harness
