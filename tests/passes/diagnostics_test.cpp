// neuronrw/diagnostic.hpp and neuronrw/passes/diagnostics.hpp: the diagnostic (each severity's
// text, notes, equality, another location type) and to_diagnostics on every pass's plan (exact
// texts, severities, locations and notes, both wordings, a pass name given), on the archetypes
// only (tests/archetype/): no reference IR, no parser, nothing that throws, so this file also
// builds with -fno-exceptions -fno-rtti (tests/noexcept/). The reference IR's locator is tested
// in tests/ir/ref/diagnostics_test.cpp; the driver's and the MLIR passes' texts by their lit tests.
#include <doctest/doctest.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <neuronrw/concepts/host.hpp>
#include <neuronrw/diagnostic.hpp>
#include <neuronrw/passes/allreduce_signals.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/passes/diagnostics.hpp>
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
using nr::severity;

namespace {

using groupable = a::ir_at<layer::groupable>;
using outlinable = a::ir;

/// Every diagnostic's str(), one per line.
template <class Ds>
std::string lines(const Ds& ds) {
  return nr::located_lines(ds);
}

/// A location type of a test's own.
struct span_loc {
  int begin = 0, end = 0;
  bool operator==(const span_loc&) const = default;
};

template <class D>
concept printable = requires(const D& d) { d.str(); };

}  // namespace

// ================================================================================ the diagnostic
TEST_CASE("diagnostic: FILE:LINE:COL: SEVERITY: MESSAGE for each severity; an error as it always printed") {
  const nr::diagnostic e{"t.mlir", {3, 18}, "expected ')'"};
  CHECK(e.sev == severity::error);
  CHECK(e.notes.empty());
  CHECK(e.str() == "t.mlir:3:18: error: expected ')'");
  CHECK(e.line() == e.str());
  CHECK(nr::diagnostic{"t.mlir", {3, 18}, "m", severity::warning}.str() == "t.mlir:3:18: warning: m");
  CHECK(nr::diagnostic{"t.mlir", {3, 18}, "m", severity::remark}.str() == "t.mlir:3:18: remark: m");
  CHECK(nr::diagnostic{"t.mlir", {3, 18}, "m", severity::note}.str() == "t.mlir:3:18: note: m");
  // Without a location the file alone; without a file `<input>`.
  CHECK(nr::diagnostic{"t.mlir", {}, "m"}.str() == "t.mlir: error: m");
  CHECK(nr::diagnostic{"", {1, 2}, "m", severity::remark}.str() == "<input>:1:2: remark: m");
  CHECK(nr::to_string(severity::error) == "error");
  CHECK(nr::to_string(severity::warning) == "warning");
  CHECK(nr::to_string(severity::remark) == "remark");
  CHECK(nr::to_string(severity::note) == "note");
}

TEST_CASE("diagnostic: notes print on the lines below, in order; line() is the first line alone") {
  nr::diagnostic d{"t.mlir", {8, 3}, "refused", severity::remark};
  d.notes.push_back({"t.mlir", {5, 3}, "its producer", severity::note});
  d.notes.push_back({"t.mlir", {}, "without a location", severity::note});
  CHECK(d.line() == "t.mlir:8:3: remark: refused");
  CHECK(d.str() ==
        "t.mlir:8:3: remark: refused\n"
        "t.mlir:5:3: note: its producer\n"
        "t.mlir: note: without a location");
  // Equality covers every member, notes included.
  nr::diagnostic same = d;
  CHECK(same == d);
  same.notes[1].message = "other";
  CHECK_FALSE(same == d);
  nr::diagnostic other_severity = d;
  other_severity.sev = severity::warning;
  CHECK_FALSE(other_severity == d);
}

TEST_CASE("basic_diagnostic: any location type; designated initializers") {
  const nr::basic_diagnostic<span_loc> d{.loc = {4, 9}, .message = "m", .sev = severity::warning};
  CHECK(d.file.empty());
  CHECK(d.loc == span_loc{4, 9});
  CHECK(d.sev == severity::warning);
  CHECK(d.notes.empty());
  CHECK(d == nr::basic_diagnostic<span_loc>{"", {4, 9}, "m", severity::warning});
  static_assert(!printable<nr::basic_diagnostic<span_loc>>, "str() needs a source_loc");
  static_assert(printable<nr::diagnostic>);
}

