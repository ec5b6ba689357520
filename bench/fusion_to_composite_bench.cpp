// bench/fusion_to_composite_bench.cpp — FusionToComposite (neuronrw/passes/fusion_to_composite.hpp)
// on the reference IR over one function holding F = 1K, 10K, 100K fusions, plan-only and
// plan + apply, with Google Benchmark's complexity fit (oN; no baseline: the target is linear).
// The apply was quadratic until ref::outline_region's value map stopped being sized to the whole
// module: 55 s at 100K fusions, now well under a second.
//
// The input is what ScheduleFusion leaves (docs/fusion-to-composite.md §"Example"), chained:
// fusion i = "mhlo.fusion"(%w, %prev) {FusionKind = "ScheduleFusion"} whose body is
// all_gather(%a), all_gather(%b), add of the two, reduce_scatter of the sum, mhlo.return; %prev is
// fusion i-1's result (the function's second argument for the first), and the function returns
// the last. Each conversion clones the 4-op body into a new decomposition function
// @hilo.FusedComposite.<i> appended to the module and replaces the fusion with a
// stablehlo.composite.
//
//   BM_fusion_to_composite_plan   plan_fusion_to_composite on one module (reads only)
//   BM_fusion_to_composite_full   fusion_to_composite (plan + apply); the module is re-created
//                                 outside the timing (PauseTiming)
// Checked: the plan holds F conversions and no refusal; after the apply the module holds the
// function and F decompositions, and the function's block F composites and its return;
// otherwise SkipWithError instead of a time.
//
//   ninja -C <build> bench/fusion_to_composite_bench && <build>/bench/fusion_to_composite_bench
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <utility>
#include <vector>

#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/rewrite.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>

#include "bench_support.hpp"

namespace {

namespace ref = neuronrw::ref;

/// One function @layers(%w, %y) holding `fusions` chained fusions (see the header comment).
ref::module fusions_module(std::size_t fusions) {
  ref::module m;
  const auto shard = m.intern_type("tensor<4x8xf32>");
  const auto full = m.intern_type("tensor<16x8xf32>");
  auto f = m.create_op("func.func", {}, {});
  auto& fi = m.make_function(f);
  fi.sym_name = "layers";
  fi.result_types = {shard};
  fi.result_attrs = {""};
  fi.arg_attrs = {"", ""};
  m.push_back(m.body(), f);
  const ref::type_ref fn_args[] = {shard, shard};
  const auto body = m.add_region(f, fn_args);
  const ref::value_ref w = m.arguments(body)[0];
  ref::value_ref prev = m.arguments(body)[1];
  const ref::type_ref shard_type[] = {shard};
  const ref::type_ref full_type[] = {full};
  for (std::size_t i = 0; i < fusions; ++i) {
    const ref::value_ref operands[] = {w, prev};
    auto fusion = m.create_op("mhlo.fusion", operands, shard_type, {{"FusionKind", "\"ScheduleFusion\""}});
    m.push_back(body, fusion);
    const ref::type_ref region_args[] = {shard, shard};
    const auto region = m.add_region(fusion, region_args);
    const ref::value_ref a = m.arguments(region)[0];
    const ref::value_ref b = m.arguments(region)[1];
    auto emit = [&](const char* name, std::initializer_list<ref::value_ref> ins, std::span<const ref::type_ref> outs,
                    std::vector<ref::attribute> attrs = {}) {
      auto o = m.create_op(name, std::span<const ref::value_ref>(ins.begin(), ins.size()), outs, std::move(attrs));
      m.push_back(region, o);
      return o;
    };
    const auto g = m.result(emit("mhlo.all_gather", {a}, full_type, {{"all_gather_dimension", "0 : i64"}}), 0);
    const auto b_full = m.result(emit("mhlo.all_gather", {b}, full_type, {{"all_gather_dimension", "0 : i64"}}), 0);
    const auto s = m.result(emit("mhlo.add", {g, b_full}, full_type), 0);
    const auto r = m.result(emit("mhlo.reduce_scatter", {s}, shard_type, {{"scatter_dimension", "0 : i64"}}), 0);
    emit("mhlo.return", {r}, {});
    prev = m.result(fusion, 0);
  }
  const ref::value_ref ret[] = {prev};
  m.push_back(body, m.create_op("func.return", ret, {}));
  return m;
}

/// After the apply: the module holds @layers and `fusions` decompositions, @layers's block
/// `fusions` composites and the return.
bool converted(const ref::module& m, std::size_t fusions) {
  if (m.size(m.body()) != fusions + 1) return false;
  const auto body = m.region_block(m.front(m.body()));
  if (m.size(body) != fusions + 1) return false;
  return m.name(m.front(body)) == "stablehlo.composite" && m.name(m.prev_op(m.back(body))) == "stablehlo.composite";
}

void counters(benchmark::State& state, std::size_t fusions) {
  state.SetComplexityN(static_cast<std::int64_t>(fusions));
  state.counters["fusions/s"] =
      benchmark::Counter(static_cast<double>(fusions), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_fusion_to_composite_plan(benchmark::State& state) {
  const auto fusions = static_cast<std::size_t>(state.range(0));
  const ref::module m = fusions_module(fusions);
  std::size_t conversions = 0;
  bool ok = true;
  for (auto _ : state) {
    auto plan = neuronrw::plan_fusion_to_composite(m);
    benchmark::DoNotOptimize(plan.conversions.data());
    conversions = plan.changes().size();
    ok = ok && plan.ok();
  }
  if (!ok) return state.SkipWithError("the plan refused the module");
  if (conversions != fusions) return state.SkipWithError("unexpected conversion count");
  counters(state, fusions);
}

void BM_fusion_to_composite_full(benchmark::State& state) {
  const auto fusions = static_cast<std::size_t>(state.range(0));
  std::size_t conversions = 0;
  bool ok = true;
  for (auto _ : state) {
    state.PauseTiming();
    ref::module m = fusions_module(fusions);
    state.ResumeTiming();
    auto plan = neuronrw::fusion_to_composite(m);
    benchmark::DoNotOptimize(plan.conversions.data());
    state.PauseTiming();
    conversions = plan.changes().size();
    ok = ok && plan.ok() && converted(m, fusions);
    m = ref::module{};  // destruction outside the measurement
    state.ResumeTiming();
  }
  if (!ok) return state.SkipWithError("the module was not converted as planned");
  if (conversions != fusions) return state.SkipWithError("unexpected conversion count");
  counters(state, fusions);
}

BENCHMARK(BM_fusion_to_composite_plan)
    ->Apply(bench_support::sizes<1'000, 10'000, 100'000>)
    ->Apply(bench_support::fit<benchmark::oN>)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_fusion_to_composite_full)
    ->Apply(bench_support::sizes<1'000, 10'000, 100'000>)
    ->Apply(bench_support::fit<benchmark::oN>)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
