// Whole-file input and crash-safe output. Tools never modify their inputs: writers write a
// temporary file beside the destination and rename it into place.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/shared_bytes.h"

namespace shapevm {

// Reads a whole file; a missing or unreadable file is an InputError naming it.
std::vector<uint8_t> read_file(const std::filesystem::path& path);

// read_file's bytes, shared: while anything still holds the bytes of an earlier read of `path`
// and the file is the same one, unchanged (device, inode, size and modification time as they
// were), returns those bytes instead of reading it again. A batch over a container's members
// holds the container this way, so each member's run finds it without reading and copying the
// whole file (a 58 MB Starlancer resource.hog took 0.25 s to read per member). Thread-safe.
SharedBytes read_file_shared(const std::filesystem::path& path);

// The bytes read_file_shared() would hand out again for `path` (an earlier read still held, the
// file unchanged since); nullopt when there are none. Reads nothing.
std::optional<SharedBytes> held_file_read(const std::filesystem::path& path);

// ".tmpPID.THREAD.N": the suffix a writer adds to a destination for its temporary file, unique per
// process, thread and call.
std::string temporary_suffix();

enum class Overwrite { kRefuse, kAllow };

// Refuses, before anything is written, a destination that cannot be a file: an existing folder,
// or a path whose folder does not exist. InputError naming `path`.
void check_output_file(const std::filesystem::path& path);

// Renames the finished temporary file `tmp` onto `path`; on failure removes `tmp` and throws an
// InputError naming `path` (never the temporary name) with the system's reason.
void rename_into_place(const std::filesystem::path& tmp, const std::filesystem::path& path);

// Writes bytes to `path` through a temporary file and rename. With Overwrite::kRefuse an existing
// destination is an error (InputError naming the path) and nothing is written. Every error names
// `path` (the temporary file is an implementation detail) and gives the system's reason.
void write_file_atomic(const std::filesystem::path& path, std::span<const uint8_t> bytes,
                       Overwrite overwrite = Overwrite::kAllow);
void write_text_atomic(const std::filesystem::path& path, const std::string& text,
                       Overwrite overwrite = Overwrite::kAllow);

}  // namespace shapevm
