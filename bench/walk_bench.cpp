// The dependence walk against the two baselines of SPEC §8, on one synthetic dataflow graph per
// size, plus move+query on the reference IR; everything side by side in one run.
//
// Graph: N ops in one block, op i has two operands — the result of op i-1 and of a random
// earlier op (fixed seed) — so a walk from the last op reaches every op. Items/s = ops visited/s
// (walks) or pairs/s (move+query).
//   bm_csr_bfs        plain CSR-array BFS over the producer edges (the practical limit)
//   bm_boost_bfs      boost::breadth_first_search on adjacency_list<vecS, vecS, directedS>
//   bm_walk_ref       neuronrw::dependence_walk on the reference IR, boundary_set<>, no budget,
//                     a reused block_scratch; the result is ordered by block position, which
//                     the baselines do not do
//   bm_walk_ref_ir    the same with the scratch's dense block copies off (block_copy_policy::never):
//                     the walk stepping through the IR (prev_op, a producer's block per operand).
//                     bm_walk_ref uses the default policy, which copies the block once the walks
//                     have swept as many ops as it holds (here: from the second walk on); counter
//                     `copies` = copies made
//   bm_walk_archetype the same on the archetype IR (O(n) order queries by design), 1K/10K only
//   bm_move_query     random move_before then is_before_in_block on the reference IR
// The walk rows carry counters vs_csr and vs_boost: walk rate / baseline rate at the same size,
// from the baselines' runs earlier in the same process (targets: ≥ 0.5 and ≥ 2).
//
// Windowed walks (what ScheduleFusion does: many short walks from consumers, each floored at its
// window start). Graph: N ops in one block (N = 10K, 100K, 300K, 1M), op i uses op i-2 and op i-2k for a
// random k in [1, 100] (fixed seed; ops 0 and 1 use the function argument), so producers lie
// 2..200 ops above and a walk from op c reaches the ops of c's parity: about half its window.
// 10K walks per iteration, from consumers c drawn uniformly (fixed seed) and taken in block order,
// each with a window of w ops, w drawn uniformly from [10, 200]: floor = op c - w.
//   bm_window_walk_csr  the same closure over a CSR array of the graph: a backward sweep from
//                       c - 1 to the floor with epoch marks and a pending count (stops when
//                       nothing marked is left), results put in block order, as the walk's are
//   bm_window_walk_ref  dependence_walk(scratch, g, op c, {.budget = 200, .window_floor = op c - w})
//                       on the reference IR, boundary_set<>, one reused block_scratch; the
//                       walks are given as (op c, op c - w) handle pairs, as the CSR row gets
//                       integer pairs; counter vs_csr = its rate / bm_window_walk_csr's at the
//                       same N (target ≥ 1)
//   bm_window_walk_ref_ir  the same through the IR (no dense block copy)
// The walk row checks that every walk is complete (a window holds at most 200 ops, so the budget
// never stops one) and that its total of visited ops equals the CSR row's; items/s = visited
// ops/s.
#include <neuronrw/algorithms/block_dataflow.hpp>
#include <neuronrw/algorithms/dependence_walk.hpp>
#include <neuronrw/descriptors/boundary_set.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#include "../tests/archetype/archetype_ir.hpp"

#include "bench_support.hpp"

#include <benchmark/benchmark.h>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace nr = neuronrw;

// ------------------------------------------------------------------------------ the graph

struct csr_graph {
  std::vector<std::uint32_t> offsets;  // n + 1
  std::vector<std::uint32_t> targets;  // producer edges
};

using boost_graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

