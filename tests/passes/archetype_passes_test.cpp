// The three passes on archetypes only (tests/archetype/): no reference IR, no parser, nothing
// that throws, so this file also builds with -fno-exceptions -fno-rtti (tests/noexcept/). Each
// pass runs on the weakest archetype its entry point asks for, with exact outcomes:
//
//   ScheduleFusion               groupable_ir (roots given; the IR cannot list its functions):
//                                a cluster formed, ops moved, the grouping op's operands, results
//                                and body; refusals with their codes and messages
//   plan_schedule_fusion_        outlinable_ir: the same cluster, lowered to a composite
//   composites
//   FusionToComposite            outlinable_ir: the composite, its attributes and uses, the
//                                decomposition; refusals, and the optional capability
//                                argument_block changing one
//   MaterializeCommDomainScopes  planned on host_program (the same plan as on the rewritable
//                                archetype), applied on rewritable_host_program; on the buildable
//                                archetype, loop bounds in arithmetic (B1) and functions known by
//                                their FunctionType (F1), each shown missing without its capability
//   SynthesizeAllReduceSignals   buildable_host_program alone (no 15-17, B1, F1): the statements
//                                inserted, the returned allreduce bound, refusals, fresh names;
//                                then MaterializeCommDomainScopes scoping the synthesized signal
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <ranges>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <neuronrw/concepts/host.hpp>
#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/passes/allreduce_signals.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/parallel.hpp>
#include <neuronrw/passes/protocol.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>
#include <neuronrw/validate/comm_domain_scopes.hpp>
#include <neuronrw/validate/host.hpp>

#include "archetype/archetype_ir.hpp"
#include "archetype/host_archetype.hpp"
#include "archetype/program.hpp"
#include "passes/comm_domain_archetype.hpp"

namespace nr = neuronrw;
namespace a = neuronrw::archetype;
using a::layer;

using a::program;
using a::strings;

namespace {

using groupable = a::ir_at<layer::groupable>;
using outlinable = a::ir;
static_assert(nr::groupable_ir<groupable> && !nr::outlinable_ir<groupable>);

}  // namespace

// ============================================================================== ScheduleFusion
TEST_CASE("plan_schedule_fusion asks for ordered_ir only: the same plan on an ordered archetype") {
  // Planning reads and orders, never groups (planner.hpp's entry points assert ordered_ir), so
  // an IR that cannot move or group ops — a Boost.Graph adapter without a grouping callback —
  // can still be planned; apply is what needs groupable_ir.
  using ordered = a::ir_at<layer::ordered>;
  static_assert(nr::ordered_ir<ordered> && !nr::reschedulable_ir<ordered>);
  program<ordered> p;
  p.function("f", 2);
  const int f = p.body;
  p.add("ag", "mhlo.all_gather", {"%0"});
  p.add("a", "foo.a", {"%1"});
  p.add("b", "foo.b", {"ag"});
  p.add("c", "foo.c", {"a"});
  p.add("rs", "mhlo.reduce_scatter", {"ag", "c"});
  p.add("e", "foo.e", {"b", "rs"});
  p.add("ret", "func.return", {"e"});
  const a::block_h roots[] = {{f}};
  const auto plan = nr::plan_schedule_fusion(std::as_const(p.g), roots);
  REQUIRE(plan.clusters.size() == 1);
  const auto& c = plan.clusters[0];
  strings ops, carried;
  for (auto o : c.ops) ops.push_back(p.label(o));
  for (auto o : c.carried) carried.push_back(p.label(o));
  CHECK(ops == strings{"ag", "rs"});
  CHECK(carried == strings{"b"});
  REQUIRE(c.moves.size() == 2);
  CHECK(c.moves[0] == nr::op_move<a::op_h>{p["ag"], nr::move_position::before, p["rs"]});
  CHECK(c.moves[1] == nr::op_move<a::op_h>{p["b"], nr::move_position::after, p["rs"]});
  CHECK(c.live_outs.size() == 2);
  CHECK(plan.refused.empty());
}

TEST_CASE("ScheduleFusion on a groupable archetype: the cluster, the moves, the grouping op") {
  program<groupable> p;
  p.function("f", 2);
  const int f = p.body;
  p.add("ag", "mhlo.all_gather", {"%0"});
  p.add("a", "foo.a", {"%1"});
  p.add("b", "foo.b", {"ag"});
  p.add("c", "foo.c", {"a"});
  p.add("rs", "mhlo.reduce_scatter", {"ag", "c"});
  p.add("e", "foo.e", {"b", "rs"});
  p.add("ret", "func.return", {"e"});
  // A second function whose reduce_scatter has no all_gather operand: refused.
  p.function("g", 1);
  const int g2 = p.body;
  p.add("lone", "mhlo.reduce_scatter", {"%0"});
  p.add("ret2", "func.return", {"lone"});

  const a::block_h roots[] = {{f}, {g2}};
  const auto plan = nr::plan_schedule_fusion(std::as_const(p.g), roots);
  static_assert(nr::pass_plan<std::remove_cvref_t<decltype(plan)>>);
  CHECK(plan.has_changes());
  CHECK(plan.candidates() == 2);
  REQUIRE(plan.changes().size() == 1);
  const auto& c = plan.changes()[0];
  std::vector<std::string> cluster_ops;
  for (auto o : c.ops) cluster_ops.push_back(p.label(o));
  CHECK(cluster_ops == strings{"ag", "rs"});
  strings carried;
  for (auto o : c.carried) carried.push_back(p.label(o));
  CHECK(carried == strings{"b"});
  REQUIRE(c.moves.size() == 2);
  CHECK(c.moves[0] == nr::op_move<a::op_h>{p["ag"], nr::move_position::before, p["rs"]});
  CHECK(c.moves[1] == nr::op_move<a::op_h>{p["b"], nr::move_position::after, p["rs"]});
  REQUIRE(c.live_ins.size() == 2);
  CHECK(c.live_ins[0] == p.g.arg(f, 0));
  CHECK(c.live_ins[1] == p.g.result(p["c"]));
  REQUIRE(c.live_outs.size() == 2);  // ag is used by the carried b, rs by e
  CHECK(c.live_outs[0] == p.g.result(p["ag"]));
  CHECK(c.live_outs[1] == p.g.result(p["rs"]));
  REQUIRE(plan.refusals().size() == 1);
  const auto& r = plan.refusals()[0];
  CHECK(r.code == nr::schedule_refusal::no_producer_operand);
  CHECK(r.op == p["lone"]);
  CHECK(r.message == "no operand is defined by an op of kind all_gather");
  CHECK(p.order(f) == strings{"ag", "a", "b", "c", "rs", "e", "ret"});  // planning changes nothing

  const auto groups = nr::apply(p.g, plan);
  REQUIRE(groups.size() == 1);
  const auto fusion = groups[0];
  CHECK(p.g.op(fusion).name == "mhlo.fusion");
  CHECK(p.order(f) == strings{"a", "c", "mhlo.fusion", "b", "e", "ret"});
  CHECK(p.operands(fusion, f) == strings{"%0", "c"});
  CHECK(p.g.op(fusion).results.size() == 2);
  CHECK(p.operands(p["b"], f) == strings{"mhlo.fusion#0"});
  CHECK(p.operands(p["e"], f) == strings{"b", "mhlo.fusion#1"});
  CHECK(p.attr(fusion, "FusionKind") == "\"ScheduleFusion\"");
  CHECK(p.g.op(fusion).attrs.size() == 1);
  // The body: the cluster, its uses of live-ins rewired to the region's arguments, then the
  // terminator returning the live-outs.
  REQUIRE(p.g.op(fusion).regions.size() == 1);
  const int body = p.g.op(fusion).regions[0];
  CHECK(p.order(body) == strings{"ag", "rs", "mhlo.return"});
  CHECK(p.operands(p["ag"], body) == strings{"%0"});
  CHECK(p.operands(p["rs"], body) == strings{"ag", "%1"});
  CHECK(p.operands(a::op_h{p.g.block_ops(body).back()}, body) == strings{"ag", "rs"});
  CHECK(p.order(g2) == strings{"lone", "ret2"});  // the refused function is untouched

  // A second run finds only fused candidates.
  const auto again = nr::plan_schedule_fusion(std::as_const(p.g), roots);
  CHECK_FALSE(again.has_changes());
  REQUIRE(again.refusals().size() == 2);
  CHECK(again.refusals()[0].code == nr::schedule_refusal::already_fused);
  CHECK(again.refusals()[0].op == fusion);
  CHECK(again.refusals()[0].message == "the reduce_scatter is already inside a fusion");
  CHECK(again.refusals()[1].code == nr::schedule_refusal::no_producer_operand);
}

