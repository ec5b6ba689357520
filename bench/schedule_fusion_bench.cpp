// bench/schedule_fusion_bench.cpp — the full matcher on the reference IR: ScheduleFusion plan-only
// and plan + apply over one function of N = 1K, 10K, 100K, 1M ops, with Google Benchmark's
// complexity fit (oN; the target, SPEC §8: linear, and 1M ops with 10k pairs well under a second).
// Two shapes (bench/synthetic_function.hpp), each with N/100 all_gather -> reduce_scatter pairs:
//
//   BM_schedule_fusion_full / _plan          synthetic_function: per 100-op segment a weight
//       shard and its all_gather, 48 users of the gathered value interleaved with 49 unrelated
//       ops feeding the reduce_scatter (which the dependence walk visits: 49 of its budget of
//       100); every pair reschedules 49 ops.
//   BM_schedule_fusion_shared_full / _plan   shared_live_in_function: the same reschedule, but
//       every all_gather gathers the function's argument %w and every unrelated op reads it, so
//       %w (about N/2 uses) is a live-in of every one of the N/100 fusions — the shape on which
//       grouping was once quadratic (include/neuronrw/ir/ref/rewrite.hpp, group_ops).
//
//   BM_schedule_fusion_check                 the rewrite check of _full's run (docs/validation.md):
//       snapshot + check timed, plan and apply not; counter snapshot_bytes_per_op.
//
// _full re-creates the function outside the timing (PauseTiming) and times plan + apply
// (neuronrw::schedule_fusion); _plan times the dry run (plan_schedule_fusion) on one function.
// Checked: the plan's cluster count is N/100, and after the apply the function's block holds
// N - N/100 + 1 ops (two ops per pair became one fusion, plus the return); otherwise the
// benchmark reports an error (SkipWithError) instead of a time.
//
//   ninja -C <build> bench/schedule_fusion_bench && <build>/bench/schedule_fusion_bench
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "bench_support.hpp"
#include "schedule_fusion_rows.hpp"
#include "synthetic_function.hpp"

namespace {

namespace ref = neuronrw::ref;

using bench_support::segment;

using bench_support::schedule_fusion_rows::body_ops;
using bench_support::schedule_fusion_rows::counters;
using bench_support::schedule_fusion_rows::make_fn;
constexpr auto full = bench_support::schedule_fusion_rows::ref_full;
constexpr auto plan_only = bench_support::schedule_fusion_rows::ref_plan_only;

/// The rewrite check (docs/validation.md) of the plan `full` applies: the snapshot before the
/// apply and the check after it, timed alone (the plan and the apply outside the timing), so the
/// row against BM_schedule_fusion_full reads "what checking costs next to the pass".
void check_only(benchmark::State& state, make_fn make) {
  const auto n = static_cast<std::size_t>(state.range(0));
  bool ok = true;
  std::size_t bytes = 0, covered = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ref::module m = make(n);
    const auto plan = neuronrw::plan_schedule_fusion(std::as_const(m));
    state.ResumeTiming();
    const auto snap = neuronrw::snapshot_schedule_fusion(std::as_const(m), plan);
    state.PauseTiming();
    const auto groups = neuronrw::apply(m, plan);
    state.ResumeTiming();
    const auto check = neuronrw::check_schedule_fusion(std::as_const(m), plan, snap, groups);
    benchmark::DoNotOptimize(check.mismatches.data());
    state.PauseTiming();
    ok = ok && check.ok() && plan.clusters.size() == n / segment;
    bytes = snap.bytes();
    covered = snap.ops();
    m = ref::module{};
    state.ResumeTiming();
  }
  if (!ok) return state.SkipWithError("the check failed or the plan is not the expected one");
  counters(state, n, n / segment);
  state.counters["snapshot_bytes_per_op"] = covered ? static_cast<double>(bytes) / static_cast<double>(covered) : 0.0;
}

void BM_schedule_fusion_full(benchmark::State& state) { full(state, bench_support::synthetic_function); }
void BM_schedule_fusion_check(benchmark::State& state) { check_only(state, bench_support::synthetic_function); }
void BM_schedule_fusion_plan(benchmark::State& state) { plan_only(state, bench_support::synthetic_function); }
void BM_schedule_fusion_shared_full(benchmark::State& state) { full(state, bench_support::shared_live_in_function); }
void BM_schedule_fusion_shared_plan(benchmark::State& state) { plan_only(state, bench_support::shared_live_in_function); }

void options(benchmark::internal::Benchmark* b) {
  b->Apply(bench_support::sizes<1'000, 10'000, 100'000, 1'000'000>)
      ->Apply(bench_support::fit<benchmark::oN>)
      ->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_schedule_fusion_full)->Apply(options);
BENCHMARK(BM_schedule_fusion_plan)->Apply(options);
BENCHMARK(BM_schedule_fusion_check)->Apply(options);
BENCHMARK(BM_schedule_fusion_shared_full)->Apply(options);
BENCHMARK(BM_schedule_fusion_shared_plan)->Apply(options);

}  // namespace

BENCHMARK_MAIN();
