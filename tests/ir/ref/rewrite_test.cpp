// Tests for neuronrw/ir/ref/rewrite.hpp: each rewrite on parsed modules, with the exact printed
// IR afterwards (ref::print), a clean verifier (ref::verify), and the edge cases of its contract —
// live-ins that are block arguments, uses inside nested regions, results used in several places,
// groups without operands or results, outlined regions whose terminator is not a return or that
// capture values, symbol names that need quotes or already exist.
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/rewrite.hpp>
#include <neuronrw/ir/ref/verify.hpp>

#include <doctest/doctest.h>

#include "support/parse.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

namespace ref = neuronrw::ref;
using neuronrw::named_attribute;

using neuronrw::testing::parse_ok;

void collect_ops(const ref::module& m, ref::block_ref b, std::vector<ref::op_ref>& out) {
  for (auto op : m.ops(b)) {
    out.push_back(op);
    for (auto b : m.region_blocks(op)) collect_ops(m, b, out);
  }
}

/// The `nth` op named `name` in walk order (pre-order over regions).
ref::op_ref find(const ref::module& m, std::string_view name, std::size_t nth = 0) {
  std::vector<ref::op_ref> all;
  collect_ops(m, m.body(), all);
  for (auto op : all)
    if (m.name(op) == name && nth-- == 0) return op;
  FAIL("no op named " << name);
  return {};
}

ref::value_ref result(const ref::module& m, std::string_view op_name, std::size_t i = 0) {
  return m.result(find(m, op_name), i);
}

/// Argument `i` of the region of the `nth` op named `owner`.
ref::value_ref argument(const ref::module& m, std::string_view owner, std::size_t i, std::size_t nth = 0) {
  return m.arguments(m.region_block(find(m, owner, nth)))[i];
}

/// The verifier's diagnostics, one per line; empty when the module is valid.
std::string problems(const ref::module& m) {
  std::string out;
  for (const auto& d : ref::verify(m)) out += d.str() + "\n";
  return out;
}

/// What every rewrite must leave behind: a valid module whose text reads back to itself.
void check_valid_and_reads_back(const ref::module& m) {
  CHECK(problems(m).empty());
  const std::string text = ref::print(m);
  auto again = ref::parse(text, "printed.mlir");
  INFO(again.error.str());
  REQUIRE(again.ok());
  CHECK(ref::print(*again.value) == text);
}

ref::op_ref group(ref::module& m, std::vector<ref::op_ref> ops, std::vector<ref::value_ref> ins,
                  std::vector<ref::value_ref> outs, std::vector<named_attribute> attrs = {}) {
  return ref::group_ops(m, {ops, ins, outs, "mhlo.fusion", "mhlo.return", attrs});
}

std::size_t use_count(const ref::module& m, ref::value_ref v) {
  std::size_t n = 0;
  for ([[maybe_unused]] auto u : m.users(v)) ++n;
  return n;
}

}  // namespace

// ============================================================================== is_inside

TEST_CASE("is_inside: the op itself and everything nested at any depth, nothing else") {
  const ref::module m = parse_ok(R"(func.func @f() {
  "t.outer"() ({
    "t.mid"() ({
      "t.leaf"() : () -> ()
      "t.yield"() : () -> ()
    }) : () -> ()
    "t.yield"() : () -> ()
  }) : () -> ()
  "t.sibling"() : () -> ()
  return
}
)");
  const auto outer = find(m, "t.outer"), mid = find(m, "t.mid"), leaf = find(m, "t.leaf");
  const auto sibling = find(m, "t.sibling"), fn = find(m, "func.func");
  CHECK(ref::is_inside(m, outer, outer));
  CHECK(ref::is_inside(m, mid, outer));
  CHECK(ref::is_inside(m, leaf, outer));
  CHECK(ref::is_inside(m, leaf, fn));
  CHECK_FALSE(ref::is_inside(m, outer, mid));  // the parent is not inside its child
  CHECK_FALSE(ref::is_inside(m, sibling, outer));
  CHECK_FALSE(ref::is_inside(m, leaf, sibling));
}

