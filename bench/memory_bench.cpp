// bench/memory_bench.cpp — bytes per op the reference IR holds against MLIR's, for the same
// function: bench/synthetic_function.hpp's function of N = 10K, 100K, 1M ops, printed by the
// reference IR, and that one text parsed by each IR. Built only when MLIR 22 and Google
// Benchmark are found (compiled with LLVM's flags; the reference IR's half is bench/memory_ref.cpp).
//
// Accounting: glibc's mallinfo2() (uordblks + hblkhd: every byte malloc and operator new have
// handed out and not taken back, all arenas) just before the parse and just after it, with the
// result alive; the parser's temporaries are freed by then, so the difference is what the IR
// holds for the function (allocator chunk headers and vector slack included, for both).
//   bm_memory_ref/N    ref::parse; counter ref_bytes_per_op = bytes / ops
//   bm_memory_mlir/N   mlir::parseSourceString<ModuleOp> into a fresh MLIRContext (threading
//                      off, unregistered dialects allowed, func dialect loaded), created before
//                      the first reading, so what the context uniques for this function (types,
//                      attributes, op names, the location of every op) counts; counter
//                      mlir_bytes_per_op = bytes / ops
// ops = the function's ops with func.func and its return (the module op not counted), counted in
// each IR; the two counts must equal N + 2, else SkipWithError. One iteration per run (the
// bytes do not vary): run with --benchmark_repetitions for medians. The time is the parse's
// (with, for MLIR, the context's creation) and is not a figure of this suite.
//
//   ninja -C <build> bench/memory_bench && <build>/bench/memory_bench
#include "bench_support.hpp"
#include "memory_ref.hpp"

#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/IR/OwningOpRef.h>
#include <mlir/Parser/Parser.h>

#include <benchmark/benchmark.h>

#include <cstddef>
#include <map>
#include <memory>
#include <string>

namespace {

namespace mem = bench_support::memory;

const std::string& text_of(std::size_t n_ops) {
  static std::map<std::size_t, std::string> cache;
  auto [it, fresh] = cache.try_emplace(n_ops);
  if (fresh) it->second = mem::synthetic_text(n_ops);
  return it->second;
}

void bm_memory_ref(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::string& text = text_of(n);
  double bytes = 0, ops = 0;
  for (auto _ : state) {
    const mem::held h = mem::parse_ref(text);
    if (!h.error.empty()) {
      state.SkipWithError(h.error.c_str());
      return;
    }
    if (h.ops != n + 2) {
      state.SkipWithError("the reference module does not hold N + 2 ops");
      return;
    }
    bytes = static_cast<double>(h.bytes);
    ops = static_cast<double>(h.ops);
  }
  state.counters["ops"] = ops;
  state.counters["ref_bytes_per_op"] = bytes / ops;
}

void bm_memory_mlir(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::string& text = text_of(n);
  double bytes = 0, ops = 0;
  for (auto _ : state) {
    auto context = std::make_unique<mlir::MLIRContext>(mlir::MLIRContext::Threading::DISABLED);
    context->allowUnregisteredDialects();
    context->getOrLoadDialect<mlir::func::FuncDialect>();
    const std::size_t before = mem::heap_in_use();
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(text, mlir::ParserConfig(context.get()), "synthetic.mlir");
    const std::size_t after = mem::heap_in_use();
    if (!module) {
      state.SkipWithError("MLIR did not parse the function's text");
      return;
    }
    if (after < before) {
      state.SkipWithError("the heap shrank during the parse");
      return;
    }
    std::size_t count = 0;
    module->walk([&](mlir::Operation*) { ++count; });
    if (count - 1 != n + 2) {  // the walk meets the module op too
      state.SkipWithError("the MLIR module does not hold N + 2 ops");
      return;
    }
    bytes = static_cast<double>(after - before);
    ops = static_cast<double>(count - 1);
  }
  state.counters["ops"] = ops;
  state.counters["mlir_bytes_per_op"] = bytes / ops;
}

}  // namespace

BENCHMARK(bm_memory_ref)
    ->Apply(bench_support::sizes<10'000, 100'000, 1'000'000>)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(bm_memory_mlir)
    ->Apply(bench_support::sizes<10'000, 100'000, 1'000'000>)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
