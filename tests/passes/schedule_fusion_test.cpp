// Tests for neuronrw/passes/schedule_fusion.hpp: ScheduleFusion (SPEC §4; seed 000
// §"ScheduleFusion — comm-compute overlap scheduling") and the co-scheduling pattern descriptor.
//
// The corpus (tests/corpus/schedule_fusion/NN_name.mlir) runs in one data-driven case. For each
// scenario, on the reference IR:
//   - the dry run's text equals NN_name.plan.txt, and the dry run changes nothing;
//   - the output equals NN_name.expected.mlir (printed as neuronrw-opt prints);
//   - ref::verify finds nothing; mlir-opt --allow-unregistered-dialect --verify-each accepts the
//     output (when $NEURONRW_MLIR_OPT exists);
//   - no op is lost or duplicated, and every original op reads the same producers as before
//     (looking through the fusions' block arguments and results);
//   - a plan without clusters leaves the module byte-identical;
//   - a second run (also after a print/parse round trip) forms no cluster and changes nothing.
// Every scenario also runs on the archetype IR (converted from the parsed input), and the result
// must have the same structure as the reference IR's.
// A scenario may start with `// schedule-fusion-options: budget=N|unbounded pattern=moe
// emit=composites needs-argument-block`. With emit=composites the cluster ops end up cloned into decompositions, so
// the dataflow check (which looks through fusions) is skipped; FusionToComposite's tests cover
// that lowering.
// NEURONRW_UPDATE_GOLDENS=1 rewrites the golden files instead of comparing (review the diff).
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/verify.hpp>
#include <neuronrw/ir/ref/schedule_fusion.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "archetype/archetype_ir.hpp"
#include "passes/schedule_fusion_support.hpp"

#include <doctest/doctest.h>

#include "support/mlir_opt.hpp"
#include "support/files.hpp"
#include "support/parse.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <unistd.h>

