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

namespace {

namespace ref = neuronrw::ref;

constexpr std::size_t segment = 100;

ref::module synthetic_function(std::size_t n_ops) {
  ref::module m;
  auto t = m.intern_type("tensor<16x8xf32>");
  auto f = m.create_op("func.func", {}, {});
  auto& fi = m.make_function(f);
  fi.sym_name = "synthetic";
  fi.result_types = {t};
  fi.result_attrs = {""};
  fi.arg_attrs = {"", ""};
  m.push_back(m.body(), f);
  const ref::type_ref args[] = {t, t};
  auto body = m.add_region(f, args);
  const ref::value_ref w = m.arguments(body)[0];
  ref::value_ref chain = m.arguments(body)[1];
  const ref::type_ref one[] = {t};
  auto emit = [&](const char* name, std::initializer_list<ref::value_ref> operands) {
    auto o = m.create_op(name, std::span<const ref::value_ref>(operands.begin(), operands.size()), one);
    m.push_back(body, o);
    return m.result(o, 0);
  };
  ref::value_ref acc = chain;
  for (std::size_t done = 0; done + segment <= n_ops; done += segment) {
    const ref::value_ref shard = emit("mhlo.slice", {w});  // this layer's weight shard
    const ref::value_ref g = emit("mhlo.all_gather", {shard});
    ref::value_ref user = g;
    for (std::size_t i = 0; i < (segment - 4) / 2; ++i) {
      user = emit("mhlo.multiply", {user, acc});  // uses the gather (transitively): moves
      chain = emit("mhlo.negate", {chain});        // unrelated, feeds the reduce_scatter: stays
    }
    chain = emit("mhlo.negate", {chain});
    chain = emit("mhlo.reduce_scatter", {g, chain});  // the next segment's chain starts here
    acc = user;                                        // and its users read this one's
  }
  const ref::value_ref ret[] = {acc};
  m.push_back(body, m.create_op("func.return", ret, {}));
  return m;
}

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
