// Tests for neuronrw/passes/fusion_to_composite.hpp (and its reference-IR entry point
// run_fusion_to_composite in passes/composite_emitter.hpp): SPEC §5, seed 000
// §"FusionToComposite".
//
// Every accepted case checks, on the reference IR:
//   - the exact printed output (name hints on, as neuronrw-opt prints);
//   - ref::verify finds nothing, and mlir-opt --allow-unregistered-dialect --verify-each accepts
//     the output when $NEURONRW_MLIR_OPT exists (a note says when it is skipped);
//   - a second run changes nothing (also after a print/parse round trip);
//   - inlining each decomposition back in place of its composite gives the pre-pass module.
// Refused cases check the exact diagnostics and that the module is unchanged. The archetype IR
// runs the generic pass on hand-built modules with structural checks.
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/verify.hpp>
#include <neuronrw/ir/ref/fusion_to_composite.hpp>
#include <neuronrw/ir/ref/python_emitter.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>

#include "archetype/archetype_ir.hpp"

#include <doctest/doctest.h>

#include "support/mlir_opt.hpp"
#include "support/files.hpp"
#include "support/parse.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

namespace {

using namespace neuronrw;
namespace fs = std::filesystem;

// ------------------------------------------------------------------------------ helpers

using neuronrw::testing::join;
using neuronrw::testing::parse_verified;

std::string print_hinted(const ref::module& m) { return ref::print(m); }
std::string print_numbered(const ref::module& m) {
  return ref::print(m, ref::print_options{.use_name_hints = false, .print_locations = false});
}

using neuronrw::testing::check_mlir_opt;

/// Tests-only inverse of the pass: every composite outside decomposition functions becomes an
/// `mhlo.fusion` again (FusionKind = CompositeKind, none for "FusedComposite"; body cloned from
/// the decomposition with func.return → `terminator`), repeatedly (composites cloned out of a
/// decomposition are inlined in turn); then the decomposition functions are dropped.
void inline_back(ref::module& m, std::string_view terminator = "mhlo.return") {
  auto find_composite = [&]() -> ref::op_ref {
    std::vector<ref::op_ref> stack;
    for (auto f : ref::functions(m))
      if (!m.find_attribute(f, "genComposite") && m.has_region(f))
        for (auto o : m.ops(m.region_block(f))) stack.push_back(o);
    while (!stack.empty()) {
      auto o = stack.back();
      stack.pop_back();
      if (m.name(o) == "stablehlo.composite") return o;
      for (auto b : m.region_blocks(o))
        for (auto i : m.ops(b)) stack.push_back(i);
    }
    return {};
  };
  std::vector<std::string> used;
  for (auto c = find_composite(); c.valid(); c = find_composite()) {
    auto sym = m.find_attribute(c, "decomposition")->value.substr(1);
    used.push_back(sym);
    auto fn = ref::lookup_function(m, sym);
    REQUIRE(fn.valid());
    auto kind = ref::unquote(m.find_attribute(c, "CompositeKind")->value).value();
    std::vector<ref::attribute> attrs;
    if (kind != "FusedComposite") attrs.push_back({"FusionKind", ref::quote(kind)});
    std::vector<ref::value_ref> operands(m.operands(c).begin(), m.operands(c).end());
    std::vector<ref::type_ref> types;
    for (auto v : m.results(c)) types.push_back(m.type(v));
    auto fusion = m.create_op("mhlo.fusion", operands, types, attrs, m.loc(c));
    m.insert_before(fusion, c);
    auto src = m.region_block(fn);
    std::vector<ref::type_ref> arg_types;
    for (auto a : m.arguments(src)) arg_types.push_back(m.type(a));
    auto body = m.add_region(fusion, arg_types);
    ref::detail::value_map map;
    for (std::size_t i = 0; i < arg_types.size(); ++i) map[m.arguments(src)[i].id] = m.arguments(body)[i].id;
    ref::detail::clone_block_ops(m, src, body, map);
    auto ret = m.back(body);
    REQUIRE(m.name(ret) == "func.return");
    std::vector<ref::value_ref> rv(m.operands(ret).begin(), m.operands(ret).end());
    m.push_back(body, m.create_op(terminator, rv, {}));
    m.erase_op(ret);
    for (std::size_t i = 0; i < types.size(); ++i) m.replace_all_uses(m.result(c, i), m.result(fusion, i));
    m.erase_op(c);
  }
  for (auto f : ref::functions(m))
    if (std::find(used.begin(), used.end(), m.function(f).sym_name) != used.end()) m.erase_op(f);
}

/// Runs the pass on `input` and checks everything listed in the file comment.
void check_pass(std::string_view input, std::string_view expected, std::string_view terminator = "mhlo.return") {
  auto m = parse_verified(input);
  const std::string before = print_numbered(m);
  auto errs = run_fusion_to_composite(m);
  INFO(join(errs));
  REQUIRE(errs.empty());
  const std::string out = print_hinted(m);
  CHECK(out == expected);
  CHECK(join(ref::verify(m)).empty());
  check_mlir_opt(out);

  // A second run changes nothing, on the same module and after a round trip.
  CHECK(run_fusion_to_composite(m).empty());
  CHECK(print_hinted(m) == out);
  auto again = parse_verified(out);
  CHECK(run_fusion_to_composite(again).empty());
  CHECK(print_hinted(again) == out);

  inline_back(m, terminator);
  CHECK(print_numbered(m) == before);
}

// ------------------------------------------------------------------------------ scenarios

TEST_CASE("a single fusion becomes a composite and a private decomposition") {
  check_pass(R"(func.func @layer(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %y = "mhlo.multiply"(%x, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %f = "mhlo.fusion"(%w, %y) ({
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<16x8xf32>):
    %g = "mhlo.all_gather"(%a) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %s = "mhlo.add"(%g, %b) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %r = "mhlo.reduce_scatter"(%s) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    "mhlo.return"(%r) : (tensor<4x8xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}
)",
             R"(module {
  func.func @layer(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> tensor<4x8xf32> {
    %y = "mhlo.multiply"(%x, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %f = "stablehlo.composite"(%w, %y) {CompositeKind = "ScheduleFusion", composite_attributes = {}, decomposition = @hilo.FusedComposite.0, name = "composite.Fused", version = 0 : i32} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
    return %f : tensor<4x8xf32>
  }
  func.func private @hilo.FusedComposite.0(%a: tensor<4x8xf32>, %b: tensor<16x8xf32>) -> tensor<4x8xf32> attributes {genComposite = true, noDelete = true} {
    %g = "mhlo.all_gather"(%a) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %s = "mhlo.add"(%g, %b) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %r = "mhlo.reduce_scatter"(%s) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    return %r : tensor<4x8xf32>
  }
}
)");
}