// The graph of n ops whose producers operands_of(i, f) calls f with, as a CSR array and as one
// function of the reference IR (in `ops`); ops below `arg_users` read the function argument.
template <class Operands>
void build_csr_and_ref(std::size_t n, std::size_t arg_users, Operands&& operands_of, csr_graph& csr,
                       nr::ref::module& m, std::vector<nr::ref::op_ref>& ops) {
  csr.offsets.reserve(n + 1);
  csr.offsets.push_back(0);
  for (std::size_t i = 0; i < n; ++i) {
    operands_of(i, [&](std::uint32_t p) { csr.targets.push_back(p); });
    csr.offsets.push_back(static_cast<std::uint32_t>(csr.targets.size()));
  }
  const auto t = m.intern_type("tensor<4xf32>");
  auto f = m.create_op("func.func", {}, {});
  m.make_function(f).sym_name = "f";
  m.push_back(m.body(), f);
  const nr::ref::type_ref arg_types[] = {t};
  const auto body = m.add_region(f, arg_types);
  const nr::ref::type_ref result_types[] = {t};
  ops.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<nr::ref::value_ref> vals;
    if (i < arg_users) vals.push_back(m.arguments(body)[0]);
    operands_of(i, [&](std::uint32_t p) { vals.push_back(m.result(ops[p], 0)); });
    auto o = m.create_op("foo.op", vals, result_types);
    m.push_back(body, o);
    ops.push_back(o);
  }
}

struct graph_set {
  std::size_t n = 0;
  std::vector<std::uint32_t> other;  // the random earlier operand of op i (op 0: none)
  csr_graph csr;
  boost_graph bgl;
  nr::ref::module ref;
  std::vector<nr::ref::op_ref> ref_ops;
  std::unique_ptr<nr::archetype::ir> arch;  // small sizes only
  std::vector<nr::archetype::op_h> arch_ops;
};

constexpr std::size_t archetype_max = 10'000;

std::unique_ptr<graph_set> make_graph(std::size_t n) {
  auto gs = std::make_unique<graph_set>();
  gs->n = n;
  std::mt19937_64 rng(0x5eed);
  gs->other.resize(n, 0);
  for (std::size_t i = 2; i < n; ++i) gs->other[i] = static_cast<std::uint32_t>(rng() % (i - 1));

  auto operands_of = [&](std::size_t i, auto&& f) {
    if (i == 0) return;
    f(static_cast<std::uint32_t>(i - 1));
    f(gs->other[i]);
  };

  build_csr_and_ref(n, 1, operands_of, gs->csr, gs->ref, gs->ref_ops);

  // add_vertex, not `bgl = boost_graph(n)`: the copy assignment trips g++ 12's
  // -Wmaybe-uninitialized inside Boost's copy_impl.
  for (std::size_t i = 0; i < n; ++i) boost::add_vertex(gs->bgl);
  for (std::size_t i = 0; i < n; ++i) operands_of(i, [&](std::uint32_t p) { boost::add_edge(i, p, gs->bgl); });


  if (n <= archetype_max) {
    gs->arch = std::make_unique<nr::archetype::ir>();
    auto& a = *gs->arch;
    const int b = a.add_function("f", {"t"}).second;
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<nr::archetype::value_h> vals;
      if (i == 0) vals.push_back(a.arg(b, 0));
      operands_of(i, [&](std::uint32_t p) { vals.push_back(a.result(gs->arch_ops[p])); });
      gs->arch_ops.push_back(a.add(b, "foo.op", vals, {"t"}));
    }
  }
  return gs;
}

struct window_set;

// One graph at a time (this one or the windowed walks'), so memory stays that of one size.
std::unique_ptr<graph_set>& current_graph() {
  static std::unique_ptr<graph_set> g;
  return g;
}
std::unique_ptr<window_set>& current_windows() {
  static std::unique_ptr<window_set> w;
  return w;
}

graph_set& graph(std::size_t n) {
  auto& current = current_graph();
  if (!current || current->n != n) {
    current.reset();
    current_windows().reset();
    current = make_graph(n);
  }
  return *current;
}

// Rates of the baselines, keyed by size, for the walk rows' ratio counters.
std::map<std::size_t, double>& csr_rate() {
  static std::map<std::size_t, double> m;
  return m;
}
std::map<std::size_t, double>& boost_rate() {
  static std::map<std::size_t, double> m;
  return m;
}

using bench_support::cpu_seconds;

void finish(benchmark::State& state, std::size_t per_iteration) {
  state.SetItemsProcessed(static_cast<std::int64_t>(per_iteration) * static_cast<std::int64_t>(state.iterations()));
}