namespace {

using namespace neuronrw;
using namespace sf_support;
namespace fs = std::filesystem;

static_assert(schedule_fusion_pattern::budget == 100);
static_assert(schedule_fusion_pattern::fusion_kind == "ScheduleFusion");
static_assert(std::is_same_v<schedule_fusion_pattern::producer, kinds::all_gather>);
static_assert(std::is_same_v<schedule_fusion_pattern::consumer, kinds::reduce_scatter>);
static_assert(std::is_same_v<schedule_fusion_pattern::boundary, default_boundary_set>);
static_assert(co_schedule_pattern_like<moe_pattern>);
static_assert(moe_pattern::fusion_kind == "MoEOverlap");

// ------------------------------------------------------------------------------ helpers

using neuronrw::testing::join;
using neuronrw::testing::parse_verified;
using neuronrw::testing::read_file;

std::string printed(const ref::module& m) { return ref::print(m); }

bool update_goldens() {
  const char* e = std::getenv("NEURONRW_UPDATE_GOLDENS");
  return e && *e && std::string_view(e) != "0";
}

/// Compares `actual` with the golden file (or rewrites it in update mode).
void check_golden(const fs::path& golden, const std::string& actual) {
  if (update_goldens()) {
    std::ofstream(golden, std::ios::binary) << actual;
    return;
  }
  INFO("golden: " << golden.string());
  REQUIRE(fs::exists(golden));
  CHECK(actual == read_file(golden));
}

using neuronrw::testing::check_mlir_opt;

fs::path corpus_dir() {
  const char* d = std::getenv("NEURONRW_CORPUS_DIR");
  REQUIRE_MESSAGE(d, "NEURONRW_CORPUS_DIR is not set (meson test sets it)");
  return fs::path(d) / "schedule_fusion";
}

template <class G>
std::string plan_summary(const schedule_fusion_plan_t<G>& p) {
  std::string s;
  for (auto& c : p.clusters)
    s += "cluster@" + std::to_string(c.candidate) + " ops=" + std::to_string(c.ops.size()) +
         " moves=" + std::to_string(c.moves.size()) + " in=" + std::to_string(c.live_ins.size()) +
         " out=" + std::to_string(c.live_outs.size()) + "\n";
  for (auto& r : p.refused) s += "refused@" + std::to_string(r.candidate) + " " + std::string(to_string(r.code)) + "\n";
  return s;
}

/// The archetype IR `A`, converted from `input`, gives the reference IR's result structure.
template <class A>
void check_archetype(const ref::module& input, const scenario_options& o, const ref_schedule_fusion_plan& ref_plan,
                     const ref::module& ref_after) {
  A a = to_archetype<A>(input);
  const std::string before = structure(a);
  CHECK(before == structure(input));
  auto p = plan_with(std::as_const(a), o);
  CHECK(structure(a) == before);  // planning changes nothing
  CHECK(plan_summary<A>(p) == plan_summary<ref::module>(ref_plan));
  neuronrw::apply(a, p);
  CHECK(structure(a) == structure(ref_after));
}

// ------------------------------------------------------------------------------ one scenario

void run_scenario(const fs::path& input_path) {
  const std::string stem = input_path.stem().string();
  const fs::path dir = input_path.parent_path();
  INFO("scenario " << stem);
  const std::string text = read_file(input_path);
  const auto opts = read_directives(text);
  auto m = parse_verified(text, input_path.filename().string());
  const std::string before = printed(m);
  const std::size_t original_ops = m.op_capacity();
  const dataflow flow = snapshot(m, original_ops);

  // The dry run: the plan's text, and not a byte changed.
  const auto plan = plan_with(std::as_const(m), opts);
  check_golden(dir / (stem + ".plan.txt"), print_schedule_fusion_plan(m, plan));
  CHECK(printed(m) == before);
  if (!opts.moe && !opts.pass.budget && !opts.composites) {
    std::string dry;
    CHECK(run_schedule_fusion(m, &dry).empty());
    CHECK(dry == print_schedule_fusion_plan(m, plan));
    CHECK(printed(m) == before);
  }

  // The rewrite.
  neuronrw::apply(m, plan);
  const std::string out = printed(m);
  check_golden(dir / (stem + ".expected.mlir"), out);
  INFO(out);
  CHECK(join(ref::verify(m)).empty());
  // mlir-opt knows no StableHLO custom form: it checks the generic form of the output.
  check_mlir_opt(ref::print(m, ref::print_options{.forms = ref::op_forms::generic}));
  if (!opts.composites) check_dataflow(m, flow, original_ops, plan.clusters.size());
  if (!plan.has_changes()) CHECK(out == before);

  // Idempotent: a second run forms nothing, here and after a round trip.
  auto again = plan_with(std::as_const(m), opts);
  CHECK(again.clusters.empty());
  neuronrw::apply(m, again);
  CHECK(printed(m) == out);
  auto reparsed = parse_verified(out);
  CHECK(printed(reparsed) == out);
  auto third = plan_with(std::as_const(reparsed), opts);
  CHECK(third.clusters.empty());

  // The same on the archetype IRs.
  auto input = parse_verified(text, input_path.filename().string());
  check_archetype<archetype_with_args>(input, opts, plan, m);
  if (!opts.needs_argument_block) check_archetype<archetype::ir>(input, opts, plan, m);
}

}  // namespace

// ------------------------------------------------------------------------------ the corpus

TEST_CASE("every corpus scenario: plan, output, verifiers, dataflow, idempotence, archetype") {
  std::vector<fs::path> inputs;
  for (auto& e : fs::directory_iterator(corpus_dir())) {
    const auto name = e.path().filename().string();
    if (e.path().extension() == ".mlir" && name.find(".expected.") == std::string::npos) inputs.push_back(e.path());
  }
  std::sort(inputs.begin(), inputs.end());
  CHECK(inputs.size() >= 25);
  for (auto& p : inputs) run_scenario(p);
}

// ------------------------------------------------------------------------------ focused cases

