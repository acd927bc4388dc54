// The member_parts target: any container opened as FILE:MEMBER in part and whole.
#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "core/input_error.h"
#include "fuzz/targets_by_engine.h"
#include "interp/common/registry.h"

namespace shapevm::fuzzing {

// The first byte picks a member (#0-#15); the rest is a file of any engine (the seeds: Starlancer
// HOGs and FA EALIBs), opened as FILE:#N of a large container is (the parts of it the engine names,
// read_program_input) and read whole: the two must describe the same program, or refuse it alike.
// The file lives in memory (memfd), reached by its /proc/self/fd path.
bool fuzz_member_parts(std::span<const uint8_t> data) {
  if (data.empty()) return true;
  const auto rest = data.subspan(1);
  const int fd = ::memfd_create("shapevm-fuzz-member-parts", MFD_CLOEXEC);
  if (fd < 0) throw std::runtime_error("memfd_create failed");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  for (size_t done = 0; done < rest.size();) {
    const ssize_t wrote = ::write(fd, rest.data() + done, rest.size() - done);
    if (wrote <= 0) throw std::runtime_error("writing the memfd failed");
    done += static_cast<size_t>(wrote);
  }
  const std::string spec = fmt::format("/proc/self/fd/{}:#{}", fd, data[0] % 16);
  const auto described = [](const EngineInput& input) {
    try {
      auto program = engine_for(input).open(input, {});
      return program->info_text() + program->listing_text();
    } catch (const InputError& e) {
      return std::string("refused: ") + e.what();
    }
  };
  const std::string in_part = described(read_program_input(spec, "", 0));
  EngineInput whole = read_input(spec);
  whole.bytes = SharedBytes(whole.bytes.to_vector());  // not a held read the next input could find
  if (in_part != described(whole)) {
    std::fprintf(stderr, "read in part:\n%s\nread whole:\n%s\n", in_part.c_str(),
                 described(whole).c_str());
    std::abort();
  }
  return true;
}

}  // namespace shapevm::fuzzing