TEST_CASE("several fusions over several functions are numbered in module and block order") {
  check_pass(R"(func.func @first(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    %1 = "mhlo.exponential"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    "mhlo.return"(%1) : (tensor<4xf32>) -> ()
  }) {FusionKind = "Expm1"} : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "mhlo.fusion"(%0, %x) ({
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %3 = "mhlo.multiply"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "mhlo.return"(%3) : (tensor<4xf32>) -> ()
  }) {FusionKind = "MulRedSqrt"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @second(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    %1 = "mhlo.log_plus_one"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    "mhlo.return"(%1) : (tensor<4xf32>) -> ()
  }) {FusionKind = "Log1p"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)",
             R"(module {
  func.func @first(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.composite"(%x) {CompositeKind = "Expm1", composite_attributes = {}, decomposition = @hilo.FusedComposite.0, name = "composite.Fused", version = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = "stablehlo.composite"(%0, %x) {CompositeKind = "MulRedSqrt", composite_attributes = {}, decomposition = @hilo.FusedComposite.1, name = "composite.Fused", version = 0 : i32} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %2 : tensor<4xf32>
  }
  func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  func.func @second(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.composite"(%x) {CompositeKind = "Log1p", composite_attributes = {}, decomposition = @hilo.FusedComposite.2, name = "composite.Fused", version = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @hilo.FusedComposite.0(%a: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true, noDelete = true} {
    %1 = "mhlo.exponential"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @hilo.FusedComposite.1(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true, noDelete = true} {
    %3 = "mhlo.multiply"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %3 : tensor<4xf32>
  }
  func.func private @hilo.FusedComposite.2(%a: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true, noDelete = true} {
    %1 = "mhlo.log_plus_one"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
)");
}