// ============================================================================== ScheduleFusion
TEST_CASE("to_diagnostics on ScheduleFusion's plan: remarks at the candidate, a note at the op a refusal names") {
  program<groupable> p;
  p.function("f", 2);
  const int f = p.body;
  p.add("ag", "mhlo.all_gather", {"%0"});
  p.add("x", "mhlo.all_reduce", {"ag"});  // reachable from ag, feeds rs: non_convex at x
  p.add("rs", "mhlo.reduce_scatter", {"ag", "x"});
  p.add("ag2", "mhlo.all_gather", {"%1"});
  p.add("m1", "foo.m", {"%1"});
  p.add("m2", "foo.m", {"m1"});
  p.add("rs2", "mhlo.reduce_scatter", {"ag2", "m2"});  // budget_exceeded: op = the candidate
  p.add("ret", "func.return", {"rs", "rs2"});
  const a::block_h roots[] = {{f}};
  auto plan = nr::plan_schedule_fusion(std::as_const(p.g), roots, {.budget = 1});
  REQUIRE(plan.refusals().size() == 2);

  // A location type of the test's own: the op's label (no file).
  auto label = [&](a::op_h o) { return p.label(o); };
  const auto ds = nr::to_diagnostics(p.g, plan, label);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(ds)>, std::vector<nr::basic_diagnostic<std::string>>>);
  REQUIRE(ds.size() == 2);
  CHECK(ds[0].sev == severity::remark);
  CHECK(ds[0].file.empty());
  CHECK(ds[0].loc == "rs");
  CHECK(ds[0].message ==
        "schedule-fusion refused this candidate: non_convex: an op outside the cluster depends on the all_gather and "
        "feeds the reduce_scatter");
  REQUIRE(ds[0].notes.size() == 1);
  CHECK(ds[0].notes[0].sev == severity::note);
  CHECK(ds[0].notes[0].loc == "x");
  CHECK(ds[0].notes[0].message == "this op depends on the producer and feeds the candidate");
  CHECK(ds[0].notes[0].message == nr::note_text(nr::schedule_refusal::non_convex));
  CHECK(ds[0].notes[0].notes.empty());
  // The refusal names the candidate itself: no note.
  CHECK(ds[1].sev == severity::remark);
  CHECK(ds[1].loc == "rs2");
  CHECK(ds[1].message == "schedule-fusion refused this candidate: budget_exceeded: the dependence walk would visit more than 1 ops");
  CHECK(ds[1].notes.empty());

  // The running pass's name, the file and line through diagnostic_location, the message alone.
  auto at = [&](a::op_h o) {
    return nr::diagnostic_location{std::string("a.mlir"), nr::source_loc{o == p["rs"] ? 3u : 7u, 1}};
  };
  const nr::diagnostics named = nr::to_diagnostics(p.g, plan, at, {.pass = "neuronrw-schedule-fusion"});
  CHECK(lines(named) ==
        "a.mlir:3:1: remark: neuronrw-schedule-fusion refused this candidate: non_convex: an op outside the cluster "
        "depends on the all_gather and feeds the reduce_scatter\n"
        "a.mlir:7:1: note: this op depends on the producer and feeds the candidate\n"
        "a.mlir:7:1: remark: neuronrw-schedule-fusion refused this candidate: budget_exceeded: the dependence walk "
        "would visit more than 1 ops\n");
  const auto bare = nr::to_diagnostics(p.g, plan, label, {.style = nr::refusal_style::message});
  CHECK(bare[0].message == "an op outside the cluster depends on the all_gather and feeds the reduce_scatter");
  CHECK(bare[0].notes.size() == 1);
  CHECK(bare[1].message == "the dependence walk would visit more than 1 ops");

  // The composites flavour's plan is named after its own pass by default.
  plan.emit_composites = true;
  CHECK(nr::to_diagnostics(p.g, plan, label)[1].message.starts_with("schedule-fusion-composites refused this candidate: "));
}

TEST_CASE("note_text: one phrase per refusal code") {
  using r = nr::schedule_refusal;
  CHECK(nr::note_text(r::no_producer_operand) == "the candidate");
  CHECK(nr::note_text(r::already_fused) == "the fusion the candidate is already in");
  CHECK(nr::note_text(r::producer_claimed) == "its producer, already in an earlier cluster");
  CHECK(nr::note_text(r::different_block) == "its producer, in another block");
  CHECK(nr::note_text(r::budget_exceeded) == "the candidate");
  CHECK(nr::note_text(r::non_convex) == "this op depends on the producer and feeds the candidate");
  CHECK(nr::note_text(r::splits_cluster) == "this member of an earlier cluster feeds the candidate");
  CHECK(nr::note_text(r::reschedule_refused) == "the op the dominance repair could not move");
}

