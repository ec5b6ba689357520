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
//   bm_walk_archetype the same on the archetype IR (O(n) order queries by design), 1K/10K only
//   bm_move_query     random move_before then is_before_in_block on the reference IR
// The walk rows carry counters vs_csr and vs_boost: walk rate / baseline rate at the same size,
// from the baselines' runs earlier in the same process (targets: ≥ 0.5 and ≥ 2).
#include <neuronrw/algorithms/block_dataflow.hpp>
#include <neuronrw/algorithms/dependence_walk.hpp>
#include <neuronrw/descriptors/boundary_set.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#include "../tests/archetype/archetype_ir.hpp"

#include <benchmark/benchmark.h>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace nr = neuronrw;

// ------------------------------------------------------------------------------ the graph

struct csr_graph {
  std::vector<std::uint32_t> offsets;  // n + 1
  std::vector<std::uint32_t> targets;  // producer edges
};

using boost_graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

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

  gs->csr.offsets.reserve(n + 1);
  gs->csr.offsets.push_back(0);
  for (std::size_t i = 0; i < n; ++i) {
    operands_of(i, [&](std::uint32_t p) { gs->csr.targets.push_back(p); });
    gs->csr.offsets.push_back(static_cast<std::uint32_t>(gs->csr.targets.size()));
  }

  // add_vertex, not `bgl = boost_graph(n)`: the copy assignment trips g++ 12's
  // -Wmaybe-uninitialized inside Boost's copy_impl.
  for (std::size_t i = 0; i < n; ++i) boost::add_vertex(gs->bgl);
  for (std::size_t i = 0; i < n; ++i) operands_of(i, [&](std::uint32_t p) { boost::add_edge(i, p, gs->bgl); });

  auto& m = gs->ref;
  const auto t = m.intern_type("tensor<4xf32>");
  auto f = m.create_op("func.func", {}, {});
  m.make_function(f).sym_name = "f";
  m.push_back(m.body(), f);
  const nr::ref::type_ref arg_types[] = {t};
  const auto body = m.add_region(f, arg_types);
  const nr::ref::type_ref result_types[] = {t};
  gs->ref_ops.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<nr::ref::value_ref> vals;
    if (i == 0) vals.push_back(m.arguments(body)[0]);
    operands_of(i, [&](std::uint32_t p) { vals.push_back(m.result(gs->ref_ops[p], 0)); });
    auto o = m.create_op("foo.op", vals, result_types);
    m.push_back(body, o);
    gs->ref_ops.push_back(o);
  }

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

// One size at a time: the benchmarks run size by size, so memory stays that of one size.
graph_set& graph(std::size_t n) {
  static std::unique_ptr<graph_set> current;
  if (!current || current->n != n) {
    current.reset();
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

// Thread CPU time, the clock Google Benchmark's items_per_second is based on, so the ratio
// counters agree with the printed rates.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

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
  if (visited != n - 1) throw std::logic_error("csr bfs did not reach every op");
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
  if (discovered != n) throw std::logic_error("boost bfs did not reach every op");
  finish(state, n - 1);
  boost_rate()[n] = static_cast<double>(n - 1) * static_cast<double>(state.iterations()) / secs;
}

// ------------------------------------------------------------------------------ the walk

template <class G, class Op>
void run_walk(benchmark::State& state, const G& g, Op start, std::size_t n) {
  nr::block_scratch<G> scratch(g);
  std::size_t visited = 0;
  const double t0 = cpu_seconds();
  for (auto _ : state) {
    auto r = nr::dependence_walk<nr::boundary_set<>>(scratch, g, start, {.budget = std::nullopt});
    visited = r.ops.size();
    benchmark::DoNotOptimize(r.ops.data());
  }
  const double secs = cpu_seconds() - t0;
  if (visited != n - 1) throw std::logic_error("the walk did not reach every op");
  finish(state, visited);
  ratio_counters(state, n, static_cast<double>(visited) * static_cast<double>(state.iterations()) / secs);
}

void bm_walk_ref(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& gs = graph(n);
  run_walk(state, gs.ref, gs.ref_ops.back(), n);
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

void register_all() {
  for (std::int64_t n : {1'000, 10'000, 100'000, 1'000'000}) {
    benchmark::RegisterBenchmark("bm_csr_bfs", bm_csr_bfs)->Arg(n)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("bm_boost_bfs", bm_boost_bfs)->Arg(n)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("bm_walk_ref", bm_walk_ref)->Arg(n)->Unit(benchmark::kMicrosecond);
    if (static_cast<std::size_t>(n) <= archetype_max)
      benchmark::RegisterBenchmark("bm_walk_archetype", bm_walk_archetype)->Arg(n)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("bm_move_query", bm_move_query)->Arg(n);
  }
}

struct registrar {
  registrar() { register_all(); }
} const registrar_instance;

}  // namespace

BENCHMARK_MAIN();