TEST_CASE("the plan names every refusal's code and op") {
  auto m = parse_verified(read_file(corpus_dir() / "06_claimed_producer.mlir"));
  auto f = ref::lookup_function(m, "claimed");
  std::vector<ref::op_ref> ops(m.ops(m.region_block(f)).begin(), m.ops(m.region_block(f)).end());
  // g1 r1 g2 r2 r3 return
  auto p = plan_schedule_fusion(m);
  REQUIRE(p.clusters.size() == 2);
  CHECK(p.clusters[0].ops == std::vector<ref::op_ref>{ops[0], ops[1]});
  CHECK(p.clusters[1].ops == std::vector<ref::op_ref>{ops[2], ops[3]});
  CHECK(p.clusters[1].live_ins == std::vector<ref::value_ref>{m.operand(ops[2], 0), m.result(ops[0], 0)});
  REQUIRE(p.refused.size() == 1);
  CHECK(p.refused[0].code == schedule_refusal::producer_claimed);
  CHECK(p.refused[0].consumer == ops[4]);
  CHECK(p.refused[0].op == ops[0]);
  CHECK(p.refused[0].cluster == 0);
  CHECK(p.refused[0].candidate == 2);
  CHECK(p.candidates() == 3);
  CHECK(p.units == std::vector<ref::op_ref>{f});
}

TEST_CASE("non_convex names the offending op and the path's end points") {
  auto m = parse_verified(read_file(corpus_dir() / "09_non_convex_collective.mlir"));
  auto f = ref::lookup_function(m, "through_collective");
  std::vector<ref::op_ref> ops(m.ops(m.region_block(f)).begin(), m.ops(m.region_block(f)).end());
  auto p = plan_schedule_fusion(m);
  REQUIRE(p.refused.size() == 1);
  CHECK(p.refused[0].code == schedule_refusal::non_convex);
  CHECK(p.refused[0].op == ops[1]);  // the all_reduce
  CHECK(p.refused[0].path_from == ops[0]);
  CHECK(p.refused[0].path_to == ops[2]);
}

TEST_CASE("the budget: the pattern's, an override, and none") {
  const std::string text = read_file(corpus_dir() / "12_budget_default_exceeded.mlir");
  auto m = parse_verified(text);
  auto p = plan_schedule_fusion(m);
  CHECK(p.budget == 100);
  REQUIRE(p.refused.size() == 1);
  CHECK(p.refused[0].code == schedule_refusal::budget_exceeded);
  CHECK(plan_schedule_fusion(m, {.budget = 101}).clusters.size() == 1);
  CHECK(plan_schedule_fusion(m, {.budget = unbounded_budget}).clusters.size() == 1);
  using tight = co_schedule_pattern<kinds::all_gather, kinds::reduce_scatter, default_boundary_set, 10, "ScheduleFusion">;
  CHECK(plan_schedule_fusion<tight>(m).refused.size() == 1);
  using open = co_schedule_pattern<kinds::all_gather, kinds::reduce_scatter, default_boundary_set, unbounded_budget,
                                   "ScheduleFusion">;
  CHECK(plan_schedule_fusion<open>(m).clusters.size() == 1);
}

TEST_CASE("the FusionKind: the pattern's, or the option's override, on fusions and on composites") {
  auto m = parse_verified(read_file(corpus_dir() / "16_several_pairs_one_function.mlir"));
  CHECK(plan_schedule_fusion(m).fusion_kind == "ScheduleFusion");
  auto p = plan_schedule_fusion(m, {.fusion_kind = "MyOverlap"});
  CHECK(p.fusion_kind == "MyOverlap");
  auto groups = apply(m, p);
  REQUIRE(groups.size() == 3);
  for (auto g : groups) CHECK(m.find_attribute(g, "FusionKind")->value == "\"MyOverlap\"");
  auto c = parse_verified(read_file(corpus_dir() / "16_several_pairs_one_function.mlir"));
  auto composites = apply(c, plan_schedule_fusion_composites(c, {.fusion_kind = "MyOverlap"}));
  REQUIRE(composites.size() == 3);
  for (auto k : composites) CHECK(c.find_attribute(k, "CompositeKind")->value == "\"MyOverlap\"");
}

TEST_CASE("run_schedule_fusion: the dry run fills the text and changes nothing; the run applies") {
  const std::string text = read_file(corpus_dir() / "03_users_between.mlir");
  auto m = parse_verified(text, "03_users_between.mlir");
  const std::string before = printed(m);
  std::string plan_text;
  CHECK(run_schedule_fusion(m, &plan_text).empty());
  CHECK(printed(m) == before);
  CHECK(plan_text == read_file(corpus_dir() / "03_users_between.plan.txt"));
  CHECK(run_schedule_fusion(m).empty());
  CHECK(printed(m) == read_file(corpus_dir() / "03_users_between.expected.mlir"));
}

