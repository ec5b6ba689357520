// Tests for neuronrw/ir/ref/diagnostics.hpp: ref::op_locator places the diagnostics
// to_diagnostics makes at the ops' lines and columns in the module's file, so the reference IR
// reports a refusal with the driver's exact text (tests/lit/neuronrw-opt/ has the same texts
// through neuronrw-opt), and run_fusion_to_composite returns the message alone.
#include <string>
#include <utility>

#include <doctest/doctest.h>

#include <neuronrw/diagnostic.hpp>
#include <neuronrw/ir/ref/diagnostics.hpp>
#include <neuronrw/ir/ref/fusion_to_composite.hpp>
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/schedule_fusion.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/diagnostics.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

namespace {

using namespace neuronrw;

ref::module parse_ok(const char* text) {
  auto r = ref::parse(text, "p.mlir");
  REQUIRE_MESSAGE(r.ok(), r.error.str());
  return std::move(*r.value);
}

}  // namespace

TEST_CASE("op_locator: an op's line and column in the module's file; the null op unknown") {
  const auto m = parse_ok(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %n = "mhlo.negate"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %n : tensor<4xf32>
})");
  const ref::op_locator at{m};
  {
    ref::op_ref negate{};
    walk<walk_order::pre>(m, m.body(), [&](ref::op_ref o) {
      if (m.name(o) == "mhlo.negate") negate = o;
    });
    const auto l = at(negate);
    CHECK(l.file == "p.mlir");
    CHECK(l.loc == source_loc{2, 3});
  }
  const auto none = at(ref::op_ref{});
  CHECK(none.file == "p.mlir");
  CHECK_FALSE(none.loc.known());
}

TEST_CASE("ScheduleFusion's refusals on the reference IR: the driver's remark and note") {
  auto m = parse_ok(R"(func.func @f(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %f = "mhlo.fusion"(%w) ({
  ^bb0(%a: tensor<4x8xf32>):
    %g = "mhlo.all_gather"(%a) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    "mhlo.return"(%r) : (tensor<4x8xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
})");
  const auto plan = plan_schedule_fusion(std::as_const(m));
  REQUIRE(plan.refused.size() == 1);
  const diagnostics ds = to_diagnostics(m, plan, ref::op_locator{m}, {.pass = "schedule-fusion"});
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].str() ==
        "p.mlir:5:5: remark: schedule-fusion refused this candidate: already_fused: the reduce_scatter is already "
        "inside a fusion\n"
        "p.mlir:2:3: note: the fusion the candidate is already in");
}

TEST_CASE("FusionToComposite's refusals on the reference IR: the driver's errors; the entry point's messages") {
  const char* text = R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%b: tensor<4xf32>):
    "mhlo.return"(%b) : (tensor<4xf32>) -> ()
  }) {FusionKind = "Bogus"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
})";
  auto m = parse_ok(text);
  const auto plan = plan_fusion_to_composite(std::as_const(m), {.validate_fusion_kind = true});
  REQUIRE(plan.refused.size() == 1);
  const diagnostics ds = to_diagnostics(m, plan, ref::op_locator{m}, {.pass = "fusion-to-composite"});
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].sev == severity::error);
  CHECK(ds[0].str().starts_with("p.mlir:2:3: error: fusion-to-composite: unknown_fusion_kind: Unexpected FusionOp type 'Bogus'."));
  // The entry point: the message alone, and the module unchanged.
  const auto errs = run_fusion_to_composite(m, {.validate_fusion_kind = true});
  REQUIRE(errs.size() == 1);
  CHECK(errs[0].str().starts_with("p.mlir:2:3: error: Unexpected FusionOp type 'Bogus'."));
  CHECK(errs == to_diagnostics(m, plan, ref::op_locator{m}, {.style = refusal_style::message}));
}
