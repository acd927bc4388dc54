#include "harness/trace_diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "core/input_error.h"
#include "harness/json_input.h"
#include "interp/common/state.h"

namespace shapevm::harness {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool all_of(std::string_view s, int (*pred)(int)) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [pred](unsigned char c) { return pred(c); });
}

// "0x1A2", "1A2h" (hex) or "418" (decimal); nullopt for anything else (e.g. a handler name).
std::optional<uint64_t> parse_number(std::string_view s) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  } else if (s.size() > 1 && (s.back() == 'h' || s.back() == 'H') &&
             std::isdigit(static_cast<unsigned char>(s[0]))) {
    s.remove_suffix(1);
    base = 16;
  }
  if (base == 16 ? !all_of(s, isxdigit) : !all_of(s, isdigit)) return std::nullopt;
  if (s.size() > 16) return std::nullopt;
  return std::stoull(std::string(s), nullptr, base);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

TraceEvent parse_plain(std::string_view line, size_t number, const std::string& source) {
  std::vector<std::string_view> fields;
  size_t at = 0;
  while (at < line.size()) {
    while (at < line.size() && std::isspace(static_cast<unsigned char>(line[at]))) ++at;
    size_t end = at;
    while (end < line.size() && !std::isspace(static_cast<unsigned char>(line[end]))) ++end;
    if (end > at) fields.push_back(line.substr(at, end - at));
    at = end;
  }
  if (fields.size() != 2) {
    throw InputError(source, fmt::format("line {}: expected \"offset handler\" (2 fields), got {}",
                                         number, fields.size()));
  }
  TraceEvent e;
  e.line = number;
  e.text = std::string(line);
  e.is_op = true;
  auto offset = parse_number(fields[0]);
  if (!offset) {
    throw InputError(source, fmt::format("line {}: expected an offset (0x1A2, 1A2h or decimal), "
                                         "got \"{}\"",
                                         number, fields[0]));
  }
  e.offset = *offset;
  if (auto address = parse_number(fields[1]))
    e.handler_address = address;
  else
    e.handler_names.push_back(lower(std::string(fields[1])));
  return e;
}

void read_start_globals(const nlohmann::json& start, size_t number, const std::string& source,
                        std::vector<TraceGlobal>& out);

// One JSON line: an event, or nullopt for "start" (whose state.globals go to `globals`).
std::optional<TraceEvent> parse_json_line(std::string_view line, size_t number,
                                          const std::string& source,
                                          std::vector<TraceGlobal>& globals) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(line);
  } catch (const nlohmann::json::exception& e) {
    // Any failure, a number beyond a double's range (1e400) included, names line and column.
    const auto failure = find_json_failure(line);
    throw InputError(source, fmt::format("line {}: expected a JSON object (column {}: {})", number,
                                         failure ? failure->offset + 1 : 1,
                                         failure ? failure->message : e.what()));
  }
  if (!j.is_object() || !j.contains("ev") || !j["ev"].is_string()) {
    throw InputError(source,
                     fmt::format("line {}: expected a JSON object with a string \"ev\"", number));
  }
  const std::string ev = j["ev"].get<std::string>();
  if (ev == "start") {
    read_start_globals(j, number, source, globals);
    return std::nullopt;
  }
  TraceEvent e;
  e.line = number;
  e.text = std::string(line);
  if (ev == "op") {
    if (!j.contains("off") || !j["off"].is_number_unsigned()) {
      throw InputError(
          source,
          fmt::format("line {}: an \"op\" event needs \"off\" (an unsigned integer)", number));
    }
    e.is_op = true;
    e.offset = j["off"].get<uint64_t>();
    if (j.contains("handler")) {
      if (!j["handler"].is_string() || !parse_number(j["handler"].get<std::string>())) {
        throw InputError(source, fmt::format("line {}: \"handler\" must be an address string like "
                                             "\"0x4D30E4\"",
                                             number));
      }
      e.handler_address = parse_number(j["handler"].get<std::string>());
    }
    for (const char* key : {"name", "symbol"}) {
      if (j.contains(key) && j[key].is_string()) e.handler_names.push_back(lower(j[key]));
    }
  }
  e.object = std::move(j);
  return e;
}