void ratio_counters(benchmark::State& state, std::size_t n, double rate) {
  if (auto it = csr_rate().find(n); it != csr_rate().end())
    state.counters["vs_csr"] = rate / it->second;
  if (auto it = boost_rate().find(n); it != boost_rate().end())
    state.counters["vs_boost"] = rate / it->second;
}

// ------------------------------------------------------------------------------ baselines

void bm_csr_bfs(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& gs = graph(n);
  const auto& g = gs.csr;
  std::vector<std::uint32_t> stamp(n, 0), queue;
  queue.reserve(n);
  std::uint32_t epoch = 0;
  std::size_t visited = 0;
  const double t0 = cpu_seconds();
  for (auto _ : state) {
    ++epoch;
    queue.clear();
    const auto s = static_cast<std::uint32_t>(n - 1);
    queue.push_back(s);
    stamp[s] = epoch;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const std::uint32_t u = queue[head];
      for (std::uint32_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        const std::uint32_t v = g.targets[e];
        if (stamp[v] != epoch) {
          stamp[v] = epoch;
          queue.push_back(v);
        }
      }
    }
    visited = queue.size() - 1;  // the start is not "visited", as in the walk
    benchmark::DoNotOptimize(queue.data());
  }
  const double secs = cpu_seconds() - t0;
  if (visited != n - 1) return state.SkipWithError("csr bfs did not reach every op");
  finish(state, visited);
  csr_rate()[n] = static_cast<double>(visited) * static_cast<double>(state.iterations()) / secs;
}

struct count_visitor : boost::default_bfs_visitor {
  std::size_t* count;
  explicit count_visitor(std::size_t* c) : count(c) {}
  template <class V, class G>
  void discover_vertex(V, const G&) const { ++*count; }
};

void bm_boost_bfs(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& gs = graph(n);
  std::size_t discovered = 0;
  const double t0 = cpu_seconds();
  for (auto _ : state) {
    discovered = 0;
    boost::breadth_first_search(gs.bgl, boost::vertex(n - 1, gs.bgl), boost::visitor(count_visitor(&discovered)));
    benchmark::DoNotOptimize(discovered);
  }
  const double secs = cpu_seconds() - t0;
  if (discovered != n) return state.SkipWithError("boost bfs did not reach every op");
  finish(state, n - 1);
  boost_rate()[n] = static_cast<double>(n - 1) * static_cast<double>(state.iterations()) / secs;
}

// ------------------------------------------------------------------------------ the walk

template <class G, class Op>
void run_walk(benchmark::State& state, const G& g, Op start, std::size_t n,
              nr::block_copy_policy policy = nr::block_copy_policy::amortized) {
  nr::block_scratch<G> scratch(g);
  scratch.set_copy_policy(policy);
  std::size_t visited = 0;
  const double t0 = cpu_seconds();
  for (auto _ : state) {
    auto r = nr::dependence_walk<nr::boundary_set<>>(scratch, g, start, {.budget = std::nullopt});
    visited = r.ops.size();
    benchmark::DoNotOptimize(r.ops.data());
  }
  const double secs = cpu_seconds() - t0;
  if (visited != n - 1) return state.SkipWithError("the walk did not reach every op");
  finish(state, visited);
  ratio_counters(state, n, static_cast<double>(visited) * static_cast<double>(state.iterations()) / secs);
  state.counters["copies"] = static_cast<double>(scratch.copies_made());
}

void bm_walk_ref(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& gs = graph(n);
  run_walk(state, gs.ref, gs.ref_ops.back(), n);
}

void bm_walk_ref_ir(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& gs = graph(n);
  run_walk(state, gs.ref, gs.ref_ops.back(), n, nr::block_copy_policy::never);
}

void bm_walk_archetype(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& gs = graph(n);
  run_walk(state, *gs.arch, gs.arch_ops.back(), n);
}

// ------------------------------------------------------------------------------ move + query

// xorshift64*: cheap next to a ~100 ns step, deterministic.
struct rng64 {
  std::uint64_t s = 0x9E3779B97F4A7C15ull;
  std::uint32_t below(std::uint32_t n) noexcept {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return static_cast<std::uint32_t>(((s * 0x2545F4914F6CDD1Dull) >> 32) * n >> 32);
  }
};

