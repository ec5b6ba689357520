// boost::breadth_first_search through the Boost.Graph view of a reference-IR block
// (include/neuronrw/adapters/boost_graph_view.hpp, the second direction) against the same BFS on
// an adjacency_list copy of that block, 1K-1M ops (target: the dense view at least as fast as
// the copy, vs_copy ≥ 1, since it makes no copy; block_view's warm ratio is shown without one).
//
// Graph: walk_bench.cpp's — N ops in one block of the reference IR, op i uses op i-1 and a random
// earlier op (fixed seed 0x5eed). Every BFS here starts from the FIRST op and follows
// producer → consumer edges (the view's out-edges), which reach every op. Every variant uses a
// counting visitor and a reused vector<default_color_type> as the color map, indexed by the
// graph's own vertex_index (the identity on the copy and the dense view, the position map on
// block_view); breadth_first_search resets it to white itself, and allocates its queue, in all.
// Items/s = ops discovered/s.
//   bm_copy_to_adjacency_list  builds (and drops) the copy: adjacency_list<vecS, vecS, directedS>
//                              with one edge producer → consumer per use, from the IR's ops,
//                              operands and defining ops — what a caller without the view writes
//   bm_bfs_adjacency_copy      BFS on that copy, built once outside the timing
//   bm_bfs_block_view/cold     BFS through a fresh block_view each iteration: the view's lazy
//                              caches (op positions, per-vertex out-edge lists) are filled inside
//                              the timing — the "no copy" case, to set against copy + BFS.
//                              Counter vs_copy_plus_build = (copy build + copy BFS time) / its time
//   bm_bfs_block_view/warm     BFS through one view reused across iterations (caches filled once
//                              before the timing). Counter vs_copy = copy BFS time / its time
//   bm_bfs_dense_view/cold     the same two through a dense_block_view (vertex = position, the
//   bm_bfs_dense_view/warm     vertex index the identity, as on the copy); cold includes its
//                              constructor, which numbers the block
// The counters divide by the baselines' CPU time per iteration measured earlier in the same
// process (the latest repetition of each, at the same size), as walk_bench.cpp's ratio_counters.
// Before the timing, each size checks once that BFS through the copy and through the view
// discovers the same ops in the same order (every op); it aborts with a message otherwise.
#include <neuronrw/adapters/boost_graph_view.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#include "bench_support.hpp"

#include <benchmark/benchmark.h>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/property_map/property_map.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace nr = neuronrw;
namespace ref = neuronrw::ref;

using copy_graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
using view = nr::bgl_view::block_view<ref::module>;
using dense_view = nr::bgl_view::dense_block_view<ref::module>;

// ------------------------------------------------------------------------------ the graph

/// The block's dataflow copied into an adjacency_list: vertex i = the block's i-th op, one edge
/// producer → consumer per operand slot whose value an op of the block defines. Reads the IR
/// through its generic access functions, as a caller of any ordered_ir would. Built in place in
/// `out` (an adjacency_list copy or assignment trips g++ 12's -Wmaybe-uninitialized inside
/// Boost's copy_impl, see walk_bench.cpp).
void copy_block(const ref::module& m, ref::block_ref b, std::optional<copy_graph>& out) {
  std::vector<ref::op_ref> ops;
  for (auto o : nr::ir::ops(m, b)) ops.push_back(o);
  std::vector<std::size_t> pos(nr::ir::op_index_bound(m), 0);
  for (std::size_t i = 0; i < ops.size(); ++i) pos[nr::ir::op_index(m, ops[i])] = i;
  copy_graph& g = out.emplace(ops.size());
  for (std::size_t i = 0; i < ops.size(); ++i)
    for (auto v : nr::ir::operands(m, ops[i])) {
      const auto d = nr::ir::defining_op(m, v);
      if (d == nr::ir::null_op<ref::module>() || !(nr::ir::block_of(m, d) == b)) continue;
      boost::add_edge(pos[nr::ir::op_index(m, d)], i, g);
    }
}

struct graph_set {
  std::size_t n = 0;
  ref::module m;
  ref::block_ref block;
  std::optional<copy_graph> copy;
};