TEST_CASE("to_attributes stores each typed value as its canonical text, in order") {
  namespace attr = neuronrw::attr;
  const named_attribute in[] = {{"b", attr::integer{1, 32}},     {"a", attr::string{"s\"q"}},
                                {"s", attr::symbol{"has space"}}, {"t", attr::boolean{false}},
                                {"u", attr::unit{}},             {"d", attr::empty_dictionary{}},
                                {"w", attr::integer{-7}}};
  const auto out = ref::to_attributes(in);
  std::vector<std::pair<std::string, std::string>> got;
  for (const auto& a : out) got.emplace_back(a.name, a.value);
  CHECK(got == std::vector<std::pair<std::string, std::string>>{{"b", "1 : i32"},
                                                                {"a", "\"s\\\"q\""},
                                                                {"s", "@\"has space\""},
                                                                {"t", "false"},
                                                                {"u", "unit"},
                                                                {"d", "{}"},
                                                                {"w", "-7"}});
}

// ============================================================================== group_ops
// An empty run is outside group_ops' contract (@pre `ops` non-empty: the group takes the place
// and location of the run's first op), so it has no test here; callers never form one.

TEST_CASE("group_ops: live-ins that are results and block arguments, a live-out used after the run") {
  ref::module m = parse_ok(R"(func.func @f(%a: i32) -> i32 {
  %x = "t.a"(%a) : (i32) -> i32
  %y = "t.b"(%x, %a) : (i32, i32) -> i32
  %w = "t.d"(%y) : (i32) -> i32
  %z = "t.c"(%w, %x) : (i32, i32) -> i32
  return %z : i32
}
)");
  const auto a = argument(m, "func.func", 0);
  const auto x = result(m, "t.a");
  const auto w = result(m, "t.d");
  const named_attribute attrs[] = {{"FusionKind", neuronrw::attr::string{"K"}}};
  const auto g = group(m, {find(m, "t.b"), find(m, "t.d")}, {x, a}, {w}, {attrs[0]});
  CHECK(ref::print(m) == R"(module {
  func.func @f(%a: i32) -> i32 {
    %x = "t.a"(%a) : (i32) -> i32
    %0 = "mhlo.fusion"(%x, %a) ({
    ^bb0(%arg0: i32, %arg1: i32):
      %y = "t.b"(%arg0, %arg1) : (i32, i32) -> i32
      %w = "t.d"(%y) : (i32) -> i32
      "mhlo.return"(%w) : (i32) -> ()
    }) {FusionKind = "K"} : (i32, i32) -> i32
    %z = "t.c"(%0, %x) : (i32, i32) -> i32
    return %z : i32
  }
}
)");
  check_valid_and_reads_back(m);
  // Outside the run nothing else changed: %a and %x keep their other uses.
  CHECK(use_count(m, a) == 2);  // t.a and the group
  CHECK(use_count(m, x) == 2);  // the group and t.c
  CHECK(use_count(m, w) == 1);  // only the terminator
  CHECK(m.parent_op(find(m, "t.b")) == g);
  CHECK(m.name(m.back(m.region_block(g))) == "mhlo.return");
}

TEST_CASE("group_ops: uses of live-ins inside nested regions are rewired, values of the run are not") {
  ref::module m = parse_ok(R"(func.func @f(%a: i32, %b: i32) -> i32 {
  %x = "t.a"(%a) : (i32) -> i32
  %r = "t.loop"(%x) ({
  ^bb0(%i: i32):
    %s = "t.add"(%i, %x, %a) : (i32, i32, i32) -> i32
    %n = "t.inner"() ({
      %t = "t.mul"(%s, %b, %a) : (i32, i32, i32) -> i32
      "t.yield"(%t) : (i32) -> ()
    }) : () -> i32
    "t.yield"(%n) : (i32) -> ()
  }) : (i32) -> i32
  %q = "t.use"(%r, %a) : (i32, i32) -> i32
  return %q : i32
}
)");
  group(m, {find(m, "t.a"), find(m, "t.loop")}, {argument(m, "func.func", 0), argument(m, "func.func", 1)},
        {result(m, "t.loop")});
  CHECK(ref::print(m) == R"(module {
  func.func @f(%a: i32, %b: i32) -> i32 {
    %0 = "mhlo.fusion"(%a, %b) ({
    ^bb0(%arg0: i32, %arg1: i32):
      %x = "t.a"(%arg0) : (i32) -> i32
      %r = "t.loop"(%x) ({
      ^bb0(%i: i32):
        %s = "t.add"(%i, %x, %arg0) : (i32, i32, i32) -> i32
        %n = "t.inner"() ({
          %t = "t.mul"(%s, %arg1, %arg0) : (i32, i32, i32) -> i32
          "t.yield"(%t) : (i32) -> ()
        }) : () -> i32
        "t.yield"(%n) : (i32) -> ()
      }) : (i32) -> i32
      "mhlo.return"(%r) : (i32) -> ()
    }) : (i32, i32) -> i32
    %q = "t.use"(%0, %a) : (i32, i32) -> i32
    return %q : i32
  }
}
)");
  check_valid_and_reads_back(m);
}

