// bench/mlir_bench.cpp — the MLIR adapter (include/neuronrw/adapters/mlir/traits.hpp) against
// hand-written MLIR and against the reference IR, baselines in the same binary (docs/performance.md
// §"MLIR adapter"). Built only when MLIR 22 and Google Benchmark are found; compiled with LLVM's
// flags (-fno-exceptions -fno-rtti), so nothing here throws: a wrong result is SkipWithError.
//
// 1. The dependence walk, N = 1K, 10K, 100K, 1M ops in one block of a func.func (walk_bench's
//    graph: op i uses the result of op i-1 and of a random earlier op, fixed seed; every 64th op
//    is an `mhlo.all_gather`, a boundary, the others `mhlo.add`, all unregistered). From the last
//    op, no budget, default_boundary_set; items = ops met (visited + boundary).
//      bm_walk_mlir_hand     hand-written MLIR: worklist + llvm::DenseSet<Operation*> (reused),
//                            getDefiningOp() of the operands (findAncestorOpInBlock outside the
//                            block), boundary ops recorded and not expanded, both lists sorted
//                            by isBeforeInBlock — the library walk's work and result
//      bm_walk_adapter       neuronrw::dependence_walk<default_boundary_set> on mlir_adapter::ir
//                            with a reused block_scratch (as the planner calls it); counter
//                            vs_hand = its rate / bm_walk_mlir_hand's mean rate at the same N
//      bm_walk_adapter_once  the same through the scratch-less overload (a block_scratch per call)
//      bm_walk_ref           the same walk on the reference IR holding the same graph (context)
//    The results of the hand-written walk and the adapter walk are checked equal, op for op.
// 2. ScheduleFusion plan (+ apply) on schedule_fusion_bench's 100K-op function with 1K
//    all_gather -> reduce_scatter pairs: built as a reference IR module, printed, and that text
//    parsed by MLIR, so both IRs hold the same input. plan+apply re-creates the IR outside the
//    timing (PauseTiming): a fresh reference module, a clone of the parsed MLIR module. The adapter
//    runs as the neuronrw-schedule-fusion pass does (an IRRewriter). The first run checks that
//    both outputs print the same after going through MLIR's printer.
// 3. What a move costs: in a block of B result-only ops, move a random op before a random op,
//    then ask isBeforeInBlock of two random ops (items = pairs), through the adapter and on the
//    reference IR; and the adapter's moves alone, no query (the splice).
//
//   ninja -C <build> bench/mlir_bench
//   <build>/bench/mlir_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <neuronrw/adapters/mlir/traits.hpp>
#include <neuronrw/algorithms/block_dataflow.hpp>
#include <neuronrw/algorithms/dependence_walk.hpp>
#include <neuronrw/descriptors/boundary_set.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "bench_support.hpp"
#include "mlir_support.hpp"
#include "synthetic_function.hpp"

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/raw_ostream.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/IR/Builders.h>
#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/BuiltinTypes.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/IR/OwningOpRef.h>
#include <mlir/IR/PatternMatch.h>
#include <mlir/Parser/Parser.h>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <initializer_list>
#include <map>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace nr = neuronrw;
namespace ma = neuronrw::mlir_adapter;
namespace ref = neuronrw::ref;

mlir::MLIRContext& context() { return bench_support::mlir_context(); }
std::string print(mlir::Operation* op) { return bench_support::mlir_print(op); }

using bench_support::cpu_seconds;

// ============================================================================ 1. the walk

constexpr std::size_t boundary_every = 64;

struct walk_graph {
  std::size_t n = 0;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::vector<mlir::Operation*> ops;
  ref::module ref;
  std::vector<ref::op_ref> ref_ops;
};

bool is_boundary_index(std::size_t i) { return i % boundary_every == boundary_every - 1; }

