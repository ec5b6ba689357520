// Tests for neuronrw/ir/ref/symbols.hpp: which symbol a top-level op defines and which symbol an
// attribute value refers to, read out of the stored texts; and ir.hpp's is_terminator, the rule
// the verifier and the traits share.
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/symbols.hpp>

#include <doctest/doctest.h>

#include "support/parse.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace ref = neuronrw::ref;
using namespace std::string_literals;

using neuronrw::testing::parse_ok;

std::vector<std::optional<std::string>> defined(const ref::module& m) {
  std::vector<std::optional<std::string>> out;
  for (auto op : m.ops(m.body())) out.push_back(ref::defined_symbol(m, op));
  return out;
}

}  // namespace

TEST_CASE("defined_symbol: functions, sym_name attributes and properties, as plain names") {
  const ref::module m = parse_ok(R"(func.func @f() {
  return
}
func.func private @"has space"()
"t.global"() {sym_name = "a\22b"} : () -> ()
"t.prop"() <{other = "x", sym_name = "p"}> : () -> ()
"t.nested_key"() <{inner = {sym_name = "no"}}> : () -> ()
"t.not_a_string"() {sym_name = 3 : i32} : () -> ()
"t.none"() : () -> ()
)");
  CHECK(defined(m) == std::vector<std::optional<std::string>>{"f"s, "has space"s, "a\"b"s, "p"s, std::nullopt,
                                                              std::nullopt, std::nullopt});
}

TEST_CASE("referenced_symbol: the root of the reference an attribute value is") {
  CHECK(ref::referenced_symbol("@f") == "f"s);
  CHECK(ref::referenced_symbol("  @hilo.FusedComposite.0") == "hilo.FusedComposite.0"s);
  CHECK(ref::referenced_symbol(R"(@"has space")") == "has space"s);
  CHECK(ref::referenced_symbol(R"(@"a\22b"::@inner)") == "a\"b"s);
  CHECK(ref::referenced_symbol("@outer::@inner") == "outer"s);
  CHECK_FALSE(ref::referenced_symbol("f").has_value());
  CHECK_FALSE(ref::referenced_symbol("\"f\"").has_value());
  CHECK_FALSE(ref::referenced_symbol("@").has_value());
  CHECK_FALSE(ref::referenced_symbol("@9a").has_value());
  CHECK_FALSE(ref::referenced_symbol(R"(@"unterminated)").has_value());
  CHECK_FALSE(ref::referenced_symbol(R"(@"bad\q")").has_value());
}

TEST_CASE("is_terminator: no results, and a return kind or a .yield / .terminator name") {
  const ref::module m = parse_ok(R"(func.func @f() -> i32 {
  %0 = "t.yield"() : () -> i32
  "t.yield"() : () -> ()
  "t.terminator"() : () -> ()
  "mhlo.return"() : () -> ()
  "t.yielding"() : () -> ()
  return %0 : i32
}
)");
  std::vector<bool> got;
  for (auto op : m.ops(m.region_block(m.front(m.body())))) got.push_back(ref::is_terminator(m, op));
  CHECK(got == std::vector<bool>{false, true, true, true, false, true});
}
