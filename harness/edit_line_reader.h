// Line editing and history at the debugger's prompt, through libedit: emacs keys, the arrow keys
// walk the history of this session, and the user's ~/.editrc applies. Only for a terminal;
// scripts and pipes read with StreamLineReader.
#pragma once

#include <csignal>
#include <cstdio>
#include <string>

#include "harness/line_reader.h"

struct editline;  // libedit's EditLine
struct history;   // libedit's History

namespace shapevm::harness {

class EditLineReader : public LineReader {
 public:
  // `in` must be a terminal. Throws std::runtime_error when libedit cannot take it. When
  // `interrupt` is given (sigint_flag.h), a raised flag ends the read as kInterrupted even when
  // the SIGINT arrived just before the read blocked.
  EditLineReader(const char* program, std::FILE* in, std::FILE* out, std::FILE* err,
                 const volatile std::sig_atomic_t* interrupt = nullptr);
  ~EditLineReader() override;
  EditLineReader(const EditLineReader&) = delete;
  EditLineReader& operator=(const EditLineReader&) = delete;

  // A line (entered into the history unless blank), kInterrupted when a SIGINT arrives while
  // typing (the handler must not restart reads: sigint_flag.h), or kEnd on Ctrl-D.
  ReadLine read(std::string_view prompt) override;
  bool interactive() const override { return true; }

 private:
  static char* prompt_of(editline* el);
  // libedit's character source: the terminal's bytes, or an interruption once the flag is raised.
  static int read_char(editline* el, wchar_t* out);

  editline* el_ = nullptr;
  // `struct`: libedit's <histedit.h>, once included, also names a function `history`.
  struct history* history_ = nullptr;
  std::string prompt_;
  int in_fd_ = -1;
  const volatile std::sig_atomic_t* interrupt_ = nullptr;
};

}  // namespace shapevm::harness
