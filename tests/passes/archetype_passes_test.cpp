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
//                                archetype), applied on rewritable_host_program
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
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/protocol.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

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