TEST_CASE("ScheduleFusion on a groupable archetype: non-convex and over-budget candidates are refused") {
  program<groupable> p;
  p.function("f", 2);
  const int f = p.body;
  p.add("ag", "mhlo.all_gather", {"%0"});
  p.add("x", "mhlo.all_reduce", {"ag"});  // reachable from ag, feeds rs: no legal cluster
  p.add("rs", "mhlo.reduce_scatter", {"ag", "x"});
  p.add("ag2", "mhlo.all_gather", {"%1"});
  p.add("m1", "foo.m", {"%1"});
  p.add("m2", "foo.m", {"m1"});
  p.add("rs2", "mhlo.reduce_scatter", {"ag2", "m2"});
  p.add("ret", "func.return", {"rs", "rs2"});
  const a::block_h roots[] = {{f}};

  const auto plan = nr::plan_schedule_fusion(std::as_const(p.g), roots, {.budget = 1});
  CHECK_FALSE(plan.has_changes());
  REQUIRE(plan.refusals().size() == 2);
  const auto& nc = plan.refusals()[0];
  CHECK(nc.code == nr::schedule_refusal::non_convex);
  CHECK(nc.op == p["x"]);
  CHECK(nc.consumer == p["rs"]);
  CHECK(nc.path_from == p["ag"]);
  CHECK(nc.path_to == p["rs"]);
  CHECK(nc.message == "an op outside the cluster depends on the all_gather and feeds the reduce_scatter");
  const auto& be = plan.refusals()[1];
  CHECK(be.code == nr::schedule_refusal::budget_exceeded);
  CHECK(be.op == p["rs2"]);
  CHECK(be.message == "the dependence walk would visit more than 1 ops");

  nr::apply(p.g, plan);  // refusals only: nothing changes
  CHECK(p.order(f) == strings{"ag", "x", "rs", "ag2", "m1", "m2", "rs2", "ret"});

  // With the default budget the second pair is clustered; the first is still refused.
  const auto plan2 = nr::schedule_fusion(p.g, roots);
  REQUIRE(plan2.changes().size() == 1);
  REQUIRE(plan2.refusals().size() == 1);
  CHECK(plan2.refusals()[0].code == nr::schedule_refusal::non_convex);
  CHECK(p.order(f) == strings{"ag", "x", "rs", "m1", "m2", "mhlo.fusion", "ret"});
}

TEST_CASE("ScheduleFusion followed by composite outlining on an outlinable archetype") {
  program<outlinable> p;
  auto fn = p.function("main", 2);
  const int f = p.body;
  p.add("ag", "mhlo.all_gather", {"%0"});
  p.add("rs", "mhlo.reduce_scatter", {"ag", "%1"});
  p.add("ret", "func.return", {"rs"});

  const auto plan = nr::schedule_fusion_composites(p.g);
  REQUIRE(plan.changes().size() == 1);
  CHECK(plan.changes()[0].decomposition == "hilo.FusedComposite.0");
  REQUIRE(p.g.block_ops(f).size() == 2);
  const a::op_h comp{p.g.block_ops(f)[0]};
  CHECK(p.g.op(comp).name == "stablehlo.composite");
  CHECK(p.attr(comp, "CompositeKind") == "\"ScheduleFusion\"");
  CHECK(p.attr(comp, "decomposition") == "@hilo.FusedComposite.0");
  CHECK(p.operands(comp, f) == strings{"%0", "%1"});
  CHECK(p.operands(p["ret"], f) == strings{"stablehlo.composite"});
  // The module: main, then the decomposition.
  const auto fns = p.g.function_ops();
  REQUIRE(fns.size() == 2);
  CHECK(fns[0] == fn.id);
  CHECK(p.g.ops[static_cast<std::size_t>(fns[1])].symbol == "hilo.FusedComposite.0");
}

// ============================================================================== FusionToComposite
namespace {

/// main(%0, %1): r = mhlo.fusion(%0, %1) {FusionKind = "ScheduleFusion"} ({^(%a, %b):
/// g = all_gather %a; s = reduce_scatter g %b; <end>(s)}); u = foo.use r; return u.
/// `end` is the body's last op ("mhlo.return", or another terminator name).
template <class G>
struct fusion_program {
  program<G> p;
  a::op_h main_fn, fusion;
  int body = -1, inner = -1;
  explicit fusion_program(const std::string& end = "mhlo.return", const std::string& kind = "\"ScheduleFusion\"") {
    main_fn = p.function("main", 2);
    body = p.body;
    fusion = p.add("r", "mhlo.fusion", {"%0", "%1"});
    if (!kind.empty()) p.g.op(fusion).attrs.emplace_back("FusionKind", kind);
    inner = p.g.add_region(fusion, {"i32", "i32"});
    p.add("g", "mhlo.all_gather", {"%0"}, inner);
    p.add("s", "mhlo.reduce_scatter", {"g", "%1"}, inner);
    p.add("end", end, {"s"}, inner);
    p.add("u", "foo.use", {"r"});
    p.add("ret", "func.return", {"u"});
  }
};

}  // namespace

TEST_CASE("FusionToComposite on an outlinable archetype: the composite and its decomposition") {
  fusion_program<outlinable> t;
  auto& p = t.p;
  const auto plan = nr::fusion_to_composite(p.g);
  static_assert(nr::pass_plan<std::remove_cvref_t<decltype(plan)>>);
  CHECK(plan.has_changes());
  CHECK(plan.refusals().empty());
  REQUIRE(plan.changes().size() == 1);
  CHECK(plan.changes()[0].fusion == t.fusion);
  CHECK(plan.changes()[0].function == t.main_fn);
  CHECK(plan.changes()[0].decomposition == "hilo.FusedComposite.0");
  CHECK(plan.changes()[0].composite_kind == "ScheduleFusion");

  CHECK(p.order(t.body) == strings{"stablehlo.composite", "u", "ret"});
  CHECK(p.g.op(t.fusion).erased);
  const a::op_h comp{p.g.block_ops(t.body)[0]};
  CHECK(p.operands(comp, t.body) == strings{"%0", "%1"});
  CHECK(p.operands(p["u"], t.body) == strings{"stablehlo.composite"});
  const std::vector<std::pair<std::string, std::string>> attrs{{"CompositeKind", "\"ScheduleFusion\""},
                                                               {"composite_attributes", "{}"},
                                                               {"decomposition", "@hilo.FusedComposite.0"},
                                                               {"name", "\"composite.Fused\""},
                                                               {"version", "0 : i32"}};
  CHECK(p.g.op(comp).attrs == attrs);

  const auto fns = p.g.function_ops();
  REQUIRE(fns.size() == 2);
  const a::op_h decomposition{fns[1]};
  CHECK(p.g.op(decomposition).symbol == "hilo.FusedComposite.0");
  CHECK(p.attr(decomposition, "genComposite") == "true");
  CHECK(p.attr(decomposition, "noDelete") == "true");
  const int dbody = p.g.op(decomposition).regions.at(0);
  strings names;
  for (int o : p.g.block_ops(dbody)) names.push_back(p.g.ops[static_cast<std::size_t>(o)].name);
  CHECK(names == strings{"mhlo.all_gather", "mhlo.reduce_scatter", "func.return"});
  const a::op_h cloned_rs{p.g.block_ops(dbody)[1]};
  CHECK(p.operands(cloned_rs, dbody) == strings{"mhlo.all_gather", "%1"});

  // Idempotent: the decomposition carries genComposite and no fusion is left.
  const auto again = nr::fusion_to_composite(p.g);
  CHECK_FALSE(again.has_changes());
  REQUIRE(again.skipped_functions.size() == 1);
  CHECK(again.skipped_functions[0].function == decomposition);
}