// ============================================================================ FusionToComposite
TEST_CASE("to_diagnostics on FusionToComposite's plan: an error at the op, PASS: CODE: MESSAGE") {
  program<outlinable> p;
  p.function("main", 2);
  const int body = p.body;
  const a::op_h fusion = p.add("r", "mhlo.fusion", {"%0", "%1"});
  const int inner = p.g.add_region(fusion, {"i32", "i32"});
  p.add("g", "mhlo.all_gather", {"%0"}, inner);
  p.add("end", "foo.yield", {"g"}, inner);  // not a return: bad_terminator at `end`
  p.add("ret", "func.return", {"r"}, body);
  const auto plan = nr::plan_fusion_to_composite(std::as_const(p.g));
  REQUIRE(plan.refused.size() == 1);
  CHECK(plan.refusals().size() == 1);
  auto label = [&](a::op_h o) { return p.label(o); };
  const auto ds = nr::to_diagnostics(p.g, plan, label);
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].sev == severity::error);
  CHECK(ds[0].loc == "end");
  CHECK(ds[0].message ==
        "fusion-to-composite: bad_terminator: a fusion body must end with a return of its 1 result(s), e.g. "
        "\"mhlo.return\", to become the decomposition's func.return");
  CHECK(ds[0].notes.empty());
  CHECK(nr::to_diagnostics(p.g, plan, label, {.pass = "neuronrw-fusion-to-composite"})[0].message.starts_with(
      "neuronrw-fusion-to-composite: bad_terminator: a fusion body must end"));
  CHECK(nr::to_diagnostics(p.g, plan, label, {.style = nr::refusal_style::message})[0].message ==
        plan.refused[0].message);
}

// ================================================================== MaterializeCommDomainScopes
TEST_CASE("to_diagnostics on MaterializeCommDomainScopes' plan: pypto's located text, then [CODE]; errors()") {
  // A negative device: the refusal names the device= expression, pypto locates it at the dispatch.
  const comm_domain_test::archetype_program<a::host_storage> fx(-2);
  const a::host_at<a::host_layer::program> reader(fx.p);
  const auto plan = nr::plan_comm_domain_scopes(reader);
  REQUIRE(plan.refused.size() == 1);
  CHECK(plan.file == "archetype.py");
  CHECK(plan.refused[0].op == a::hexpr{fx.device_expr});
  CHECK(plan.refused[0].prefixed);
  CHECK(plan.refused[0].pypto_message() == "MaterializeCommDomainScopes: device= ConstInt must be non-negative, got -2");

  const nr::diagnostics ds = nr::to_diagnostics(reader, plan);
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].sev == severity::error);
  CHECK(ds[0].str() ==
        "archetype.py:9:1: error: MaterializeCommDomainScopes: device= ConstInt must be non-negative, got -2 "
        "[unsupported_device]");
  // The pass name is pypto's, in its text: a given one changes nothing.
  CHECK(nr::to_diagnostics(reader, plan, {.pass = "materialize-comm-domain-scopes"}) == ds);
  // pypto's text alone: errors(), what materialize_comm_domain_scopes returns.
  const auto pypto = nr::to_diagnostics(reader, plan, {.style = nr::refusal_style::message});
  CHECK(pypto == plan.errors());
  CHECK(lines(plan.errors()) ==
        "archetype.py:9:1: error: MaterializeCommDomainScopes: device= ConstInt must be non-negative, got -2\n");
  // The dry run ends with the same lines.
  CHECK(nr::describe_plan(plan).ends_with(lines(plan.errors())));

  // A check pypto words without its pass's name.
  auto unprefixed = plan;
  unprefixed.refused[0].prefixed = false;
  CHECK(unprefixed.errors()[0].message == "device= ConstInt must be non-negative, got -2");
  CHECK(nr::to_diagnostics(reader, unprefixed)[0].message ==
        "device= ConstInt must be non-negative, got -2 [unsupported_device]");
}

TEST_CASE("MaterializeCommDomainScopes' remarks are remarks") {
  // A device range over an empty loop: pypto takes every device, this pass none (a remark).
  a::host_storage st;
  using k = nr::host_callee_kind;
  st.fn("chip", "CHIP", "Orchestrator");
  const int main = st.fn("main", "HOST", "Orchestrator");
  const int buf = st.var("buf");
  const int v = st.var("v", true);
  const int r = st.var("r");
  auto& body = st.fns[static_cast<std::size_t>(main)].body;
  body.push_back(st.s_assign(buf, st.e_call(k::op, "pld.tensor.alloc_window_buffer", {st.e_int(64)},
                                            {{"name", st.e_str("buf")}}, {}, {3, 1})));
  body.push_back(st.s_assign(v, st.e_call(k::op, "pld.tensor.window", {st.e_var(buf)})));
  const int d = st.s_expr(st.e_call(k::function, "chip", {st.e_var(v)}, {}, {{"device", st.e_var(r)}}, {6, 5}));
  body.push_back(st.s_for(r, st.e_int(0), st.e_int(0), st.e_int(1), {d}));
  const auto plan = nr::plan_comm_domain_scopes(a::host_at<a::host_layer::program>(st));
  REQUIRE(plan.remarks.size() == 1);
  CHECK(plan.remarks[0].sev == severity::remark);
  CHECK(plan.remarks[0].str().starts_with("archetype.py:6:5: remark: MaterializeCommDomainScopes: device=r over an empty loop"));
  CHECK(nr::describe_plan(plan).find(lines(plan.remarks)) != std::string::npos);
}