std::unique_ptr<walk_graph> make_walk_graph(std::size_t n) {
  auto gs = std::make_unique<walk_graph>();
  gs->n = n;
  std::vector<std::uint32_t> other(n, 0);
  std::mt19937_64 rng(0x5eed);
  for (std::size_t i = 2; i < n; ++i) other[i] = static_cast<std::uint32_t>(rng() % (i - 1));

  // MLIR, built op by op (OperationState with the unregistered names).
  auto& ctx = context();
  mlir::OpBuilder b(&ctx);
  const auto loc = b.getUnknownLoc();
  gs->module = mlir::ModuleOp::create(loc);
  b.setInsertionPointToEnd(gs->module->getBody());
  const mlir::Type t = mlir::RankedTensorType::get({4}, b.getF32Type());
  auto fn = mlir::func::FuncOp::create(b, loc, "f", b.getFunctionType({t}, {}));
  mlir::Block* body = fn.addEntryBlock();
  b.setInsertionPointToEnd(body);
  const mlir::OperationName add("mhlo.add", &ctx), gather("mhlo.all_gather", &ctx);
  gs->ops.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    mlir::OperationState st(loc, is_boundary_index(i) ? gather : add);
    if (i == 0) {
      st.addOperands(body->getArgument(0));
    } else {
      st.addOperands(gs->ops[i - 1]->getResult(0));
      st.addOperands(gs->ops[other[i]]->getResult(0));
    }
    st.addTypes(t);
    gs->ops.push_back(b.create(st));
  }
  mlir::func::ReturnOp::create(b, loc);

  // The same graph in the reference IR.
  auto& m = gs->ref;
  const auto rt = m.intern_type("tensor<4xf32>");
  auto f = m.create_op("func.func", {}, {});
  m.make_function(f).sym_name = "f";
  m.push_back(m.body(), f);
  const ref::type_ref arg_types[] = {rt};
  const auto rbody = m.add_region(f, arg_types);
  const ref::type_ref result_types[] = {rt};
  gs->ref_ops.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<ref::value_ref> vals;
    if (i == 0) {
      vals.push_back(m.arguments(rbody)[0]);
    } else {
      vals.push_back(m.result(gs->ref_ops[i - 1], 0));
      vals.push_back(m.result(gs->ref_ops[other[i]], 0));
    }
    auto o = m.create_op(is_boundary_index(i) ? "mhlo.all_gather" : "mhlo.add", vals, result_types);
    m.push_back(rbody, o);
    gs->ref_ops.push_back(o);
  }
  m.push_back(rbody, m.create_op("func.return", {}, {}));
  return gs;
}

// One size at a time, so memory stays that of one size.
walk_graph& walk_graph_of(std::size_t n) {
  static std::unique_ptr<walk_graph> current;
  if (!current || current->n != n) {
    current.reset();
    current = make_walk_graph(n);
  }
  return *current;
}

/// The hand-written MLIR walk: what an MLIR developer writes for "the producers of `start` in its
/// block, stopping at collectives, in block order". The boundary test compares the op's
/// OperationName (uniqued per context) with the collectives' names, resolved once.
class hand_walk {
 public:
  explicit hand_walk(mlir::MLIRContext& ctx) {
    for (const char* dialect : {"mhlo.", "stablehlo."})
      for (const char* op : {"all_gather", "reduce_scatter", "all_reduce", "all_to_all"})
        boundary_names_.push_back(mlir::OperationName(std::string(dialect) + op, &ctx));
  }

  struct result {
    std::vector<mlir::Operation*> ops, boundary;
  };

