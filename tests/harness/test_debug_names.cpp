// The debugger's small grammars (conditions, watch/display names, VIEW[N] rows), parsed by hand
// since std::regex left them: the forms the old patterns accepted still parse to the same parts,
// and the ones they refused are still refused.
#include <doctest/doctest.h>

#include <stdexcept>

#include "harness/debugger.h"

namespace harness_debug_names_tests {

using namespace shapevm::harness;

TEST_CASE("debugger: conditions parse NAME OP INTEGER with any blanks around the parts") {
  const Condition a = parse_condition("_detail==1");
  CHECK(a.name == "_detail");
  CHECK(a.op == "==");
  CHECK(a.value == 1);
  const Condition b = parse_condition("  reg[2].x   >=\t0x10  ");
  CHECK(b.name == "reg[2].x");
  CHECK(b.op == ">=");
  CHECK(b.value == 16);
  CHECK(parse_condition("$eax<-3").op == "<");
  CHECK(parse_condition("@a+1 != 0").name == "@a+1");
  CHECK(parse_condition("x > 0").op == ">");
  CHECK(parse_condition("x <= 0").op == "<=");
  for (const char* bad :
       {"", "x", "x ==", "== 1", "1x == 1", "x === 1", "x == 1 2", "x ~ 1", "x-y == 1"})
    CHECK_THROWS_AS(parse_condition(bad), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_condition("x == two"),
                       "condition \"x == two\": \"two\" is not an integer", std::invalid_argument);
}

TEST_CASE("debugger: lookup names and memory view rows") {
  CHECK(is_lookup_name("_PLgearDown"));
  CHECK(is_lookup_name("vertex[3].x"));
  CHECK(is_lookup_name("$pc"));
  CHECK_FALSE(is_lookup_name(""));
  CHECK_FALSE(is_lookup_name("3d"));
  CHECK_FALSE(is_lookup_name("a b"));
  CHECK_FALSE(is_lookup_name("a-b"));
  const auto row = split_view_row("pool[12]");
  REQUIRE(row);
  CHECK(row->view == "pool");
  CHECK(row->digits == "12");
  CHECK(split_view_row("a.b[0]"));
  for (const char* not_a_row :
       {"pool", "pool[]", "pool[x]", "pool[1", "[1]", "a+b[1]", "p[1][2]", "p[1]x", "p[-1]"})
    CHECK_FALSE(split_view_row(not_a_row));
  // A row number of any length is still a row; its range is the caller's check.
  CHECK(split_view_row("pool[99999999999999999999999]"));
}

}  // namespace harness_debug_names_tests