TEST_CASE("apply in two steps: after the reschedule every cluster is contiguous and convex") {
  auto m = parse_verified(read_file(corpus_dir() / "16_several_pairs_one_function.mlir"));
  auto p = plan_schedule_fusion(m);
  REQUIRE(p.clusters.size() == 3);
  apply_reschedule(m, p);
  CHECK(join(ref::verify(m)).empty());
  for (auto& c : p.clusters) {
    for (std::size_t i = 1; i < c.ops.size(); ++i) CHECK(m.next_op(c.ops[i - 1]) == c.ops[i]);
    CHECK(check_convexity(m, std::span<const ref::op_ref>(c.ops)).convex);
    // the carried ops follow the cluster, in order
    if (!c.carried.empty()) CHECK(m.is_before_in_block(c.ops.back(), c.carried.front()));
  }
  auto groups = apply_grouping(m, p);
  REQUIRE(groups.size() == 3);
  for (auto g : groups) {
    CHECK(m.name(g) == "mhlo.fusion");
    REQUIRE(m.attributes(g).size() == 1);
    CHECK(m.attributes(g)[0] == ref::attribute{"FusionKind", "\"ScheduleFusion\""});
    CHECK(m.name(m.back(m.region_block(g))) == "mhlo.return");
  }
  CHECK(join(ref::verify(m)).empty());
}

TEST_CASE("grouping op and terminator names are options; a rerun still recognizes the groups") {
  auto m = parse_verified(read_file(corpus_dir() / "01_direct_pair.mlir"));
  const schedule_fusion_options opt{.group_op_name = "test.group", .terminator_name = "test.yield"};
  auto p = schedule_fusion(m, opt);
  REQUIRE(p.clusters.size() == 1);
  const std::string out = printed(m);
  CHECK(out.find("\"test.group\"(%w)") != std::string::npos);
  CHECK(out.find("\"test.yield\"(%r)") != std::string::npos);
  CHECK(out.find("{FusionKind = \"ScheduleFusion\"}") != std::string::npos);
  CHECK(join(ref::verify(m)).empty());
  check_mlir_opt(out);
  auto again = plan_schedule_fusion(m, opt);
  CHECK(again.clusters.empty());
  REQUIRE(again.refused.size() == 1);
  CHECK(again.refused[0].code == schedule_refusal::already_fused);
}

TEST_CASE("functions carrying the skip attribute are skipped unless the option is empty") {
  auto m = parse_verified(read_file(corpus_dir() / "25_skip_decomposition.mlir"));
  auto p = plan_schedule_fusion(m);
  CHECK(p.clusters.size() == 1);
  CHECK(p.skipped_functions == std::vector<ref::op_ref>{ref::lookup_function(m, "hilo.FusedComposite.0")});
  auto all = plan_schedule_fusion(m, {.skip_functions_with = ""});
  CHECK(all.clusters.size() == 2);
  CHECK(all.skipped_functions.empty());
}

TEST_CASE("the explicit-roots entry point walks only the blocks given") {
  auto m = parse_verified(read_file(corpus_dir() / "17_several_functions.mlir"));
  const auto second = m.region_block(ref::lookup_function(m, "second"));
  auto p = plan_schedule_fusion(m, std::vector<ref::block_ref>{second});
  REQUIRE(p.clusters.size() == 1);
  CHECK(m.block_of(p.clusters[0].consumer()) == second);
  CHECK(p.units == std::vector<ref::op_ref>{ref::lookup_function(m, "second")});
}

