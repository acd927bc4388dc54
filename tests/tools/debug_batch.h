// Driving `shapevm debug --batch` from a test: run a script against a program, and cut one
// command's output out of the transcript. Shared by the debugger's CLI tests.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "tests/tools/run_cli.h"

// Runs `script` (written into `dir`) with `shapevm debug SPEC ARGS --batch`.
inline CliResult debug_batch(const ScratchDir& dir, const std::string& spec,
                             const std::string& args, const std::string& script) {
  const auto path = dir / "script.gdb";
  std::ofstream(path) << script;
  return run_cli("debug " + shell_quote(spec) + " " + args + " --batch " +
                 shell_quote(path.string()));
}

// The text between the nth echo of `command` and the next prompt.
inline std::string output_of(const std::string& transcript, const std::string& command,
                             int nth = 1) {
  size_t at = 0;
  for (int i = 0; i < nth; ++i) {
    at = transcript.find("(shapevm) " + command + "\n", at);
    REQUIRE(at != std::string::npos);
    at += 11 + command.size();
  }
  const auto end = transcript.find("(shapevm) ", at);
  return transcript.substr(at, end == std::string::npos ? std::string::npos : end - at);
}
