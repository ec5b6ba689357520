// bench/bench_support.hpp — what every benchmark binary of bench/ shares: the smoke mode the test
// suite runs them in, size registration that honours it, and the clock ratios are computed on.
//
// Smoke mode (environment NEURONRW_BENCH_SMOKE set, as tests/bench does): every benchmark runs
// once, at its smallest size, without complexity fits (a fit needs two sizes), so the suites keep
// building and running in CI at almost no cost. Otherwise the sizes and options are as written.
//
//   BENCHMARK(bm_walk)->Apply(bench_support::sizes<1'000, 10'000, 100'000, 1'000'000>);
//   BENCHMARK(bm_plan)->Apply(bench_support::sizes<1'000, 1'000'000>)->Apply(bench_support::fit<benchmark::oN>);
//   BENCHMARK(bm_once)->Apply(bench_support::once_in_smoke);
//
// A benchmark that finds a wrong result (a count it did not expect) calls state.SkipWithError;
// the smoke test fails on it (tests/bench/smoke.py reads the JSON output).
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <ctime>

namespace bench_support {

/// True when NEURONRW_BENCH_SMOKE is set (to anything).
inline bool smoke() {
  static const bool on = std::getenv("NEURONRW_BENCH_SMOKE") != nullptr;
  return on;
}

/// Apply()-able: registers Ns as Arg()s; in smoke mode only the first, with one iteration.
template <std::int64_t... Ns>
void sizes(benchmark::internal::Benchmark* b) {
  constexpr std::int64_t all[] = {Ns...};
  if (smoke()) {
    b->Arg(all[0])->Iterations(1);
    return;
  }
  for (const std::int64_t n : all) b->Arg(n);
}

/// Apply()-able: one run in smoke mode (for benchmarks without a size argument); nothing otherwise.
inline void once_in_smoke(benchmark::internal::Benchmark* b) {
  if (smoke()) b->Iterations(1);
}

/// Thread CPU time in seconds: the clock Google Benchmark's rates (items_per_second) are based on,
/// so a ratio a benchmark computes from it agrees with the rates it prints.
inline double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

/// Apply()-able: Complexity(C), except in smoke mode, where one size allows no fit.
template <benchmark::BigO C>
void fit(benchmark::internal::Benchmark* b) {
  if (!smoke()) b->Complexity(C);
}

}  // namespace bench_support