TEST_CASE("group_ops: a live-out used several times, in a nested region and by the return") {
  ref::module m = parse_ok(R"(func.func @f(%a: i32) -> (i32, i32) {
  %x = "t.a"(%a) : (i32) -> i32
  %y = "t.b"(%x, %x) : (i32, i32) -> i32
  %u = "t.c"(%x, %x) : (i32, i32) -> i32
  %v = "t.d"(%u) ({
    %w = "t.e"(%x) : (i32) -> i32
    "t.yield"(%w) : (i32) -> ()
  }) : (i32) -> i32
  return %x, %v : i32, i32
}
)");
  const auto x = result(m, "t.a");
  // %y is a live-out without outside uses: the group still returns it.
  const auto g = group(m, {find(m, "t.a"), find(m, "t.b")}, {argument(m, "func.func", 0)}, {x, result(m, "t.b")});
  CHECK(ref::print(m) == R"(module {
  func.func @f(%a: i32) -> (i32, i32) {
    %0:2 = "mhlo.fusion"(%a) ({
    ^bb0(%arg0: i32):
      %x = "t.a"(%arg0) : (i32) -> i32
      %y = "t.b"(%x, %x) : (i32, i32) -> i32
      "mhlo.return"(%x, %y) : (i32, i32) -> ()
    }) : (i32) -> (i32, i32)
    %u = "t.c"(%0#0, %0#0) : (i32, i32) -> i32
    %v = "t.d"(%u) ({
      %w = "t.e"(%0#0) : (i32) -> i32
      "t.yield"(%w) : (i32) -> ()
    }) : (i32) -> i32
    return %0#0, %v : i32, i32
  }
}
)");
  check_valid_and_reads_back(m);
  CHECK(use_count(m, x) == 3);                 // t.b twice and the terminator: all inside
  CHECK(use_count(m, m.result(g, 0)) == 4);    // t.c twice, t.e, the return
  CHECK_FALSE(m.has_uses(m.result(g, 1)));
}

TEST_CASE("group_ops: no live-ins and no live-outs; the group and its terminator take the run's locations") {
  ref::module m = parse_ok(R"(func.func @f() {
  "t.first"() : () -> ()
  "t.second"() : () -> ()
  "t.after"() : () -> ()
  return
}
)");
  const auto first = find(m, "t.first"), second = find(m, "t.second");
  const auto g = group(m, {first, second}, {}, {});
  CHECK(ref::print(m) == R"(module {
  func.func @f() {
    "mhlo.fusion"() ({
      "t.first"() : () -> ()
      "t.second"() : () -> ()
      "mhlo.return"() : () -> ()
    }) : () -> ()
    "t.after"() : () -> ()
    return
  }
}
)");
  check_valid_and_reads_back(m);
  CHECK(m.loc(g) == m.loc(first));
  CHECK(m.loc(m.back(m.region_block(g))) == m.loc(second));
  CHECK(m.loc(g) == neuronrw::source_loc{2, 3});
}

