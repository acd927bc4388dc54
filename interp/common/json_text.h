// Writing JSON built from input files. Names read from a file are turned into UTF-8 where the JSON
// is built (core/text_bytes.h, latin1_to_utf8); what is left is prose that may quote a name's
// bytes (a diagnostic, a listing's comment, a member path). nlohmann's dump() throws on any string
// that is not UTF-8, so every command prints such JSON through dump_json, which turns each stray
// byte into its Latin-1 character (utf8_or_latin1) instead of failing.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/text_bytes.h"

namespace shapevm {

// `j` with `text` applied to every string and every object key.
template <class Json, class Text>
Json map_json_text(const Json& j, const Text& text) {
  if (j.is_string()) return text(j.template get_ref<const std::string&>());
  if (j.is_array()) {
    Json out = Json::array();
    for (const auto& v : j) out.push_back(map_json_text(v, text));
    return out;
  }
  if (!j.is_object()) return j;
  Json out = Json::object();
  for (const auto& [key, v] : j.items()) out[text(key)] = map_json_text(v, text);
  return out;
}

// `j` with every string and every object key valid UTF-8 (utf8_or_latin1).
template <class Json>
Json utf8_json(const Json& j) {
  return map_json_text(j, [](const std::string& s) { return utf8_or_latin1(s); });
}

// `j` with every string and every object key read as Latin-1 bytes (latin1_to_utf8): for JSON
// whose text is ASCII but for names read from a file (an FA listing line's operands).
template <class Json>
Json latin1_json(const Json& j) {
  return map_json_text(j, [](const std::string& s) { return latin1_to_utf8(s); });
}

// j.dump(indent), never failing on a byte that is not UTF-8 (see above). The common case (all
// text already UTF-8) dumps once, without a copy. `ascii`: every non-ASCII character written
// \uXXXX, as the trace writes its lines.
template <class Json>
std::string dump_json(const Json& j, int indent = -1, bool ascii = false) {
  try {
    return j.dump(indent, ' ', ascii);
  } catch (const typename Json::type_error& e) {
    if (e.id != 316) throw;  // 316: a string that is not UTF-8
    return utf8_json(j).dump(indent, ' ', ascii);
  }
}

}  // namespace shapevm
