// Randomized test of ScheduleFusion (SPEC §4, §9): thousands of random functions with
// collectives — pairs with compute between them, tuple reduce_scatters and get_tuple_element
// users, reductions regions (some capturing outer values), loops holding pairs of their own or
// using outer gathers, existing fusions; built by schedule_fusion_random_function.hpp, which
// tests/adapters/mlir/random_test.cpp shares) — run through the pass. For each:
//   - planning (the dry run) leaves the module byte-identical;
//   - after the reschedule the module verifies, and every cluster is contiguous, in body order,
//     convex, with its carried ops after it;
//   - after the grouping the module verifies, no op was lost or duplicated, and every original
//     op reads the same producers as before (through the fusions' arguments and results);
//   - with an unbounded budget a second run forms a cluster only for a reduce_scatter whose first
//     all_gather operand failed legality and that has another one (SPEC §4.2: first wins);
//   - the archetype IR, given the same function, plans the same clusters and refusals and ends
//     with the same structure.
// Deterministic: the seeds are fixed; a failure prints the seed and the input.
#include <neuronrw/algorithms/convexity.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/verify.hpp>
#include <neuronrw/ir/ref/schedule_fusion.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "archetype/archetype_ir.hpp"
#include "passes/schedule_fusion_random_function.hpp"
#include "passes/schedule_fusion_support.hpp"

#include <doctest/doctest.h>

#include "support/files.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace neuronrw;
using namespace sf_support;
using sf_random::generator;

using neuronrw::testing::join;

template <class G>
std::string plan_summary(const schedule_fusion_plan_t<G>& p) {
  std::string s;
  for (auto& c : p.clusters)
    s += "cluster@" + std::to_string(c.candidate) + " ops=" + std::to_string(c.ops.size()) +
         " moves=" + std::to_string(c.moves.size()) + " carried=" + std::to_string(c.carried.size()) +
         " in=" + std::to_string(c.live_ins.size()) + " out=" + std::to_string(c.live_outs.size()) + "\n";
  for (auto& r : p.refused) s += "refused@" + std::to_string(r.candidate) + " " + std::string(to_string(r.code)) + "\n";
  return s;
}

struct tally {
  std::size_t functions = 0, clusters = 0, refusals[8] = {}, moves = 0, tuples = 0, units = 0, second_run = 0;
};

