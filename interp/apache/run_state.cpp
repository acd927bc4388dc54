#include "interp/apache/run_state.h"

#include <fmt/format.h>

#include <vector>

#include "core/input_error.h"

namespace shapevm::apache {
namespace {

int64_t parse_integer(const std::string& text, const std::string& context) {
  try {
    size_t used = 0;
    const long long v = std::stoll(text, &used, 0);
    if (used != text.size()) throw std::invalid_argument(text);
    return v;
  } catch (const std::exception&) {
    throw InputError("--set " + context, fmt::format("expected an integer, found \"{}\"", text));
  }
}

int32_t parse_i32(const std::string& text, const std::string& context) {
  const int64_t v = parse_integer(text, context);
  if (v < INT32_MIN || v > INT32_MAX)
    throw InputError("--set " + context, "expected a value that fits in 32 bits");
  return static_cast<int32_t>(v);
}

uint32_t parse_u32(const std::string& text, const std::string& context) {
  const int64_t v = parse_integer(text, context);
  if (v < 0 || v > UINT32_MAX)
    throw InputError("--set " + context, "expected a value 0..4294967295");
  return static_cast<uint32_t>(v);
}

}  // namespace

void apply_set(RunState& s, const std::string& assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("--set " + assignment, "expected NAME=VALUE");
  const std::string name = assignment.substr(0, eq);
  const std::string value = assignment.substr(eq + 1);
  if (name == "anim") {
    s.anim = parse_u32(value, assignment);
  } else if (name == "lod") {
    s.lod = parse_u32(value, assignment);
  } else if (name == "light") {
    std::vector<int32_t> parts;
    size_t start = 0;
    while (true) {
      const size_t comma = value.find(',', start);
      parts.push_back(parse_i32(value.substr(start, comma - start), assignment));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (parts.size() != 3 || (parts[0] == 0 && parts[1] == 0 && parts[2] == 0))
      throw InputError("--set " + assignment, "expected light=x,y,z, not all zero");
    s.light = {parts[0], parts[1], parts[2]};
  } else if (name == "shadows") {
    s.shadows = parse_integer(value, assignment) != 0;
  } else if (name == "gouraud") {
    s.gouraud = parse_integer(value, assignment) != 0;
  } else if (name == "cull_primaries") {
    s.cull_primaries = parse_integer(value, assignment) != 0;
  } else if (name == "secondary_length") {
    if (value == "whole") {
      s.secondary_length = SecondaryLength::kWhole;
    } else if (value == "packet") {
      s.secondary_length = SecondaryLength::kAfterItself;
    } else {
      throw InputError("--set " + assignment,
                       "expected secondary_length=whole (the byte counts the whole packet, "
                       "itself included: the seed) or secondary_length=packet (from the type "
                       "byte on)");
    }
  } else if (name == "ground") {
    s.ground = parse_i32(value, assignment);
  } else if (name == "cloud") {
    s.cloud = parse_i32(value, assignment);
  } else if (name == "receiver") {
    s.receiver = parse_u32(value, assignment);
  } else if (name == "receiver_heading") {
    s.receiver_heading = parse_i32(value, assignment);
  } else if (name.rfind("slot", 0) == 0 && name.size() > 4) {
    s.slots[parse_u32(name.substr(4), assignment)] = parse_u32(value, assignment);
  } else {
    throw InputError(
        "--set " + assignment,
        "unknown Apache state name (anim, lod, light, shadows, gouraud, cull_primaries, "
        "secondary_length, ground, cloud, receiver, receiver_heading, slotN)");
  }
}

}  // namespace shapevm::apache