  result run(mlir::Operation* start) {
    mlir::Block* block = start->getBlock();
    seen_.clear();
    seen_.insert(start);
    result r;
    auto meet = [&](mlir::Operation* d) {
      if (d->getBlock() != block) {
        d = block->findAncestorOpInBlock(*d);
        if (!d) return;
      }
      if (!seen_.insert(d).second) return;
      (is_boundary(d) ? r.boundary : r.ops).push_back(d);
    };
    auto expand = [&](mlir::Operation* x) {
      for (mlir::Value v : x->getOperands())
        if (mlir::Operation* d = v.getDefiningOp()) meet(d);
      if (x->getNumRegions() != 0)
        x->walk([&](mlir::Operation* inner) {
          if (inner == x) return;
          for (mlir::Value v : inner->getOperands())
            if (mlir::Operation* d = v.getDefiningOp(); d && !x->isAncestor(d)) meet(d);
        });
    };
    expand(start);
    for (std::size_t head = 0; head < r.ops.size(); ++head) expand(r.ops[head]);
    auto before = [](mlir::Operation* a, mlir::Operation* b) { return a->isBeforeInBlock(b); };
    std::sort(r.ops.begin(), r.ops.end(), before);
    std::sort(r.boundary.begin(), r.boundary.end(), before);
    return r;
  }

 private:
  bool is_boundary(mlir::Operation* op) const {
    const mlir::OperationName name = op->getName();
    for (const auto& b : boundary_names_)
      if (name == b) return true;
    return false;
  }
  llvm::SmallVector<mlir::OperationName, 8> boundary_names_;
  llvm::DenseSet<mlir::Operation*> seen_;
};

// The hand-written walk's ops and CPU seconds at each size, summed over its repetitions: the
// vs_hand counters divide by its mean rate, not by whichever repetition ran last.
struct work_time {
  double ops = 0, secs = 0;
};
std::map<std::size_t, work_time>& hand_totals() {
  static std::map<std::size_t, work_time> m;
  return m;
}

void finish_walk(benchmark::State& state, std::size_t met, double secs) {
  state.SetItemsProcessed(static_cast<std::int64_t>(met) * static_cast<std::int64_t>(state.iterations()));
  state.counters["met"] = static_cast<double>(met);
  const double ops = static_cast<double>(met) * static_cast<double>(state.iterations());
  if (auto it = hand_totals().find(static_cast<std::size_t>(state.range(0))); it != hand_totals().end())
    state.counters["vs_hand"] = (ops / secs) / (it->second.ops / it->second.secs);
}

void bm_walk_mlir_hand(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& gs = walk_graph_of(n);
  hand_walk w(context());
  // Same result as the adapter's walk, op for op.
  {
    auto h = w.run(gs.ops.back());
    const ma::ir g(gs.module->getOperation());
    auto a = nr::dependence_walk<nr::default_boundary_set>(g, gs.ops.back(), {.budget = std::nullopt});
    if (!a.complete() || a.ops != h.ops || a.boundary != h.boundary)
      return state.SkipWithError("the hand-written walk and the adapter's walk disagree");
  }
  std::size_t met = 0;
  const double t0 = cpu_seconds();
  for (auto _ : state) {
    auto r = w.run(gs.ops.back());
    met = r.ops.size() + r.boundary.size();
    benchmark::DoNotOptimize(r.ops.data());
  }
  const double secs = cpu_seconds() - t0;
  auto& total = hand_totals()[n];
  total.ops += static_cast<double>(met) * static_cast<double>(state.iterations());
  total.secs += secs;
  finish_walk(state, met, secs);
}

void bm_walk_adapter(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& gs = walk_graph_of(n);
  const ma::ir g(gs.module->getOperation());
  nr::block_scratch<ma::ir> scratch(g);
  std::size_t met = 0;
  const double t0 = cpu_seconds();
  for (auto _ : state) {
    auto r = nr::dependence_walk<nr::default_boundary_set>(scratch, g, gs.ops.back(), {.budget = std::nullopt});
    met = r.ops.size() + r.boundary.size();
    benchmark::DoNotOptimize(r.ops.data());
  }
  finish_walk(state, met, cpu_seconds() - t0);
}