// A signed integer in decimal or 0x hex (a global's value in a plain trace).
std::optional<int64_t> parse_value(std::string_view s) {
  const bool negative = !s.empty() && s[0] == '-';
  if (negative) s.remove_prefix(1);
  const auto v = parse_number(s);
  if (!v || *v > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
  return negative ? -static_cast<int64_t>(*v) : static_cast<int64_t>(*v);
}

// `NAME=VALUE` in a plain trace: a global's value at the start of the run.
TraceGlobal parse_plain_global(std::string_view line, size_t number, const std::string& source) {
  const size_t eq = line.find('=');
  const std::string_view name = trim(line.substr(0, eq));
  const std::string_view text = trim(line.substr(eq + 1));
  const auto value = parse_value(text);
  if (name.empty() || name.find_first_of(" \t") != std::string_view::npos || !value) {
    throw InputError(source, fmt::format("line {}: expected \"GLOBAL=VALUE\" (a name or an "
                                         "address like 0x515EEE, an integer), got \"{}\"",
                                         number, line));
  }
  TraceGlobal g;
  g.name = std::string(name);
  g.address = parse_address_name(name);
  g.value = *value;
  g.line = number;
  return g;
}

// A start line's state.globals: {"NAME": {"addr": "0x..", "value": V}} or {"0x515EEE": V}.
void read_start_globals(const nlohmann::json& start, size_t number, const std::string& source,
                        std::vector<TraceGlobal>& out) {
  if (!start.contains("state") || !start["state"].is_object()) return;
  const nlohmann::json& state = start["state"];
  if (!state.contains("globals")) return;
  if (!state["globals"].is_object())
    throw InputError(source, fmt::format("line {}: \"state.globals\" must be an object", number));
  for (const auto& [name, v] : state["globals"].items()) {
    TraceGlobal g;
    g.name = name;
    g.address = parse_address_name(name);
    g.line = number;
    const nlohmann::json* value = &v;
    if (v.is_object()) {
      if (v.contains("addr")) {
        const auto addr =
            v["addr"].is_string() ? parse_address_name(v["addr"].get<std::string>()) : std::nullopt;
        if (!addr)
          throw InputError(source, fmt::format("line {}: state.globals.{}.addr must be an "
                                               "address string like \"0x515EEE\"",
                                               number, name));
        g.address = addr;
      }
      value = v.contains("value") ? &v["value"] : nullptr;
    }
    // An unsigned value beyond int64 (2^63 and up) is no global's value either.
    if (!value || !value->is_number_integer() ||
        (value->is_number_unsigned() && value->get<uint64_t>() > uint64_t{INT64_MAX}))
      throw InputError(source, fmt::format("line {}: state.globals.{} must be an integer or "
                                           "{{\"addr\": .., \"value\": integer}}",
                                           number, name));
    g.value = value->get<int64_t>();
    out.push_back(std::move(g));
  }
}

// Which global name goes with which address, learned from the traces themselves (our traces
// write both), so either side may name a global either way.
class GlobalNames {
 public:
  void learn(const std::string& name, uint64_t address) {
    if (parse_address_name(name)) return;  // an address is not a name
    by_address_.emplace(address, name);
    by_name_.emplace(name, address);
  }
  void learn(const Trace& t) {
    for (const auto& g : t.globals)
      if (g.address) learn(g.name, *g.address);
    for (const auto& e : t.events) learn_from(e.object);
  }
  // The name for an address of a known global; anything else unchanged.
  std::string canonical(const std::string& text) const {
    if (const auto a = parse_address_name(text))
      if (auto it = by_address_.find(*a); it != by_address_.end()) return it->second;
    return text;
  }
  // The address of a known global's name.
  std::optional<uint64_t> address_of(const std::string& name) const {
    if (auto it = by_name_.find(name); it != by_name_.end()) return it->second;
    return std::nullopt;
  }
  // "_detail (0x515EEE)" for a known global (by name or address), the text otherwise.
  std::string describe(const std::string& text) const {
    const std::string name = canonical(text);
    if (const auto address = address_of(name)) return fmt::format("{} (0x{:X})", name, *address);
    return text;
  }

 private:
  void learn_from(const nlohmann::json& j) {
    if (!j.is_object()) return;
    if (j.contains("global") && j["global"].is_string() && j.contains("addr") &&
        j["addr"].is_string())
      if (const auto a = parse_address_name(j["addr"].get<std::string>()))
        learn(j["global"].get<std::string>(), *a);
  }
  std::map<uint64_t, std::string> by_address_;
  std::map<std::string, uint64_t> by_name_;
};

// An event in canonical form: every global named by its name (an address string of a known
// global becomes the name, in keys and values alike), and an "addr" that only repeats the
// address of the "global" beside it dropped. What remains differs only where the runs did.
nlohmann::json canonical(const nlohmann::json& j, const GlobalNames& names) {
  if (j.is_string()) return names.canonical(j.get<std::string>());
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& v : j) out.push_back(canonical(v, names));
    return out;
  }
  if (!j.is_object()) return j;
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, v] : j.items()) out[names.canonical(key)] = canonical(v, names);
  if (out.contains("global") && out.contains("addr") && out["addr"] == out["global"])
    out.erase("addr");
  return out;
}

