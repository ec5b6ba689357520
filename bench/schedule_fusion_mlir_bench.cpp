// bench/schedule_fusion_mlir_bench.cpp — the full matcher over the MLIR adapter
// (include/neuronrw/adapters/mlir/traits.hpp): ScheduleFusion plan-only and plan + apply over the
// functions of bench/schedule_fusion_bench.cpp (N ops, N/100 all_gather -> reduce_scatter pairs;
// the plain shape and the one where every fusion shares the live-in %w), N = 1K, 10K, 100K,
// 1M, with Google Benchmark's complexity fit (oN; no baseline: the target is linear, as on the
// reference IR). Built only when MLIR 22 and Google Benchmark are found; compiled with LLVM's
// flags (-fno-exceptions -fno-rtti), so nothing here throws: a wrong result is SkipWithError.
//
// Input: the reference module built by bench/synthetic_function.hpp, printed by ref::print and
// that text parsed by MLIR (once per size, lazily, outside the timing), so both IRs hold the
// same function. The adapter runs as the neuronrw-schedule-fusion pass does (an IRRewriter).
//
//   bm_schedule_fusion_mlir_plan / _shared_plan   plan_schedule_fusion on a clone of the parsed
//                                                 module (made once)
//   bm_schedule_fusion_mlir_full / _shared_full   plan + apply on a clone of it, made (and
//                                                 destroyed) outside the timing (PauseTiming)
//   bm_schedule_fusion_mlir_mirror                building a dense mirror of the function's
//                                                 block (numbers, kinds, producers, users), no
//                                                 plan: the cost of that fix before it plans
// Both time clones: the parser allocates ops between its own tables, and a walk over them is up
// to ~2.8x slower (1M ops) than over a clone's, which would make the plan alone slower than plan
// + apply.
//
//   bm_schedule_fusion_ref_plan / _ref_full       the same on the reference IR, on the module the
//                                                 MLIR text was printed from: the baseline of the
//                                                 adapter's rows in this binary (issue 32: the
//                                                 adapter within 1.3x of it; bench/report): the
//                                                 rows of schedule_fusion_bench
//                                                 (schedule_fusion_rows.hpp), built with LLVM's
//                                                 flags here.
// Checked: the plan's cluster count is N/100; after the first apply at each size the module
// verifies (mlir::verify), the function's block holds N - N/100 + 1 ops, and the module prints
// exactly as the reference IR's output of the same pass parsed and printed by MLIR.
//
//   ninja -C <build> bench/schedule_fusion_mlir_bench && <build>/bench/schedule_fusion_mlir_bench
#include <neuronrw/adapters/mlir/traits.hpp>
#include <neuronrw/detail/address_index.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "bench_support.hpp"
#include "mlir_support.hpp"
#include "schedule_fusion_rows.hpp"
#include "synthetic_function.hpp"

#include <llvm/Support/raw_ostream.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/IR/OwningOpRef.h>
#include <mlir/IR/PatternMatch.h>
#include <mlir/IR/Verifier.h>
#include <mlir/Parser/Parser.h>

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace nr = neuronrw;
namespace ma = neuronrw::mlir_adapter;
namespace ref = neuronrw::ref;

using bench_support::segment;
using bench_support::schedule_fusion_rows::make_fn;

mlir::MLIRContext& context() { return bench_support::mlir_context(); }
std::string print(mlir::Operation* op) { return bench_support::mlir_print(op); }

/// One input: the reference module's text parsed by MLIR, and whether the adapter's output was
/// checked against the reference IR's (the first plan+apply run at this size does it).
struct input {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  bool checked = false;
  bool same = false;
};

input& input_for(make_fn make, std::size_t n) {
  static std::map<std::pair<make_fn, std::size_t>, std::unique_ptr<input>> cache;
  auto& slot = cache[{make, n}];
  if (!slot) {
    slot = std::make_unique<input>();
    slot->module = mlir::parseSourceString<mlir::ModuleOp>(ref::print(make(n)), &context());
  }
  return *slot;
}

