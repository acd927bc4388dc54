#include "fuzz/replay.h"

#include <algorithm>
#include <exception>

#include "core/file_io.h"
#include "fuzz/targets.h"

namespace shapevm::fuzzing {
namespace {

std::vector<std::filesystem::path> sorted(const std::filesystem::path& dir, bool folders) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (folders ? e.is_directory() : e.is_regular_file()) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// One input through one target; anything but acceptance or InputError (caught by the target) is
// a problem. A sanitizer report or a crash ends the process, as it should.
void replay_one(const FuzzTarget& target, const std::filesystem::path& path, ReplayReport& report) {
  const std::string name(target.name);
  ++report.inputs[name];
  try {
    if (target.run(read_file(path))) ++report.accepted[name];
  } catch (const std::exception& e) {
    report.problems.push_back(path.string() + ": " + e.what());
  }
}

}  // namespace

void replay_corpus(const std::filesystem::path& root, ReplayReport& report) {
  if (!std::filesystem::is_directory(root)) {
    report.problems.push_back(root.string() + ": no such folder");
    return;
  }
  for (const auto& dir : sorted(root, true)) {
    const FuzzTarget* target = find_fuzz_target(dir.filename().string());
    if (target == nullptr) {
      report.problems.push_back(dir.string() + ": no fuzz target of that name");
      continue;
    }
    for (const auto& path : sorted(dir, false)) replay_one(*target, path, report);
  }
}

void replay_findings(const std::filesystem::path& folder, ReplayReport& report) {
  if (!std::filesystem::is_directory(folder)) {
    report.problems.push_back(folder.string() + ": no such folder");
    return;
  }
  for (const auto& path : sorted(folder, false)) {
    const std::string stem = path.stem().string();
    const FuzzTarget* target = find_fuzz_target(stem.substr(0, stem.find('-')));
    if (target == nullptr) {
      report.problems.push_back(path.string() + ": the name must start with a target's name");
      continue;
    }
    replay_one(*target, path, report);
  }
}

}  // namespace shapevm::fuzzing
