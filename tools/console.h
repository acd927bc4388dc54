// Where the batch commands print. Without a transcript, straight to the process's stdout and
// stderr (stdout flushed before each message on stderr, so the two stay in order in one file).
// A batch running several inputs at once gives each input a Transcript: what the input prints is
// held there and printed later, in input order, by the thread that owns the terminal.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shapevm::tools {

enum class ConsoleStream { kOut, kErr };

// The messages of one input, in the order it printed them.
class Transcript {
 public:
  void append(ConsoleStream stream, std::string_view text);
  // Prints what was held to stdout and stderr as console_out/console_err would have, then
  // forgets it. Throws std::system_error when stdout refuses a write (a full disk, a closed pipe).
  void replay();

 private:
  std::vector<std::pair<ConsoleStream, std::string>>
      pieces_;  // consecutive text of a stream joined
};

// The transcript the calling thread prints into, or nullptr for the process's streams.
Transcript* current_transcript();

// Makes the calling thread print into `transcript` while it lives.
class TranscriptScope {
 public:
  explicit TranscriptScope(Transcript& transcript);
  ~TranscriptScope();
  TranscriptScope(const TranscriptScope&) = delete;
  TranscriptScope& operator=(const TranscriptScope&) = delete;

 private:
  Transcript* previous_;
};

// Writes `text` to the stream, or into the thread's transcript. Writing to stderr flushes stdout
// first.
void console_write(ConsoleStream stream, std::string_view text);

template <typename... Args>
void console_out(fmt::format_string<Args...> format, Args&&... args) {
  console_write(ConsoleStream::kOut, fmt::format(format, std::forward<Args>(args)...));
}

template <typename... Args>
void console_err(fmt::format_string<Args...> format, Args&&... args) {
  console_write(ConsoleStream::kErr, fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace shapevm::tools