/// What the neuronrw-schedule-fusion pass does to its module. Not inlined, so a profiler can
/// isolate it.
[[gnu::noinline]] nr::schedule_fusion_plan_t<ma::ir> adapter_schedule_fusion(mlir::ModuleOp m) {
  mlir::IRRewriter rewriter(m.getContext());
  ma::ir g(m.getOperation(), ma::ir::default_kinds(), &rewriter);
  auto plan = nr::plan_schedule_fusion(std::as_const(g));
  nr::apply(g, plan);
  return plan;
}

/// The ops in the (only) function's block.
std::size_t body_ops(mlir::ModuleOp m) {
  for (auto fn : m.getOps<mlir::func::FuncOp>()) return fn.getBody().front().getOperations().size();
  return 0;
}

/// The adapter's output on a clone of `in` against the reference IR's output of the same pass,
/// both printed by MLIR; also the verifier and the op count.
bool same_as_ref(input& in, make_fn make, std::size_t n) {
  ref::module m = make(n);
  nr::schedule_fusion(m);
  auto from_ref = mlir::parseSourceString<mlir::ModuleOp>(ref::print(m), &context());
  mlir::OwningOpRef<mlir::ModuleOp> mine(in.module->clone());
  adapter_schedule_fusion(*mine);
  return from_ref && mlir::succeeded(mlir::verify(mine->getOperation())) && body_ops(*mine) == n - n / segment + 1 &&
         print(from_ref->getOperation()) == print(mine->getOperation());
}

using bench_support::schedule_fusion_rows::counters;

void plan_only(benchmark::State& state, make_fn make) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& in = input_for(make, n);
  if (!in.module) return state.SkipWithError("MLIR did not parse the reference printer's text");
  // A clone, as _full plans and applies on (see the header comment).
  mlir::OwningOpRef<mlir::ModuleOp> copy(in.module->clone());
  const ma::ir g(copy->getOperation());
  std::size_t clusters = 0;
  for (auto _ : state) {
    auto plan = nr::plan_schedule_fusion(g);
    benchmark::DoNotOptimize(plan.clusters.data());
    clusters = plan.clusters.size();
  }
  if (clusters != n / segment) return state.SkipWithError("unexpected cluster count");
  counters(state, n, clusters);
}

void full(benchmark::State& state, make_fn make) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& in = input_for(make, n);
  if (!in.module) return state.SkipWithError("MLIR did not parse the reference printer's text");
  if (!in.checked) {
    in.same = same_as_ref(in, make, n);
    in.checked = true;
  }
  if (!in.same) return state.SkipWithError("the adapter's output differs from the reference IR's");
  std::size_t clusters = 0;
  for (auto _ : state) {
    state.PauseTiming();
    mlir::OwningOpRef<mlir::ModuleOp> m(in.module->clone());
    state.ResumeTiming();
    auto plan = adapter_schedule_fusion(*m);
    benchmark::DoNotOptimize(plan.clusters.data());
    state.PauseTiming();
    clusters = plan.clusters.size();
    m = nullptr;  // destruction outside the measurement
    state.ResumeTiming();
  }
  if (clusters != n / segment) return state.SkipWithError("unexpected cluster count");
  counters(state, n, clusters);
}