TEST_CASE("a fusion without FusionKind gets CompositeKind \"FusedComposite\"") {
  check_pass(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    %1 = "mhlo.negate"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    "mhlo.return"(%1) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)",
             R"(module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.composite"(%x) {CompositeKind = "FusedComposite", composite_attributes = {}, decomposition = @hilo.FusedComposite.0, name = "composite.Fused", version = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @hilo.FusedComposite.0(%a: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true, noDelete = true} {
    %1 = "mhlo.negate"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
)");
}

TEST_CASE("nested fusions: the inner one first, its composite cloned into the outer decomposition") {
  check_pass(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%p: tensor<4xf32>):
    %1 = "mhlo.fusion"(%p) ({
    ^bb0(%q: tensor<4xf32>):
      %2 = "mhlo.fusion"(%q) ({
      ^bb0(%s: tensor<4xf32>):
        %3 = "mhlo.exponential"(%s) : (tensor<4xf32>) -> tensor<4xf32>
        "mhlo.return"(%3) : (tensor<4xf32>) -> ()
      }) {FusionKind = "Expm1"} : (tensor<4xf32>) -> tensor<4xf32>
      "mhlo.return"(%2) : (tensor<4xf32>) -> ()
    }) {FusionKind = "Elementwise"} : (tensor<4xf32>) -> tensor<4xf32>
    %4 = "mhlo.fusion"(%1, %p) ({
    ^bb0(%t: tensor<4xf32>, %u: tensor<4xf32>):
      %5 = "mhlo.dot"(%t, %u) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      "mhlo.return"(%5) : (tensor<4xf32>) -> ()
    }) {FusionKind = "DotLogistic"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "mhlo.return"(%4) : (tensor<4xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4xf32>) -> tensor<4xf32>
  %6 = "mhlo.fusion"(%0) ({
  ^bb0(%v: tensor<4xf32>):
    "mhlo.return"(%v) : (tensor<4xf32>) -> ()
  }) {FusionKind = "DotSoftmax"} : (tensor<4xf32>) -> tensor<4xf32>
  return %6 : tensor<4xf32>
}
)",
             R"(module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.composite"(%x) {CompositeKind = "ScheduleFusion", composite_attributes = {}, decomposition = @hilo.FusedComposite.3, name = "composite.Fused", version = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    %6 = "stablehlo.composite"(%0) {CompositeKind = "DotSoftmax", composite_attributes = {}, decomposition = @hilo.FusedComposite.4, name = "composite.Fused", version = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    return %6 : tensor<4xf32>
  }
  func.func private @hilo.FusedComposite.0(%s: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true, noDelete = true} {
    %3 = "mhlo.exponential"(%s) : (tensor<4xf32>) -> tensor<4xf32>
    return %3 : tensor<4xf32>
  }
  func.func private @hilo.FusedComposite.1(%q: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true, noDelete = true} {
    %2 = "stablehlo.composite"(%q) {CompositeKind = "Expm1", composite_attributes = {}, decomposition = @hilo.FusedComposite.0, name = "composite.Fused", version = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    return %2 : tensor<4xf32>
  }
  func.func private @hilo.FusedComposite.2(%t: tensor<4xf32>, %u: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true, noDelete = true} {
    %5 = "mhlo.dot"(%t, %u) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %5 : tensor<4xf32>
  }
  func.func private @hilo.FusedComposite.3(%p: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true, noDelete = true} {
    %1 = "stablehlo.composite"(%p) {CompositeKind = "Elementwise", composite_attributes = {}, decomposition = @hilo.FusedComposite.1, name = "composite.Fused", version = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    %4 = "stablehlo.composite"(%1, %p) {CompositeKind = "DotLogistic", composite_attributes = {}, decomposition = @hilo.FusedComposite.2, name = "composite.Fused", version = 0 : i32} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %4 : tensor<4xf32>
  }
  func.func private @hilo.FusedComposite.4(%v: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true, noDelete = true} {
    return %v : tensor<4xf32>
  }
}
)");
}

TEST_CASE("results used outside, unused results, zero results and zero operands") {
  check_pass(R"(func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>) -> tensor<4xf32> {
  %0:3 = "mhlo.fusion"(%x, %y) ({
  ^bb0(%a: tensor<4xf32>, %b: tensor<8xf32>):
    %1 = "mhlo.negate"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    %2 = "mhlo.abs"(%b) : (tensor<8xf32>) -> tensor<8xf32>
    %3 = "mhlo.sqrt"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    "mhlo.return"(%1, %2, %3) : (tensor<4xf32>, tensor<8xf32>, tensor<4xf32>) -> ()
  }) {FusionKind = "Elementwise"} : (tensor<4xf32>, tensor<8xf32>) -> (tensor<4xf32>, tensor<8xf32>, tensor<4xf32>)
  %4 = "mhlo.add"(%0#2, %0#2) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  "mhlo.fusion"() ({
    "mhlo.return"() : () -> ()
  }) {FusionKind = "ScheduleFusion"} : () -> ()
  return %0#0 : tensor<4xf32>
}
)",
             R"(module {
  func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>) -> tensor<4xf32> {
    %0:3 = "stablehlo.composite"(%x, %y) {CompositeKind = "Elementwise", composite_attributes = {}, decomposition = @hilo.FusedComposite.0, name = "composite.Fused", version = 0 : i32} : (tensor<4xf32>, tensor<8xf32>) -> (tensor<4xf32>, tensor<8xf32>, tensor<4xf32>)
    %4 = "mhlo.add"(%0#2, %0#2) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "stablehlo.composite"() {CompositeKind = "ScheduleFusion", composite_attributes = {}, decomposition = @hilo.FusedComposite.1, name = "composite.Fused", version = 0 : i32} : () -> ()
    return %0#0 : tensor<4xf32>
  }
  func.func private @hilo.FusedComposite.0(%a: tensor<4xf32>, %b: tensor<8xf32>) -> (tensor<4xf32>, tensor<8xf32>, tensor<4xf32>) attributes {genComposite = true, noDelete = true} {
    %1 = "mhlo.negate"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    %2 = "mhlo.abs"(%b) : (tensor<8xf32>) -> tensor<8xf32>
    %3 = "mhlo.sqrt"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    return %1, %2, %3 : tensor<4xf32>, tensor<8xf32>, tensor<4xf32>
  }
  func.func private @hilo.FusedComposite.1() attributes {genComposite = true, noDelete = true} {
    return
  }
}
)");
}

