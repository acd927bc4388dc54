// End-to-end test helpers: run the built shapevm executable as a user would and capture what it
// prints, plus a self-cleaning scratch directory for the files such runs read and write.
#pragma once

#include <filesystem>
#include <string>

struct CliResult {
  int exit_code;  // the process's exit status; -1 if it did not exit normally (e.g. a signal)
  std::string out, err;
};

// Runs `SHAPEVM_EXE <args>` through /bin/sh with stdin from /dev/null and stdout/stderr captured
// in temporary files. `args` is shell text: quote paths with shell_quote().
CliResult run_cli(const std::string& args);

// Runs any shell command line the same way (for tools other than shapevm, or pipelines).
CliResult run_command(const std::string& command_line);

// `text` as one single-quoted shell word.
std::string shell_quote(const std::string& text);

// A fresh, empty directory under the system temporary directory, deleted with everything in it
// when the object goes out of scope.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};
