#include "interp/fa/run_state.h"

#include <fmt/format.h>

#include <charconv>

#include "core/input_error.h"
#include "interp/common/state.h"
#include "interp/fa/engine_globals.h"

namespace shapevm::fa {
namespace {

int64_t parse_value(const std::string& text, const std::string& assignment) {
  std::string_view s(text);
  bool negative = false;
  if (!s.empty() && s[0] == '-') {
    negative = true;
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size())
    throw InputError("--set " + assignment,
                     "expected NAME=VALUE with an integer value (decimal or 0x hex)");
  return negative ? -v : v;
}

}  // namespace

bool is_settable_global(std::string_view name) {
  for (const char* n :
       {"_frameCounter", "_detail", "_effects", "_destroyed", "aspecty", "scrh", "sizeAdjust"})
    if (name == n) return true;
  return false;
}

void apply_set(RunState& state, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("--set " + assignment, "expected NAME=VALUE");
  std::string name = assignment.substr(0, eq);
  const int64_t value = parse_value(assignment.substr(eq + 1), assignment);
  if (parse_address_name(name)) {
    // An engine global by its address in the original executable (engine_globals.h).
    const auto global = find_engine_address_or_name(name);
    if (!global || global->kind != EngineAddressKind::kGlobal)
      throw InputError(
          "--set " + assignment,
          fmt::format("no engine global at {} (see docs/trace.md, \"Engine globals\")", name));
    if (!is_settable_global(global->name))
      throw InputError(
          "--set " + assignment,
          fmt::format("{} is {}, which the camera sets (--camera), not --set", name, global->name));
    name = std::string(global->name);
  }
  if (name == "_frameCounter") {
    state.frame = static_cast<uint32_t>(value);
  } else if (name == "_detail") {
    state.detail = static_cast<uint16_t>(value);
  } else if (name == "_effects") {
    state.effects = static_cast<uint32_t>(value);
  } else if (name == "_destroyed") {
    state.destroyed = value != 0;
  } else if (name == "_forceDestroyed") {
    state.force_destroyed = value != 0;
  } else if (name == "health") {
    // The object record's health word (+0x0E); 0 means destroyed (FA-44).
    state.object_record[0x0E] = static_cast<uint8_t>(value & 0xFF);
    state.object_record[0x0F] = static_cast<uint8_t>((value >> 8) & 0xFF);
    state.destroyed = (value & 0xFFFF) == 0;
  } else if (name == "aspecty") {
    state.aspecty = static_cast<int32_t>(value);
  } else if (name == "scrh") {
    state.scrh = static_cast<int32_t>(value);
  } else if (name == "sizeAdjust") {
    state.size_adjust = static_cast<int32_t>(value);
  } else if (name.rfind("_v+", 0) == 0 || name.rfind("record+", 0) == 0) {
    // An object-record byte: record+0x0E=0 (or _v+0x0E=0).
    const int64_t at = parse_value(name.substr(name.find('+') + 1), assignment);
    if (at < 0 || at + 1 >= static_cast<int64_t>(state.object_record.size()))
      throw InputError("--set " + assignment,
                       "object record offsets are 0..0xFE (a 16-bit word is written)");
    state.object_record[at] = static_cast<uint8_t>(value & 0xFF);
    state.object_record[at + 1] = static_cast<uint8_t>((value >> 8) & 0xFF);
  } else {
    state.imports[name] = value;
  }
}

}  // namespace shapevm::fa