TEST_CASE("the non-seed all_to_all instance, end to end, also on the archetype IR") {
  auto m = parse_verified(read_file(corpus_dir() / "23_all_to_all_instance.mlir"));
  // The seed's pattern finds nothing here.
  CHECK(plan_schedule_fusion(m).candidates() == 0);
  auto p = schedule_fusion<moe_pattern>(m);
  REQUIRE(p.clusters.size() == 1);
  // Every all_to_all is a candidate consumer: the first has no all_to_all operand, the third
  // finds the second's producer claimed.
  REQUIRE(p.refused.size() == 2);
  CHECK(p.refused[0].code == schedule_refusal::no_producer_operand);
  CHECK(p.refused[1].code == schedule_refusal::producer_claimed);
  const std::string out = printed(m);
  CHECK(out.find("{FusionKind = \"MoEOverlap\"}") != std::string::npos);
  CHECK(join(ref::verify(m)).empty());

  archetype::ir a;
  auto [f, b] = a.add_function("moe", {"t", "w"});
  auto d = a.add(b, "mhlo.all_to_all", {a.arg(b, 0)}, {"t"});
  auto e = a.add(b, "mhlo.dot", {a.result(d), a.arg(b, 1)}, {"t"});
  auto c = a.add(b, "mhlo.all_to_all", {a.result(d)}, {"t"});
  a.add(b, "func.return", {a.result(c), a.result(e)});
  auto pa = schedule_fusion<moe_pattern>(a);
  REQUIRE(pa.clusters.size() == 1);
  CHECK(pa.clusters[0].carried == std::vector<archetype::op_h>{e});
  auto& body = a.blocks[static_cast<std::size_t>(b)].ops;
  REQUIRE(body.size() == 3);  // fusion, dot, return
  CHECK(a.ops[static_cast<std::size_t>(body[0])].name == "mhlo.fusion");
  CHECK(body[1] == e.id);
}

TEST_CASE("archetype IR: a hand-built layer, with the explicit-roots entry point") {
  archetype::ir a;
  auto [f, b] = a.add_function("layer", {"w", "x"});
  auto g = a.add(b, "mhlo.all_gather", {a.arg(b, 0)}, {"G"});
  auto y = a.add(b, "mhlo.multiply", {a.result(g), a.arg(b, 1)}, {"G"});
  auto u = a.add(b, "mhlo.negate", {a.arg(b, 1)}, {"G"});
  auto r = a.add(b, "mhlo.reduce_scatter", {a.result(g)}, {"R"});
  a.add(b, "func.return", {a.result(r), a.result(y), a.result(u)});
  auto p = plan_schedule_fusion(std::as_const(a), std::vector<archetype::block_h>{{b}});
  REQUIRE(p.clusters.size() == 1);
  auto& c = p.clusters[0];
  CHECK(c.ops == std::vector<archetype::op_h>{g, r});
  CHECK(c.carried == std::vector<archetype::op_h>{y});
  CHECK(c.live_ins == std::vector<archetype::value_h>{a.arg(b, 0)});
  CHECK(c.live_outs == std::vector<archetype::value_h>{a.result(g), a.result(r)});
  neuronrw::apply(a, p);
  auto& body = a.blocks[static_cast<std::size_t>(b)].ops;
  REQUIRE(body.size() == 4);  // negate, fusion, multiply, return
  CHECK(body[0] == u.id);
  CHECK(a.ops[static_cast<std::size_t>(body[1])].name == "mhlo.fusion");
  CHECK(body[2] == y.id);
  // The multiply now reads the gathered value from the fusion's first result.
  CHECK(a.op(y).operands[0] == a.result(archetype::op_h{body[1]}, 0).id);
}

TEST_CASE("the shipped examples are rewritten into valid modules") {
  const char* dir = std::getenv("NEURONRW_EXAMPLES_DIR");
  REQUIRE(dir);
  for (const char* name : {"fsdp_layer.mlir", "stablehlo_tp_layer.mlir"}) {
    INFO(name);
    const fs::path p = fs::path(dir) / "mlir" / name;
    REQUIRE(fs::exists(p));
    auto m = parse_verified(read_file(p), name);
    const std::size_t original_ops = m.op_capacity();
    const auto flow = snapshot(m, original_ops);
    auto plan = schedule_fusion(m);
    CHECK(plan.clusters.size() >= 2);
    CHECK(join(ref::verify(m)).empty());
    check_mlir_opt(printed(m));
    check_dataflow(m, flow, original_ops, plan.clusters.size());
  }
}