void bm_walk_adapter_once(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& gs = walk_graph_of(n);
  const ma::ir g(gs.module->getOperation());
  std::size_t met = 0;
  const double t0 = cpu_seconds();
  for (auto _ : state) {
    auto r = nr::dependence_walk<nr::default_boundary_set>(g, gs.ops.back(), {.budget = std::nullopt});
    met = r.ops.size() + r.boundary.size();
    benchmark::DoNotOptimize(r.ops.data());
  }
  finish_walk(state, met, cpu_seconds() - t0);
}

void bm_walk_ref(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto& gs = walk_graph_of(n);
  nr::block_scratch<ref::module> scratch(gs.ref);
  std::size_t met = 0;
  const double t0 = cpu_seconds();
  for (auto _ : state) {
    auto r = nr::dependence_walk<nr::default_boundary_set>(scratch, gs.ref, gs.ref_ops.back(), {.budget = std::nullopt});
    met = r.ops.size() + r.boundary.size();
    benchmark::DoNotOptimize(r.ops.data());
  }
  finish_walk(state, met, cpu_seconds() - t0);
}

// ============================================================================ 2. ScheduleFusion

// schedule_fusion_bench's function: per 100 ops, a weight shard and its all_gather, 48 users of
// the gathered value interleaved with 49 unrelated ops feeding the reduce_scatter, which closes
// the segment; every pair is clustered and moves 49 ops.
using bench_support::segment;
using bench_support::synthetic_function;
// 1,000 in smoke mode (bench_support.hpp), where the 100K-op parse, print and output check alone
// take seconds.
const std::size_t fusion_ops = bench_support::smoke() ? 1'000 : 100'000;

/// The input once: its text (the reference module printed) and that text parsed by MLIR.
struct fusion_input {
  std::string text;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  bool checked = false;  // outputs compared (first plan+apply run)
  bool same = false;
};

fusion_input& fusion_input_once() {
  static fusion_input in = [] {
    fusion_input x;
    x.text = ref::print(synthetic_function(fusion_ops));
    x.module = mlir::parseSourceString<mlir::ModuleOp>(x.text, &context());
    return x;
  }();
  return in;
}

/// What the neuronrw-schedule-fusion pass does to its module. Not inlined, here and below, so a
/// profiler can isolate it (`valgrind --tool=callgrind --toggle-collect='*adapter_schedule_fusion*'`).
[[gnu::noinline]] nr::schedule_fusion_plan_t<ma::ir> adapter_schedule_fusion(mlir::ModuleOp m) {
  mlir::IRRewriter rewriter(m.getContext());
  ma::ir g(m.getOperation(), ma::ir::default_kinds(), &rewriter);
  auto plan = nr::plan_schedule_fusion(std::as_const(g));
  nr::apply(g, plan);
  return plan;
}

/// The same on the reference IR.
[[gnu::noinline]] nr::schedule_fusion_plan_t<ref::module> ref_schedule_fusion(ref::module& m) {
  return nr::schedule_fusion(m);
}

// Both outputs through MLIR's printer: the reference module's text parsed and printed by MLIR,
// and the adapter's module printed.
bool same_outputs(fusion_input& in) {
  ref::module m = synthetic_function(fusion_ops);
  ref_schedule_fusion(m);
  auto from_ref = mlir::parseSourceString<mlir::ModuleOp>(ref::print(m), &context());
  mlir::OwningOpRef<mlir::ModuleOp> mine(in.module->clone());
  adapter_schedule_fusion(*mine);
  return from_ref && print(from_ref->getOperation()) == print(mine->getOperation());
}

void fusion_counters(benchmark::State& state, std::size_t clusters) {
  state.counters["pairs"] = static_cast<double>(clusters);
  state.counters["ops/s"] =
      benchmark::Counter(static_cast<double>(fusion_ops), benchmark::Counter::kIsIterationInvariantRate);
}

void bm_fusion_ref_plan(benchmark::State& state) {
  const ref::module m = synthetic_function(fusion_ops);
  std::size_t clusters = 0;
  for (auto _ : state) {
    auto plan = nr::plan_schedule_fusion(m);
    benchmark::DoNotOptimize(plan.clusters.data());
    clusters = plan.clusters.size();
  }
  if (clusters != fusion_ops / segment) return state.SkipWithError("unexpected cluster count");
  fusion_counters(state, clusters);
}