TEST_CASE("FusionToComposite: a body that captures an outer value is refused, and nothing changes") {
  fusion_program<outlinable> t;
  auto& p = t.p;
  // `peek`, inside the fusion, reads the result of `outside`, an op of main's body before it.
  auto outside = p.add("outside", "foo.outside", {"%0"}, t.body);
  p.g.move(outside, t.fusion, false);
  p.add("peek", "foo.peek", {"outside"}, t.inner);
  p.g.move(p["peek"], p["g"], false);
  const auto before = p.order(t.body);
  const auto plan = nr::fusion_to_composite(p.g);
  CHECK_FALSE(plan.has_changes());
  REQUIRE(plan.refusals().size() == 1);
  CHECK(plan.refusals()[0].code == nr::f2c_problem_code::captured_value);
  CHECK(plan.refusals()[0].op == p["peek"]);
  CHECK(plan.refusals()[0].message ==
        "operand #0 uses a value defined outside the enclosing fusion, so the fusion cannot be outlined into a "
        "decomposition function");
  CHECK(p.order(t.body) == before);
  CHECK_FALSE(p.g.op(t.fusion).erased);
  CHECK(p.g.function_ops().size() == 1);
}

TEST_CASE("FusionToComposite: only a return ends a fusion body, even where the IR knows other terminators") {
  // A body ending in `foo.yield`: it could not become the decomposition's func.return.
  fusion_program<outlinable> plain("foo.yield");
  const auto refused = nr::plan_fusion_to_composite(std::as_const(plain.p.g));
  REQUIRE(refused.refusals().size() == 1);
  CHECK(refused.refusals()[0].code == nr::f2c_problem_code::bad_terminator);
  CHECK(refused.refusals()[0].op == plain.p["end"]);
  CHECK(refused.refusals()[0].message ==
        "a fusion body must end with a return of its 1 result(s), e.g. \"mhlo.return\", to become the "
        "decomposition's func.return");
  CHECK_FALSE(refused.has_changes());

  // The IR saying `foo.yield` terminates its block (is_terminator) does not make it a return.
  using aware_ir = a::ir_at<layer::outlinable, 0, a::cap::is_terminator>;
  fusion_program<aware_ir> aware("foo.yield");
  aware.p.g.mark_terminator(aware.p["end"]);
  static_assert(nr::terminator_aware_ir<aware_ir>);
  CHECK(nr::ir::is_terminator(aware.p.g, aware.p["end"]));
  const auto still = nr::plan_fusion_to_composite(std::as_const(aware.p.g));
  REQUIRE(still.refusals().size() == 1);
  CHECK(still.refusals()[0].code == nr::f2c_problem_code::bad_terminator);

  // A return with the wrong operand count is refused too.
  fusion_program<outlinable> short_return;
  auto& p = short_return.p;
  p.g.op(p["end"]).operands.clear();
  const auto wrong = nr::plan_fusion_to_composite(std::as_const(p.g));
  REQUIRE(wrong.refusals().size() == 1);
  CHECK(wrong.refusals()[0].code == nr::f2c_problem_code::bad_terminator);
  CHECK(wrong.refusals()[0].op == p["end"]);
}

TEST_CASE("FusionToComposite: the argument_block capability sees an outer block argument captured") {
  // The fusion body reads main's argument %0 directly instead of its own region argument.
  auto build = [](auto& t) {
    auto& p = t.p;
    p.add("sneak", "foo.sneak", {"%0"}, t.inner, t.body);  // %0 of main, not of the region
    p.g.move(p["sneak"], p["g"], false);
  };
  fusion_program<outlinable> plain;
  build(plain);
  // Without the capability a block argument is taken to belong to the region using it.
  CHECK(nr::plan_fusion_to_composite(std::as_const(plain.p.g)).refusals().empty());

  using exact_ir = a::ir_at<layer::outlinable, 0, a::cap::argument_block>;
  fusion_program<exact_ir> exact;
  build(exact);
  const auto plan = nr::plan_fusion_to_composite(std::as_const(exact.p.g));
  REQUIRE(plan.refusals().size() == 1);
  CHECK(plan.refusals()[0].code == nr::f2c_problem_code::captured_value);
  CHECK(plan.refusals()[0].op == exact.p["sneak"]);
}

TEST_CASE("FusionToComposite: a FusionKind the registry does not know refuses the run") {
  fusion_program<outlinable> t("mhlo.return", "\"NoSuchKind\"");
  const auto plan = nr::plan_fusion_to_composite(std::as_const(t.p.g), {.validate_fusion_kind = true});
  REQUIRE(plan.refusals().size() == 1);
  CHECK(plan.refusals()[0].code == nr::f2c_problem_code::unknown_fusion_kind);
  CHECK(plan.refusals()[0].op == t.fusion);
  CHECK(plan.refusals()[0].message.starts_with("Unexpected FusionOp type 'NoSuchKind'. Supported fusion types are: "));
  CHECK_FALSE(plan.has_changes());
  // Without validation the kind is taken as written.
  const auto lax = nr::plan_fusion_to_composite(std::as_const(t.p.g));
  REQUIRE(lax.changes().size() == 1);
  CHECK(lax.changes()[0].composite_kind == "NoSuchKind");
}

// ============================================================================== MaterializeCommDomainScopes
namespace {

using host_reader = a::host_at<a::host_layer::program>;
static_assert(nr::host_program<host_reader> && !nr::rewritable_host_program<host_reader>);

/// The program of tests/passes/comm_domain_archetype.hpp, in the storage all layers share.
using host_fixture = comm_domain_test::archetype_program<a::host_storage>;

}  // namespace