// A value for a report; a global's name with its address: "_detail" (0x515EEE).
std::string shown(const nlohmann::json& v, const GlobalNames& names) {
  if (v.is_string())
    if (const auto address = names.address_of(v.get<std::string>()))
      return fmt::format("{} (0x{:X})", v.dump(), *address);
  return v.dump();
}

// The first field that differs between two canonical events, with both values: "taken": false vs
// true. "ev" and "off" are looked at first, then the other fields in name order; nested objects
// and arrays give a path ("indices[2]"). Empty when they are equal.
std::string field_difference(const nlohmann::json& a, const nlohmann::json& b,
                             const std::string& path, const GlobalNames& names) {
  if (a == b) return {};
  const auto at = [&](const std::string& key) { return path.empty() ? key : path + "." + key; };
  if (a.is_object() && b.is_object()) {
    std::vector<std::string> keys;
    for (const char* first : {"ev", "off"})
      if (a.contains(first) || b.contains(first)) keys.emplace_back(first);
    const auto first_sorted = static_cast<std::ptrdiff_t>(keys.size());
    for (const auto& side : {&a, &b})
      for (const auto& [key, v] : side->items())
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    std::sort(keys.begin() + first_sorted, keys.end());
    for (const auto& key : keys) {
      if (!b.contains(key))
        return fmt::format("\"{}\" only in ours ({})", at(key), shown(a[key], names));
      if (!a.contains(key))
        return fmt::format("\"{}\" only in theirs ({})", at(key), shown(b[key], names));
      if (auto d = field_difference(a[key], b[key], at(key), names); !d.empty()) return d;
    }
    return {};
  }
  if (a.is_array() && b.is_array()) {
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
      if (auto d = field_difference(a[i], b[i], fmt::format("{}[{}]", path, i), names); !d.empty())
        return d;
    return fmt::format("\"{}\": {} vs {} elements", path, a.size(), b.size());
  }
  return fmt::format("\"{}\": {} vs {}", path, shown(a, names), shown(b, names));
}

// Empty when the two op events agree; otherwise what differs.
std::string op_difference(const TraceEvent& a, const TraceEvent& b) {
  if (a.offset != b.offset) return fmt::format("offset 0x{:x} vs 0x{:x}", a.offset, b.offset);
  if (a.handler_address && b.handler_address) {
    if (*a.handler_address == *b.handler_address) return {};
    return fmt::format("at offset 0x{:x}: handler 0x{:X} vs 0x{:X}", a.offset, *a.handler_address,
                       *b.handler_address);
  }
  if (!a.handler_names.empty() && !b.handler_names.empty()) {
    for (const auto& n : a.handler_names) {
      if (std::find(b.handler_names.begin(), b.handler_names.end(), n) != b.handler_names.end())
        return {};
    }
    return fmt::format("at offset 0x{:x}: handler {} vs {}", a.offset, a.handler_names.front(),
                       b.handler_names.front());
  }
  return fmt::format("at offset 0x{:x}: the handlers cannot be compared ({} has no {})", a.offset,
                     a.handler_address ? "theirs" : "ours", a.handler_address ? "address" : "name");
}

void show(std::string& out, const char* side, const std::string& source,
          const std::vector<const TraceEvent*>& events, size_t index, size_t context) {
  out += fmt::format("{} ({}):\n", side, source);
  const size_t first = index > context ? index - context : 0;
  const size_t last = std::min(events.size(), index + context + 1);
  for (size_t i = first; i < last; ++i) {
    out += fmt::format("  {} line {:>6}: {}\n", i == index ? ">" : " ", events[i]->line,
                       events[i]->text);
  }
  if (index >= events.size())
    out += fmt::format("  > (end of trace after {} events)\n", events.size());
}

}  // namespace