void bm_fusion_adapter_plan(benchmark::State& state) {
  auto& in = fusion_input_once();
  if (!in.module) return state.SkipWithError("MLIR did not parse the reference printer's text");
  const ma::ir g(in.module->getOperation());
  std::size_t clusters = 0;
  for (auto _ : state) {
    auto plan = nr::plan_schedule_fusion(g);
    benchmark::DoNotOptimize(plan.clusters.data());
    clusters = plan.clusters.size();
  }
  if (clusters != fusion_ops / segment) return state.SkipWithError("unexpected cluster count");
  fusion_counters(state, clusters);
}

void bm_fusion_ref_full(benchmark::State& state) {
  std::size_t clusters = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ref::module m = synthetic_function(fusion_ops);
    state.ResumeTiming();
    auto plan = ref_schedule_fusion(m);
    benchmark::DoNotOptimize(plan.clusters.data());
    clusters = plan.clusters.size();
    state.PauseTiming();
    m = ref::module{};  // destruction outside the measurement
    state.ResumeTiming();
  }
  if (clusters != fusion_ops / segment) return state.SkipWithError("unexpected cluster count");
  fusion_counters(state, clusters);
}

void bm_fusion_adapter_full(benchmark::State& state) {
  auto& in = fusion_input_once();
  if (!in.module) return state.SkipWithError("MLIR did not parse the reference printer's text");
  if (!in.checked) {
    in.same = same_outputs(in);
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
    clusters = plan.clusters.size();
    state.PauseTiming();
    m = nullptr;  // destruction outside the measurement
    state.ResumeTiming();
  }
  if (clusters != fusion_ops / segment) return state.SkipWithError("unexpected cluster count");
  fusion_counters(state, clusters);
}

// ============================================================================ 3. moves

// xorshift64* (walk_bench's): deterministic, cheap next to a move.
struct rng64 {
  std::uint64_t s = 0x9E3779B97F4A7C15ull;
  std::uint32_t below(std::uint32_t n) noexcept {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return static_cast<std::uint32_t>(((s * 0x2545F4914F6CDD1Dull) >> 32) * n >> 32);
  }
};

struct move_block {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::vector<mlir::Operation*> ops;
};

move_block make_move_block(std::size_t n) {
  move_block mb;
  auto& ctx = context();
  mlir::OpBuilder b(&ctx);
  const auto loc = b.getUnknownLoc();
  mb.module = mlir::ModuleOp::create(loc);
  b.setInsertionPointToEnd(mb.module->getBody());
  const mlir::Type t = mlir::RankedTensorType::get({4}, b.getF32Type());
  auto fn = mlir::func::FuncOp::create(b, loc, "f", b.getFunctionType({}, {}));
  b.setInsertionPointToEnd(fn.addEntryBlock());
  const mlir::OperationName name("mhlo.constant", &ctx);
  mb.ops.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    mlir::OperationState st(loc, name);
    st.addTypes(t);
    mb.ops.push_back(b.create(st));
  }
  return mb;
}