TEST_CASE("MaterializeCommDomainScopes: planned on a host_program, applied on a rewritable one") {
  host_fixture fx;
  const host_reader reader(fx.p);
  const auto plan = nr::plan_comm_domain_scopes(reader);
  static_assert(nr::pass_plan<std::remove_cvref_t<decltype(plan)>>);
  CHECK(plan.refusals().empty());
  CHECK(plan.has_changes());
  strings changed;
  using plan_t = std::remove_cvref_t<decltype(plan)>;
  for (const auto& fp : plan.changes()) {
    const typename plan_t::function_plan& fn = fp;
    changed.push_back(fn.name);
  }
  CHECK(changed == strings{"main"});  // not `chip`, a CHIP-level function
  REQUIRE(plan.functions.size() == 1);
  const auto& f = plan.functions[0];
  CHECK(f.name == "main");
  REQUIRE(f.allocs.size() == 2);
  CHECK(f.allocs[0].name == "buf");
  CHECK(f.allocs[0].views.size() == 2);
  CHECK(f.allocs[0].coverage == nr::device_coverage::of({0, 1, 2, 7}));
  CHECK(f.allocs[1].name == "sig");
  CHECK(f.allocs[1].coverage == nr::device_coverage::of({0, 1, 2, 7}));  // inherited from v's
  REQUIRE(f.scopes.size() == 1);
  CHECK(f.scopes[0].name == "comm_d0");
  CHECK(f.scopes[0].devices == std::vector<std::int64_t>{0, 1, 2, 7});
  CHECK(f.scopes[0].allocs == std::vector<std::size_t>{0, 1});

  // comm_domain_plan is a template of the program type, so the plan to apply is made on the
  // rewritable copy; it is the read-only plan, word for word.
  a::host_program out(fx.p);
  const auto full = nr::plan_comm_domain_scopes(std::as_const(out));
  CHECK(nr::describe_plan(full) == nr::describe_plan(plan));
  CHECK(nr::describe_plan(plan) ==
        "function main: materialize\n"
        "  alloc buf at 3:1: 2 view(s), devices {0, 1, 2, 7}, scope comm_d0\n"
        "  alloc sig at 6:1: 1 view(s), devices {0, 1, 2, 7}, scope comm_d0\n"
        "  dispatch chip at 8:5: devices {0, 1, 2}, allocs [buf]\n"
        "  dispatch chip at 9:1: devices {7}, allocs [buf]\n"
        "  collective pld.tensor.allreduce at 10:1: target buf, inherits sig\n"
        "  scope comm_d0: devices [0, 1, 2, 7], slots [buf, sig]\n");
  static_assert(nr::scope_inspectable_host_program<a::host_program>);
  {  // the rewrite check (validate/comm_domain_scopes.hpp) on the archetype: a correct apply passes,
     // a scope with another device set does not
    a::host_program checked(fx.p);
    const auto r = nr::apply_checked(checked, nr::plan_comm_domain_scopes(std::as_const(checked)));
    CHECK(r.applied);
    CHECK(r.check.ok());
    CHECK(r.check.ops > 0);
    a::host_program wrong(fx.p);
    const auto wrong_plan = nr::plan_comm_domain_scopes(std::as_const(wrong));
    const auto snap = nr::snapshot_host(std::as_const(wrong));
    nr::apply_comm_domain_scopes(wrong, wrong_plan);
    for (auto& st : wrong.stmts)
      if (st.kind == nr::host_stmt_kind::comm_domain_scope) st.devices.push_back(8);
    const auto check = nr::check_comm_domain_rewrite(std::as_const(wrong), wrong_plan, snap);
    REQUIRE(check.mismatches.size() == 2);  // buf's scope and sig's: the same scope
    CHECK(check.mismatches[0].code == nr::rewrite_fault::scope_mismatch);
    CHECK(check.mismatches[0].input_had == "devices [0, 1, 2, 7] (recomputed)");
    CHECK(check.mismatches[0].output_has == "devices [0, 1, 2, 7, 8]");
  }
  nr::apply_comm_domain_scopes(out, full);
  REQUIRE(out.windows.size() == 2);
  CHECK(out.windows[0].base == fx.buf);
  CHECK(out.windows[1].base == fx.sig);
  CHECK(out.vars[static_cast<std::size_t>(fx.v)].window == 0);
  CHECK(out.vars[static_cast<std::size_t>(fx.w)].window == 0);  // views of one allocation share it
  CHECK(out.vars[static_cast<std::size_t>(fx.s)].window == 1);
  CHECK(out.exprs[static_cast<std::size_t>(fx.v_call)].window == 0);
  CHECK(out.exprs[static_cast<std::size_t>(fx.w_call)].window == 0);
  CHECK(out.exprs[static_cast<std::size_t>(fx.s_call)].window == 1);
  const auto& body = out.fns[static_cast<std::size_t>(fx.main)].body;
  REQUIRE(body.size() == 1);
  const auto& scope = out.stmts[static_cast<std::size_t>(body[0])];
  CHECK(scope.kind == nr::host_stmt_kind::comm_domain_scope);
  CHECK(scope.scope_name == "comm_d0");
  CHECK(scope.devices == std::vector<std::int64_t>{0, 1, 2, 7});
  CHECK(scope.slots == std::vector<int>{0, 1});
  CHECK(scope.body == fx.p.fns[static_cast<std::size_t>(fx.main)].body);  // the old body, in order
  CHECK(fx.p.windows.empty());  // planning read only

  // Idempotent: the materialized body is recognised.
  const auto again = nr::plan_comm_domain_scopes(out);
  CHECK(again.refusals().empty());
  CHECK_FALSE(again.has_changes());
  CHECK(again.functions.at(0).state == decltype(again)::status::already_materialized);
}

TEST_CASE("MaterializeCommDomainScopes: a negative device is refused with its code, nothing is applied") {
  host_fixture fx(-2);
  const auto plan = nr::plan_comm_domain_scopes(host_reader(fx.p));
  CHECK_FALSE(plan.has_changes());
  CHECK(std::ranges::distance(plan.changes()) == 0);
  REQUIRE(plan.refusals().size() == 1);
  const auto& r = plan.refusals()[0];
  CHECK(r.code == nr::comm_domain_refusal_code::unsupported_device);
  CHECK(r.op == a::hexpr{fx.device_expr});
  CHECK(r.message == "device= ConstInt must be non-negative, got -2");
  CHECK(r.loc.line == 9);
  CHECK(plan.functions.at(0).state == decltype(plan)::status::failed);

  a::host_program out(fx.p);
  const auto diags = nr::materialize_comm_domain_scopes(out);
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].str() ==
        "archetype.py:9:1: error: MaterializeCommDomainScopes: device= ConstInt must be non-negative, got -2");
  CHECK(out.windows.empty());
  CHECK(out.stmts.size() == fx.p.stmts.size());
  CHECK(out.vars[static_cast<std::size_t>(fx.v)].window == -1);
}

