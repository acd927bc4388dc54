#include "tools/batch.h"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <set>

#include "core/input_error.h"
#include "core/member_spec.h"
#include "interp/common/registry.h"

namespace shapevm::tools {

namespace {

bool is_pattern(const std::string& member) {
  return member.find_first_of("*?") != std::string::npos;
}

// The member part of an argument that names a member pattern, without reading any file.
std::optional<std::pair<std::string, std::string>> split_pattern(const std::string& arg) {
  const size_t colon = arg.rfind(':');
  if (colon == std::string::npos || colon + 1 == arg.size()) return std::nullopt;
  std::string member = arg.substr(colon + 1);
  if (!is_pattern(member) || std::filesystem::exists(arg)) return std::nullopt;
  return std::pair{arg.substr(0, colon), std::move(member)};
}

// A name as a file name: letters, digits and . _ - + kept, anything else (path separators
// above all: member names come from the container) turned into '_'; never empty, never hidden.
std::string safe_file_name(const std::string& name) {
  std::string out;
  for (const char c : name) {
    const bool keep =
        std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' || c == '+';
    out += keep ? c : '_';
  }
  if (out.empty() || out.front() == '.') out.insert(out.begin(), '_');
  return out;
}

std::string lowercase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Adds `spec` under `name`, made unique in the batch (compared without case: the outputs may be
// written to a file system that ignores it) by a "~2", "~3", ... suffix.
void add_input(std::vector<BatchInput>& out, std::set<std::string>& taken, std::string spec,
               const std::string& name) {
  const std::string base = safe_file_name(name);
  std::string unique = base;
  for (int n = 2; !taken.insert(lowercase(unique)).second; ++n)
    unique = fmt::format("{}~{}", base, n);
  out.push_back({std::move(spec), std::move(unique)});
}

void expand_pattern(const std::string& arg, const std::string& path, const std::string& pattern,
                    const std::string& forced_engine, std::vector<BatchInput>& out,
                    std::set<std::string>& taken) {
  const EngineInput container = read_input(path);
  if (container.member)
    throw InputError(arg, "a member pattern needs a container file, not a member of one");
  const Engine& engine = engine_for(container, forced_engine);
  if (!engine.is_container(container.bytes))
    throw InputError(path, 0,
                     fmt::format("a container for the member pattern '{}'; this is a {} file that "
                                 "holds no members",
                                 pattern, engine.title()));
  const std::vector<MemberInfo> members = engine.members(container);
  size_t matched = 0;
  std::set<std::string> earlier_names;  // every member before this one, lowercased
  for (const MemberInfo& m : members) {
    const bool name_seen = !earlier_names.insert(lowercase(m.name)).second;
    if (fnmatch(pattern.c_str(), m.name.c_str(), FNM_CASEFOLD) != 0) continue;
    ++matched;
    // FILE:NAME may find an earlier member whose name differs only by case (the engines' lookups
    // ignore case), so such a member, a name that reads as '#N' and a name holding ':' are
    // reached by their index instead.
    const bool by_name = !m.name.empty() && m.name.find(':') == std::string::npos &&
                         !member_index(m.name) && !name_seen;
    add_input(out, taken,
              fmt::format("{}:{}", path, by_name ? m.name : fmt::format("#{}", m.index)),
              m.name.empty() ? fmt::format("member{}", m.index) : m.name);
  }
  if (matched == 0)
    throw InputError(arg, fmt::format("the pattern '{}' matches none of the {} members of {}",
                                      pattern, members.size(), path));
}

}  // namespace

bool is_batch(const std::vector<std::string>& args) {
  return args.size() > 1 || std::any_of(args.begin(), args.end(), [](const std::string& a) {
           return split_pattern(a).has_value();
         });
}

std::vector<BatchInput> expand_inputs(const std::vector<std::string>& args,
                                      const std::string& forced_engine) {
  std::vector<BatchInput> out;
  std::set<std::string> taken;
  for (const std::string& arg : args) {
    if (const auto pattern = split_pattern(arg)) {
      expand_pattern(arg, pattern->first, pattern->second, forced_engine, out, taken);
      continue;
    }
    // Named by the member, or by the file; reading (and its errors) is left to the input's run.
    const size_t colon = arg.rfind(':');
    const bool member = colon != std::string::npos && !std::filesystem::exists(arg);
    const std::string name =
        member ? arg.substr(colon + 1) : std::filesystem::path(arg).filename().string();
    add_input(out, taken, arg, name);
  }
  return out;
}

void run_batch(const std::vector<BatchInput>& inputs, const BatchOutput& output,
               CommandContext& ctx,
               const std::function<void(const std::string&, const std::string&)>& one) {
  if (!output.dir.empty()) {
    std::error_code ec;
    if (std::filesystem::exists(output.dir, ec) && !std::filesystem::is_directory(output.dir, ec))
      throw InputError(output.dir, "is a file: with several inputs, -o names a folder");
    std::filesystem::create_directories(output.dir);
  }
  size_t failed = 0, differ = 0;
  int worst = ctx.exit_code;
  for (const BatchInput& input : inputs) {
    const std::string path =
        output.dir.empty()
            ? std::string()
            : (std::filesystem::path(output.dir) / (input.name + output.extension)).string();
    ctx.exit_code = kExitSuccess;
    try {
      if (!path.empty() && !output.force && std::filesystem::exists(path))
        throw InputError(path, "exists (--force overwrites it)");
      one(input.spec, path);
    } catch (...) {
      ctx.exit_code = report_current_exception();
    }
    const int code = ctx.exit_code;
    failed += code != kExitSuccess && code != kExitDifferences;
    differ += code == kExitDifferences;
    worst = std::max(worst, code);
    if (!path.empty()) {
      std::error_code ec;
      if (code == kExitSuccess || code == kExitDifferences)
        fmt::print("{} -> {}\n", input.spec, path);
      else if (std::filesystem::exists(path, ec))  // written, but the run stopped on an error
        fmt::print("{} -> {} (failed: exit {})\n", input.spec, path, code);
      else
        fmt::print("{}: failed (exit {})\n", input.spec, code);
      std::fflush(stdout);  // in order with the next input's messages on stderr
    }
  }
  std::fflush(stdout);
  fmt::print(stderr, "shapevm: {} inputs: {} done{}, {} failed\n", inputs.size(),
             inputs.size() - failed, differ ? fmt::format(" ({} differ)", differ) : "", failed);
  ctx.exit_code = worst;
}

void run_each_input(const std::vector<std::string>& args, const std::string& forced_engine,
                    const BatchOutput& output, bool needs_output, CommandContext& ctx,
                    const std::function<void(const std::string&, const std::string&)>& one) {
  if (!is_batch(args)) {
    one(args.front(), output.dir);
    return;
  }
  if (needs_output && output.dir.empty())
    throw InputError("-o",
                     "with several inputs (or a CONTAINER:PATTERN), -o names the folder to "
                     "write one file per input into");
  run_batch(expand_inputs(args, forced_engine), output, ctx, one);
}

}  // namespace shapevm::tools
