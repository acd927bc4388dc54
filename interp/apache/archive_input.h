// File arguments for the Apache engine (DESIGN.md contract): "3DOBJS.BIN:#17" names record 17,
// "3DOBJS.BIN:citblkd0" the first record with that short name. A file argument is Apache's when
// the file (or the container part before the last ':') has the extension .BIN.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "interp/apache/archive.h"

namespace shapevm::apache {

// True when `spec` names a .BIN file or a member of one (case-insensitive extension).
bool is_apache_spec(const std::string& spec);

struct ArchiveInput {
  std::string path;                   // the archive file
  std::optional<std::string> member;  // "#17" or a name; nullopt for the whole archive
  std::vector<uint8_t> bytes;
};

// Reads the archive; InputError for a missing file or an empty member after ':'.
ArchiveInput load_archive_input(const std::string& spec);

// The record a member names ("#N" or a short name); InputError naming the spec when it does not
// exist or is an empty slot.
uint32_t resolve_member(const Archive& archive, const std::string& member);

}  // namespace shapevm::apache
