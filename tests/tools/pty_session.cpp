#include "tests/tools/pty_session.h"

#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <thread>

PtySession::PtySession(const std::vector<std::string>& argv, const std::string& home) {
  struct winsize size {};
  size.ws_row = 50;
  size.ws_col = 200;  // wide: the program's long lines do not wrap
  child_ = forkpty(&master_, nullptr, nullptr, &size);
  if (child_ < 0) throw std::runtime_error("forkpty failed: no pseudo-terminal");
  if (child_ == 0) {
    ::setenv("TERM", "xterm", 1);
    ::setenv("HOME", home.c_str(), 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
}

PtySession::~PtySession() {
  if (child_ > 0 && status_ == -1 && ::waitpid(child_, &status_, WNOHANG) == 0) {
    ::kill(child_, SIGKILL);
    ::waitpid(child_, &status_, 0);
  }
  if (master_ >= 0) ::close(master_);
}

void PtySession::send(std::string_view keys) {
  while (!keys.empty()) {
    const ssize_t n = ::write(master_, keys.data(), keys.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("cannot write to the pseudo-terminal");
    }
    keys.remove_prefix(static_cast<size_t>(n));
  }
}

bool PtySession::read_some(std::chrono::milliseconds timeout) {
  if (closed_) return false;
  pollfd p{master_, POLLIN, 0};
  const int ready = ::poll(&p, 1, static_cast<int>(timeout.count()));
  if (ready <= 0) return true;
  char buffer[4096];
  const ssize_t n = ::read(master_, buffer, sizeof buffer);
  if (n <= 0) {  // EIO: the program closed its side of the terminal
    closed_ = true;
    return false;
  }
  output_.append(buffer, static_cast<size_t>(n));
  return true;
}

std::string PtySession::expect(std::string_view text, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    const auto at = output_.find(text, consumed_);
    if (at != std::string::npos) {
      const size_t end = at + text.size();
      std::string out = output_.substr(consumed_, end - consumed_);
      consumed_ = end;
      found_ = true;
      return out;
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline || !read_some(std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::min<std::chrono::steady_clock::duration>(
                                   deadline - now, std::chrono::milliseconds(100))))) {
      found_ = false;
      return "";
    }
  }
}

int PtySession::wait_exit(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (status_ == -1) {
    // Keep draining the terminal so the program never blocks on a full one.
    if (!read_some(std::chrono::milliseconds(20)))
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const pid_t done = ::waitpid(child_, &status_, WNOHANG);
    if (done == child_) break;
    status_ = -1;
    if (std::chrono::steady_clock::now() >= deadline) return -1;
  }
  return WIFEXITED(status_) ? WEXITSTATUS(status_) : -1;
}