// What a dense mirror of the function's block costs to build, the structural fix the earlier notes
// named for the adapter's plan (planning over numbers instead of MLIR's op nodes): one read of
// every op (its kind through the adapter's cache) and operand (its defining op), each op numbered
// in a fresh detail::address_index as it is reached and each producer looked up there, then the
// users as a CSR (a count and a fill). No planning: the row is the price paid before a plan over
// such a mirror could start, against the reference IR's whole plan (bench/report, no target).
void bm_schedule_fusion_mlir_mirror(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& in = input_for(bench_support::synthetic_function, n);
  if (!in.module) return state.SkipWithError("MLIR did not parse the reference printer's text");
  mlir::OwningOpRef<mlir::ModuleOp> copy(in.module->clone());  // as plan_only: a clone's layout
  const ma::ir g(copy->getOperation());
  mlir::Block* body = nullptr;
  for (auto fn : copy->getOps<mlir::func::FuncOp>()) body = &fn.getBody().front();
  if (body == nullptr) return state.SkipWithError("no function");
  constexpr std::uint32_t none = nr::detail::address_index::npos;
  std::vector<mlir::Operation*> ops;
  std::vector<nr::kind_id> kinds;
  std::vector<std::uint32_t> operand_begin, producer, user_begin, users, fill;
  std::size_t unnumbered = 0;
  for (auto _ : state) {
    nr::detail::address_index index;
    ops.clear();
    kinds.clear();
    operand_begin.clear();
    producer.clear();
    for (mlir::Operation& o : *body) {
      index.try_emplace(&o, static_cast<std::uint32_t>(ops.size()));
      ops.push_back(&o);
      kinds.push_back(g.kind(&o));
      operand_begin.push_back(static_cast<std::uint32_t>(producer.size()));
      for (mlir::Value v : o.getOperands()) {
        mlir::Operation* d = v.getDefiningOp();
        const std::uint32_t p = d != nullptr ? index.find(d) : none;
        unnumbered += d != nullptr && p == none;  // a producer after its user, or outside the block
        producer.push_back(p);
      }
    }
    operand_begin.push_back(static_cast<std::uint32_t>(producer.size()));
    user_begin.assign(ops.size() + 1, 0);
    for (const std::uint32_t p : producer)
      if (p != none) ++user_begin[p + 1];
    for (std::size_t i = 1; i < user_begin.size(); ++i) user_begin[i] += user_begin[i - 1];
    users.resize(user_begin.back());
    fill.assign(user_begin.begin(), user_begin.end() - 1);
    for (std::uint32_t u = 0; u + 1 < operand_begin.size(); ++u)
      for (std::uint32_t k = operand_begin[u]; k < operand_begin[u + 1]; ++k)
        if (producer[k] != none) users[fill[producer[k]]++] = u;
    benchmark::DoNotOptimize(users.data());
  }
  if (ops.size() != n + 1) return state.SkipWithError("unexpected op count");  // + func.return
  if (unnumbered != 0) return state.SkipWithError("a producer was not numbered before its user");
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n));
}

void bm_schedule_fusion_mlir_full(benchmark::State& state) { full(state, bench_support::synthetic_function); }
void bm_schedule_fusion_mlir_plan(benchmark::State& state) { plan_only(state, bench_support::synthetic_function); }
void bm_schedule_fusion_mlir_shared_full(benchmark::State& state) {
  full(state, bench_support::shared_live_in_function);
}
void bm_schedule_fusion_mlir_shared_plan(benchmark::State& state) {
  plan_only(state, bench_support::shared_live_in_function);
}

void bm_schedule_fusion_ref_full(benchmark::State& state) {
  bench_support::schedule_fusion_rows::ref_full(state, bench_support::synthetic_function);
}
void bm_schedule_fusion_ref_plan(benchmark::State& state) {
  bench_support::schedule_fusion_rows::ref_plan_only(state, bench_support::synthetic_function);
}

void options(benchmark::internal::Benchmark* b) {
  b->Apply(bench_support::sizes<1'000, 10'000, 100'000, 1'000'000>)
      ->Apply(bench_support::fit<benchmark::oN>)
      ->Unit(benchmark::kMillisecond);
}

BENCHMARK(bm_schedule_fusion_mlir_full)->Apply(options);
BENCHMARK(bm_schedule_fusion_mlir_plan)->Apply(options);
BENCHMARK(bm_schedule_fusion_mlir_shared_full)->Apply(options);
BENCHMARK(bm_schedule_fusion_mlir_shared_plan)->Apply(options);
BENCHMARK(bm_schedule_fusion_mlir_mirror)
    ->Apply(bench_support::sizes<1'000, 10'000, 100'000, 1'000'000>)
    ->Unit(benchmark::kMillisecond);
// The baselines: the same sizes, no fit (schedule_fusion_bench fits the reference IR).
BENCHMARK(bm_schedule_fusion_ref_full)
    ->Apply(bench_support::sizes<1'000, 10'000, 100'000, 1'000'000>)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(bm_schedule_fusion_ref_plan)
    ->Apply(bench_support::sizes<1'000, 10'000, 100'000, 1'000'000>)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
