#include "harness/edit_line_reader.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cwchar>
#include <stdexcept>

#include "harness/command_words.h"
#include "harness/edit_library.h"

namespace shapevm::harness {

namespace {
// Every libedit call goes through the table loaded with the first prompt (edit_library.h).
const EditLibrary& edit() {
  return edit_library();
}
}  // namespace

EditLineReader::EditLineReader(const char* program, std::FILE* in, std::FILE* out, std::FILE* err,
                               const volatile std::sig_atomic_t* interrupt)
    : in_fd_(fileno(in)), interrupt_(interrupt) {
  el_ = edit().el_init(program, in, out, err);
  if (el_ == nullptr) throw std::runtime_error("libedit cannot use the terminal");
  history_ = edit().history_init();
  if (history_ == nullptr) {
    edit().el_end(el_);
    throw std::runtime_error("libedit cannot keep a history");
  }
  HistEvent event;
  edit().history(history_, &event, H_SETSIZE, 1000);
  edit().history(history_, &event, H_SETUNIQUE, 1);  // a repeated line is one entry, as in gdb
  edit().el_set(el_, EL_CLIENTDATA, this);
  edit().el_set(el_, EL_PROMPT, &EditLineReader::prompt_of);
  edit().el_set(el_, EL_EDITOR, "emacs");
  edit().el_set(el_, EL_HIST, edit().history, history_);
  edit().el_set(el_, EL_GETCFN, &EditLineReader::read_char);
  edit().el_source(el_, nullptr);  // ~/.editrc, as every libedit program reads it
}

EditLineReader::~EditLineReader() {
  edit().el_end(el_);  // also gives the terminal its modes back
  edit().history_end(history_);
}

char* EditLineReader::prompt_of(editline* el) {
  void* self = nullptr;
  edit().el_get(el, EL_CLIENTDATA, &self);
  return static_cast<EditLineReader*>(self)->prompt_.data();
}

// libedit's own reader retries a read that a signal cut short once, and cannot see a SIGINT that
// arrived while it was still setting the terminal up, so Ctrl-C at the prompt could be lost. This
// one looks at the flag before every wait and waits at most 100 ms at a time, so a raised flag
// ends the line within that, however the signal and the read interleave.
int EditLineReader::read_char(editline* el, wchar_t* out) {
  void* data = nullptr;
  edit().el_get(el, EL_CLIENTDATA, &data);
  const auto* self = static_cast<const EditLineReader*>(data);
  char bytes[MB_LEN_MAX];
  size_t count = 0;
  while (true) {
    if (self->interrupt_ != nullptr && *self->interrupt_ != 0) {
      *out = L'\0';
      errno = EINTR;
      return -1;
    }
    pollfd ready{self->in_fd_, POLLIN, 0};
    const int polled = poll(&ready, 1, 100);
    if (polled < 0 && errno != EINTR) return -1;
    if (polled <= 0) continue;
    const ssize_t got = ::read(self->in_fd_, bytes + count, 1);
    if (got == 0) {
      *out = L'\0';
      return 0;  // end of input
    }
    if (got < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return -1;
    }
    ++count;
    std::mbstate_t state{};  // the whole sequence so far, decoded afresh each time
    const size_t used = std::mbrtowc(out, bytes, count, &state);
    if (used == static_cast<size_t>(-2) && count < sizeof bytes) continue;  // more bytes to come
    if (used == static_cast<size_t>(-1) || used == static_cast<size_t>(-2)) {
      count = 0;  // not a character in this locale: dropped, as libedit's own reader does
      continue;
    }
    return 1;
  }
}

ReadLine EditLineReader::read(std::string_view prompt) {
  prompt_ = std::string(prompt);
  int count = 0;
  errno = 0;
  const char* line = edit().el_gets(el_, &count);
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
    edit().history(history_, &event, H_ENTER, text.c_str());
  }
  return {ReadLine::Kind::kLine, std::move(text)};
}

}  // namespace shapevm::harness
