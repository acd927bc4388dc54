// Runs a program on a pseudo-terminal, as a person at a terminal would: its stdin, stdout and
// stderr are the terminal, keys are written to it (Ctrl-C included: the terminal turns \x03 into
// SIGINT for the program), and what it prints is read back with a timeout. For tests of the
// interactive debugger (line editing, history, Ctrl-C).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

class PtySession {
 public:
  // Starts `argv` (argv[0] a path) with TERM=xterm and HOME=`home` (no ~/.editrc of the user).
  // Throws std::runtime_error when no pseudo-terminal is available.
  PtySession(const std::vector<std::string>& argv, const std::string& home);
  // Kills the program if it still runs.
  ~PtySession();
  PtySession(const PtySession&) = delete;
  PtySession& operator=(const PtySession&) = delete;

  // Types `keys`.
  void send(std::string_view keys);
  // Reads until `text` appears in the output after what earlier expects consumed; returns the
  // output up to and including it and consumes that, or "" after `timeout` (or when the program
  // ended without printing it). found() says which.
  std::string expect(std::string_view text,
                     std::chrono::milliseconds timeout = std::chrono::seconds(30));
  bool found() const { return found_; }
  // Everything the program printed so far.
  const std::string& output() const { return output_; }
  // Waits for the program to end: its exit status, or -1 (a signal, or still running after
  // `timeout`).
  int wait_exit(std::chrono::milliseconds timeout = std::chrono::seconds(30));

 private:
  // Reads what is available within `timeout`; false once the program closed the terminal.
  bool read_some(std::chrono::milliseconds timeout);

  int master_ = -1;
  pid_t child_ = -1;
  std::string output_;
  size_t consumed_ = 0;
  bool found_ = false;
  bool closed_ = false;
  int status_ = -1;
};
