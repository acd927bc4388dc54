// Compares an execution trace of ours with a reference trace and finds the first divergence.
// A trace is either our JSON Lines (docs/trace.md) or plain text of `offset handler` lines as a
// trace of the original engine gives: offsets hex (0x1A2 or 1A2h) or decimal, the handler as an
// address (0x4D30E4 or 4D30E4h) or a name; `GLOBAL=VALUE` lines before the first of them give
// the state the original ran in, a global named by its name or its address (0x515EEE=1). '#'
// starts a comment; blank lines are skipped.
//
// A global may be named by its name or by its address in the original executable on either side:
// our traces carry both (the start line's state.globals, a branch's "global" and "addr"), and the
// diff learns which name goes with which address from them, so no engine is named here.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shapevm::harness {

struct TraceEvent {
  size_t line = 0;   // 1-based line in the file
  std::string text;  // the line as written, for reports
  // Comparable content. For plain traces and for the "op" lines of JSON Lines: the offset and the
  // handler (address and/or names). For every JSON Lines event: the whole object (`object`).
  bool is_op = false;
  uint64_t offset = 0;
  std::optional<uint64_t> handler_address;
  std::vector<std::string> handler_names;  // JSON: mnemonic and symbol; plain: the name given
  nlohmann::json object;                   // JSON Lines events
};

// A global's value at the start of the run, as a trace states it.
struct TraceGlobal {
  std::string name;                 // as written: a name ("_detail") or an address ("0x515EEE")
  std::optional<uint64_t> address;  // the address written beside the name, or the name itself
  int64_t value = 0;
  size_t line = 0;
};

struct Trace {
  enum class Format { kJsonLines, kPlain };
  std::string source;
  Format format = Format::kPlain;
  std::vector<TraceEvent> events;    // JSON Lines: every event but "start"
  std::vector<TraceGlobal> globals;  // JSON Lines: start's state.globals; plain: NAME=VALUE lines
};

// Throws InputError(source, "line N: ...") on a malformed line. The format is taken from the
// first non-blank, non-comment line ('{' = JSON Lines).
Trace parse_trace(std::string_view text, const std::string& source);
Trace read_trace(const std::filesystem::path& path);

struct TraceDivergence {
  bool diverged = false;
  // Globals both traces give whose start values differ: "_detail (0x515EEE): 65535 vs 1".
  std::vector<std::string> state_differences;
  size_t index = 0;     // event number (0-based) of the first difference in the compared streams
  size_t compared = 0;  // events compared (the length of the common prefix when diverged)
  std::string report;   // human-readable: where, what, with context on each side
};

// Compares `ours` with `theirs`: first the globals both give for the start of the run, then the
// events. When one side is plain, only the other's "op" events are compared (offset, and the
// handler by address or by name, case-insensitively); two JSON Lines traces compare every event
// after "start", field by field, and the report names the first field that differs with both
// values. `context` events are shown before and after.
TraceDivergence diff_traces(const Trace& ours, const Trace& theirs, size_t context = 3);

}  // namespace shapevm::harness