// ============================================================================== buildable archetype
namespace {

using host_builder = a::host_builder;  // every requirement, B1 and F1
/// buildable_host_program and nothing else: no window requirements (15-17), no B1, no F1.
using signal_only = a::host_at<a::host_layer::buildable, a::host_req::has_window_factory | a::host_req::has_attach_window |
                                                             a::host_req::has_wrap_body | a::host_opt::binary |
                                                             a::host_opt::function_type>;
static_assert(nr::buildable_host_program<signal_only> && !nr::rewritable_host_program<signal_only>);
static_assert(!nr::host_concepts_detail::has_binary<signal_only> && !nr::host_concepts_detail::has_function_type<signal_only>);
using k = nr::host_callee_kind;

/// The storage as text, every field a test can tell apart: `x = v`, `return a, b`, `for r in
/// pl.range(a, b, c):` / `while c:` / `with comm_domain(name, [devices]):` with an indented body;
/// calls `op(args, kw=v; attr=v)` (`self.f(...)` for a function), binary operations fully
/// parenthesized, strings quoted, symbols bare, lists in brackets, a hole `<hole>`.
std::string expr_text(const a::host_storage& p, int id) {
  if (id < 0) return "<hole>";
  const auto& d = p.expr(id);
  auto list = [&](const std::vector<int>& ids) {
    std::string out;
    for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + expr_text(p, ids[i]);
    return out;
  };
  switch (d.kind) {
    case nr::host_expr_kind::var_ref: return p.variable(d.var).name;
    case nr::host_expr_kind::int_const: return std::to_string(d.value);
    case nr::host_expr_kind::binary:
      if (d.op == nr::host_binary_op::neg) return "(-" + expr_text(p, d.args.at(0)) + ")";
      return "(" + expr_text(p, d.args.at(0)) + " " + std::string(nr::to_string(d.op)) + " " + expr_text(p, d.args.at(1)) + ")";
    case nr::host_expr_kind::call: {
      std::string out = (d.callee == k::function ? "self." : "") + d.name + "(" + list(d.args);
      for (std::size_t i = 0; i < d.kwargs.size(); ++i)
        out += (i || !d.args.empty() ? ", " : "") + d.kwargs[i].first + "=" + expr_text(p, d.kwargs[i].second);
      for (std::size_t i = 0; i < d.attrs.size(); ++i)
        out += (i ? ", " : "; ") + d.attrs[i].first + "=" + expr_text(p, d.attrs[i].second);
      return out + ")";
    }
    case nr::host_expr_kind::other:
      switch (d.form) {
        case a::host_storage::other_form::string: return "\"" + d.str.value_or("") + "\"";
        case a::host_storage::other_form::symbol: return d.name;
        case a::host_storage::other_form::list: return "[" + list(d.args) + "]";
        case a::host_storage::other_form::none: return "<other>";
      }
  }
  return "<?>";
}

std::string stmt_text(const a::host_storage& p, int id, const std::string& indent = "") {
  const auto& st = p.stmt(id);
  auto body = [&] {
    std::string out;
    for (int b : st.body) out += stmt_text(p, b, indent + "  ");
    return out;
  };
  auto values = [&] {
    std::string out;
    for (std::size_t i = 0; i < st.exprs.size(); ++i) out += (i ? ", " : "") + expr_text(p, st.exprs[i]);
    return out;
  };
  switch (st.kind) {
    case nr::host_stmt_kind::assign: return indent + p.variable(st.target).name + " = " + values() + "\n";
    case nr::host_stmt_kind::expr_stmt: return indent + values() + "\n";
    case nr::host_stmt_kind::ret: return indent + "return " + values() + "\n";
    case nr::host_stmt_kind::for_range:
      return indent + "for " + p.variable(st.target).name + " in pl.range(" + values() + "):\n" + body();
    case nr::host_stmt_kind::while_loop: return indent + "while " + values() + ":\n" + body();
    case nr::host_stmt_kind::comm_domain_scope: {
      std::string devices;
      for (std::size_t i = 0; i < st.devices.size(); ++i) devices += (i ? ", " : "") + std::to_string(st.devices[i]);
      return indent + "with comm_domain(" + st.scope_name + ", [" + devices + "]):\n" + body();
    }
    case nr::host_stmt_kind::other: return indent + "<other>\n" + body();
  }
  return indent + "<?>\n";
}

std::string function_text(const a::host_storage& p, int f) {
  std::string out;
  for (int st : p.fns[static_cast<std::size_t>(f)].body) out += stmt_text(p, st);
  return out;
}

constexpr std::string_view in_loop_message =
    "pld.tensor.allreduce without an explicit signal is not supported inside a for/while loop on the HOST rail: the "
    "synthesized signal binding cannot be allocated per dynamic iteration. Pass an explicit signal buffer \u2014 it is "
    "self-clearing and reusable across iterations \u2014 or hoist the call out of the loop.";

/// chip(CHIP, Orchestrator); main(HOST, Orchestrator):
///   buf = pld.tensor.alloc_window_buffer(64, name="buf")      3:1
///   data = pld.tensor.window(buf)                              4:1
///   for r in pl.range(0, 2, 1): self.chip(data; device=r)      6:5
///   data = pld.tensor.allreduce(data, op=pld.ReduceOp.Sum)     7:1
struct implicit_allreduce {
  a::host_storage p;
  int main = -1, data = -1, call = -1, stmt = -1;
  implicit_allreduce() {
    p.fn("chip", "CHIP", "Orchestrator");
    main = p.fn("main", "HOST", "Orchestrator");
    const int buf = p.var("buf");
    data = p.var("data", true);
    const int r = p.var("r");
    auto& body = p.fns[static_cast<std::size_t>(main)].body;
    body.push_back(p.s_assign(buf, p.e_call(k::op, "pld.tensor.alloc_window_buffer", {p.e_int(64)},
                                            {{"name", p.e_str("buf")}}, {}, {3, 1})));
    body.push_back(p.s_assign(data, p.e_call(k::op, "pld.tensor.window", {p.e_var(buf)}, {}, {}, {4, 1})));
    const int dispatch = p.s_expr(p.e_call(k::function, "chip", {p.e_var(data)}, {}, {{"device", p.e_var(r)}}, {6, 5}));
    body.push_back(p.s_for(r, p.e_int(0), p.e_int(2), p.e_int(1), {dispatch}));
    call = p.e_call(k::op, "pld.tensor.allreduce", {p.e_var(data)}, {{"op", p.e_sym("pld.ReduceOp.Sum")}}, {}, {7, 1});
    stmt = p.s_assign(data, call);
    body.push_back(stmt);
  }
};

}  // namespace

