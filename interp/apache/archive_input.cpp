#include "interp/apache/archive_input.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "core/file_io.h"
#include "core/input_error.h"

namespace shapevm::apache {
namespace {

bool has_bin_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".bin";
}

}  // namespace

bool is_apache_spec(const std::string& spec) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(spec, ec)) return has_bin_extension(spec);
  const size_t colon = spec.rfind(':');
  if (colon == std::string::npos) return has_bin_extension(spec);
  return has_bin_extension(spec.substr(0, colon));
}

ArchiveInput load_archive_input(const std::string& spec) {
  ArchiveInput in;
  std::error_code ec;
  const size_t colon = spec.rfind(':');
  if (std::filesystem::is_regular_file(spec, ec) || colon == std::string::npos) {
    in.path = spec;
  } else {
    in.path = spec.substr(0, colon);
    in.member = spec.substr(colon + 1);
    if (in.member->empty()) {
      throw InputError(spec, fmt::format("expected a record after the ':' ({}:#N or {}:NAME)",
                                         in.path, in.path));
    }
  }
  in.bytes = read_file(in.path);
  return in;
}

uint32_t resolve_member(const Archive& archive, const std::string& member) {
  if (!member.empty() && member[0] == '#') {
    const std::string digits = member.substr(1);
    if (digits.empty() ||
        !std::all_of(digits.begin(), digits.end(),
                     [](unsigned char c) { return std::isdigit(c); }) ||
        digits.size() > 9) {
      throw InputError(archive.source() + ":" + member,
                       "expected a record number after '#' (e.g. #17)");
    }
    const auto index = static_cast<uint32_t>(std::stoul(digits));
    if (index >= archive.count()) {
      throw InputError(
          archive.source() + ":" + member,
          fmt::format("no record #{}: the archive has {} slots", index, archive.count()));
    }
    if (archive.record(index) == nullptr) {
      throw InputError(archive.source() + ":" + member,
                       fmt::format("record #{} is an empty slot (offset 0)", index));
    }
    return index;
  }
  const ModelRecord* rec = archive.find(member);
  if (rec == nullptr) {
    throw InputError(archive.source() + ":" + member,
                     fmt::format("no record named {} among the archive's {} models", member,
                                 archive.populated()));
  }
  return rec->index;
}

}  // namespace shapevm::apache
