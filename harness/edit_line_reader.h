// Line editing and history at the debugger's prompt, through libedit: emacs keys, the arrow keys
// walk the history of this session, and the user's ~/.editrc applies. Only for a terminal;
// scripts and pipes read with StreamLineReader.
#pragma once

#include <cstdio>
#include <string>

#include "harness/line_reader.h"

struct editline;  // libedit's EditLine
struct history;   // libedit's History

namespace shapevm::harness {

class EditLineReader : public LineReader {
 public:
  // `in` must be a terminal. Throws std::runtime_error when libedit cannot take it.
  EditLineReader(const char* program, std::FILE* in, std::FILE* out, std::FILE* err);
  ~EditLineReader() override;
  EditLineReader(const EditLineReader&) = delete;
  EditLineReader& operator=(const EditLineReader&) = delete;

  // A line (entered into the history unless blank), kInterrupted when a SIGINT arrives while
  // typing (the handler must not restart reads: sigint_flag.h), or kEnd on Ctrl-D.
  ReadLine read(std::string_view prompt) override;
  bool interactive() const override { return true; }

 private:
  static char* prompt_of(editline* el);

  editline* el_ = nullptr;
  history* history_ = nullptr;
  std::string prompt_;
};

}  // namespace shapevm::harness