TEST_CASE("names the module already defines are skipped") {
  check_pass(R"(func.func private @hilo.FusedComposite.0(%x: i32) -> i32 {
  return %x : i32
}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    "mhlo.return"(%a) : (tensor<4xf32>) -> ()
  }) {FusionKind = "Log1p"} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "mhlo.fusion"(%0) ({
  ^bb0(%a: tensor<4xf32>):
    "mhlo.return"(%a) : (tensor<4xf32>) -> ()
  }) {FusionKind = "Log1p"} : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @hilo.FusedComposite.2()
)",
             R"(module {
  func.func private @hilo.FusedComposite.0(%x: i32) -> i32 {
    return %x : i32
  }
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.composite"(%x) {CompositeKind = "Log1p", composite_attributes = {}, decomposition = @hilo.FusedComposite.1, name = "composite.Fused", version = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = "stablehlo.composite"(%0) {CompositeKind = "Log1p", composite_attributes = {}, decomposition = @hilo.FusedComposite.3, name = "composite.Fused", version = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @hilo.FusedComposite.2()
  func.func private @hilo.FusedComposite.1(%a: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true, noDelete = true} {
    return %a : tensor<4xf32>
  }
  func.func private @hilo.FusedComposite.3(%a: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true, noDelete = true} {
    return %a : tensor<4xf32>
  }
}
)");

  SUBCASE("the plan records the skipped names") {
    auto m = parse_verified(R"(func.func private @hilo.FusedComposite.0()
func.func @f() {
  "mhlo.fusion"() ({
    "mhlo.return"() : () -> ()
  }) : () -> ()
  return
}
)");
    auto plan = plan_fusion_to_composite(m);
    CHECK(plan.ok());
    CHECK(plan.skipped_names == std::vector<std::string>{"hilo.FusedComposite.0"});
    REQUIRE(plan.conversions.size() == 1);
    CHECK(plan.conversions[0].decomposition == "hilo.FusedComposite.1");
    CHECK(plan.conversions[0].composite_kind == "FusedComposite");
    CHECK(plan.conversions[0].kind_defaulted);
    CHECK(plan.conversions[0].function == ref::lookup_function(m, "f"));
  }
}

TEST_CASE("a second run over new fusions continues after the taken names") {
  auto m = parse_verified(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    "mhlo.return"(%a) : (tensor<4xf32>) -> ()
  }) {FusionKind = "Expm1"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)");
  REQUIRE(run_fusion_to_composite(m).empty());
  const std::string once = print_hinted(m);
  CHECK(run_fusion_to_composite(m).empty());  // nothing to do
  CHECK(print_hinted(m) == once);
  auto plan = plan_fusion_to_composite(m);
  CHECK(plan.conversions.empty());
  REQUIRE(plan.skipped_functions.size() == 1);
  CHECK(plan.skipped_functions[0].function == ref::lookup_function(m, "hilo.FusedComposite.0"));
  CHECK(plan.skipped_functions[0].reason == f2c_skip_reason::gen_composite);

  // New fusion in the lowered module (e.g. another pass ran in between): the seed's counter
  // would reuse hilo.FusedComposite.0; ours skips it.
  REQUIRE(once.size() > 2);
  auto m2 = parse_verified(once.substr(0, once.size() - 2) + R"(  func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "mhlo.fusion"(%x) ({
    ^bb0(%a: tensor<4xf32>):
      "mhlo.return"(%a) : (tensor<4xf32>) -> ()
    }) {FusionKind = "Log1p"} : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
)");
  auto plan2 = plan_fusion_to_composite(m2);
  REQUIRE(plan2.conversions.size() == 1);
  CHECK(plan2.conversions[0].decomposition == "hilo.FusedComposite.1");
  CHECK(plan2.skipped_names == std::vector<std::string>{"hilo.FusedComposite.0"});
  REQUIRE(run_fusion_to_composite(m2).empty());
  CHECK(join(ref::verify(m2)).empty());
}

