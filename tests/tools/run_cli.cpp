#include "tests/tools/run_cli.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>

namespace {

std::string read_whole(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";  // close the quote, add an escaped quote, reopen
    } else {
      out.push_back(c);
    }
  }
  return out + "'";
}

CliResult run_command(const std::string& command_line) {
  // Captured through files rather than pipes so a chatty child can never block on a full pipe
  // while we wait for it.
  ScratchDir capture;
  const auto out_path = capture / "stdout";
  const auto err_path = capture / "stderr";
  // The closing parenthesis on its own line: a command line may end in a `# comment`.
  const std::string full = "( " + command_line + "\n) </dev/null >" +
                           shell_quote(out_path.string()) + " 2>" + shell_quote(err_path.string());
  const int status = std::system(full.c_str());
  CliResult result{-1, read_whole(out_path), read_whole(err_path)};
  if (status != -1 && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

CliResult run_cli(const std::string& args) {
  // Without the sharding variables of a CI system the test suite itself may run under: they
  // would make `regress` run only a share of a test's cases.
  return run_command(
      "env -u TEST_TOTAL_SHARDS -u TEST_SHARD_INDEX -u TEST_SHARD_STATUS_FILE -u CI_NODE_TOTAL "
      "-u CI_NODE_INDEX " +
      shell_quote(SHAPEVM_EXE) + " " + args);
}

ScratchDir::ScratchDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "shapevm-test-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
  }
  path_ = pattern;
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;  // best effort: a leftover temp directory must not fail a test
  std::filesystem::remove_all(path_, ignored);
}