// ------------------------------------------------------------------ patterns from a pipeline
namespace {
std::string describe_ref(const ref::module& m, const ref_schedule_fusion_plan& p) {
  return describe(m, p, ref::plan_printer{m});
}
}  // namespace

TEST_CASE("a run-time all_to_all -> all_to_all pattern plans and applies as the C++ one") {
  const std::string text = read_file(corpus_dir() / "23_all_to_all_instance.mlir");
  auto cpp = parse_verified(text);
  auto run = parse_verified(text);
  const schedule_fusion_options rt{.fusion_kind = "MoEOverlap", .producer = "all_to_all", .consumer = "AllToAll"};
  CHECK_FALSE(check_schedule_fusion_options(rt).has_value());
  const auto pc = plan_schedule_fusion<moe_pattern>(cpp);
  const auto pr = plan_schedule_fusion(run, rt);
  CHECK(pr.producer_kind == "all_to_all");
  CHECK(pr.consumer_kind == "all_to_all");
  CHECK(describe_ref(run, pr) == describe_ref(cpp, pc));
  apply(cpp, pc);
  apply(run, pr);
  CHECK(printed(run) == printed(cpp));
  // The same through the descriptor, as both drivers run it.
  auto viad = parse_verified(text);
  const auto pd = passes::schedule_fusion::plan(viad, rt);
  CHECK(describe_ref(viad, pd) == describe_ref(parse_verified(text), plan_schedule_fusion<moe_pattern>(parse_verified(text))));
}

TEST_CASE("a run-time boundary changes where the walk stops, exactly as a C++ boundary set does") {
  // A boundary of only all_gather and reduce_scatter lets the walk cross an all_reduce.
  using narrow = co_schedule_pattern<kinds::all_gather, kinds::reduce_scatter,
                                     boundary_set<kinds::all_gather, kinds::reduce_scatter>, 100, "ScheduleFusion">;
  std::vector<fs::path> inputs;
  for (const auto& e : fs::directory_iterator(corpus_dir()))
    if (e.path().extension() == ".mlir" && e.path().stem().extension() != ".expected") inputs.push_back(e.path());
  std::sort(inputs.begin(), inputs.end());
  REQUIRE(inputs.size() >= 30);
  std::size_t differs = 0;  // inputs where the narrow boundary changes the plan
  for (const auto& file : inputs) {
    const std::string name = file.filename().string();
    CAPTURE(name);
    const std::string text = read_file(file);
    REQUIRE(!text.empty());
    auto a = parse_verified(text);
    auto b = parse_verified(text);
    const auto pc = plan_schedule_fusion<narrow>(a);
    const auto pr = plan_schedule_fusion(b, {.boundary = "reduce_scatter,all-gather"});
    CHECK(describe_ref(b, pr) == describe_ref(a, pc));
    differs += describe_ref(a, pc) != describe_ref(a, plan_schedule_fusion(a));
  }
  CHECK(differs == 0);  // the corpus never puts an all_reduce on a walk; this module does:
  const std::string walk_crosses = R"(func.func @f(%x: tensor<4xf32>, %y: tensor<16xf32>) -> tensor<4xf32> {
  %g = "mhlo.all_gather"(%x) {all_gather_dim = 0 : i64} : (tensor<4xf32>) -> tensor<16xf32>
  %a = "mhlo.all_reduce"(%y) : (tensor<16xf32>) -> tensor<16xf32>
  %m = "mhlo.multiply"(%a, %a) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %r = "mhlo.reduce_scatter"(%g, %m) {scatter_dimension = 0 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
)";
  for (const std::size_t budget : {1u, 2u, 100u}) {
    CAPTURE(budget);
    auto a = parse_verified(walk_crosses);
    auto b = parse_verified(walk_crosses);
    const auto pc = plan_schedule_fusion<narrow>(a, {.budget = budget});
    const auto pr = plan_schedule_fusion(b, {.budget = budget, .boundary = "reduce_scatter,all-gather"});
    CHECK(describe_ref(b, pr) == describe_ref(a, pc));
    // With budget 1 the default set stops at the all_reduce (one op visited); the narrow one
    // visits it too and exceeds the budget.
    CHECK((plan_schedule_fusion(a, {.budget = budget}).clusters.size() == 1));
    CHECK(pr.clusters.size() == (budget == 1 ? 0u : 1u));
  }
  // Naming the default set's kinds (in any order and spelling) is the compile-time path.
  auto m = parse_verified(read_file(corpus_dir() / "16_several_pairs_one_function.mlir"));
  CHECK(describe_ref(m, plan_schedule_fusion(m, {.boundary = "AllToAll,all_reduce,reduce-scatter,all_gather"})) ==
        describe_ref(m, plan_schedule_fusion(m)));
}

