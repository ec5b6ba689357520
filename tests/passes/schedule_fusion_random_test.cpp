// Randomized test of ScheduleFusion (SPEC §4, §9): thousands of random functions with
// collectives — pairs with compute between them, tuple reduce_scatters and get_tuple_element
// users, reductions regions (some capturing outer values), loops holding pairs of their own or
// using outer gathers, existing fusions — run through the pass. For each:
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
#include "passes/schedule_fusion_support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace neuronrw;
using namespace sf_support;

/// Builds one random function on the reference IR.
class generator {
 public:
  explicit generator(std::uint32_t seed) : rng_(seed) {
    t_ = m.intern_type("tensor<4xf32>");
    scalar_ = m.intern_type("tensor<f32>");
    auto f = m.create_op("func.func", {}, {});
    auto& fi = m.make_function(f);
    fi.sym_name = "random";
    fi.result_types = {t_};
    fi.result_attrs = {""};
    fi.arg_attrs = {"", "", ""};
    m.push_back(m.body(), f);
    const ref::type_ref args[] = {t_, t_, t_};
    auto body = m.add_region(f, args);
    std::vector<ref::value_ref> visible(m.arguments(body).begin(), m.arguments(body).end());
    scope s{visible, {}, {}};
    fill(body, s, 4 + pick(45), 0);
    std::vector<ref::value_ref> ret{s.values.back()};
    m.push_back(body, m.create_op("func.return", ret, {}));
  }

  ref::module m;

 private:
  struct scope {
    std::vector<ref::value_ref> values;   // usable operands
    std::vector<ref::value_ref> gathers;  // all_gather results among them
    std::vector<ref::value_ref> tuples;   // reduce_scatter results (get_tuple_element sources)
  };

  std::size_t pick(std::size_t n) { return static_cast<std::size_t>(rng_() % n); }
  ref::value_ref any(const scope& s) { return s.values[pick(s.values.size())]; }

  ref::op_ref add(ref::block_ref b, std::string_view name, std::vector<ref::value_ref> operands,
                  std::size_t results = 1) {
    std::vector<ref::type_ref> types(results, t_);
    auto o = m.create_op(name, operands, types);
    m.push_back(b, o);
    return o;
  }

  void define(scope& s, ref::op_ref o, bool gather = false, bool tuple = false) {
    for (auto v : m.results(o)) {
      s.values.push_back(v);
      if (gather) s.gathers.push_back(v);
      if (tuple) s.tuples.push_back(v);
    }
  }

  // A reduction region on `o`: (a, b) -> add, sometimes scaled by a captured outer value.
  void reduction(ref::op_ref o, const scope& outer) {
    const ref::type_ref args[] = {scalar_, scalar_};
    auto b = m.add_region(o, args);
    auto a0 = m.arguments(b)[0], a1 = m.arguments(b)[1];
    const ref::type_ref st[] = {scalar_};
    const ref::value_ref ab[] = {a0, a1};
    auto sum = m.create_op("mhlo.add", ab, st);
    m.push_back(b, sum);
    auto r = m.result(sum, 0);
    if (pick(3) == 0) {
      const ref::value_ref sc[] = {r, outer.values[pick(outer.values.size())]};
      auto mul = m.create_op("mhlo.multiply", sc, st);
      m.push_back(b, mul);
      r = m.result(mul, 0);
    }
    const ref::value_ref rv[] = {r};
    m.push_back(b, m.create_op("mhlo.return", rv, {}));
  }

  void fill(ref::block_ref b, scope& s, std::size_t n, int depth) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t r = pick(100);
      if (r < 18) {
        define(s, add(b, "mhlo.all_gather", {any(s)}), true);
      } else if (r < 36) {
        std::vector<ref::value_ref> ops;
        if (!s.gathers.empty() && pick(10) < 8) ops.push_back(s.gathers[pick(s.gathers.size())]);
        // One pick per statement: the sequence must not depend on argument evaluation order.
        for (std::size_t k = 0, extra = pick(2) + (ops.empty() ? 1 : 0); k < extra; ++k) {
          const auto at = static_cast<std::ptrdiff_t>(pick(ops.size() + 1));
          const bool gather = !s.gathers.empty() && pick(3) == 0;
          const ref::value_ref v = gather ? s.gathers[pick(s.gathers.size())] : any(s);
          ops.insert(ops.begin() + at, v);
        }
        const std::size_t results = pick(4) == 0 ? 2 : 1;
        auto o = add(b, "mhlo.reduce_scatter", ops, results);
        if (pick(3) == 0) reduction(o, s);
        define(s, o, false, true);
      } else if (r < 42) {
        if (s.tuples.empty()) continue;
        define(s, add(b, "mhlo.get_tuple_element", {s.tuples[pick(s.tuples.size())]}));
      } else if (r < 48) {
        const char* name = pick(2) ? "mhlo.all_reduce" : "mhlo.all_to_all";
        auto o = add(b, name, {any(s)});
        if (pick(2)) reduction(o, s);
        define(s, o);
      } else if (r < 80) {
        std::vector<ref::value_ref> ops{any(s)};
        if (pick(2)) ops.push_back(any(s));
        define(s, add(b, ops.size() == 2 ? "mhlo.add" : "mhlo.negate", ops));
      } else if (r < 88 && depth < 2) {
        // A loop whose body uses outer values (gathers included) and holds ops of its own.
        auto loop = add(b, "loop.for", {any(s)});
        const ref::type_ref at[] = {t_};
        auto body = m.add_region(loop, at);
        scope inner = s;
        inner.values.push_back(m.arguments(body)[0]);
        fill(body, inner, 1 + pick(8), depth + 1);
        const ref::value_ref y[] = {inner.values.back()};
        m.push_back(body, m.create_op("loop.yield", y, {}));
        define(s, loop);
      } else if (r < 91) {
        // An existing fusion holding a pair.
        std::vector<ref::value_ref> in{any(s)};
        auto f = m.create_op("mhlo.fusion", in, std::vector<ref::type_ref>{t_},
                             {{"FusionKind", "\"ScheduleFusion\""}});
        m.push_back(b, f);
        const ref::type_ref at[] = {t_};
        auto body = m.add_region(f, at);
        const ref::value_ref a[] = {m.arguments(body)[0]};
        const ref::type_ref tt[] = {t_};
        auto g = m.create_op("mhlo.all_gather", a, tt);
        m.push_back(body, g);
        const ref::value_ref gv[] = {m.result(g, 0)};
        auto rs = m.create_op("mhlo.reduce_scatter", gv, tt);
        m.push_back(body, rs);
        const ref::value_ref rv[] = {m.result(rs, 0)};
        m.push_back(body, m.create_op("mhlo.return", rv, {}));
        define(s, f);
      } else {
        add(b, "test.sink", {any(s)}, 0);
      }
    }
    if (s.values.empty()) define(s, add(b, "mhlo.constant", {}));
  }

  std::mt19937 rng_;
  ref::type_ref t_, scalar_;
};

std::string join(const diagnostics& ds) {
  std::string s;
  for (auto& d : ds) s += d.str() + "\n";
  return s;
}

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
