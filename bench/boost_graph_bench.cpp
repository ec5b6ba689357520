// The dependence walk over the Boost.Graph adapter (include/neuronrw/adapters/boost_graph.hpp)
// against boost::breadth_first_search on the same adjacency_list, 1K-1M ops (target: within
// 1.2x of BFS at every size, i.e. the vs_boost counter ≥ 0.83).
//
// Graph: walk_bench.cpp's — N ops in one block, op i uses op i-1 and a random earlier op (fixed
// seed), so a walk from the last op reaches every op. Stored as
// adjacency_list<vecS, vecS, directedS, op, use> with edges consumer → producer, bundled kind and
// position properties and a result index on every edge (all 0), all named to the adapter.
//   bm_boost_bfs_adjacency  boost::breadth_first_search from the last op (a counting visitor)
//   bm_walk_boost_graph     neuronrw::dependence_walk over the adapter, boundary_set<>, no
//                           budget, a reused block_scratch; ordered by block position, which
//                           BFS does not do. Counter vs_boost = walk rate / BFS rate.
#include <neuronrw/adapters/boost_graph.hpp>
#include <neuronrw/algorithms/block_dataflow.hpp>
#include <neuronrw/algorithms/dependence_walk.hpp>
#include <neuronrw/descriptors/boundary_set.hpp>

#include "bench_support.hpp"

#include <benchmark/benchmark.h>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <utility>

namespace {

namespace nr = neuronrw;

struct op {
  nr::kind_id kind = nr::kind_id_of("compute");
  std::uint32_t position = 0;
};
struct use {
  std::uint32_t result = 0;
};
using graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, op, use>;
using adapter = nr::bgl::dataflow_graph<graph, decltype(boost::get(&op::kind, std::declval<graph&>())),
                                        decltype(boost::get(&op::position, std::declval<graph&>())),
                                        nr::bgl::consumer_to_producer_t,
                                        decltype(boost::get(&use::result, std::declval<graph&>()))>;

struct graph_set {
  std::size_t n = 0;
  graph g;
  std::unique_ptr<adapter> ir;
};

std::unique_ptr<graph_set> make_graph(std::size_t n) {
  auto gs = std::make_unique<graph_set>();
  gs->n = n;
  std::mt19937_64 rng(0x5eed);
  for (std::size_t i = 0; i < n; ++i) boost::add_vertex(op{nr::kind_id_of("compute"), static_cast<std::uint32_t>(i)}, gs->g);
  for (std::size_t i = 1; i < n; ++i) {
    boost::add_edge(i, i - 1, use{0}, gs->g);
    if (i >= 2) boost::add_edge(i, static_cast<std::size_t>(rng() % (i - 1)), use{0}, gs->g);
  }
  gs->ir = std::make_unique<adapter>(gs->g, boost::get(&op::kind, gs->g), boost::get(&op::position, gs->g),
                                     nr::bgl::consumer_to_producer, boost::get(&use::result, gs->g));
  return gs;
}

graph_set& graph_of(std::size_t n) {
  static std::unique_ptr<graph_set> current;
  if (!current || current->n != n) {
    current.reset();
    current = make_graph(n);
  }
  return *current;
}

struct count_visitor : boost::default_bfs_visitor {
  std::size_t* count;
  explicit count_visitor(std::size_t* c) : count(c) {}
  template <class V, class G>
  void discover_vertex(V, const G&) const { ++*count; }
};

void bm_boost_bfs_adjacency(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& gs = graph_of(n);
  std::size_t discovered = 0;
  for (auto _ : state) {
    discovered = 0;
    boost::breadth_first_search(gs.g, boost::vertex(n - 1, gs.g), boost::visitor(count_visitor(&discovered)));
    benchmark::DoNotOptimize(discovered);
  }
  if (discovered != n) return state.SkipWithError("boost bfs did not reach every op");
  state.SetItemsProcessed(static_cast<std::int64_t>(n - 1) * static_cast<std::int64_t>(state.iterations()));
}

void bm_walk_boost_graph(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& gs = graph_of(n);
  nr::block_scratch<adapter> scratch(*gs.ir);
  std::size_t visited = 0;
  for (auto _ : state) {
    auto r = nr::dependence_walk<nr::boundary_set<>>(scratch, *gs.ir, n - 1, {.budget = std::nullopt});
    visited = r.ops.size();
    benchmark::DoNotOptimize(r.ops.data());
  }
  if (visited != n - 1) return state.SkipWithError("the walk did not reach every op");
  state.SetItemsProcessed(static_cast<std::int64_t>(visited) * static_cast<std::int64_t>(state.iterations()));
}

// Ratio counters from the reporter: each walk row divided by the BFS row of its size and of the
// same kind (a repetition by the latest BFS repetition, a mean or median by the BFS mean or
// median; spread rows, stddev and cv, get none).
class ratio_reporter : public benchmark::ConsoleReporter {
 public:
  ratio_reporter() : ConsoleReporter(OO_Tabular) {}
  void ReportRuns(const std::vector<Run>& runs) override {
    std::vector<Run> out = runs;
    for (auto& r : out) {
      if (r.aggregate_name == "stddev" || r.aggregate_name == "cv") continue;
      const double rate = r.counters.count("items_per_second") ? double(r.counters.at("items_per_second")) : 0.0;
      const auto key = std::pair(static_cast<std::size_t>(std::stoull(r.run_name.args)), r.aggregate_name);
      if (r.run_name.function_name == "bm_boost_bfs_adjacency") bfs_rate()[key] = rate;
      else if (auto it = bfs_rate().find(key); it != bfs_rate().end() && it->second > 0)
        r.counters["vs_boost"] = rate / it->second;
    }
    ConsoleReporter::ReportRuns(out);
  }

 private:
  static std::map<std::pair<std::size_t, std::string>, double>& bfs_rate() {
    static std::map<std::pair<std::size_t, std::string>, double> m;
    return m;
  }
};

/// True when the command line asks for another display format than the console's (json, csv):
/// then Benchmark's own reporter prints it, since ratio_reporter is a console reporter.
bool other_format(int argc, char** argv) {
  const std::string_view flag = "--benchmark_format=";
  for (int i = 1; i < argc; ++i)
    if (const std::string_view a = argv[i]; a.starts_with(flag) && a.substr(flag.size()) != "console") return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  // Size by size (one graph in memory at a time); smoke mode (bench_support.hpp): the smallest
  // size, one iteration.
  for (std::int64_t n : {1'000, 10'000, 100'000, 1'000'000}) {
    benchmark::RegisterBenchmark("bm_boost_bfs_adjacency", bm_boost_bfs_adjacency)
        ->Arg(n)
        ->Unit(benchmark::kMicrosecond)
        ->Apply(bench_support::once_in_smoke);
    benchmark::RegisterBenchmark("bm_walk_boost_graph", bm_walk_boost_graph)
        ->Arg(n)
        ->Unit(benchmark::kMicrosecond)
        ->Apply(bench_support::once_in_smoke);
    if (bench_support::smoke()) break;
  }
  const bool console = !other_format(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (console) {
    ratio_reporter reporter;  // colourless: the vs_boost column reads the same in a log
    benchmark::RunSpecifiedBenchmarks(&reporter);
  } else {
    benchmark::RunSpecifiedBenchmarks();
  }
  benchmark::Shutdown();
}
