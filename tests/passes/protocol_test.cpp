// Tests for neuronrw/passes/protocol.hpp: every pass's plan models pass_plan, refusals are
// {code, op, message}, and describe() prints a plan for any IR with any op printer (the
// reference IR's printer gives the driver's exact dry-run text; a bare callable gets the generic
// value names).
#include <string>
#include <utility>

#include <doctest/doctest.h>

#include "support/parse.hpp"

#include <neuronrw/ir/host/comm_domain_scopes.hpp>
#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/schedule_fusion.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/protocol.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "archetype/archetype_ir.hpp"
#include "archetype/host_archetype.hpp"

namespace {

using namespace neuronrw;

static_assert(pass_plan<ref_schedule_fusion_plan>);
static_assert(pass_plan<fusion_to_composite_plan<ref::op_ref>>);
static_assert(pass_plan<comm_domain_plan<host::program>>);
static_assert(pass_plan<schedule_fusion_plan_t<archetype::ir>>);
static_assert(pass_plan<comm_domain_plan<archetype::host_program>>);
static_assert(!pass_plan<int>);
static_assert(std::derived_from<ref_schedule_fusion_plan::refusal_record, refusal<schedule_refusal, ref::op_ref>>);

using neuronrw::testing::parse_ok;

// Names an op by its name only: a printer without value() / function() members.
struct name_only {
  const ref::module& m;
  std::string operator()(ref::op_ref o) const { return std::string(m.name(o)); }
};

constexpr const char* two_pairs = R"(func.func @layer(%w: tensor<4xf32>, %x: tensor<16xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %g = "mhlo.all_gather"(%w) : (tensor<4xf32>) -> tensor<16xf32>
  %y = "mhlo.multiply"(%g, %x) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %r = "mhlo.reduce_scatter"(%g) : (tensor<16xf32>) -> tensor<4xf32>
  %s = "mhlo.reduce_scatter"(%x) : (tensor<16xf32>) -> tensor<4xf32>
  return %r, %s : tensor<4xf32>, tensor<4xf32>
})";

TEST_CASE("ScheduleFusion: has_changes, changes and refusals read the plan") {
  auto m = parse_ok(two_pairs, "p.mlir");
  const auto plan = plan_schedule_fusion(std::as_const(m));
  CHECK(plan.has_changes());
  REQUIRE(plan.changes().size() == 1);
  CHECK(m.name(plan.changes()[0].producer()) == "mhlo.all_gather");
  REQUIRE(plan.refusals().size() == 1);
  const auto& r = plan.refusals()[0];
  CHECK(r.code == schedule_refusal::no_producer_operand);
  CHECK(m.name(r.op) == "mhlo.reduce_scatter");
  CHECK(r.message == "no operand is defined by an op of kind all_gather");
}

TEST_CASE("describe: the reference printer gives the driver's text; a bare callable the generic names") {
  auto m = parse_ok(two_pairs, "p.mlir");
  const auto plan = plan_schedule_fusion(std::as_const(m));
  CHECK(describe(m, plan, ref::plan_printer{m}) == print_schedule_fusion_plan(m, plan));
  CHECK(describe(m, plan, name_only{m}) ==
        "schedule-fusion plan: FusionKind \"ScheduleFusion\", all_gather -> reduce_scatter, budget 100\n"
        "2 candidates: 1 cluster, 1 refused\n"
        "func.func\n"
        "  cluster 0: mhlo.all_gather + mhlo.reduce_scatter\n"
        "    move mhlo.multiply after mhlo.reduce_scatter\n"
        "    live-ins: a block argument\n"
        "    live-outs: result #0 of mhlo.all_gather, result #0 of mhlo.reduce_scatter\n"
        "  refused mhlo.reduce_scatter: no_producer_operand: no operand is defined by an op of kind all_gather\n");
}

TEST_CASE("FusionToComposite: describe lists conversions and refusals; refusals block apply") {
  auto m = parse_ok(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mhlo.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    %n = "mhlo.negate"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    "mhlo.return"(%n) : (tensor<4xf32>) -> ()
  }) {FusionKind = "MulRedSqrt"} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "mhlo.fusion"(%0) ({
  ^bb0(%b: tensor<4xf32>):
    "mhlo.return"(%b) : (tensor<4xf32>) -> ()
  }) {FusionKind = "Bogus"} : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
})", "p.mlir");
  const auto lenient = plan_fusion_to_composite(std::as_const(m));
  CHECK(lenient.has_changes());
  CHECK(lenient.changes().size() == 2);
  CHECK(describe(m, lenient, ref::plan_printer{m}) ==
        "fusion-to-composite plan: 2 conversions, 0 refused\n"
        "convert \"mhlo.fusion\" (2:3) in @f -> @hilo.FusedComposite.0, CompositeKind \"MulRedSqrt\"\n"
        "convert \"mhlo.fusion\" (7:3) in @f -> @hilo.FusedComposite.1, CompositeKind \"Bogus\"\n");
  const auto strict = plan_fusion_to_composite(std::as_const(m), {.validate_fusion_kind = true});
  CHECK_FALSE(strict.has_changes());
  CHECK(strict.changes().size() == 2);  // what it would convert, were nothing refused
  REQUIRE(strict.refusals().size() == 1);
  CHECK(strict.refusals()[0].code == f2c_problem_code::unknown_fusion_kind);
  CHECK(describe(m, strict, ref::plan_printer{m}) ==
        "fusion-to-composite plan: 2 conversions, 1 refused (nothing is applied)\n"
        "convert \"mhlo.fusion\" (2:3) in @f -> @hilo.FusedComposite.0, CompositeKind \"MulRedSqrt\"\n"
        "convert \"mhlo.fusion\" (7:3) in @f -> @hilo.FusedComposite.1, CompositeKind \"Bogus\"\n"
        "refused \"mhlo.fusion\" (7:3): unknown_fusion_kind: Unexpected FusionOp type 'Bogus'. Supported fusion "
        "types are: ScheduleFusion, MulRedSqrt, DotLogistic, Elementwise, Expm1, Log1p, DotSoftmax.\n");
}

TEST_CASE("MaterializeCommDomainScopes: refusals carry a code, the call concerned and pypto's words") {
  auto parsed = host::parse_program(R"(@pl.program
class P:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, x: pl.Tensor[[4], pl.FP32]):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        return buf
)", "p.py");
  REQUIRE_MESSAGE(parsed.ok(), parsed.error.str());
  auto& p = *parsed.value;
  const auto plan = plan_comm_domain_scopes(std::as_const(p));
  CHECK_FALSE(plan.has_changes());
  CHECK(plan.changes().empty());
  REQUIRE(plan.refusals().size() == 1);
  CHECK(plan.refusals()[0].code == comm_domain_refusal_code::dead_allocation);
  CHECK(plan.refusals()[0].message ==
        "pld.tensor.alloc_window_buffer 'buf' has no pld.tensor.window materialisation (dead allocation)");
  CHECK(plan.refusals()[0].loc == plan.errors()[0].loc);
  CHECK(plan.errors()[0].message == "MaterializeCommDomainScopes: " + plan.refusals()[0].message);
  CHECK(describe(p, plan) == describe_plan(plan));
}

}  // namespace