TEST_CASE("group_ops: names already taken inside and outside the function stay unique when printed") {
  // The input already uses the names the printer gives new values (%0, %arg0, %arg1): the group's
  // result and region arguments must get other names, and the text must read back.
  ref::module m = parse_ok(R"(func.func @f(%arg0: i32) -> i32 {
  %0 = "t.a"(%arg0) : (i32) -> i32
  %arg1 = "t.b"(%0) : (i32) -> i32
  %1 = "t.c"(%arg1, %arg0) : (i32, i32) -> i32
  return %1 : i32
}
)");
  group(m, {find(m, "t.b")}, {result(m, "t.a")}, {result(m, "t.b")});
  const std::string text = ref::print(m);
  CHECK(text == R"(module {
  func.func @f(%arg0: i32) -> i32 {
    %0 = "t.a"(%arg0) : (i32) -> i32
    %2 = "mhlo.fusion"(%0) ({
    ^bb0(%arg2: i32):
      %arg1 = "t.b"(%arg2) : (i32) -> i32
      "mhlo.return"(%arg1) : (i32) -> ()
    }) : (i32) -> i32
    %1 = "t.c"(%2, %arg0) : (i32, i32) -> i32
    return %1 : i32
  }
}
)");
  check_valid_and_reads_back(m);
}

TEST_CASE("group_ops: a run ending the block just before the terminator, inside a nested region") {
  ref::module m = parse_ok(R"(func.func @f(%a: i32) -> i32 {
  %r = "t.region"(%a) ({
  ^bb0(%p: i32):
    %s = "t.op"(%p, %a) : (i32, i32) -> i32
    "t.yield"(%s) : (i32) -> ()
  }) : (i32) -> i32
  return %r : i32
}
)");
  // The live-in %p is an argument of the enclosing region's block, not of the function.
  group(m, {find(m, "t.op")}, {argument(m, "t.region", 0), argument(m, "func.func", 0)}, {result(m, "t.op")});
  CHECK(ref::print(m) == R"(module {
  func.func @f(%a: i32) -> i32 {
    %r = "t.region"(%a) ({
    ^bb0(%p: i32):
      %0 = "mhlo.fusion"(%p, %a) ({
      ^bb0(%arg0: i32, %arg1: i32):
        %s = "t.op"(%arg0, %arg1) : (i32, i32) -> i32
        "mhlo.return"(%s) : (i32) -> ()
      }) : (i32, i32) -> i32
      "t.yield"(%0) : (i32) -> ()
    }) : (i32) -> i32
    return %r : i32
  }
}
)");
  check_valid_and_reads_back(m);
}

// ============================================================================== outline_region

TEST_CASE("outline_region: a private function at the end, region cloned, mhlo.return -> func.return") {
  ref::module m = parse_ok(R"(func.func @main(%a: tensor<4xf32>, %b: i32) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%a, %b) ({
  ^bb0(%p: tensor<4xf32>, %q: i32):
    %s = "t.scale"(%p, %q) : (tensor<4xf32>, i32) -> tensor<4xf32>
    "mhlo.return"(%s) : (tensor<4xf32>) -> () loc("ret")
  }) {FusionKind = "K"} : (tensor<4xf32>, i32) -> tensor<4xf32> loc("fusion")
  return %0 : tensor<4xf32>
}
)");
  const std::string before = ref::print(m);
  const auto fusion = find(m, "mhlo.fusion");
  const named_attribute attrs[] = {{"genComposite", neuronrw::attr::boolean{true}}};
  const auto f = ref::outline_region(m, {fusion, "outlined", attrs});
  CHECK(m.is_function(f));
  CHECK(m.function(f).sym_name == "outlined");
  CHECK(m.back(m.body()) == f);
  CHECK(ref::print(m) == R"(module {
  func.func @main(%a: tensor<4xf32>, %b: i32) -> tensor<4xf32> {
    %0 = "mhlo.fusion"(%a, %b) ({
    ^bb0(%p: tensor<4xf32>, %q: i32):
      %s = "t.scale"(%p, %q) : (tensor<4xf32>, i32) -> tensor<4xf32>
      "mhlo.return"(%s) : (tensor<4xf32>) -> () loc("ret")
    }) {FusionKind = "K"} : (tensor<4xf32>, i32) -> tensor<4xf32> loc("fusion")
    return %0 : tensor<4xf32>
  }
  func.func private @outlined(%p: tensor<4xf32>, %q: i32) -> tensor<4xf32> attributes {genComposite = true} {
    %s = "t.scale"(%p, %q) : (tensor<4xf32>, i32) -> tensor<4xf32>
    return %s : tensor<4xf32> loc("ret")
  } loc("fusion")
}
)");
  check_valid_and_reads_back(m);
  // The source region is untouched: the original module is a prefix of the new one.
  CHECK(ref::print(m).starts_with(before.substr(0, before.size() - 2)));
}