// ============================================================================== SynthesizeAllReduceSignals
TEST_CASE("SynthesizeAllReduceSignals on a buildable archetype: the signal bound right before an implicit allreduce") {
  implicit_allreduce fx;
  signal_only p(fx.p);
  const auto plan = nr::plan_allreduce_signals(std::as_const(p));
  static_assert(nr::pass_plan<std::remove_cvref_t<decltype(plan)>>);
  CHECK(plan.ok());
  CHECK(plan.has_changes());
  CHECK(plan.refusals().empty());
  REQUIRE(plan.changes().size() == 1);
  const auto& r = plan.changes()[0];
  using plan_t = std::remove_cvref_t<decltype(plan)>;
  CHECK(r.fn == a::hfn{fx.main});
  CHECK(r.function == "main");
  CHECK(r.stmt == a::hstmt{fx.stmt});
  CHECK(r.call == a::hexpr{fx.call});
  CHECK(r.where == plan_t::form::assign);
  CHECK(r.synthesize);
  CHECK(r.core_num == 1);
  CHECK(r.world_size_name == "__allreduce_signal_world_size_0");
  CHECK(r.buffer_name == "__allreduce_signal_buf_0");
  CHECK(r.signal_name == "__allreduce_signal_0");
  CHECK(r.result_name.empty());
  CHECK(r.loc == nr::source_loc{7, 1});
  CHECK(nr::describe_plan(plan) ==
        "allreduce at 7:1 in main: signal __allreduce_signal_0 over __allreduce_signal_buf_0 "
        "([__allreduce_signal_world_size_0, 1] INT32)\n");
  CHECK(nr::describe(p, plan) == nr::describe_plan(plan));
  CHECK(p.stmts.size() == fx.p.stmts.size());  // planning read only
  CHECK(p.exprs.size() == fx.p.exprs.size());

  nr::apply_allreduce_signals(p, plan);
  CHECK(function_text(p, fx.main) ==
        "buf = pld.tensor.alloc_window_buffer(64, name=\"buf\")\n"
        "data = pld.tensor.window(buf)\n"
        "for r in pl.range(0, 2, 1):\n"
        "  self.chip(data; device=r)\n"
        "__allreduce_signal_world_size_0 = pld.system.world_size()\n"
        "__allreduce_signal_buf_0 = pld.tensor.alloc_window_buffer(((__allreduce_signal_world_size_0 * 1) * 4), "
        "name=\"__allreduce_signal_buf_0\")\n"
        "__allreduce_signal_0 = pld.tensor.window(__allreduce_signal_buf_0, [__allreduce_signal_world_size_0, 1], "
        "dtype=pl.INT32)\n"
        "data = pld.tensor.allreduce(data, __allreduce_signal_0, op=pld.ReduceOp.Sum)\n");
  // The structure behind the text: three new statements right before the allreduce's own, the
  // call itself extended in place, each new name one new variable, every new node at the call.
  const auto& body = p.fns[static_cast<std::size_t>(fx.main)].body;
  REQUIRE(body.size() == 7);
  CHECK(body[6] == fx.stmt);
  CHECK(p.stmt(fx.stmt).exprs == std::vector<int>{fx.call});
  const int ws = p.var_named("__allreduce_signal_world_size_0");
  const int buf = p.var_named("__allreduce_signal_buf_0");
  const int sig = p.var_named("__allreduce_signal_0");
  REQUIRE((ws >= 0 && buf >= 0 && sig >= 0));
  CHECK(p.vars.size() == fx.p.vars.size() + 3);
  CHECK(p.stmt(body[3]).kind == nr::host_stmt_kind::assign);
  CHECK(p.stmt(body[3]).target == ws);
  CHECK(p.stmt(body[4]).target == buf);
  CHECK(p.stmt(body[5]).target == sig);
  const auto& ws_call = p.expr(p.stmt(body[3]).exprs.at(0));
  CHECK(ws_call.kind == nr::host_expr_kind::call);
  CHECK(ws_call.callee == k::op);
  CHECK(ws_call.args.empty());
  CHECK(ws_call.kwargs.empty());
  const auto& alloc = p.expr(p.stmt(body[4]).exprs.at(0));
  REQUIRE(alloc.args.size() == 1);
  const auto& size = p.expr(alloc.args[0]);
  CHECK(size.kind == nr::host_expr_kind::binary);
  CHECK(size.op == nr::host_binary_op::mul);
  CHECK(p.expr(size.args.at(0)).kind == nr::host_expr_kind::binary);
  CHECK(p.expr(size.args.at(1)).kind == nr::host_expr_kind::int_const);
  REQUIRE(alloc.kwargs.size() == 1);
  CHECK(p.expr(alloc.kwargs[0].second).form == a::host_storage::other_form::string);
  const auto& window = p.expr(p.stmt(body[5]).exprs.at(0));
  REQUIRE(window.args.size() == 2);
  CHECK(p.expr(window.args[1]).form == a::host_storage::other_form::list);
  REQUIRE(window.kwargs.size() == 1);
  CHECK(window.kwargs[0].first == "dtype");
  CHECK(p.expr(window.kwargs[0].second).form == a::host_storage::other_form::symbol);
  CHECK_FALSE(nr::host_access::string_value(p, a::hexpr{window.kwargs[0].second}).has_value());
  const auto& allreduce = p.expr(fx.call);
  REQUIRE(allreduce.args.size() == 2);
  CHECK(p.expr(allreduce.args[1]).kind == nr::host_expr_kind::var_ref);
  CHECK(p.expr(allreduce.args[1]).var == sig);
  for (std::size_t e = fx.p.exprs.size(); e < p.exprs.size(); ++e) CHECK(p.exprs[e].loc == nr::source_loc{7, 1});
  // The variables' types follow their values: only the window view is a distributed tensor.
  CHECK(p.variable(sig).distributed);
  CHECK_FALSE(p.variable(ws).distributed);
  CHECK_FALSE(p.variable(buf).distributed);

  // Run again: the allreduce has its signal now; nothing is synthesized and nothing changes.
  const auto again = nr::plan_allreduce_signals(std::as_const(p));
  CHECK(again.ok());
  CHECK(again.rewrites.empty());  // an explicit signal outside a return needs no rewrite
  CHECK_FALSE(again.has_changes());
  CHECK(nr::describe_plan(again) == "no allreduce to rewrite\n");
  const std::string before = function_text(p, fx.main);
  const std::size_t exprs_before = p.exprs.size();
  nr::apply_allreduce_signals(p, again);
  CHECK(function_text(p, fx.main) == before);
  CHECK(p.exprs.size() == exprs_before);

  // MaterializeCommDomainScopes, next in pypto's pipeline, puts the synthesized allocation in the
  // data's comm domain: the signal inherits the devices of the allreduce's target.
  host_builder out(static_cast<const a::host_storage&>(p));
  const auto scopes = nr::plan_comm_domain_scopes(std::as_const(out));
  CHECK(scopes.refusals().empty());
  CHECK(nr::describe_plan(scopes) ==
        "function main: materialize\n"
        "  alloc buf at 3:1: 1 view(s), devices {0, 1}, scope comm_d0\n"
        "  alloc __allreduce_signal_buf_0 at 7:1: 1 view(s), devices {0, 1}, scope comm_d0\n"
        "  dispatch chip at 6:5: devices {0, 1}, allocs [buf]\n"
        "  collective pld.tensor.allreduce at 7:1: target buf, inherits __allreduce_signal_buf_0\n"
        "  scope comm_d0: devices [0, 1], slots [buf, __allreduce_signal_buf_0]\n");
  nr::apply_comm_domain_scopes(out, scopes);
  REQUIRE(out.windows.size() == 2);
  CHECK(out.windows[1].base == buf);
  CHECK(out.variable(sig).window == 1);
}

TEST_CASE("SynthesizeAllReduceSignals: a returned allreduce is bound to a fresh result, explicit signal or not") {
  // main(x, s) (HOST, Orchestrator): return pld.tensor.allreduce(x, s)          5:3
  // helper(y)  (HOST, type Orchestration): return pld.tensor.allreduce(y), 1    9:3
  // Orchestrators are visited by name: helper's names come first.
  a::host_storage st;
  const int main = st.fn("main", "HOST", "Orchestrator");
  const int x = st.param(main, "x", true);
  const int s = st.param(main, "s", true);
  const int explicit_call = st.e_call(k::op, "pld.tensor.allreduce", {st.e_var(x), st.e_var(s)}, {}, {}, {5, 3});
  const int main_ret = st.s_ret({explicit_call});
  st.fns[static_cast<std::size_t>(main)].body = {main_ret};
  const int helper = st.fn("helper", "HOST", "", "Orchestration");
  const int y = st.param(helper, "y", true);
  const int implicit_call = st.e_call(k::op, "pld.tensor.allreduce", {st.e_var(y)}, {}, {}, {9, 3});
  const int helper_ret = st.s_ret({implicit_call, st.e_int(1)});
  st.fns[static_cast<std::size_t>(helper)].body = {helper_ret};

  // F1 is what makes `helper` a host orchestrator: without it only main is rewritten.
  CHECK(nr::describe_plan(nr::plan_allreduce_signals(signal_only(st))) ==
        "allreduce at 5:3 in main: explicit signal, result bound to __allreduce_result_0\n");

  host_builder p(st);
  const auto plan = nr::synthesize_allreduce_signals(p);
  CHECK(nr::describe_plan(plan) ==
        "allreduce at 9:3 in helper: signal __allreduce_signal_0 over __allreduce_signal_buf_0 "
        "([__allreduce_signal_world_size_0, 1] INT32), result bound to __allreduce_result_1\n"
        "allreduce at 5:3 in main: explicit signal, result bound to __allreduce_result_2\n");
  REQUIRE(plan.rewrites.size() == 2);
  using plan_t = std::remove_cvref_t<decltype(plan)>;
  CHECK(plan.rewrites[0].where == plan_t::form::ret);
  CHECK(plan.rewrites[0].ret_index == 0);
  CHECK(plan.rewrites[1].where == plan_t::form::ret);
  CHECK_FALSE(plan.rewrites[1].synthesize);
  CHECK(function_text(p, main) ==
        "__allreduce_result_2 = pld.tensor.allreduce(x, s)\n"
        "return __allreduce_result_2\n");
  CHECK(function_text(p, helper) ==
        "__allreduce_signal_world_size_0 = pld.system.world_size()\n"
        "__allreduce_signal_buf_0 = pld.tensor.alloc_window_buffer(((__allreduce_signal_world_size_0 * 1) * 4), "
        "name=\"__allreduce_signal_buf_0\")\n"
        "__allreduce_signal_0 = pld.tensor.window(__allreduce_signal_buf_0, [__allreduce_signal_world_size_0, 1], "
        "dtype=pl.INT32)\n"
        "__allreduce_result_1 = pld.tensor.allreduce(y, __allreduce_signal_0)\n"
        "return __allreduce_result_1, 1\n");
  // The call is moved, not copied: the new assignment holds it, the return a reference at its place.
  const auto& main_body = p.fns[static_cast<std::size_t>(main)].body;
  REQUIRE(main_body.size() == 2);
  CHECK(main_body[1] == main_ret);
  CHECK(p.stmt(main_body[0]).exprs == std::vector<int>{explicit_call});
  const auto& returned = p.expr(p.stmt(main_ret).exprs.at(0));
  CHECK(returned.kind == nr::host_expr_kind::var_ref);
  CHECK(returned.var == p.var_named("__allreduce_result_2"));
  CHECK(returned.loc == nr::source_loc{5, 3});
  CHECK(p.stmt(helper_ret).exprs.size() == 2);
}

