#include "tools/console.h"

#include <fmt/core.h>

#include <cstdio>

namespace shapevm::tools {

namespace {

thread_local Transcript* t_transcript = nullptr;

void write_now(ConsoleStream stream, std::string_view text) {
  if (stream == ConsoleStream::kOut) {
    // fmt reports a failed write as std::system_error, which the commands report as an stdout
    // error (tools/cli.cpp).
    fmt::print(stdout, "{}", text);
    return;
  }
  std::fflush(stdout);  // what came before on stdout stays before this message
  std::fwrite(text.data(), 1, text.size(), stderr);
}

}  // namespace

void Transcript::append(ConsoleStream stream, std::string_view text) {
  if (text.empty()) return;
  if (!pieces_.empty() && pieces_.back().first == stream)
    pieces_.back().second.append(text);
  else
    pieces_.emplace_back(stream, std::string(text));
}

void Transcript::replay() {
  std::vector<std::pair<ConsoleStream, std::string>> pieces = std::move(pieces_);
  pieces_.clear();
  for (const auto& [stream, text] : pieces) write_now(stream, text);
}

Transcript* current_transcript() {
  return t_transcript;
}

TranscriptScope::TranscriptScope(Transcript& transcript) : previous_(t_transcript) {
  t_transcript = &transcript;
}

TranscriptScope::~TranscriptScope() {
  t_transcript = previous_;
}

void console_write(ConsoleStream stream, std::string_view text) {
  if (t_transcript != nullptr)
    t_transcript->append(stream, text);
  else
    write_now(stream, text);
}

}  // namespace shapevm::tools