std::unique_ptr<graph_set> make_graph(std::size_t n) {
  auto gs = std::make_unique<graph_set>();
  gs->n = n;
  std::mt19937_64 rng(0x5eed);
  std::vector<std::uint32_t> other(n, 0);  // the random earlier operand of op i (op 0: none)
  for (std::size_t i = 2; i < n; ++i) other[i] = static_cast<std::uint32_t>(rng() % (i - 1));

  auto& m = gs->m;
  const auto t = m.intern_type("tensor<4xf32>");
  auto f = m.create_op("func.func", {}, {});
  m.make_function(f).sym_name = "f";
  m.push_back(m.body(), f);
  const ref::type_ref arg_types[] = {t};
  gs->block = m.add_region(f, arg_types);
  const ref::type_ref result_types[] = {t};
  std::vector<ref::op_ref> ops;
  ops.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<ref::value_ref> vals;
    if (i == 0) {
      vals.push_back(m.arguments(gs->block)[0]);
    } else {
      vals.push_back(m.result(ops[i - 1], 0));
      vals.push_back(m.result(ops[other[i]], 0));
    }
    auto o = m.create_op("foo.op", vals, result_types);
    m.push_back(gs->block, o);
    ops.push_back(o);
  }
  copy_block(m, gs->block, gs->copy);
  return gs;
}

// ------------------------------------------------------------------------------ BFS

/// Counts the discovered vertices; records their positions when `order` is set (the check only).
template <class IndexMap>
struct count_visitor : boost::default_bfs_visitor {
  std::size_t* count;
  IndexMap index;
  std::vector<std::size_t>* order = nullptr;
  count_visitor(std::size_t* c, IndexMap i, std::vector<std::size_t>* o = nullptr) : count(c), index(i), order(o) {}
  template <class V, class G>
  void discover_vertex(V v, const G&) const {
    ++*count;
    if (order) order->push_back(get(index, v));
  }
};

/// The one BFS both variants run: from `start`, a counting visitor, `colors` as the color map
/// (indexed by the graph's vertex_index; breadth_first_search whitens it first).
template <class Graph>
std::size_t bfs(const Graph& g, typename boost::graph_traits<Graph>::vertex_descriptor start,
                std::vector<boost::default_color_type>& colors, std::vector<std::size_t>* order = nullptr) {
  const auto index = get(boost::vertex_index, g);
  std::size_t discovered = 0;
  boost::breadth_first_search(
      g, start,
      boost::visitor(count_visitor<decltype(index)>(&discovered, index, order))
          .color_map(boost::make_iterator_property_map(colors.begin(), index)));
  return discovered;
}

/// Once per size, outside the timing: both BFS discover every op, in the same order.
void check_same_bfs(const graph_set& gs) {
  std::vector<boost::default_color_type> colors(gs.n);
  std::vector<std::size_t> by_copy, by_view;
  const std::size_t a = bfs(*gs.copy, boost::vertex(0, *gs.copy), colors, &by_copy);
  const view v(gs.m, gs.block);
  const std::size_t b = bfs(v, v.ops().front(), colors, &by_view);
  std::vector<std::size_t> by_dense;
  const dense_view d(gs.m, gs.block);
  const std::size_t c = bfs(d, 0, colors, &by_dense);
  if (c != b || by_dense != by_view) {
    std::fprintf(stderr, "boost_graph_view_bench: BFS through the two views disagree at %zu ops\n", gs.n);
    std::abort();
  }
  if (a != gs.n || b != gs.n || by_copy != by_view) {
    std::fprintf(stderr,
                 "boost_graph_view_bench: BFS on the copy and through the view disagree at %zu ops: "
                 "%zu vs %zu ops discovered%s\n",
                 gs.n, a, b, a == b ? " (in a different order)" : "");
    std::abort();
  }
}

// One size at a time: the benchmarks run size by size, so memory stays that of one size.
graph_set& graph(std::size_t n) {
  static std::unique_ptr<graph_set> current;
  if (!current || current->n != n) {
    current.reset();
    current = make_graph(n);
    check_same_bfs(*current);
  }
  return *current;
}

// ------------------------------------------------------------------------------ timing, ratios

using bench_support::cpu_seconds;

// The baselines' CPU seconds per iteration, keyed by size (the latest run of each).
std::map<std::size_t, double>& copy_build_time() {
  static std::map<std::size_t, double> m;
  return m;
}
std::map<std::size_t, double>& copy_bfs_time() {
  static std::map<std::size_t, double> m;
  return m;
}

double per_iteration(const benchmark::State& state, double t0) {
  return (cpu_seconds() - t0) / static_cast<double>(state.iterations());
}

