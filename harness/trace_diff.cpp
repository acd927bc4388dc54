#include "harness/trace_diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "core/input_error.h"

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

std::optional<TraceEvent> parse_json_line(std::string_view line, size_t number,
                                          const std::string& source) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(line);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(source, fmt::format("line {}: expected a JSON object ({})", number, e.what()));
  }
  if (!j.is_object() || !j.contains("ev") || !j["ev"].is_string()) {
    throw InputError(source,
                     fmt::format("line {}: expected a JSON object with a string \"ev\"", number));
  }
  const std::string ev = j["ev"].get<std::string>();
  if (ev == "start") return std::nullopt;
  TraceEvent e;
  e.line = number;
  e.text = std::string(line);
  e.json = j.dump();
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
  return e;
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
      t.events.push_back(parse_plain(content, number, source));
    } else {
      if (content.empty()) continue;
      if (auto e = parse_json_line(content, number, source)) t.events.push_back(std::move(*e));
    }
  }
  if (!format_known) throw InputError(source, "the trace is empty (no events)");
  return t;
}

Trace read_trace(const std::filesystem::path& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  return parse_trace(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                     path.string());
}

TraceDivergence diff_traces(const Trace& ours, const Trace& theirs, size_t context) {
  const bool whole =
      ours.format == Trace::Format::kJsonLines && theirs.format == Trace::Format::kJsonLines;
  std::vector<const TraceEvent*> a, b;
  for (const auto& e : ours.events)
    if (whole || e.is_op) a.push_back(&e);
  for (const auto& e : theirs.events)
    if (whole || e.is_op) b.push_back(&e);

  TraceDivergence d;
  const size_t common = std::min(a.size(), b.size());
  std::string what;
  size_t i = 0;
  for (; i < common; ++i) {
    if (whole) {
      if (a[i]->json != b[i]->json) {
        what = a[i]->is_op && b[i]->is_op ? op_difference(*a[i], *b[i]) : "";
        if (what.empty()) what = "the events differ";
        break;
      }
    } else if (what = op_difference(*a[i], *b[i]); !what.empty()) {
      break;
    }
  }
  d.compared = i;
  if (i == common && a.size() == b.size()) {
    d.report = fmt::format("traces match: {} {}events\n", a.size(), whole ? "" : "opcode ");
    return d;
  }
  d.diverged = true;
  d.index = i;
  if (i == common) {
    what = a.size() < b.size() ? fmt::format("ours ends after {} events, theirs goes on", a.size())
                               : fmt::format("theirs ends after {} events, ours goes on", b.size());
  }
  d.report = fmt::format("first divergence at {}event {}: {}\n", whole ? "" : "opcode ", i, what);
  if (!whole && a.empty() && ours.format == Trace::Format::kJsonLines)
    d.report += "note: ours has no \"op\" events (traced with --no-ops?)\n";
  show(d.report, "ours", ours.source, a, i, context);
  show(d.report, "theirs", theirs.source, b, i, context);
  return d;
}

}  // namespace shapevm::harness
