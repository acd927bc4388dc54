// Where the debugger's command line reads its commands: a stream (a --batch file, a pipe, or a
// terminal when line editing is unavailable) or a terminal with line editing (edit_line_reader.h).
#pragma once

#include <istream>
#include <ostream>
#include <string>
#include <string_view>

namespace shapevm::harness {

struct ReadLine {
  enum class Kind {
    kLine,         // `text` is one typed line, without its newline
    kInterrupted,  // Ctrl-C at the prompt: the partial line is dropped
    kEnd,          // end of input (Ctrl-D, end of file)
  };
  Kind kind = Kind::kEnd;
  std::string text;
};

class LineReader {
 public:
  virtual ~LineReader() = default;
  // Shows `prompt` when a person is typing, then reads one line.
  virtual ReadLine read(std::string_view prompt) = 0;
  // Whether a person types the commands (a terminal): then the reader shows the prompt, an empty
  // line repeats the last command and a failed command does not fail the session. Otherwise the
  // commands are a script: each is echoed after the prompt so a transcript reads like a session.
  virtual bool interactive() const = 0;
};

// Lines from a stream; `interactive` writes the prompt to `out` before each read.
class StreamLineReader : public LineReader {
 public:
  StreamLineReader(std::istream& in, std::ostream& out, bool interactive)
      : in_(in), out_(out), interactive_(interactive) {}
  ReadLine read(std::string_view prompt) override;
  bool interactive() const override { return interactive_; }

 private:
  std::istream& in_;
  std::ostream& out_;
  bool interactive_;
};

}  // namespace shapevm::harness