TEST_CASE("SynthesizeAllReduceSignals: an implicit allreduce in a loop is refused, and nothing is applied") {
  // main (HOST, Orchestrator):
  //   for r in pl.range(0, 4, 1): data = pld.tensor.allreduce(data)       8:5   refused
  //   while c: pld.tensor.allreduce(data, sig)                              11:5  explicit: fine
  a::host_storage st;
  const int main = st.fn("main", "HOST", "Orchestrator");
  const int data = st.param(main, "data", true);
  const int sig = st.param(main, "sig", true);
  const int c = st.param(main, "c");
  const int r = st.var("r");
  const int in_loop = st.e_call(k::op, "pld.tensor.allreduce", {st.e_var(data)}, {}, {}, {8, 5});
  const int explicit_in_loop = st.e_call(k::op, "pld.tensor.allreduce", {st.e_var(data), st.e_var(sig)}, {}, {}, {11, 5});
  st.fns[static_cast<std::size_t>(main)].body = {
      st.s_for(r, st.e_int(0), st.e_int(4), st.e_int(1), {st.s_assign(data, in_loop)}),
      st.s_while(st.e_var(c), {st.s_expr(explicit_in_loop)})};
  signal_only p(st);
  const auto plan = nr::plan_allreduce_signals(std::as_const(p));
  CHECK_FALSE(plan.ok());
  CHECK_FALSE(plan.has_changes());
  CHECK(plan.changes().empty());
  REQUIRE(plan.refusals().size() == 1);
  const auto& refusal = plan.refusals()[0];
  CHECK(refusal.code == nr::allreduce_signal_refusal_code::implicit_in_loop);
  CHECK(nr::to_string(refusal.code) == "implicit_in_loop");
  CHECK(refusal.op == a::hexpr{in_loop});
  CHECK(refusal.message == in_loop_message);
  CHECK(refusal.loc == nr::source_loc{8, 5});
  REQUIRE(plan.errors().size() == 1);
  CHECK(plan.errors()[0].str() == "archetype.py:8:5: error: " + std::string(in_loop_message));
  // The explicit allreduce needs no rewrite; the dry run shows the refusal.
  CHECK(plan.rewrites.empty());
  CHECK(nr::describe_plan(plan) == plan.errors()[0].str() + "\n");
  const std::string before = function_text(p, main);
  nr::apply_allreduce_signals(p, plan);  // refusals: apply does nothing
  CHECK(function_text(p, main) == before);
  CHECK(p.exprs.size() == st.exprs.size());
  CHECK(p.vars.size() == st.vars.size());
}

TEST_CASE("SynthesizeAllReduceSignals: fresh names skip every name the program already has") {
  // chip (CHIP, Orchestrator): __allreduce_signal_buf_0 = 1         (names are program-wide)
  // main(__allreduce_result_4) (HOST, Orchestrator):
  //   b = pld.tensor.alloc_window_buffer(8, name="__allreduce_signal_world_size_2")
  //   pld.tensor.allreduce(u)                                        3:1  -> suffix 1 (0 is taken)
  //   u = pld.tensor.allreduce(u, core_num=2)                        4:1  -> suffix 3 (2 is taken)
  //   return pld.tensor.allreduce(u, s)                              5:1  -> result 5 (4 is taken)
  a::host_storage st;
  const int chip = st.fn("chip", "CHIP", "Orchestrator");
  st.fns[static_cast<std::size_t>(chip)].body = {st.s_assign(st.var("__allreduce_signal_buf_0"), st.e_int(1))};
  const int main = st.fn("main", "HOST", "Orchestrator");
  st.param(main, "__allreduce_result_4");
  const int u = st.param(main, "u", true);
  const int s = st.param(main, "s", true);
  const int b = st.var("b");
  auto& body = st.fns[static_cast<std::size_t>(main)].body;
  body.push_back(st.s_assign(b, st.e_call(k::op, "pld.tensor.alloc_window_buffer", {st.e_int(8)},
                                          {{"name", st.e_str("__allreduce_signal_world_size_2")}})));
  body.push_back(st.s_expr(st.e_call(k::op, "pld.tensor.allreduce", {st.e_var(u)}, {}, {}, {3, 1})));
  body.push_back(st.s_assign(u, st.e_call(k::op, "pld.tensor.allreduce", {st.e_var(u)}, {{"core_num", st.e_int(2)}}, {}, {4, 1})));
  body.push_back(st.s_ret({st.e_call(k::op, "pld.tensor.allreduce", {st.e_var(u), st.e_var(s)}, {}, {}, {5, 1})}));

  signal_only p(st);
  const auto plan = nr::plan_allreduce_signals(std::as_const(p));
  CHECK(nr::describe_plan(plan) ==
        "allreduce at 3:1 in main: signal __allreduce_signal_1 over __allreduce_signal_buf_1 "
        "([__allreduce_signal_world_size_1, 1] INT32)\n"
        "allreduce at 4:1 in main: signal __allreduce_signal_3 over __allreduce_signal_buf_3 "
        "([__allreduce_signal_world_size_3, 2] INT32)\n"
        "allreduce at 5:1 in main: explicit signal, result bound to __allreduce_result_5\n");
  nr::apply_allreduce_signals(p, plan);
  CHECK(function_text(p, main) ==
        "b = pld.tensor.alloc_window_buffer(8, name=\"__allreduce_signal_world_size_2\")\n"
        "__allreduce_signal_world_size_1 = pld.system.world_size()\n"
        "__allreduce_signal_buf_1 = pld.tensor.alloc_window_buffer(((__allreduce_signal_world_size_1 * 1) * 4), "
        "name=\"__allreduce_signal_buf_1\")\n"
        "__allreduce_signal_1 = pld.tensor.window(__allreduce_signal_buf_1, [__allreduce_signal_world_size_1, 1], "
        "dtype=pl.INT32)\n"
        "pld.tensor.allreduce(u, __allreduce_signal_1)\n"
        "__allreduce_signal_world_size_3 = pld.system.world_size()\n"
        "__allreduce_signal_buf_3 = pld.tensor.alloc_window_buffer(((__allreduce_signal_world_size_3 * 2) * 4), "
        "name=\"__allreduce_signal_buf_3\")\n"
        "__allreduce_signal_3 = pld.tensor.window(__allreduce_signal_buf_3, [__allreduce_signal_world_size_3, 2], "
        "dtype=pl.INT32)\n"
        "u = pld.tensor.allreduce(u, __allreduce_signal_3, core_num=2)\n"
        "__allreduce_result_5 = pld.tensor.allreduce(u, s)\n"
        "return __allreduce_result_5\n");
}

