// The FILE:MEMBER argument: a path is a path (whether or not it exists), a file whose name holds
// ':' stays reachable, and FILE:MEMBER splits at the last ':' only when FILE exists.
#include <doctest/doctest.h>

#include <fstream>
#include <optional>
#include <string>

#include "core/input_error.h"
#include "core/member_spec.h"
#include "tests/tools/run_cli.h"

namespace core_member_spec_tests {

namespace {

std::string refusal(const std::string& spec) {
  try {
    (void)shapevm::parse_member_spec(spec);
  } catch (const shapevm::InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("member spec: paths, files named with ':', and FILE:MEMBER") {
  const ScratchDir dir;
  const std::string archive = (dir / "FA_2.LIB").string();
  const std::string colon_file = (dir / "odd:name.SH").string();
  std::ofstream(archive) << "x";
  std::ofstream(colon_file) << "x";

  // No ':' at all: the argument is the path, existing or not (reading it reports a missing one).
  const auto absent = shapevm::parse_member_spec((dir / "absent.SH").string());
  CHECK(absent.path == (dir / "absent.SH").string());
  CHECK_FALSE(absent.member.has_value());
  CHECK_FALSE(shapevm::parse_member_spec(archive).member.has_value());

  // An existing file whose name holds ':' is that file, not a member of "odd".
  const auto odd = shapevm::parse_member_spec(colon_file);
  CHECK(odd.path == colon_file);
  CHECK_FALSE(odd.member.has_value());

  const auto member = shapevm::parse_member_spec(archive + ":A10.SH");
  CHECK(member.path == archive);
  REQUIRE(member.member.has_value());
  CHECK(*member.member == "A10.SH");

  CHECK(refusal((dir / "absent.LIB").string() + ":A10.SH").find("no container file") !=
        std::string::npos);
  CHECK(refusal(archive + ":").find("expected a member name after the ':'") != std::string::npos);
  CHECK(shapevm::member_index("#17") == std::optional<uint32_t>(17));
  CHECK_FALSE(shapevm::member_index("17").has_value());
}

}  // namespace core_member_spec_tests
