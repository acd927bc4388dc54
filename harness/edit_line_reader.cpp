#include "harness/edit_line_reader.h"

#include <histedit.h>

#include <cerrno>
#include <stdexcept>

#include "harness/command_words.h"

namespace shapevm::harness {

EditLineReader::EditLineReader(const char* program, std::FILE* in, std::FILE* out, std::FILE* err) {
  el_ = el_init(program, in, out, err);
  if (el_ == nullptr) throw std::runtime_error("libedit cannot use the terminal");
  history_ = history_init();
  if (history_ == nullptr) {
    el_end(el_);
    throw std::runtime_error("libedit cannot keep a history");
  }
  HistEvent event;
  ::history(history_, &event, H_SETSIZE, 1000);
  ::history(history_, &event, H_SETUNIQUE, 1);  // a repeated line is one entry, as in gdb
  el_set(el_, EL_CLIENTDATA, this);
  el_set(el_, EL_PROMPT, &EditLineReader::prompt_of);
  el_set(el_, EL_EDITOR, "emacs");
  el_set(el_, EL_HIST, ::history, history_);
  el_source(el_, nullptr);  // ~/.editrc, as every libedit program reads it
}

EditLineReader::~EditLineReader() {
  el_end(el_);  // also gives the terminal its modes back
  history_end(history_);
}

char* EditLineReader::prompt_of(editline* el) {
  void* self = nullptr;
  el_get(el, EL_CLIENTDATA, &self);
  return static_cast<EditLineReader*>(self)->prompt_.data();
}

ReadLine EditLineReader::read(std::string_view prompt) {
  prompt_ = std::string(prompt);
  int count = 0;
  errno = 0;
  const char* line = el_gets(el_, &count);
  const int error = errno;
  // libedit ends a read cut short by a signal with an error (count -1 on an empty line), or
  // returns what was typed so far without its newline.
  if (line == nullptr || count <= 0)
    return {count < 0 && error == EINTR ? ReadLine::Kind::kInterrupted : ReadLine::Kind::kEnd, ""};
  std::string text(line, static_cast<size_t>(count));
  if (text.back() != '\n') {
    if (error == EINTR) return {ReadLine::Kind::kInterrupted, ""};
  } else {
    text.pop_back();
  }
  if (!trim(text).empty()) {
    HistEvent event;
    ::history(history_, &event, H_ENTER, text.c_str());
  }
  return {ReadLine::Kind::kLine, std::move(text)};
}

}  // namespace shapevm::harness