// ============================================================================== MaterializeCommDomainScopes, B1 and F1
namespace {

/// chip_fn (CHIP, no role, type Orchestration) and graph (CHIP, Orchestrator, type Graph);
/// aux (HOST, no role, type Orchestration), no allocation; main (HOST, Orchestrator):
///   buf = pld.tensor.alloc_window_buffer(2 * 32, name="buf")   3:1
///   v = pld.tensor.window(buf)
///   for r in pl.range(0, 2 * 2, 1):
///     self.chip_fn(v; device=r)                                  5:5
///     self.graph(v; device=7)                                    6:5   not a dispatch target
struct typed_program {
  a::host_storage p;
  int main = -1, aux = -1;
  typed_program() {
    using op = nr::host_binary_op;
    p.fn("chip_fn", "CHIP", "", "Orchestration");
    p.fn("graph", "CHIP", "Orchestrator", "Graph");
    aux = p.fn("aux", "HOST", "", "Orchestration");
    main = p.fn("main", "HOST", "Orchestrator");
    const int buf = p.var("buf");
    const int v = p.var("v", true);
    const int r = p.var("r");
    auto& body = p.fns[static_cast<std::size_t>(main)].body;
    body.push_back(p.s_assign(buf, p.e_call(k::op, "pld.tensor.alloc_window_buffer",
                                            {p.e_bin(op::mul, p.e_int(2), p.e_int(32))}, {{"name", p.e_str("buf")}}, {},
                                            {3, 1})));
    body.push_back(p.s_assign(v, p.e_call(k::op, "pld.tensor.window", {p.e_var(buf)})));
    const int d1 = p.s_expr(p.e_call(k::function, "chip_fn", {p.e_var(v)}, {}, {{"device", p.e_var(r)}}, {5, 5}));
    const int d2 = p.s_expr(p.e_call(k::function, "graph", {p.e_var(v)}, {}, {{"device", p.e_int(7)}}, {6, 5}));
    body.push_back(p.s_for(r, p.e_int(0), p.e_bin(op::mul, p.e_int(2), p.e_int(2), {4, 20}), p.e_int(1), {d1, d2}));
  }
};

}  // namespace

TEST_CASE("MaterializeCommDomainScopes on a buildable archetype: a loop bound in arithmetic (B1), functions by type (F1)") {
  typed_program fx;
  host_builder p(fx.p);
  const auto plan = nr::plan_comm_domain_scopes(std::as_const(p));
  CHECK(plan.refusals().empty());
  CHECK(nr::describe_plan(plan) ==
        "function aux: no allocations\n"
        "function main: materialize\n"
        "  alloc buf at 3:1: 1 view(s), devices {0, 1, 2, 3}, scope comm_d0\n"
        "  dispatch chip_fn at 5:5: devices {0, 1, 2, 3}, allocs [buf]\n"
        "  scope comm_d0: devices [0, 1, 2, 3], slots [buf]\n");
  REQUIRE(plan.functions.size() == 2);
  CHECK(plan.functions[1].allocs.at(0).coverage == nr::device_coverage::of({0, 1, 2, 3}));
  nr::apply_comm_domain_scopes(p, plan);
  CHECK(function_text(p, fx.main) ==
        "with comm_domain(comm_d0, [0, 1, 2, 3]):\n"
        "  buf = pld.tensor.alloc_window_buffer((2 * 32), name=\"buf\")\n"
        "  v = pld.tensor.window(buf)\n"
        "  for r in pl.range(0, (2 * 2), 1):\n"
        "    self.chip_fn(v; device=r)\n"
        "    self.graph(v; device=7)\n");
  REQUIRE(p.windows.size() == 1);
  CHECK(p.windows[0].size == p.expr(p.stmt(fx.p.fns[static_cast<std::size_t>(fx.main)].body[0]).exprs[0]).args[0]);

  // Without F1 the types are unknown: chip_fn (no role) is no chip orchestrator, graph (role
  // Orchestrator) is one, and aux is no host orchestrator.
  using no_types = a::host_at<a::host_layer::buildable, a::host_opt::function_type>;
  CHECK(nr::describe_plan(nr::plan_comm_domain_scopes(no_types(fx.p))) ==
        "function main: materialize\n"
        "  alloc buf at 3:1: 1 view(s), devices {7}, scope comm_d0\n"
        "  dispatch graph at 6:5: devices {7}, allocs [buf]\n"
        "  scope comm_d0: devices [7], slots [buf]\n");
  // Without B1 arithmetic is an expression the program does not model: the bound is no constant.
  using no_arithmetic = a::host_at<a::host_layer::buildable, a::host_opt::binary>;
  const auto refused = nr::plan_comm_domain_scopes(no_arithmetic(fx.p));
  REQUIRE(refused.refusals().size() == 1);
  CHECK(refused.refusals()[0].code == nr::comm_domain_refusal_code::unsupported_device);
  REQUIRE(refused.errors().size() == 1);
  CHECK(refused.errors()[0].str() ==
        "archetype.py:5:5: error: MaterializeCommDomainScopes: device=r loop bound must be ConstInt or "
        "pld.system.world_size()");
  // The rewritable archetype has neither capability and reads the program as no_types does, the
  // arithmetic as `other`.
  CHECK(nr::describe_plan(nr::plan_comm_domain_scopes(a::host_program(fx.p))) ==
        nr::describe_plan(nr::plan_comm_domain_scopes(no_types(fx.p))));
}

// ================================================================ the generic parallel driver
TEST_CASE("every pass through the generic parallel driver on the archetypes, as the sequential pass") {
  namespace np = nr::passes;
  // ScheduleFusion and its composites flavour: two functions, one cluster each.
  auto two_functions = [](program<outlinable>& p) {
    for (const char* name : {"f", "g"}) {
      p.function(name, 2);
      const std::string n(name);
      p.add(n + "ag", "mhlo.all_gather", {"%0"});
      p.add(n + "rs", "mhlo.reduce_scatter", {n + "ag", "%1"});
      p.add(n + "ret", "func.return", {n + "rs"});
    }
  };
  for (const unsigned threads : {1u, 2u, 4u}) {
    CAPTURE(threads);
    program<outlinable> seq, par;
    two_functions(seq);
    two_functions(par);
    const auto expected = nr::schedule_fusion_composites(seq.g);
    const auto got = nr::run_pass_parallel<np::schedule_fusion_composites>(par.g, {}, {.threads = threads});
    REQUIRE(got.clusters.size() == 2);
    REQUIRE(expected.clusters.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) CHECK(got.clusters[i].decomposition == expected.clusters[i].decomposition);
    CHECK(got.clusters[1].decomposition == "hilo.FusedComposite.1");  // named over the whole module
    CHECK(par.g.function_ops().size() == seq.g.function_ops().size());
    const auto plan = nr::plan_pass_parallel<np::schedule_fusion>(std::as_const(seq.g), {}, {.threads = threads});
    CHECK(plan.clusters.empty());  // applied already: nothing left to cluster
  }
  // FusionToComposite.
  {
    fusion_program<outlinable> seq, par;
    const auto expected = nr::fusion_to_composite(seq.p.g);
    const auto got = nr::run_pass_parallel<np::fusion_to_composite>(par.p.g, {}, {.threads = 2});
    REQUIRE(got.conversions.size() == 1);
    CHECK(got.conversions[0].decomposition == expected.conversions[0].decomposition);
    CHECK(par.p.g.block_ops(par.body).size() == seq.p.g.block_ops(seq.body).size());
  }
  // MaterializeCommDomainScopes: planned in parallel on the read-only layer, equal to the plan.
  {
    host_fixture fx;
    const host_reader reader(fx.p);
    const auto seq = nr::plan_comm_domain_scopes(reader);
    const auto par = nr::plan_pass_parallel<np::materialize_comm_domain_scopes>(reader, {}, {.threads = 2});
    CHECK(nr::describe_plan(par) == nr::describe_plan(seq));
  }
  // SynthesizeAllReduceSignals: one unit, the program.
  {
    implicit_allreduce fx;
    signal_only seq(fx.p), par(fx.p);
    const auto expected = nr::synthesize_allreduce_signals(seq);
    const auto got = nr::run_pass_parallel<np::synthesize_allreduce_signals>(par, {}, {.threads = 2});
    CHECK(nr::describe_plan(got) == nr::describe_plan(expected));
    CHECK(par.exprs.size() == seq.exprs.size());
  }
}