TEST_CASE("outline_region: nested regions are cloned with their arguments, uses map to the clones") {
  ref::module m = parse_ok(R"(func.func @main(%a: i32) -> i32 {
  %0 = "mhlo.fusion"(%a) ({
  ^bb0(%p: i32):
    %s = "t.pre"(%p) : (i32) -> i32
    %r = "t.loop"(%s) ({
    ^bb0(%i: i32):
      %t = "t.body"(%i, %s, %p) : (i32, i32, i32) -> i32
      "t.yield"(%t) : (i32) -> ()
    }) : (i32) -> i32
    "mhlo.return"(%r) : (i32) -> ()
  }) : (i32) -> i32
  return %0 : i32
}
)");
  const auto f = ref::outline_region(m, {find(m, "mhlo.fusion"), "g", {}});
  CHECK(ref::print_op(m, f) == R"(func.func private @g(%p: i32) -> i32 {
  %s = "t.pre"(%p) : (i32) -> i32
  %r = "t.loop"(%s) ({
  ^bb0(%i: i32):
    %t = "t.body"(%i, %s, %p) : (i32, i32, i32) -> i32
    "t.yield"(%t) : (i32) -> ()
  }) : (i32) -> i32
  return %r : i32
})");
  check_valid_and_reads_back(m);
  // Clones, not moves: the clone's ops use the clone's values only.
  const auto body_in_g = find(m, "t.body", 1);
  CHECK(ref::is_inside(m, body_in_g, f));
  CHECK(m.operand(body_in_g, 0) == argument(m, "t.loop", 0, 1));
  CHECK(m.operand(body_in_g, 1) != result(m, "t.pre"));
  CHECK(m.operand(body_in_g, 1) == m.result(find(m, "t.pre", 1), 0));
  CHECK(m.operand(body_in_g, 2) == m.arguments(m.region_block(f))[0]);
}

TEST_CASE("outline_region and group_ops: an op with several regions is cloned and rewired whole") {
  ref::module m = parse_ok(R"(func.func @main(%a: i32, %n: i32) -> i32 {
  %0 = "mhlo.fusion"(%a, %n) ({
  ^bb0(%p: i32, %q: i32):
    %w = "t.while"(%p) ({
    ^bb0(%i: i32):
      %c = "t.lt"(%i, %q) : (i32, i32) -> i1
      "t.return"(%c) : (i1) -> ()
    }, {
    ^bb0(%i: i32):
      %t = "t.step"(%i, %p) : (i32, i32) -> i32
      "t.return"(%t) : (i32) -> ()
    }) : (i32) -> i32
    "mhlo.return"(%w) : (i32) -> ()
  }) : (i32, i32) -> i32
  return %0 : i32
}
)");
  const auto f = ref::outline_region(m, {find(m, "mhlo.fusion"), "g", {}});
  CHECK(ref::print_op(m, f) == R"(func.func private @g(%p: i32, %q: i32) -> i32 {
  %w = "t.while"(%p) ({
  ^bb0(%i: i32):
    %c = "t.lt"(%i, %q) : (i32, i32) -> i1
    "t.return"(%c) : (i1) -> ()
  }, {
  ^bb0(%i: i32):
    %t = "t.step"(%i, %p) : (i32, i32) -> i32
    "t.return"(%t) : (i32) -> ()
  }) : (i32) -> i32
  return %w : i32
})");
  check_valid_and_reads_back(m);
  const auto w_in_g = find(m, "t.while", 1);
  REQUIRE(m.num_regions(w_in_g) == 2);
  CHECK(m.operand(find(m, "t.step", 1), 0) == m.arguments(m.region_blocks(w_in_g)[1])[0]);
  CHECK(m.operand(find(m, "t.lt", 1), 1) == m.arguments(m.region_block(f))[1]);

  // Grouping the while of @g rewires the uses of the live-ins in both of its regions.
  const auto fargs = m.arguments(m.region_block(f));
  const auto g = group(m, {w_in_g}, {fargs[0], fargs[1]}, {m.result(w_in_g, 0)});
  CHECK(m.operand(find(m, "t.lt", 1), 1) == m.arguments(m.region_block(g))[1]);
  CHECK(m.operand(find(m, "t.step", 1), 1) == m.arguments(m.region_block(g))[0]);
  check_valid_and_reads_back(m);
}

