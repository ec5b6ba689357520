// bench/parallel_bench.cpp — ScheduleFusion over the functions of one module on several threads
// (neuronrw/passes/parallel.hpp) against the sequential pass in the same binary, wall-clock time
// (the workers' time is not the calling thread's CPU time):
//   - reference IR: 32 copies of bench/synthetic_function.hpp's function of 20,000 ops (640K ops,
//     6,400 pairs): the plan alone, and plan + apply (the reference IR does not declare R2, so its
//     apply stays sequential: docs/concepts.md §"Threads");
//   - the custom-IR example's IR (examples/custom_ir, which declares R2): 64 functions of 50
//     all-gather → reduce-scatter pairs with moves, plan + apply, the apply one function per task.
// Arg = threads (the sequential pass is its own benchmark).
//
//   ninja -C <build> bench/parallel_bench && <build>/bench/parallel_bench --benchmark_repetitions=3
#include <benchmark/benchmark.h>

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/parallel.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "../examples/custom_ir/custom_ir_traits.hpp"
#include "../examples/custom_ir/layers.hpp"
#include "../examples/custom_ir/mini_ir.hpp"
#include "bench_support.hpp"
#include "synthetic_function.hpp"

namespace {

namespace ref = neuronrw::ref;

constexpr std::size_t ref_functions = 32;
// Ops per function: 20,000; in smoke mode (bench_support.hpp) 1,000, so the test suite's run of
// the twelve benchmarks stays short (the same 32 functions, 10 pairs each).
const std::size_t ref_ops = bench_support::smoke() ? 1'000 : 20'000;

ref::module ref_module() {
  ref::module m;
  for (std::size_t i = 0; i < ref_functions; ++i)
    bench_support::add_synthetic_function(m, ref_ops, ("f" + std::to_string(i)).c_str());
  return m;
}

void expect_clusters(benchmark::State& state, std::size_t got, std::size_t want) {
  if (got != want) state.SkipWithError(("unexpected cluster count " + std::to_string(got)).c_str());
}

void BM_ref_plan_sequential(benchmark::State& state) {
  const ref::module m = ref_module();
  std::size_t clusters = 0;
  for (auto _ : state) {
    auto plan = neuronrw::plan_schedule_fusion(m);
    benchmark::DoNotOptimize(plan.clusters.data());
    clusters = plan.clusters.size();
  }
  expect_clusters(state, clusters, ref_functions * ref_ops / bench_support::segment);
}
BENCHMARK(BM_ref_plan_sequential)->Unit(benchmark::kMillisecond)->UseRealTime()->Apply(bench_support::once_in_smoke);

void BM_ref_plan_parallel(benchmark::State& state) {
  const ref::module m = ref_module();
  const auto threads = static_cast<unsigned>(state.range(0));
  std::size_t clusters = 0;
  for (auto _ : state) {
    auto plan = neuronrw::plan_pass_parallel<neuronrw::passes::schedule_fusion>(m, {}, {.threads = threads});
    benchmark::DoNotOptimize(plan.clusters.data());
    clusters = plan.clusters.size();
  }
  expect_clusters(state, clusters, ref_functions * ref_ops / bench_support::segment);
}
BENCHMARK(BM_ref_plan_parallel)->Arg(1)->Arg(2)->Arg(4)->Unit(benchmark::kMillisecond)->UseRealTime()->Apply(bench_support::once_in_smoke);

template <bool Parallel>
void BM_ref_full(benchmark::State& state) {
  const auto threads = Parallel ? static_cast<unsigned>(state.range(0)) : 1u;
  std::size_t clusters = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ref::module m = ref_module();
    state.ResumeTiming();
    auto plan = Parallel ? neuronrw::run_pass_parallel<neuronrw::passes::schedule_fusion>(m, {}, {.threads = threads}) : neuronrw::schedule_fusion(m);
    benchmark::DoNotOptimize(plan.clusters.data());
    clusters = plan.clusters.size();
    state.PauseTiming();
    m = ref::module{};
    state.ResumeTiming();
  }
  expect_clusters(state, clusters, ref_functions * ref_ops / bench_support::segment);
}
BENCHMARK(BM_ref_full<false>)
    ->Name("BM_ref_full_sequential")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Apply(bench_support::once_in_smoke);
BENCHMARK(BM_ref_full<true>)
    ->Name("BM_ref_full_parallel")
    ->Arg(1)
    ->Arg(2)
    ->Arg(4)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Apply(bench_support::once_in_smoke);

// ------------------------------------------------------------------------- the custom IR (R2)

constexpr int mini_functions = 64, mini_pairs = 50;

/// One function of mini_pairs pairs (examples/custom_ir/layers.hpp, as tests/threads uses it).
void add_mini_function(mini::Module& m, int index) {
  mini_example::multi_pair_layer(m, mini_pairs, false).name = "f" + std::to_string(index);
}

std::vector<mini::Block*> roots_of(mini::Module& m) {
  std::vector<mini::Block*> roots;
  for (auto& f : m.functions) roots.push_back(&f->entry);
  return roots;
}

/// The same, as the parallel driver's units.
std::vector<neuronrw::root_block<mini::Block*>> root_units_of(mini::Module& m) {
  std::vector<neuronrw::root_block<mini::Block*>> roots;
  for (auto& f : m.functions) roots.push_back({&f->entry});
  return roots;
}

const neuronrw::schedule_fusion_options mini_opts{.group_op_name = "fusion", .terminator_name = "return"};

template <bool Parallel>
void BM_mini_full(benchmark::State& state) {
  const auto threads = Parallel ? static_cast<unsigned>(state.range(0)) : 1u;
  std::size_t clusters = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto m = std::make_unique<mini::Module>();
    for (int i = 0; i < mini_functions; ++i) add_mini_function(*m, i);
    state.ResumeTiming();
    auto plan = Parallel ? neuronrw::run_pass_parallel<neuronrw::passes::schedule_fusion>(*m, root_units_of(*m), mini_opts, {.threads = threads})
                         : neuronrw::schedule_fusion(*m, roots_of(*m), mini_opts);
    benchmark::DoNotOptimize(plan.clusters.data());
    clusters = plan.clusters.size();
    state.PauseTiming();
    m.reset();
    state.ResumeTiming();
  }
  expect_clusters(state, clusters, static_cast<std::size_t>(mini_functions * mini_pairs));
}
BENCHMARK(BM_mini_full<false>)
    ->Name("BM_custom_ir_full_sequential")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Apply(bench_support::once_in_smoke);
BENCHMARK(BM_mini_full<true>)
    ->Name("BM_custom_ir_full_parallel")
    ->Arg(1)
    ->Arg(2)
    ->Arg(4)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Apply(bench_support::once_in_smoke);

}  // namespace

BENCHMARK_MAIN();