TEST_CASE("a function carrying genComposite is not scanned") {
  check_pass(R"(func.func private @keep(%x: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true} {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    "mhlo.return"(%a) : (tensor<4xf32>) -> ()
  }) {FusionKind = "Expm1"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    "mhlo.return"(%a) : (tensor<4xf32>) -> ()
  }) {FusionKind = "Log1p"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)",
             R"(module {
  func.func private @keep(%x: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true} {
    %0 = "mhlo.fusion"(%x) ({
    ^bb0(%a: tensor<4xf32>):
      "mhlo.return"(%a) : (tensor<4xf32>) -> ()
    }) {FusionKind = "Expm1"} : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.composite"(%x) {CompositeKind = "Log1p", composite_attributes = {}, decomposition = @hilo.FusedComposite.0, name = "composite.Fused", version = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @hilo.FusedComposite.0(%a: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true, noDelete = true} {
    return %a : tensor<4xf32>
  }
}
)");
}

TEST_CASE("stablehlo.return is converted too, and fusions inside other region ops are found") {
  check_pass(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "test.region"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    %1 = "mhlo.fusion"(%a) ({
    ^bb0(%b: tensor<4xf32>):
      %2 = "stablehlo.exponential"(%b) : (tensor<4xf32>) -> tensor<4xf32>
      "stablehlo.return"(%2) : (tensor<4xf32>) -> ()
    }) {FusionKind = "Expm1"} : (tensor<4xf32>) -> tensor<4xf32>
    "test.yield"(%1) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)",
             R"(module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "test.region"(%x) ({
    ^bb0(%a: tensor<4xf32>):
      %1 = "stablehlo.composite"(%a) {CompositeKind = "Expm1", composite_attributes = {}, decomposition = @hilo.FusedComposite.0, name = "composite.Fused", version = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
      "test.yield"(%1) : (tensor<4xf32>) -> ()
    }) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @hilo.FusedComposite.0(%b: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true, noDelete = true} {
    %2 = "stablehlo.exponential"(%b) : (tensor<4xf32>) -> tensor<4xf32>
    return %2 : tensor<4xf32>
  }
}
)",
             "stablehlo.return");
}

TEST_CASE("locations of the fusion go to the composite and the decomposition") {
  auto m = parse_verified(R"(#loc = loc("model.py":3:1)
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    "mhlo.return"(%a) : (tensor<4xf32>) -> () loc("model.py":4:2)
  }) {FusionKind = "Expm1"} : (tensor<4xf32>) -> tensor<4xf32> loc(#loc)
  return %0 : tensor<4xf32>
}
)");
  REQUIRE(run_fusion_to_composite(m).empty());
  const std::string out = print_hinted(m);
  CHECK(out == R"(#loc = loc("model.py":3:1)
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.composite"(%x) {CompositeKind = "Expm1", composite_attributes = {}, decomposition = @hilo.FusedComposite.0, name = "composite.Fused", version = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32> loc(#loc)
    return %0 : tensor<4xf32>
  }
  func.func private @hilo.FusedComposite.0(%a: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true, noDelete = true} {
    return %a : tensor<4xf32> loc("model.py":4:2)
  } loc(#loc)
}
)");
  CHECK(join(ref::verify(m)).empty());
  check_mlir_opt(out);
}

TEST_CASE("options: symbol prefix (quoted when it must be), composite op name") {
  auto m = parse_verified(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    "mhlo.return"(%a) : (tensor<4xf32>) -> ()
  }) {FusionKind = "Say \"hi\""} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)");
  REQUIRE(run_fusion_to_composite(m, {.symbol_prefix = "my fused ", .composite_op_name = "my.composite"}).empty());
  const std::string out = print_hinted(m);
  CHECK(out == R"(module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "my.composite"(%x) {CompositeKind = "Say \"hi\"", composite_attributes = {}, decomposition = @"my fused 0", name = "composite.Fused", version = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @"my fused 0"(%a: tensor<4xf32>) -> tensor<4xf32> attributes {genComposite = true, noDelete = true} {
    return %a : tensor<4xf32>
  }
}
)");
  CHECK(join(ref::verify(m)).empty());
  check_mlir_opt(out);
  CHECK(mlir_symbol_reference("hilo.FusedComposite.7") == "@hilo.FusedComposite.7");
  CHECK(mlir_symbol_reference("_a$b.c9") == "@_a$b.c9");
  CHECK(mlir_symbol_reference("9a") == "@\"9a\"");
  CHECK(mlir_symbol_reference("") == "@\"\"");
  CHECK(mlir_string_literal("a\"b\\c\nd\x01") == "\"a\\\"b\\\\c\\nd\\01\"");
}