TEST_CASE("outline_region: any return-kind terminator becomes func.return, any other stays") {
  ref::module m = parse_ok(R"(func.func @main(%a: i32) -> i32 {
  %0 = "t.wrap"(%a) ({
  ^bb0(%p: i32):
    "t.yield"(%p) : (i32) -> ()
  }) : (i32) -> i32
  %1 = "t.wrap"(%0) ({
  ^bb0(%p: i32):
    "stablehlo.return"(%p) : (i32) -> ()
  }) : (i32) -> i32
  return %1 : i32
}
)");
  ref::outline_region(m, {find(m, "t.wrap", 0), "y", {}});
  ref::outline_region(m, {find(m, "t.wrap", 1), "r", {}});
  CHECK(ref::print(m).ends_with(R"(  func.func private @y(%p: i32) -> i32 {
    "t.yield"(%p) : (i32) -> ()
  }
  func.func private @r(%p: i32) -> i32 {
    return %p : i32
  }
}
)"));
  // Only a return-kind terminator becomes func.return, so @y is not a valid function: the
  // rewrite does not hide that, the verifier reports it.
  CHECK(problems(m) == "t.mlir:2:3: error: function '@y' does not end with 'func.return'\n");
}

TEST_CASE("outline_region: a captured value is used as is, which the verifier reports") {
  // The region uses %b of @main directly instead of through a block argument: the clone can only
  // refer to the same value, which lies outside the new function.
  ref::module m = parse_ok(R"(func.func @main(%a: i32, %b: i32) -> i32 {
  %0 = "mhlo.fusion"(%a) ({
  ^bb0(%p: i32):
    %s = "t.add"(%p, %b) : (i32, i32) -> i32
    "mhlo.return"(%s) : (i32) -> ()
  }) : (i32) -> i32
  return %0 : i32
}
)");
  const auto f = ref::outline_region(m, {find(m, "mhlo.fusion"), "c", {}});
  const auto add_in_c = find(m, "t.add", 1);
  CHECK(ref::is_inside(m, add_in_c, f));
  CHECK(m.operand(add_in_c, 1) == argument(m, "func.func", 1));
  CHECK(problems(m) == "t.mlir:4:5: error: operand #1 uses a value defined outside its scope\n");
}

TEST_CASE("outline_region: an op without a region gives a function with an empty body") {
  ref::module m = parse_ok(R"(func.func @main(%a: i32) -> i32 {
  %0 = "t.leaf"(%a) : (i32) -> i32
  return %0 : i32
}
)");
  const auto f = ref::outline_region(m, {find(m, "t.leaf"), "has space", {}});
  CHECK(ref::print_op(m, f) == "func.func private @\"has space\"(%arg0: i32) -> i32 {\n}");
  CHECK(problems(m) == "t.mlir:2:3: error: function '@\"has space\"' has an empty body\n");
}

TEST_CASE("outline_region and has_symbol: the rewrite does not check names, has_symbol does") {
  ref::module m = parse_ok(R"(func.func @main(%a: i32) -> i32 {
  %0 = "mhlo.fusion"(%a) ({
  ^bb0(%p: i32):
    "mhlo.return"(%p) : (i32) -> ()
  }) : (i32) -> i32
  return %0 : i32
}
"t.global"() {sym_name = "a\22b"} : () -> ()
"t.prop"() <{sym_name = "p", other = "q"}> : () -> ()
)");
  CHECK(ref::has_symbol(m, "main"));
  CHECK(ref::has_symbol(m, "a\"b"));  // a sym_name attribute, compared as its plain value
  CHECK(ref::has_symbol(m, "p"));     // a sym_name property, as the verifier's symbol table has it
  CHECK_FALSE(ref::has_symbol(m, "q"));
  CHECK_FALSE(ref::has_symbol(m, "a\\22b"));
  CHECK_FALSE(ref::has_symbol(m, "fresh"));
  ref::outline_region(m, {find(m, "mhlo.fusion"), "fresh", {}});
  CHECK(ref::has_symbol(m, "fresh"));
  CHECK(problems(m).empty());
  // Outlining under a taken name makes a second definition, which the verifier reports.
  ref::outline_region(m, {find(m, "mhlo.fusion"), "p", {}});
  CHECK(problems(m) == "t.mlir:2:3: error: redefinition of symbol named 'p'\n");
}

