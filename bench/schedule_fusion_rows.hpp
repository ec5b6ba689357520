// bench/schedule_fusion_rows.hpp — the reference IR's ScheduleFusion rows, shared by
// schedule_fusion_bench (its own figures) and schedule_fusion_mlir_bench (the baseline of the
// adapter's rows, in the same binary): plan-only on one function, plan + apply on a fresh one per
// iteration (made and destroyed outside the timing). Checked: N/100 clusters, and after the apply
// the function's block holds N - N/100 + 1 ops; otherwise SkipWithError instead of a time.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>

#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "synthetic_function.hpp"

namespace bench_support::schedule_fusion_rows {

using make_fn = neuronrw::ref::module (*)(std::size_t);

/// The ops in the (only) function's block.
inline std::size_t body_ops(const neuronrw::ref::module& m) {
  return m.size(m.region_block(m.front(m.body())));
}

/// The counters every ScheduleFusion row reports: the complexity N, pairs, ops/s.
inline void counters(benchmark::State& state, std::size_t n, std::size_t clusters) {
  state.SetComplexityN(static_cast<std::int64_t>(n));
  state.counters["pairs"] = static_cast<double>(clusters);
  state.counters["ops/s"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
}

/// plan + apply (neuronrw::schedule_fusion) of make(N), N = state.range(0).
inline void ref_full(benchmark::State& state, make_fn make) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::size_t clusters = 0;
  bool applied = true;
  for (auto _ : state) {
    state.PauseTiming();
    neuronrw::ref::module m = make(n);
    state.ResumeTiming();
    auto plan = neuronrw::schedule_fusion(m);
    benchmark::DoNotOptimize(plan.clusters.data());
    state.PauseTiming();
    clusters = plan.clusters.size();
    applied = applied && body_ops(m) == n - n / segment + 1;
    m = neuronrw::ref::module{};  // destruction outside the measurement
    state.ResumeTiming();
  }
  if (clusters != n / segment) return state.SkipWithError("unexpected cluster count");
  if (!applied) return state.SkipWithError("unexpected op count after the apply");
  counters(state, n, clusters);
}

/// The dry run (neuronrw::plan_schedule_fusion) on one make(N).
inline void ref_plan_only(benchmark::State& state, make_fn make) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const neuronrw::ref::module m = make(n);
  std::size_t clusters = 0;
  for (auto _ : state) {
    auto plan = neuronrw::plan_schedule_fusion(m);
    benchmark::DoNotOptimize(plan.clusters.data());
    clusters = plan.clusters.size();
  }
  if (clusters != n / segment) return state.SkipWithError("unexpected cluster count");
  counters(state, n, clusters);
}

}  // namespace bench_support::schedule_fusion_rows
