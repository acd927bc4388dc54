// Archives parsed once per read of their file. A batch over an archive's records (3DOBJS.BIN:*)
// opens one session per record, all on the same bytes (core/file_io.h, read_file_shared):
// parsing the archive's 1,300 record headers again for each was most of a record's time.
#pragma once

#include <memory>
#include <string>

#include "core/shared_bytes.h"
#include "interp/apache/archive.h"

namespace shapevm::apache {

// The Archive of `bytes` named `source`: the last one this returned when that was parsed from the
// same storage under the same name, else parsed now (and kept as the last, with its bytes, until
// another archive is parsed). Throws what Archive's constructor throws. Thread-safe.
std::shared_ptr<const Archive> shared_archive(const SharedBytes& bytes, const std::string& source);

}  // namespace shapevm::apache