/// Sets the rate; false (and the benchmark skipped with an error) when a BFS missed an op.
bool finish(benchmark::State& state, std::size_t discovered) {
  if (discovered != static_cast<std::size_t>(state.range(0))) {
    state.SkipWithError(("a BFS discovered " + std::to_string(discovered) + " of " +
                         std::to_string(state.range(0)) + " ops").c_str());
    return false;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(discovered) * static_cast<std::int64_t>(state.iterations()));
  return true;
}

// ------------------------------------------------------------------------------ benchmarks

void bm_copy_to_adjacency_list(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& gs = graph(n);
  std::size_t vertices = 0;
  const double t0 = cpu_seconds();
  for (auto _ : state) {
    std::optional<copy_graph> g;  // built and dropped inside the timing, as a fresh view is
    copy_block(gs.m, gs.block, g);
    vertices = boost::num_vertices(*g);
    benchmark::DoNotOptimize(vertices);
  }
  copy_build_time()[n] = per_iteration(state, t0);
  finish(state, vertices);
}

void bm_bfs_adjacency_copy(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& gs = graph(n);
  std::vector<boost::default_color_type> colors(n);
  std::size_t discovered = 0;
  const double t0 = cpu_seconds();
  for (auto _ : state) {
    discovered = bfs(*gs.copy, boost::vertex(0, *gs.copy), colors);
    benchmark::DoNotOptimize(discovered);
  }
  copy_bfs_time()[n] = per_iteration(state, t0);
  finish(state, discovered);
}

/// The first vertex of a view: block_view's is the first op, dense_block_view's position 0.
std::size_t first_vertex(const dense_view&) { return 0; }
ref::op_ref first_vertex(const view& v) { return v.ops().front(); }

/// BFS through a fresh view of type View each iteration: its caches fill (and are freed), and a
/// dense view numbers the block, inside the timing.
template <class View>
void bm_bfs_view_cold(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& gs = graph(n);
  std::vector<boost::default_color_type> colors(n);
  std::size_t discovered = 0;
  const double t0 = cpu_seconds();
  for (auto _ : state) {
    const View v(gs.m, gs.block);
    discovered = bfs(v, first_vertex(v), colors);
    benchmark::DoNotOptimize(discovered);
  }
  const double t = per_iteration(state, t0);
  if (!finish(state, discovered)) return;
  const auto b = copy_build_time().find(n);
  const auto s = copy_bfs_time().find(n);
  if (b != copy_build_time().end() && s != copy_bfs_time().end())
    state.counters["vs_copy_plus_build"] = (b->second + s->second) / t;
}

/// BFS through one view of type View, its caches filled before the timing.
template <class View>
void bm_bfs_view_warm(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& gs = graph(n);
  std::vector<boost::default_color_type> colors(n);
  const View v(gs.m, gs.block);
  std::size_t discovered = bfs(v, first_vertex(v), colors);  // fills the caches
  const double t0 = cpu_seconds();
  for (auto _ : state) {
    discovered = bfs(v, first_vertex(v), colors);
    benchmark::DoNotOptimize(discovered);
  }
  const double t = per_iteration(state, t0);
  if (!finish(state, discovered)) return;
  if (auto s = copy_bfs_time().find(n); s != copy_bfs_time().end()) state.counters["vs_copy"] = s->second / t;
}

// Size by size (one graph in memory at a time, the baselines before the view at each size, for
// the ratio counters); smoke mode (bench_support.hpp): the smallest size, one iteration.
void register_all() {
  for (std::int64_t n : {1'000, 10'000, 100'000, 1'000'000}) {
    const std::pair<const char*, void (*)(benchmark::State&)> benches[] = {
        {"bm_copy_to_adjacency_list", bm_copy_to_adjacency_list},
        {"bm_bfs_adjacency_copy", bm_bfs_adjacency_copy},
        {"bm_bfs_block_view/cold", bm_bfs_view_cold<view>},
        {"bm_bfs_block_view/warm", bm_bfs_view_warm<view>},
        {"bm_bfs_dense_view/cold", bm_bfs_view_cold<dense_view>},
        {"bm_bfs_dense_view/warm", bm_bfs_view_warm<dense_view>}};
    for (const auto& [name, f] : benches)
      benchmark::RegisterBenchmark(name, f)->Arg(n)->Unit(benchmark::kMicrosecond)->Apply(bench_support::once_in_smoke);
    if (bench_support::smoke()) break;
  }
}

struct registrar {
  registrar() { register_all(); }
} const registrar_instance;

}  // namespace

BENCHMARK_MAIN();