TEST_CASE("has_symbol: only top-level ops define symbols, erased ones no longer do") {
  ref::module m = parse_ok(R"(func.func @main() {
  "t.nested"() {sym_name = "inner"} : () -> ()
  return
}
func.func private @gone()
)");
  CHECK_FALSE(ref::has_symbol(m, "inner"));
  CHECK(ref::has_symbol(m, "gone"));
  m.erase_op(find(m, "func.func", 1));
  CHECK_FALSE(ref::has_symbol(m, "gone"));
}

// ============================================================================== replace_op

TEST_CASE("replace_op: a new op before the old one takes over every use; the old one stays for the caller") {
  ref::module m = parse_ok(R"(func.func @main(%a: i32) -> (i32, i32) {
  %f:2 = "mhlo.fusion"(%a, %a) ({
  ^bb0(%p: i32, %q: i32):
    "mhlo.return"(%q, %p) : (i32, i32) -> ()
  }) {FusionKind = "K"} : (i32, i32) -> (i32, i32) loc("here")
  %u = "t.use"(%f#1, %f#0) : (i32, i32) -> i32
  %v = "t.wrap"() ({
    %w = "t.use"(%f#0) : (i32) -> i32
    "t.yield"(%w) : (i32) -> ()
  }) : () -> i32
  return %u, %v : i32, i32
}
func.func private @d(i32, i32) -> (i32, i32)
)");
  const auto old = find(m, "mhlo.fusion");
  const named_attribute attrs[] = {{"name", neuronrw::attr::string{"composite.Fused"}},
                                   {"decomposition", neuronrw::attr::symbol{"d"}}};
  const auto n = ref::replace_op(m, {old, "stablehlo.composite", attrs});
  CHECK(m.next_op(n) == old);
  CHECK_FALSE(m.has_uses(m.result(old, 0)));
  CHECK_FALSE(m.has_uses(m.result(old, 1)));
  CHECK(m.operand(n, 0) == argument(m, "func.func", 0));
  CHECK(m.num_operands(n) == 2);
  CHECK_FALSE(m.has_region(n));
  m.erase_op(old);
  CHECK(ref::print(m) == R"(module {
  func.func @main(%a: i32) -> (i32, i32) {
    %f:2 = "stablehlo.composite"(%a, %a) {name = "composite.Fused", decomposition = @d} : (i32, i32) -> (i32, i32) loc("here")
    %u = "t.use"(%f#1, %f#0) : (i32, i32) -> i32
    %v = "t.wrap"() ({
      %w = "t.use"(%f#0) : (i32) -> i32
      "t.yield"(%w) : (i32) -> ()
    }) : () -> i32
    return %u, %v : i32, i32
  }
  func.func private @d(i32, i32) -> (i32, i32)
}
)");
  check_valid_and_reads_back(m);
}

TEST_CASE("replace_op: an op without results keeps its operands and place") {
  ref::module m = parse_ok(R"(func.func @main(%a: i32, %b: i32) {
  "t.first"() : () -> ()
  "t.side"(%b, %a) {k = 1 : i64} : (i32, i32) -> ()
  return
}
)");
  const auto old = find(m, "t.side");
  const auto n = ref::replace_op(m, {old, "t.other", {}});
  m.erase_op(old);
  CHECK(m.prev_op(n) == find(m, "t.first"));
  CHECK(ref::print(m) == R"(module {
  func.func @main(%a: i32, %b: i32) {
    "t.first"() : () -> ()
    "t.other"(%b, %a) : (i32, i32) -> ()
    return
  }
}
)");
  check_valid_and_reads_back(m);
}