TEST_CASE("a run-time pattern is checked like co_schedule_pattern's static_asserts") {
  auto problem = [](schedule_fusion_options o) {
    auto p = check_schedule_fusion_options(o);
    return p ? std::string(p->option) + ": " + p->message : std::string("ok");
  };
  CHECK(problem({}) == "ok");
  CHECK(problem({.producer = "all_to_all"}) == "ok");  // boundary: the pattern's plus the two kinds
  CHECK(problem({.producer = "my_collective", .consumer = "reduce_scatter"}) == "ok");
  CHECK(problem({.boundary = "all_gather"}) ==
        "boundary: must contain the consumer kind 'reduce_scatter', or the dependence walk would reach across "
        "another consumer of the pattern");
  CHECK(problem({.producer = "all_to_all", .boundary = "all_gather,reduce_scatter"}) ==
        "boundary: must contain the producer kind 'all_to_all', or the dependence walk would reach across "
        "another producer of the pattern");
  CHECK(problem({.boundary = "all_gather,,reduce_scatter"}) ==
        "boundary: has an empty kind name (kinds are separated by single commas)");
  CHECK(problem({.boundary = "all_gather,reduce_scatter,AllGather"}) == "boundary: lists the kind 'all_gather' twice");
  CHECK(problem({.producer = "all gather!"}) ==
        "producer: must be a kind name (letters, digits, '_' and '-', e.g. all_gather), not 'all gather!'");
  CHECK(problem({.consumer = "9lives"}) ==
        "consumer: must be a kind name (letters, digits, '_' and '-', e.g. all_gather), not '9lives'");
  CHECK(passes::schedule_fusion::check_options({.boundary = "x"}).has_value());
}

TEST_CASE("a kind table makes another dialect's spellings the pattern's kinds") {
  const std::string text = read_file(corpus_dir() / "16_several_pairs_one_function.mlir");
  REQUIRE(!text.empty());
  std::string renamed = text;
  for (auto [from, to] : {std::pair<std::string, std::string>{"mhlo.all_gather", "mycc.gather_all"},
                          {"mhlo.reduce_scatter", "mycc.scatter_reduce"}})
    for (std::size_t at = renamed.find(from); at != std::string::npos; at = renamed.find(from, at + to.size()))
      renamed.replace(at, from.size(), to);
  REQUIRE(renamed != text);
  auto plain = parse_verified(text);
  auto m = parse_verified(renamed);
  CHECK(plan_schedule_fusion(m).candidates() == 0);
  auto kinds = kind_map::parse("# mycc\nmycc.gather_all  all_gather\nmycc.scatter_reduce ReduceScatter\n", "k.txt");
  REQUIRE(kinds.ok());
  m.set_kinds(std::make_shared<const kind_map>(*kinds.map));
  const auto p = plan_schedule_fusion(m);
  const auto q = plan_schedule_fusion(plain);
  CHECK(p.clusters.size() == q.clusters.size());
  CHECK(p.candidates() == q.candidates());
  CHECK(!p.clusters.empty());
  apply(m, p);
  apply(plain, q);
  std::string expect = printed(plain);
  for (auto [from, to] : {std::pair<std::string, std::string>{"mhlo.all_gather", "mycc.gather_all"},
                          {"mhlo.reduce_scatter", "mycc.scatter_reduce"}})
    for (std::size_t at = expect.find(from); at != std::string::npos; at = expect.find(from, at + to.size()))
      expect.replace(at, from.size(), to);
  CHECK(printed(m) == expect);
  // Back to the built-in rule.
  m.set_kinds(nullptr);
  CHECK(plan_schedule_fusion(m).candidates() == 0);
}