void run_one(std::uint32_t seed, const schedule_fusion_options& opt, bool with_archetype, tally& t) {
  generator gen(seed);
  ref::module& m = gen.m;
  const std::string input = ref::print(m);
  INFO("seed " << seed << "\n" << input);
  REQUIRE(join(ref::verify(m)).empty());
  const std::size_t original_ops = m.op_capacity();
  const dataflow flow = snapshot(m, original_ops);

  const auto plan = plan_schedule_fusion(std::as_const(m), opt);
  CHECK(ref::print(m) == input);

  // The reschedule, one cluster at a time (what apply_reschedule does): each cluster comes out
  // contiguous with its carried ops right after it, and earlier clusters stay contiguous.
  auto contiguous = [&](const auto& c) {
    for (std::size_t i = 1; i < c.ops.size(); ++i)
      if (!(m.next_op(c.ops[i - 1]) == c.ops[i])) return false;
    return true;
  };
  for (std::size_t k = 0; k < plan.clusters.size(); ++k) {
    const auto& c = plan.clusters[k];
    REQUIRE(c.ops.size() >= 2);
    for (const auto& mv : c.moves) {
      if (mv.where == move_position::before)
        m.move_before(mv.op, mv.anchor);
      else
        m.move_after(mv.op, mv.anchor);
    }
    CHECK(contiguous(c));
    ref::op_ref at = c.ops.back();
    for (const auto& x : c.carried) {
      CHECK(m.next_op(at) == x);
      at = x;
    }
    for (std::size_t j = 0; j < k; ++j) CHECK(contiguous(plan.clusters[j]));
  }
  CHECK(join(ref::verify(m)).empty());
  for (const auto& c : plan.clusters) CHECK(check_convexity(m, std::span<const ref::op_ref>(c.ops)).convex);

  const auto groups = apply_grouping(m, plan);
  CHECK(groups.size() == plan.clusters.size());
  CHECK(join(ref::verify(m)).empty());
  check_dataflow(m, flow, original_ops, plan.clusters.size());

  // A second run. SPEC §4.2 takes the first all_gather operand and does not fall back to a later
  // one when the first fails legality; once the first sits in a fusion, the later one is first.
  // That is the only way a second run (unbounded budget) can form a cluster.
  if (opt.budget == unbounded_budget) {
    auto again = plan_schedule_fusion(std::as_const(m), opt);
    for (const auto& c : again.clusters) {
      auto r = std::find_if(plan.refused.begin(), plan.refused.end(),
                            [&](const auto& x) { return x.consumer == c.consumer(); });
      REQUIRE(r != plan.refused.end());
      CHECK((r->code == schedule_refusal::non_convex || r->code == schedule_refusal::splits_cluster));
      CHECK(!(m.defining_op(m.operands(c.consumer())[0]) == c.producer()));  // not its first operand
      ++t.second_run;
    }
  }

  if (with_archetype) {
    generator twin(seed);
    auto a = to_archetype<archetype_with_args>(twin.m);
    auto ap = plan_schedule_fusion(std::as_const(a), opt);
    CHECK(plan_summary<archetype_with_args>(ap) == plan_summary<ref::module>(plan));
    neuronrw::apply(a, ap);
    CHECK(structure(a) == structure(m));
  }

  ++t.functions;
  t.clusters += plan.clusters.size();
  for (auto& r : plan.refused) ++t.refusals[static_cast<std::size_t>(r.code)];
  for (auto& c : plan.clusters) {
    t.moves += c.moves.size();
    t.tuples += c.ops.size() > 2;
    for (auto& s : c.carried) t.units += plan.clusters.end() != std::find_if(plan.clusters.begin(), plan.clusters.end(), [&](const auto& o) {
                                           return &o != &c && std::find(o.ops.begin(), o.ops.end(), s) != o.ops.end();
                                         });
  }
}

void report(const tally& t) {
  std::string s = std::to_string(t.functions) + " functions, " + std::to_string(t.clusters) + " clusters (" +
                  std::to_string(t.tuples) + " with get_tuple_element), " + std::to_string(t.moves) + " moves, " +
                  std::to_string(t.units) + " cluster members carried by later clusters, " + std::to_string(t.second_run) +
                  " clusters formed by a second run; refusals:";
  for (std::size_t i = 0; i < 8; ++i)
    s += " " + std::string(to_string(static_cast<schedule_refusal>(i))) + "=" + std::to_string(t.refusals[i]);
  MESSAGE(s);
}

}  // namespace

TEST_CASE("random functions, unbounded budget: invariants, second run, archetype agreement") {
  tally t;
  for (std::uint32_t seed = 1; seed <= 1500; ++seed) run_one(seed, {.budget = unbounded_budget}, true, t);
  report(t);
  CHECK(t.clusters > 1000);
  for (std::size_t i = 0; i < 8; ++i)
    if (static_cast<schedule_refusal>(i) != schedule_refusal::budget_exceeded &&
        static_cast<schedule_refusal>(i) != schedule_refusal::reschedule_refused)
      CHECK_MESSAGE(t.refusals[i] > 0, "no refusal of kind " << to_string(static_cast<schedule_refusal>(i)));
  CHECK(t.tuples > 0);
  CHECK(t.units > 0);
}

TEST_CASE("random functions, small budgets: invariants and archetype agreement") {
  tally t;
  for (std::uint32_t seed = 5001; seed <= 7500; ++seed)
    run_one(seed, {.budget = static_cast<std::size_t>(seed % 4)}, seed % 3 == 0, t);
  report(t);
  CHECK(t.refusals[static_cast<std::size_t>(schedule_refusal::budget_exceeded)] > 0);
}
