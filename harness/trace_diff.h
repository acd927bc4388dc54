// Compares an execution trace of ours with a reference trace and finds the first divergence.
// A trace is either our JSON Lines (docs/trace.md) or plain text of `offset handler` lines as a
// trace of the original engine gives: offsets hex (0x1A2 or 1A2h) or decimal, the handler as an
// address (0x4D30E4 or 4D30E4h) or a name. '#' starts a comment; blank lines are skipped.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shapevm::harness {

struct TraceEvent {
  size_t line = 0;   // 1-based line in the file
  std::string text;  // the line as written, for reports
  // Comparable content. For plain traces and for the "op" lines of JSON Lines: the offset and the
  // handler (address and/or names). For other JSON Lines events: the whole object, canonically
  // dumped (`json`).
  bool is_op = false;
  uint64_t offset = 0;
  std::optional<uint64_t> handler_address;
  std::vector<std::string> handler_names;  // JSON: mnemonic and symbol; plain: the name given
  std::string json;                        // non-op JSON events
};

struct Trace {
  enum class Format { kJsonLines, kPlain };
  std::string source;
  Format format = Format::kPlain;
  std::vector<TraceEvent> events;  // JSON Lines: every event but "start"
};

// Throws InputError(source, "line N: ...") on a malformed line. The format is taken from the
// first non-blank, non-comment line ('{' = JSON Lines).
Trace parse_trace(std::string_view text, const std::string& source);
Trace read_trace(const std::filesystem::path& path);

struct TraceDivergence {
  bool diverged = false;
  size_t index = 0;     // event number (0-based) of the first difference in the compared streams
  size_t compared = 0;  // events compared (the length of the common prefix when diverged)
  std::string report;   // human-readable: where, what, with context on each side
};

// Compares `ours` with `theirs`. When one side is plain, only the other's "op" events are
// compared (offset, and the handler by address or by name, case-insensitively); two JSON Lines
// traces compare every event after "start". `context` events are shown before and after.
TraceDivergence diff_traces(const Trace& ours, const Trace& theirs, size_t context = 3);

}  // namespace shapevm::harness