void bm_move_query_adapter(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  auto mb = make_move_block(n);
  ma::ir g(mb.module->getOperation());
  using tr = nr::ir_traits<ma::ir>;
  rng64 rng;
  bool sink = false;
  tr::is_before_in_block(g, mb.ops[0], mb.ops[1]);  // a valid order to start from
  for (auto _ : state) {
    auto* o = mb.ops[rng.below(n)];
    auto* anchor = mb.ops[rng.below(n)];
    if (o != anchor) tr::move_before(g, o, anchor);
    sink ^= tr::is_before_in_block(g, mb.ops[rng.below(n)], mb.ops[rng.below(n)]);
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void bm_move_only_adapter(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  auto mb = make_move_block(n);
  ma::ir g(mb.module->getOperation());
  using tr = nr::ir_traits<ma::ir>;
  rng64 rng;
  for (auto _ : state) {
    auto* o = mb.ops[rng.below(n)];
    auto* anchor = mb.ops[rng.below(n)];
    if (o != anchor) tr::move_before(g, o, anchor);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void bm_move_query_ref(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  ref::module m;
  const auto t = m.intern_type("tensor<4xf32>");
  auto f = m.create_op("func.func", {}, {});
  m.make_function(f).sym_name = "f";
  m.push_back(m.body(), f);
  const auto body = m.add_region(f, {});
  const ref::type_ref result_types[] = {t};
  std::vector<ref::op_ref> ops;
  ops.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    auto o = m.create_op("mhlo.constant", {}, result_types);
    m.push_back(body, o);
    ops.push_back(o);
  }
  rng64 rng;
  bool sink = false;
  for (auto _ : state) {
    auto o = ops[rng.below(n)];
    auto anchor = ops[rng.below(n)];
    if (o != anchor) nr::ir::move_before(m, o, anchor);
    sink ^= nr::ir::is_before_in_block(m, ops[rng.below(n)], ops[rng.below(n)]);
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

// Size by size (one walk graph in memory at a time, the hand-written walk first at each size,
// for vs_hand); smoke mode (bench_support.hpp): the smallest size, one iteration, and the
// fusion benchmarks once.
void register_all() {
  using bench_support::once_in_smoke;
  for (std::int64_t n : {1'000, 10'000, 100'000, 1'000'000}) {
    const std::pair<const char*, void (*)(benchmark::State&)> walks[] = {
        {"bm_walk_mlir_hand", bm_walk_mlir_hand},
        {"bm_walk_adapter", bm_walk_adapter},
        {"bm_walk_adapter_once", bm_walk_adapter_once},
        {"bm_walk_ref", bm_walk_ref}};
    for (const auto& [name, f] : walks)
      benchmark::RegisterBenchmark(name, f)->Arg(n)->Unit(benchmark::kMicrosecond)->Apply(once_in_smoke);
    if (bench_support::smoke()) break;
  }
  // 2 s per repetition: a plan + apply iteration is 10-40 ms, and the re-creation between
  // iterations (PauseTiming) makes single iterations noisy; more of them steady the median.
  // (Iterations and MinTime exclude each other: smoke mode sets only the first.)
  const auto fusion_time = [](benchmark::internal::Benchmark* b) {
    if (bench_support::smoke()) b->Iterations(1);
    else b->MinTime(2.0);
  };
  const std::pair<const char*, void (*)(benchmark::State&)> fusion[] = {
      {"bm_fusion_ref_plan", bm_fusion_ref_plan},
      {"bm_fusion_adapter_plan", bm_fusion_adapter_plan},
      {"bm_fusion_ref_full", bm_fusion_ref_full},
      {"bm_fusion_adapter_full", bm_fusion_adapter_full}};
  for (const auto& [name, f] : fusion)
    benchmark::RegisterBenchmark(name, f)->Arg(fusion_ops)->Unit(benchmark::kMillisecond)->Apply(fusion_time);
  for (std::int64_t n : {1'000, 10'000, 100'000, 1'000'000}) {
    benchmark::RegisterBenchmark("bm_move_query_ref", bm_move_query_ref)->Arg(n)->Apply(once_in_smoke);
    benchmark::RegisterBenchmark("bm_move_query_adapter", bm_move_query_adapter)->Arg(n)->Apply(once_in_smoke);
    benchmark::RegisterBenchmark("bm_move_only_adapter", bm_move_only_adapter)->Arg(n)->Apply(once_in_smoke);
    if (bench_support::smoke()) break;
  }
}

struct registrar {
  registrar() { register_all(); }
} const registrar_instance;

}  // namespace

BENCHMARK_MAIN();
