#include "tools/batch.h"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>

#include "core/input_error.h"
#include "core/member_spec.h"
#include "interp/common/registry.h"
#include "tools/console.h"

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
               const std::string& name, const SharedBytes& container = {}) {
  const std::string base = safe_file_name(name);
  std::string unique = base;
  for (int n = 2; !taken.insert(lowercase(unique)).second; ++n)
    unique = fmt::format("{}~{}", base, n);
  out.push_back({std::move(spec), std::move(unique), container});
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
              m.name.empty() ? fmt::format("member{}", m.index) : m.name, container.bytes);
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

namespace {

// The file an input writes into the batch's folder ("" when the batch writes to stdout).
std::string output_path(const BatchInput& input, const BatchOutput& output) {
  if (output.dir.empty()) return {};
  return (std::filesystem::path(output.dir) / (input.name + output.extension)).string();
}

// Runs one input of a batch, printing through the console (its messages, then its line "SPEC ->
// PATH" when the batch writes files), and returns its exit code.
int run_batch_input(const BatchInput& input, const BatchOutput& output, const RunOne& one) {
  const std::string path = output_path(input, output);
  CommandContext input_ctx;
  try {
    if (!path.empty() && !output.force && std::filesystem::exists(path))
      throw InputError(path, "exists (--force overwrites it)");
    one(input.spec, path, input_ctx);
  } catch (...) {
    input_ctx.exit_code = report_current_exception();
  }
  const int code = input_ctx.exit_code;
  if (!path.empty()) {
    std::error_code ec;
    if (code == kExitSuccess || code == kExitDifferences)
      console_out("{} -> {}\n", input.spec, path);
    else if (std::filesystem::exists(path, ec))  // written, but the run stopped on an error
      console_out("{} -> {} (failed: exit {})\n", input.spec, path, code);
    else
      console_out("{}: failed (exit {})\n", input.spec, code);
  }
  return code;
}

// run_batch with `jobs` threads, the calling thread among them. Each input's messages are held in
// its transcript; whichever thread finishes the oldest unprinted input prints it and every
// finished one after it, while the other threads go on running inputs, so no thread waits to
// print (with some 30 us of work per input, as `info` has, handing each input to a printing
// thread cost more than the second core gave). A thread takes the next input only while it is
// fewer than `ahead` inputs past the oldest unprinted one, which bounds what is held in memory (a
// trace to stdout can be large).
std::vector<int> run_batch_parallel(const std::vector<BatchInput>& inputs,
                                    const BatchOutput& output, unsigned jobs, const RunOne& one) {
  struct Slot {
    Transcript transcript;
    int code = kExitSuccess;
    bool done = false;
  };
  const size_t count = inputs.size();
  const size_t ahead = size_t{jobs} * 4;
  std::vector<Slot> slots(count);
  std::mutex lock;
  std::condition_variable printed_more;  // for threads held back by `ahead`
  size_t next = 0, printed = 0;
  bool printing = false;
  std::exception_ptr failure;  // stdout refused a write, or reporting itself failed (memory)

  auto work = [&] {
    std::unique_lock<std::mutex> held(lock);
    for (;;) {
      printed_more.wait(held, [&] { return failure || next >= count || next < printed + ahead; });
      if (failure || next >= count) return;
      const size_t i = next++;
      held.unlock();
      try {
        const TranscriptScope scope(slots[i].transcript);
        slots[i].code = run_batch_input(inputs[i], output, one);
      } catch (...) {
        held.lock();
        if (!failure) failure = std::current_exception();
        printed_more.notify_all();
        return;
      }
      held.lock();
      slots[i].done = true;
      // Print what is ready, unless another thread is at it: it sees this input done when it
      // looks next, under the lock (it checks and stops printing in one hold of the lock).
      if (printing) continue;
      printing = true;
      while (!failure && printed < count && slots[printed].done) {
        Slot& slot = slots[printed];
        held.unlock();
        try {
          slot.transcript.replay();
        } catch (...) {
          held.lock();
          if (!failure) failure = std::current_exception();
          break;
        }
        held.lock();
        ++printed;
        printed_more.notify_all();
      }
      printing = false;
      if (failure) {
        printed_more.notify_all();
        return;
      }
    }
  };
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < std::min<size_t>(jobs, count); ++t) {
    try {
      helpers.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // the system gives no more threads (a process limit): run on those there are
    }
  }
  work();
  for (auto& helper : helpers) helper.join();
  if (failure) std::rethrow_exception(failure);
  std::vector<int> codes;
  for (const Slot& slot : slots) codes.push_back(slot.code);
  return codes;
}

}  // namespace

void run_batch(const std::vector<BatchInput>& inputs, const BatchOutput& output, unsigned jobs,
               CommandContext& ctx, const RunOne& one) {
  if (!output.dir.empty()) {
    std::error_code ec;
    if (std::filesystem::exists(output.dir, ec) && !std::filesystem::is_directory(output.dir, ec))
      throw InputError(output.dir, "is a file: with several inputs, -o names a folder");
    std::filesystem::create_directories(output.dir);
  }
  std::vector<int> codes;
  if (jobs > 1 && inputs.size() > 1) {
    codes = run_batch_parallel(inputs, output, jobs, one);
  } else {
    for (const BatchInput& input : inputs) {
      codes.push_back(run_batch_input(input, output, one));
      if (!output.dir.empty()) std::fflush(stdout);  // in order with the next input's messages
    }
  }
  size_t failed = 0, differ = 0;
  int worst = ctx.exit_code;
  for (const int code : codes) {
    failed += code != kExitSuccess && code != kExitDifferences;
    differ += code == kExitDifferences;
    worst = std::max(worst, code);
  }
  std::fflush(stdout);
  fmt::print(stderr, "shapevm: {} inputs: {} done{}, {} failed\n", inputs.size(),
             inputs.size() - failed, differ ? fmt::format(" ({} differ)", differ) : "", failed);
  ctx.exit_code = worst;
}

void run_each_input(const std::vector<std::string>& args, const std::string& forced_engine,
                    const BatchOutput& output, bool needs_output, unsigned jobs,
                    CommandContext& ctx, const RunOne& one) {
  if (!is_batch(args)) {
    one(args.front(), output.dir, ctx);
    return;
  }
  if (needs_output && output.dir.empty())
    throw InputError("-o",
                     "with several inputs (or a CONTAINER:PATTERN), -o names the folder to "
                     "write one file per input into");
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  run_batch(expand_inputs(args, forced_engine), output, jobs, ctx, one);
}

}  // namespace shapevm::tools