Trace parse_trace(std::string_view text, const std::string& source) {
  Trace t;
  t.source = source;
  bool format_known = false;
  size_t number = 0;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::string_view content = trim(line);
    if (!format_known) {
      if (content.empty() || content[0] == '#') continue;
      t.format = content[0] == '{' ? Trace::Format::kJsonLines : Trace::Format::kPlain;
      format_known = true;
    }
    if (t.format == Trace::Format::kPlain) {
      const size_t hash = content.find('#');
      if (hash != std::string_view::npos) content = trim(content.substr(0, hash));
      if (content.empty()) continue;
      if (content.find('=') != std::string_view::npos) {
        // The state the original ran in comes before what it did.
        if (!t.events.empty())
          throw InputError(source, fmt::format("line {}: a global's value (GLOBAL=VALUE) after "
                                               "the first \"offset handler\" line; give the "
                                               "start state first",
                                               number));
        t.globals.push_back(parse_plain_global(content, number, source));
        continue;
      }
      t.events.push_back(parse_plain(content, number, source));
    } else {
      if (content.empty()) continue;
      try {
        if (auto e = parse_json_line(content, number, source, t.globals))
          t.events.push_back(std::move(*e));
      } catch (const nlohmann::json::exception& e) {
        // A field of the wrong type that no check above caught: still this line's fault.
        throw InputError(source, fmt::format("line {}: {}", number, e.what()));
      }
    }
  }
  if (!format_known || (t.events.empty() && t.globals.empty()))
    throw InputError(source, "the trace is empty (no events)");
  return t;
}

Trace read_trace(const std::filesystem::path& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  return parse_trace(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                     path.string());
}

TraceDivergence diff_traces(const Trace& ours, const Trace& theirs, size_t context) {
  GlobalNames names;
  names.learn(ours);
  names.learn(theirs);
  TraceDivergence d;
  std::string notes;
  // The start state: every global both traces give, by name or by address.
  for (const auto& g : theirs.globals) {
    const std::string name = names.canonical(g.name);
    const auto mine = std::find_if(ours.globals.begin(), ours.globals.end(),
                                   [&](const auto& o) { return names.canonical(o.name) == name; });
    if (mine == ours.globals.end()) {
      if (ours.format == Trace::Format::kJsonLines && !ours.globals.empty())
        notes += fmt::format("note: theirs gives {}={} (line {}), which ours does not trace\n",
                             g.name, g.value, g.line);
      continue;
    }
    if (mine->value != g.value)
      d.state_differences.push_back(
          fmt::format("{}: {} vs {}", names.describe(name), mine->value, g.value));
  }

  const bool whole =
      ours.format == Trace::Format::kJsonLines && theirs.format == Trace::Format::kJsonLines;
  std::vector<const TraceEvent*> a, b;
  for (const auto& e : ours.events)
    if (whole || e.is_op) a.push_back(&e);
  for (const auto& e : theirs.events)
    if (whole || e.is_op) b.push_back(&e);

  const size_t common = std::min(a.size(), b.size());
  std::string what;
  size_t i = 0;
  for (; i < common; ++i) {
    if (whole) {
      const nlohmann::json x = canonical(a[i]->object, names);
      const nlohmann::json y = canonical(b[i]->object, names);
      if (x != y) {
        what = a[i]->is_op && b[i]->is_op ? op_difference(*a[i], *b[i]) : "";
        if (what.empty()) what = field_difference(x, y, "", names);
        break;
      }
    } else if (what = op_difference(*a[i], *b[i]); !what.empty()) {
      break;
    }
  }
  d.compared = i;
  std::string state;
  if (!d.state_differences.empty()) {
    state = "the runs start in different states:\n";
    for (const auto& s : d.state_differences) state += "  " + s + "\n";
  }
  if (i == common && a.size() == b.size()) {
    d.diverged = !d.state_differences.empty();
    d.index = i;
    d.report =
        state + notes +
        fmt::format("{} {} {}events\n", d.diverged ? "events match:" : "traces match:", a.size(),
                    whole ? "" : "opcode ");
    return d;
  }
  d.diverged = true;
  d.index = i;
  if (i == common) {
    what = a.size() < b.size() ? fmt::format("ours ends after {} events, theirs goes on", a.size())
                               : fmt::format("theirs ends after {} events, ours goes on", b.size());
  }
  d.report = state + notes +
             fmt::format("first divergence at {}event {}: {}\n", whole ? "" : "opcode ", i, what);
  if (!whole && a.empty() && ours.format == Trace::Format::kJsonLines)
    d.report += "note: ours has no \"op\" events (traced with --no-ops?)\n";
  show(d.report, "ours", ours.source, a, i, context);
  show(d.report, "theirs", theirs.source, b, i, context);
  return d;
}

}  // namespace shapevm::harness
