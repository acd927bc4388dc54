// The FILE:MEMBER argument (DESIGN.md, "Contracts"): a plain path, or a container file and the
// member it holds ("FA_2.LIB:A10.SH", "3DOBJS.BIN:#17", "UN3D000.LIB:UNIT001"). Which container
// format the file is, and what a member name means in it, is the engine's business; this only
// splits the argument.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace shapevm {

struct MemberSpec {
  std::string path;                   // the file to read
  std::optional<std::string> member;  // what follows the ':' (never empty when set)
};

// An existing file wins even when its name contains ':', so such files stay reachable. Member
// names never contain ':' but directory names might, so the split is at the last one. InputError
// when the argument names neither a file nor a member of an existing file, or ends in ':'.
MemberSpec parse_member_spec(const std::string& spec);

// "#17" -> 17; nullopt when `member` is not '#' followed by 1..9 digits.
std::optional<uint32_t> member_index(const std::string& member);

}  // namespace shapevm
