#include "core/member_spec.h"

#include <fmt/format.h>

#include <cstdint>
#include <filesystem>
#include <system_error>

#include "core/input_error.h"

namespace shapevm {

MemberSpec parse_member_spec(const std::string& spec) {
  // Without a colon it can only be a path (reading it says "no such file" if it is not one); only
  // a colon needs the file system to tell a file named with one from FILE:MEMBER. Most arguments
  // have none, and a stat per input was a twentieth of `info` over a corpus.
  const size_t colon = spec.rfind(':');
  if (colon == std::string::npos) return {spec, std::nullopt};
  std::error_code ec;
  if (std::filesystem::is_regular_file(spec, ec)) return {spec, std::nullopt};
  MemberSpec out{spec.substr(0, colon), spec.substr(colon + 1)};
  if (out.path.empty() || !std::filesystem::is_regular_file(out.path, ec)) {
    throw InputError(spec, fmt::format("no such file, and no container file \"{}\" to take member "
                                       "\"{}\" from",
                                       out.path, *out.member));
  }
  if (out.member->empty()) {
    throw InputError(spec, fmt::format("expected a member name after the ':' ({}:MEMBER or {}:#N)",
                                       out.path, out.path));
  }
  return out;
}

std::optional<uint32_t> member_index(const std::string& member) {
  if (member.size() < 2 || member.size() > 10 || member[0] != '#') return std::nullopt;
  uint32_t value = 0;
  for (size_t i = 1; i < member.size(); ++i) {
    if (member[i] < '0' || member[i] > '9') return std::nullopt;
    value = value * 10 + static_cast<uint32_t>(member[i] - '0');
  }
  return value;
}

}  // namespace shapevm
