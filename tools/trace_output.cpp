#include "tools/trace_output.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <new>
#include <string_view>

#include "core/file_io.h"
#include "core/input_error.h"
#include "tools/console.h"

namespace shapevm::tools {

namespace {

// A trace for stdout from an input of a batch running several at once: written into memory and
// held in the input's transcript, to be printed in input order (tools/console.h).
void write_trace_to_transcript(const std::function<void(std::FILE*)>& write) {
  char* data = nullptr;
  size_t size = 0;
  std::FILE* out = open_memstream(&data, &size);
  if (!out) throw std::bad_alloc();
  try {
    write(out);
  } catch (...) {
    std::fclose(out);
    std::free(data);
    throw;
  }
  const bool failed = std::ferror(out) != 0;
  std::fclose(out);  // sets data and size to the whole stream
  const std::unique_ptr<char, decltype(&std::free)> text(data, &std::free);
  if (failed) throw std::bad_alloc();  // a memory stream fails only when memory does
  console_write(ConsoleStream::kOut, std::string_view(text.get(), size));
}

}  // namespace

void write_trace_output(const std::string& output, const std::function<void(std::FILE*)>& write) {
  if (output.empty() && current_transcript() != nullptr) {
    write_trace_to_transcript(write);
    return;
  }
  if (output.empty()) {
    // stdout on a full disk: the trace is cut short, which is an error, not a success. errno is
    // cleared first so the reason given is the failed write's.
    errno = 0;
    write(stdout);
    const int error = errno;
    if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0)
      throw InputError("stdout",
                       fmt::format("write failed: {}", std::strerror(error != 0   ? error
                                                                     : errno != 0 ? errno
                                                                                  : EIO)));
    return;
  }
  check_output_file(output);
  // Errors name `output`: the temporary file beside it is never the user's business.
  const std::string tmp = output + temporary_suffix();
  std::FILE* out = std::fopen(tmp.c_str(), "wbx");
  if (!out) throw InputError(output, fmt::format("cannot create: {}", std::strerror(errno)));
  auto discard = [&] {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
  };
  errno = 0;  // so that after a failed write, errno is that write's reason
  try {
    write(out);
  } catch (...) {
    std::fclose(out);
    discard();
    throw;
  }
  // A stream error leaves errno as the failed write set it; never report "Success".
  const int write_error = std::ferror(out) != 0 ? errno : 0;
  errno = 0;
  const bool failed = std::ferror(out) != 0 || std::fflush(out) != 0;
  int error = write_error != 0 ? write_error : errno;
  if (std::fclose(out) != 0 && error == 0) error = errno;
  if (failed || error != 0) {
    discard();
    throw InputError(output,
                     fmt::format("write failed: {}", std::strerror(error != 0 ? error : EIO)));
  }
  rename_into_place(tmp, output);
}

}  // namespace shapevm::tools