// Runs last for its size: the moves scramble the block (dominance no longer holds), which no
// later benchmark of this size reads.
void bm_move_query(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& gs = graph(n);
  auto& m = gs.ref;
  const auto& ops = gs.ref_ops;
  const auto k = static_cast<std::uint32_t>(n);
  rng64 rng;
  bool sink = false;
  for (auto _ : state) {
    nr::ir::move_before(m, ops[rng.below(k)], ops[rng.below(k)]);
    sink ^= nr::ir::is_before_in_block(m, ops[rng.below(k)], ops[rng.below(k)]);
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

// ------------------------------------------------------------------------------ windowed walks

constexpr std::size_t window_walks = 10'000;
constexpr std::uint32_t window_min = 10, window_max = 200;

struct window_set {
  std::size_t n = 0;
  csr_graph csr;
  nr::ref::module ref;
  std::vector<nr::ref::op_ref> ref_ops;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> walks;  // (consumer, floor), block order
  // The same walks as reference-IR handles: each side reads its walks in its own currency, in
  // order (looking the handles up in ref_ops inside the timing would add two cache misses per
  // walk at 1M ops that the CSR side does not pay).
  std::vector<std::pair<nr::ref::op_ref, nr::ref::op_ref>> ref_walks;
};

std::unique_ptr<window_set> make_windows(std::size_t n) {
  auto ws = std::make_unique<window_set>();
  ws->n = n;
  std::mt19937_64 rng(0x3a11);
  // producers of op i (i >= 2): i - 2 and i - 2k, k in [1, 100], clamped to i's parity start
  std::vector<std::uint32_t> far(n, 0);
  for (std::size_t i = 2; i < n; ++i) {
    const std::size_t back = 2 * (1 + rng() % 100);
    far[i] = static_cast<std::uint32_t>(back <= i ? i - back : i % 2);
  }
  auto operands_of = [&](std::size_t i, auto&& f) {
    if (i < 2) return;
    f(static_cast<std::uint32_t>(i - 2));
    f(far[i]);
  };

  build_csr_and_ref(n, 2, operands_of, ws->csr, ws->ref, ws->ref_ops);

  ws->walks.reserve(window_walks);
  for (std::size_t k = 0; k < window_walks; ++k) {
    const auto c = static_cast<std::uint32_t>(window_max + rng() % (n - window_max));
    const auto w = static_cast<std::uint32_t>(window_min + rng() % (window_max - window_min + 1));
    ws->walks.emplace_back(c, c - w);
  }
  std::sort(ws->walks.begin(), ws->walks.end());
  ws->ref_walks.reserve(ws->walks.size());
  for (const auto& [c, f] : ws->walks) ws->ref_walks.emplace_back(ws->ref_ops[c], ws->ref_ops[f]);
  return ws;
}

window_set& windows(std::size_t n) {
  auto& current = current_windows();
  if (!current || current->n != n) {
    current.reset();
    current_graph().reset();
    current = make_windows(n);
  }
  return *current;
}

// bm_window_walk_csr's rate and its total of visited ops per iteration, keyed by N.
std::map<std::size_t, std::pair<double, std::size_t>>& window_csr() {
  static std::map<std::size_t, std::pair<double, std::size_t>> m;
  return m;
}

/// The windowed CSR sweep of every walk of `ws`; returns the total of visited ops.
class window_sweeper {
 public:
  explicit window_sweeper(const window_set& ws) : ws_(ws), stamp_(ws.n, 0) { out_.reserve(window_max); }

  std::size_t run() {
    const auto& g = ws_.csr;
    std::size_t total = 0;
    for (const auto& walk : ws_.walks) {
      const std::uint32_t c = walk.first, f = walk.second;
      ++epoch_;
      out_.clear();
      std::size_t pending = 0;
      auto mark = [&](std::uint32_t p) {
        const bool fresh = p >= f && stamp_[p] != epoch_;
        if (fresh) stamp_[p] = epoch_;
        pending += fresh ? 1 : 0;
      };
      for (std::uint32_t e = g.offsets[c]; e < g.offsets[c + 1]; ++e) mark(g.targets[e]);
      for (std::uint32_t i = c; pending != 0 && i > f;) {
        --i;
        if (stamp_[i] != epoch_) continue;
        --pending;
        out_.push_back(i);
        for (std::uint32_t e = g.offsets[i]; e < g.offsets[i + 1]; ++e) mark(g.targets[e]);
      }
      std::reverse(out_.begin(), out_.end());  // block order, as the walk returns it
      total += out_.size();
      benchmark::DoNotOptimize(out_.data());
    }
    return total;
  }

 private:
  const window_set& ws_;
  std::vector<std::uint32_t> stamp_, out_;
  std::uint32_t epoch_ = 0;
};

void bm_window_walk_csr(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  window_sweeper sweeper(windows(n));
  std::size_t total = 0;
  const double t0 = cpu_seconds();
  for (auto _ : state) total = sweeper.run();
  const double secs = cpu_seconds() - t0;
  if (total == 0) return state.SkipWithError("the windowed CSR sweeps visited nothing");
  finish(state, total);
  window_csr()[n] = {static_cast<double>(total) * static_cast<double>(state.iterations()) / secs, total};
}

void run_window_walks(benchmark::State& state, nr::block_copy_policy policy) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& ws = windows(n);
  const auto& g = ws.ref;
  nr::block_scratch<nr::ref::module> scratch(g);
  scratch.set_copy_policy(policy);
  std::size_t total = 0;
  bool complete = true;
  const double t0 = cpu_seconds();
  for (auto _ : state) {
    total = 0;
    for (const auto& [c, f] : ws.ref_walks) {
      auto r = nr::dependence_walk<nr::boundary_set<>>(scratch, g, c, {.budget = window_max, .window_floor = f});
      complete &= r.complete();
      total += r.ops.size();
      benchmark::DoNotOptimize(r.ops.data());
    }
  }
  const double secs = cpu_seconds() - t0;
  if (!complete) return state.SkipWithError("a windowed walk hit its budget");
  // The CSR row's total, or (that row filtered out) one sweep of its own.
  const auto it = window_csr().find(n);
  const std::size_t expected = it != window_csr().end() ? it->second.second : window_sweeper(ws).run();
  if (total != expected) return state.SkipWithError("the windowed walks and the CSR sweeps visited different totals");
  finish(state, total);
  const double rate = static_cast<double>(total) * static_cast<double>(state.iterations()) / secs;
  if (it != window_csr().end()) state.counters["vs_csr"] = rate / it->second.first;
  state.counters["copies"] = static_cast<double>(scratch.copies_made());
}

void bm_window_walk_ref(benchmark::State& state) { run_window_walks(state, nr::block_copy_policy::amortized); }
void bm_window_walk_ref_ir(benchmark::State& state) { run_window_walks(state, nr::block_copy_policy::never); }

// ------------------------------------------------------------------------------ registration
// Family by family, in this order: the baselines run before the walks (the ratio counters read
// their rates), bm_move_query last (it scrambles the block). A family that changes size rebuilds
// the graph (one graph in memory at a time).

using bench_support::sizes;

void register_all() {
  constexpr auto all = sizes<1'000, 10'000, 100'000, 1'000'000>;
  benchmark::RegisterBenchmark("bm_csr_bfs", bm_csr_bfs)->Apply(all)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("bm_boost_bfs", bm_boost_bfs)->Apply(all)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("bm_walk_ref", bm_walk_ref)->Apply(all)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("bm_walk_ref_ir", bm_walk_ref_ir)->Apply(all)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("bm_walk_archetype", bm_walk_archetype)
      ->Apply(sizes<1'000, archetype_max>)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("bm_window_walk_csr", bm_window_walk_csr)
      ->Apply(sizes<10'000, 100'000, 300'000, 1'000'000>)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("bm_window_walk_ref", bm_window_walk_ref)
      ->Apply(sizes<10'000, 100'000, 300'000, 1'000'000>)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("bm_window_walk_ref_ir", bm_window_walk_ref_ir)
      ->Apply(sizes<10'000, 100'000, 300'000, 1'000'000>)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("bm_move_query", bm_move_query)->Apply(all);
}

struct registrar {
  registrar() { register_all(); }
} const registrar_instance;

}  // namespace

BENCHMARK_MAIN();