// =================================================================== SynthesizeAllReduceSignals
TEST_CASE("to_diagnostics on SynthesizeAllReduceSignals' plan: pypto's text at the allreduce, then [CODE]") {
  // core_num=0: refused at the allreduce.
  a::host_storage st;
  using k = nr::host_callee_kind;
  const int main = st.fn("main", "HOST", "Orchestrator");
  const int data = st.param(main, "data", true);
  const int call = st.e_call(k::op, "pld.tensor.allreduce", {st.e_var(data)}, {{"core_num", st.e_int(0)}}, {}, {4, 12});
  st.fns[static_cast<std::size_t>(main)].body = {st.s_assign(data, call)};
  const a::host_builder p(st);
  const auto plan = nr::plan_allreduce_signals(p);
  REQUIRE(plan.refused.size() == 1);
  CHECK(plan.file == "archetype.py");
  CHECK(plan.refused[0].code == nr::allreduce_signal_refusal_code::bad_core_num);
  const auto ds = nr::to_diagnostics(p, plan);
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].sev == severity::error);
  CHECK(ds[0].str() == "archetype.py:4:12: error: SynthesizeAllReduceSignals requires a positive allreduce core_num [bad_core_num]");
  CHECK(ds[0].notes.empty());
  CHECK(nr::to_diagnostics(p, plan, {.style = nr::refusal_style::message}) == plan.errors());
  CHECK(plan.errors()[0].str() == "archetype.py:4:12: error: SynthesizeAllReduceSignals requires a positive allreduce core_num");
  CHECK(nr::describe_plan(plan) == lines(plan.errors()));
}

// ============================================================================== any other pass
namespace {

namespace user {
enum class why : std::uint8_t { too_big };
constexpr std::string_view to_string(why) noexcept { return "too_big"; }
enum class unnamed : std::uint8_t { first, second };

/// A pass of one's own: a plan with refusals and no refusal_words hook.
template <class Code>
struct plan {
  std::vector<nr::refusal<Code, int>> refused;
  bool has_changes() const noexcept { return false; }
  std::span<const int> changes() const noexcept { return {}; }
  std::span<const nr::refusal<Code, int>> refusals() const noexcept { return refused; }
};
}  // namespace user

}  // namespace

TEST_CASE("to_diagnostics on a pass without a hook: an error at r.op, PASS: CODE: MESSAGE") {
  user::plan<user::why> p;
  p.refused.push_back({user::why::too_big, 12, "it is too big"});
  static_assert(nr::pass_plan<user::plan<user::why>>);
  auto at = [](int op) { return nr::diagnostic_location{std::string("u.txt"), nr::source_loc{static_cast<std::uint32_t>(op), 1}}; };
  const int g = 0;  // the IR is not looked at
  CHECK(lines(nr::to_diagnostics(g, p, at, {.pass = "prefetch"})) == "u.txt:12:1: error: prefetch: too_big: it is too big\n");
  CHECK(lines(nr::to_diagnostics(g, p, at)) == "u.txt:12:1: error: too_big: it is too big\n");
  CHECK(lines(nr::to_diagnostics(g, p, at, {.style = nr::refusal_style::message})) == "u.txt:12:1: error: it is too big\n");
  // A code without to_string is printed as its number.
  user::plan<user::unnamed> q;
  q.refused.push_back({user::unnamed::second, 3, "m"});
  CHECK(lines(nr::to_diagnostics(g, q, at, {.pass = "x"})) == "u.txt:3:1: error: x: 1: m\n");
}

TEST_CASE("line_col and located_lines: the located lines of a dry run") {
  CHECK(nr::line_col({9, 1}) == "9:1");
  CHECK(nr::line_col({}) == "0:0");
  const nr::diagnostics ds{{"p.py", {1, 2}, "a"}, {"p.py", {3, 4}, "b", severity::remark}};
  CHECK(nr::located_lines(ds) == "p.py:1:2: error: a\np.py:3:4: remark: b\n");
  CHECK(nr::located_lines(nr::diagnostics{}).empty());
}
