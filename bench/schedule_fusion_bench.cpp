// bench/schedule_fusion_bench.cpp — a full ScheduleFusion (plan + apply) over one synthetic
// function of N ops holding N/100 all_gather → reduce_scatter pairs (SPEC §8: 1M ops with 10k
// pairs in linear time, well under a second), with Google Benchmark's complexity fit over
// N = 10K, 100K, 1M. Also the plan alone (the dry run) on the same functions.
//
// Each 100-op segment: a slice of the weights (this layer's shard) and its all_gather; 48 users of
// the gathered value (a chain: they all move after the cluster); 49 unrelated ops interleaved
// with them (a chain feeding the reduce_scatter, which the dependence walk visits: 49 of the
// budget of 100, and which stays before the cluster); the reduce_scatter(all_gather, chain).
// Each segment's chains continue the previous one's, so every value stays live and every pair
// really reschedules (49 moves each).
//
//   ninja -C <build> bench/schedule_fusion_bench && <build>/bench/schedule_fusion_bench
#include <benchmark/benchmark.h>

#include <cstddef>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "synthetic_function.hpp"

namespace {

namespace ref = neuronrw::ref;

using bench_support::segment;
using bench_support::synthetic_function;

void BM_schedule_fusion_full(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::size_t clusters = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ref::module m = synthetic_function(n);
    state.ResumeTiming();
    auto plan = neuronrw::schedule_fusion(m);
    benchmark::DoNotOptimize(plan.clusters.data());
    clusters = plan.clusters.size();
    state.PauseTiming();
    m = ref::module{};  // destruction outside the measurement
    state.ResumeTiming();
  }
  if (clusters != n / segment) state.SkipWithError("unexpected cluster count");
  state.SetComplexityN(state.range(0));
  state.counters["pairs"] = static_cast<double>(clusters);
  state.counters["ops/s"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_schedule_fusion_full)
    ->RangeMultiplier(10)
    ->Range(10'000, 1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);

void BM_schedule_fusion_plan(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const ref::module m = synthetic_function(n);
  std::size_t clusters = 0;
  for (auto _ : state) {
    auto plan = neuronrw::plan_schedule_fusion(m);
    benchmark::DoNotOptimize(plan.clusters.data());
    clusters = plan.clusters.size();
  }
  if (clusters != n / segment) state.SkipWithError("unexpected cluster count");
  state.SetComplexityN(state.range(0));
  state.counters["ops/s"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_schedule_fusion_plan)
    ->RangeMultiplier(10)
    ->Range(10'000, 1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);

}  // namespace

BENCHMARK_MAIN();