// ------------------------------------------------------------------------------ refusals

/// Runs the pass expecting it to refuse with exactly `expected` diagnostics and leave the module
/// unchanged.
void check_refused(std::string_view input, std::string_view expected, const fusion_to_composite_options& opt = {}) {
  auto m = parse_verified(input);
  const std::string before = print_hinted(m);
  auto errs = run_fusion_to_composite(m, opt);
  CHECK(join(errs) == expected);
  CHECK(print_hinted(m) == before);
}

TEST_CASE("validation: an unknown FusionKind is refused with the seed's message") {
  const char* input = R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    "mhlo.return"(%a) : (tensor<4xf32>) -> ()
  }) {FusionKind = "Expm1"} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "mhlo.fusion"(%0) ({
  ^bb0(%a: tensor<4xf32>):
    "mhlo.return"(%a) : (tensor<4xf32>) -> ()
  }) {FusionKind = "RmsNorm"} : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "mhlo.fusion"(%1) ({
  ^bb0(%a: tensor<4xf32>):
    "mhlo.return"(%a) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
)";
  check_refused(input,
                "t.mlir:6:3: error: Unexpected FusionOp type 'RmsNorm'. Supported fusion types are: "
                "ScheduleFusion, MulRedSqrt, DotLogistic, Elementwise, Expm1, Log1p, DotSoftmax.\n",
                {.validate_fusion_kind = true});

  SUBCASE("without validation the kind is copied blindly, as the seed does") {
    auto m = parse_verified(input);
    CHECK(run_fusion_to_composite(m).empty());
    CHECK(join(ref::verify(m)).empty());
  }
  SUBCASE("a user registry that knows the kind accepts it") {
    auto m = parse_verified(input);
    CHECK(run_fusion_to_composite<fusion_op_registry::with_kinds<"RmsNorm">>(m, {.validate_fusion_kind = true}).empty());
    auto plan = plan_fusion_to_composite(m);
    CHECK(plan.conversions.empty());
  }
  SUBCASE("the plan carries the code and the fusion") {
    auto m = parse_verified(input);
    auto plan = plan_fusion_to_composite(m, {.validate_fusion_kind = true});
    REQUIRE(plan.refused.size() == 1);
    CHECK(plan.refused[0].code == f2c_problem_code::unknown_fusion_kind);
    CHECK(m.name(plan.refused[0].op) == "mhlo.fusion");
    CHECK(plan.conversions.size() == 3);
    CHECK(apply(m, plan).empty());  // a refused plan applies nothing
  }
}

TEST_CASE("refusals: captured values, non-string kinds, empty bodies, bad terminators") {
  check_refused(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = "mhlo.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    %1 = "mhlo.add"(%a, %c) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %2 = "mhlo.add"(%x, %1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "mhlo.return"(%2) : (tensor<4xf32>) -> ()
  }) {FusionKind = "Expm1"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)",
                "t.mlir:5:5: error: operand #1 uses a value defined outside the enclosing fusion, so the "
                "fusion cannot be outlined into a decomposition function\n"
                "t.mlir:6:5: error: operand #0 uses a value defined outside the enclosing fusion, so the "
                "fusion cannot be outlined into a decomposition function\n");

  // Only the innermost fusion reports a capture, once.
  check_refused(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    %1 = "mhlo.fusion"(%a) ({
    ^bb0(%b: tensor<4xf32>):
      %2 = "mhlo.add"(%a, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      "mhlo.return"(%2) : (tensor<4xf32>) -> ()
    }) : (tensor<4xf32>) -> tensor<4xf32>
    "mhlo.return"(%1) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)",
                "t.mlir:6:7: error: operand #0 uses a value defined outside the enclosing fusion, so the "
                "fusion cannot be outlined into a decomposition function\n"
                "t.mlir:6:7: error: operand #1 uses a value defined outside the enclosing fusion, so the "
                "fusion cannot be outlined into a decomposition function\n");

  check_refused(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    "mhlo.return"(%a) : (tensor<4xf32>) -> ()
  }) {FusionKind = 3 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)",
                "t.mlir:2:3: error: fusion attribute 'FusionKind' must be a string, e.g. FusionKind = "
                "\"ScheduleFusion\"\n");

  check_refused(R"(func.func @f() {
  "mhlo.fusion"() : () -> ()
  "mhlo.fusion"() ({
  }) : () -> ()
  return
}
)",
                "t.mlir:2:3: error: fusion has no body to outline (it needs exactly one region block, "
                "ending with its return)\n"
                "t.mlir:3:3: error: fusion has no body to outline (it needs exactly one region block, "
                "ending with its return)\n");

  check_refused(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    "test.yield"(%a) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "mhlo.fusion"(%0) ({
  ^bb0(%a: tensor<4xf32>):
    "mhlo.return"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
)",
                "t.mlir:4:5: error: a fusion body must end with a return of its 1 result(s), e.g. "
                "\"mhlo.return\", to become the decomposition's func.return\n"
                "t.mlir:8:5: error: a fusion body must end with a return of its 1 result(s), e.g. "
                "\"mhlo.return\", to become the decomposition's func.return\n");

  // The region's arguments must be the fusion's operands, one each: an extra argument would be
  // left without a value in the decomposition, a missing one would drop an operand.
  check_refused(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %1 = "mhlo.add"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "mhlo.return"(%1) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "mhlo.fusion"(%x, %0) ({
    %3 = "mhlo.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
    "mhlo.return"(%3) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
)",
                "t.mlir:2:3: error: the fusion's region takes 2 argument(s) but the fusion has 1 operand(s): "
                "each operand must be passed as one region argument\n"
                "t.mlir:7:3: error: the fusion's region takes 0 argument(s) but the fusion has 2 operand(s): "
                "each operand must be passed as one region argument\n");
}

// ------------------------------------------------------------------------------ archetype IR

struct arch_builder {
  archetype::ir g;
  /// func @name(t) with one fusion of `kind` around op `inner`, returning its result.
  std::pair<archetype::op_h, archetype::op_h> function_with_fusion(std::string_view name, std::string kind_text) {
    auto [f, body] = g.add_function(name, {"t"});
    auto fusion = g.add(body, "mhlo.fusion", {g.arg(body, 0)}, {"t"});
    if (!kind_text.empty()) g.op(fusion).attrs.emplace_back("FusionKind", std::move(kind_text));
    int fb = g.add_region(fusion, {"t"});
    auto n = g.add(fb, "mhlo.negate", {g.arg(fb, 0)}, {"t"});
    g.add(fb, "mhlo.return", {g.result(n)});
    g.add(body, "func.return", {g.result(fusion)});
    return {f, fusion};
  }
  std::string attr(archetype::op_h o, std::string_view key) const {
    for (auto& [k, v] : g.op(o).attrs)
      if (k == key) return v;
    return "<none>";
  }
};

TEST_CASE("archetype IR: one fusion, structure of the composite and the decomposition") {
  arch_builder b;
  auto [f, fusion] = b.function_with_fusion("f", "\"MulRedSqrt\"");
  auto& g = b.g;
  auto plan = fusion_to_composite(g);
  REQUIRE(plan.ok());
  REQUIRE(plan.conversions.size() == 1);
  CHECK(g.op(fusion).erased);
  int body = g.op(f).regions.front();
  REQUIRE(g.block_ops(body).size() == 2);
  archetype::op_h comp{g.block_ops(body)[0]};
  CHECK(g.op(comp).name == "stablehlo.composite");
  CHECK(g.op(comp).operands == std::vector<int>{g.arg(body, 0).id});
  using kv = std::pair<std::string, std::string>;
  CHECK(g.op(comp).attrs == std::vector<kv>{{"CompositeKind", "\"MulRedSqrt\""},
                                            {"composite_attributes", "{}"},
                                            {"decomposition", "@hilo.FusedComposite.0"},
                                            {"name", "\"composite.Fused\""},
                                            {"version", "0 : i32"}});
  // The return now uses the composite's result.
  archetype::op_h ret{g.block_ops(body)[1]};
  CHECK(g.op(ret).operands == std::vector<int>{g.result(comp).id});
  // The decomposition is appended at the module's end.
  REQUIRE(g.block_ops(0).size() == 2);
  archetype::op_h fn{g.block_ops(0)[1]};
  CHECK(g.op(fn).symbol == "hilo.FusedComposite.0");
  CHECK(g.op(fn).attrs == std::vector<kv>{{"genComposite", "true"}, {"noDelete", "true"}});
  int fb = g.op(fn).regions.front();
  REQUIRE(g.block_ops(fb).size() == 2);
  CHECK(g.ops[static_cast<std::size_t>(g.block_ops(fb)[0])].name == "mhlo.negate");
  CHECK(g.ops[static_cast<std::size_t>(g.block_ops(fb)[1])].name == "func.return");
  // A second run does nothing.
  auto again = fusion_to_composite(g);
  CHECK(again.conversions.empty());
  REQUIRE(again.skipped_functions.size() == 1);
  CHECK(again.skipped_functions[0].function == fn);
}

TEST_CASE("archetype IR: numbering across functions, default kind, taken names") {
  arch_builder b;
  auto& g = b.g;
  b.function_with_fusion("a", "\"Expm1\"");
  auto [taken, tb] = g.add_function("hilo.FusedComposite.1", {});
  g.add(tb, "func.return", {});
  b.function_with_fusion("c", "");
  auto plan = fusion_to_composite(g);
  REQUIRE(plan.ok());
  REQUIRE(plan.conversions.size() == 2);
  CHECK(plan.conversions[0].decomposition == "hilo.FusedComposite.0");
  CHECK(plan.conversions[1].decomposition == "hilo.FusedComposite.2");
  CHECK(plan.conversions[1].composite_kind == "FusedComposite");
  CHECK(plan.skipped_names == std::vector<std::string>{"hilo.FusedComposite.1"});
  std::vector<std::string> symbols;
  for (int o : g.block_ops(0)) symbols.push_back(g.ops[static_cast<std::size_t>(o)].symbol);
  CHECK(symbols == std::vector<std::string>{"a", "hilo.FusedComposite.1", "c", "hilo.FusedComposite.0",
                                            "hilo.FusedComposite.2"});
}

TEST_CASE("archetype IR: nested fusions inner first; genComposite functions skipped; validation") {
  arch_builder b;
  auto& g = b.g;
  auto [f, body] = g.add_function("f", {"t"});
  auto outer = g.add(body, "mhlo.fusion", {g.arg(body, 0)}, {"t"});
  g.op(outer).attrs.emplace_back("FusionKind", "\"ScheduleFusion\"");
  int ob = g.add_region(outer, {"t"});
  auto inner = g.add(ob, "mhlo.fusion", {g.arg(ob, 0)}, {"t"});
  g.op(inner).attrs.emplace_back("FusionKind", "\"DotLogistic\"");
  int ib = g.add_region(inner, {"t"});
  g.add(ib, "mhlo.return", {g.arg(ib, 0)});
  g.add(ob, "mhlo.return", {g.result(inner)});
  g.add(body, "func.return", {g.result(outer)});
  auto [skip, sb] = g.add_function("skip", {});
  g.op(skip).attrs.emplace_back("genComposite", "true");
  auto sf = g.add(sb, "mhlo.fusion", {}, {});
  g.add(sb, "func.return", {});

  SUBCASE("validation refuses an unknown kind and changes nothing") {
    g.op(inner).attrs[0].second = "\"Nope\"";
    const auto before = g.ops.size();
    auto plan = fusion_to_composite(g, {.validate_fusion_kind = true});
    REQUIRE(plan.refused.size() == 1);
    CHECK(plan.refused[0].op == inner);
    CHECK(plan.refused[0].message ==
          "Unexpected FusionOp type 'Nope'. Supported fusion types are: ScheduleFusion, MulRedSqrt, "
          "DotLogistic, Elementwise, Expm1, Log1p, DotSoftmax.");
    CHECK(g.ops.size() == before);
    CHECK(!g.op(inner).erased);
  }
  SUBCASE("conversion") {
    auto plan = fusion_to_composite(g);
    REQUIRE(plan.ok());
    REQUIRE(plan.conversions.size() == 2);
    CHECK(plan.conversions[0].fusion == inner);
    CHECK(plan.conversions[0].decomposition == "hilo.FusedComposite.0");
    CHECK(plan.conversions[1].fusion == outer);
    CHECK(plan.conversions[1].decomposition == "hilo.FusedComposite.1");
    REQUIRE(plan.skipped_functions.size() == 1);
    CHECK(plan.skipped_functions[0].function == skip);
    CHECK(!g.op(sf).erased);
    // The outer decomposition holds a composite of the inner one.
    archetype::op_h fn1{g.block_ops(0).back()};
    CHECK(g.op(fn1).symbol == "hilo.FusedComposite.1");
    archetype::op_h c{g.block_ops(g.op(fn1).regions.front()).front()};
    CHECK(g.op(c).name == "stablehlo.composite");
    CHECK(b.attr(c, "CompositeKind") == "\"DotLogistic\"");
    CHECK(b.attr(c, "decomposition") == "@hilo.FusedComposite.0");
    archetype::op_h top{g.block_ops(body).front()};
    CHECK(b.attr(top, "CompositeKind") == "\"ScheduleFusion\"");
    CHECK(b.attr(top, "decomposition") == "@hilo.FusedComposite.1");
  }
}

}  // namespace
