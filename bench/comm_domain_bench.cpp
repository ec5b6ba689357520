// bench/comm_domain_bench.cpp — MaterializeCommDomainScopes (neuronrw/passes/comm_domain_scopes.hpp)
// on the reference host IR over host programs of A = 1K, 10K, 100K window-buffer allocations,
// plan-only and plan + apply, with Google Benchmark's complexity fit (oN; no baseline: the target
// is linear). Two shapes, both written as text (docs/host-programs.md §"The text format") and
// parsed by host::parse_program outside the timing:
//
//   units: one unit is 10 allocations (each with one window view) `b0..b9`:
//     - b0..b4 dispatched in `for r in pl.range(n)`, n = pld.system.world_size()  -> every device
//     - b5..b7 dispatched in `for r in pl.range(4)`                             -> {0, 1, 2, 3}
//     - b8 dispatched in `for r in pl.range(2)`, b9 the signal of
//       `pld.tensor.allreduce(v8, v9)`, which inherits b8's coverage            -> {0, 1}
//     so three comm-domain scopes per host orchestrator (5, 3 and 2 slots per unit).
//   BM_comm_domain_functions_plan / _full   A/10 host orchestrators of one unit each (the shape
//                                           of tests/driver/gen_large.py host)
//   BM_comm_domain_one_function_plan / _full  one host orchestrator of A/10 units (three scopes
//                                           of A/2, 3A/10 and A/5 slots)
//
// _plan times plan_comm_domain_scopes on one parsed program; _full times the driver's
// materialize_comm_domain_scopes (plan + apply) on a program parsed afresh, outside the timing
// (PauseTiming), for every iteration. Checked: the plan is ok and holds A allocations in three
// scopes per host orchestrator; the apply reports no error and its output passes the pass's
// invariant checker (check_comm_domain_scopes, after the first apply at each size); otherwise
// SkipWithError instead of a time.
//
//   ninja -C <build> bench/comm_domain_bench && <build>/bench/comm_domain_bench
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include <neuronrw/ir/host/comm_domain_scopes.hpp>
#include <neuronrw/ir/host/ir.hpp>
#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/ir/host/traits.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>

#include "bench_support.hpp"

namespace {

namespace host = neuronrw::host;

constexpr std::size_t unit_allocs = 10;
constexpr std::size_t scopes_per_function = 3;

/// One unit's statements (see the header comment); its variables end with `suffix`, and `n`
/// names the variable holding the world size.
void append_unit(std::string& s, const std::string& suffix) {
  const std::string ind = "        ";
  auto alloc = [&](std::size_t j) {
    const std::string b = "b" + std::to_string(j) + suffix;
    s += ind + b + " = pld.tensor.alloc_window_buffer(64, name=\"" + b + "\")\n";
    s += ind + "v" + std::to_string(j) + suffix + " = pld.tensor.window(" + b + ", [16], dtype=pl.FP32)\n";
  };
  auto dispatch_loop = [&](const std::string& stop, std::size_t from, std::size_t to) {
    s += ind + "for r in pl.range(" + stop + "):\n";
    for (std::size_t j = from; j < to; ++j) s += ind + "    self.chip(v" + std::to_string(j) + suffix + ", device=r)\n";
  };
  for (std::size_t j = 0; j < unit_allocs; ++j) alloc(j);
  dispatch_loop("n", 0, 5);
  dispatch_loop("4", 5, 8);
  dispatch_loop("2", 8, 9);
  s += ind + "a" + suffix + " = pld.tensor.allreduce(v8" + suffix + ", v9" + suffix + ")\n";
}

std::string program_head() {
  return "import pypto.language as pl\n"
         "import pypto.language.distributed as pld\n\n\n"
         "@pl.program\n"
         "class Bench:\n"
         "    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
         "    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):\n"
         "        return a\n";
}

std::string function_head(const std::string& name) {
  return "\n    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
         "    def " + name + "(self):\n"
         "        n = pld.system.world_size()\n";
}

/// A/10 host orchestrators main0, main1, ... of one unit each.
std::string functions_text(std::size_t allocs) {
  std::string s = program_head();
  for (std::size_t i = 0; i < allocs / unit_allocs; ++i) {
    s += function_head("main" + std::to_string(i));
    append_unit(s, "");
  }
  return s;
}

/// One host orchestrator of A/10 units.
std::string one_function_text(std::size_t allocs) {
  std::string s = program_head() + function_head("main");
  for (std::size_t u = 0; u < allocs / unit_allocs; ++u) append_unit(s, "_" + std::to_string(u));
  return s;
}

using text_fn = std::string (*)(std::size_t);

/// The text per shape and size, made once (lazily: only the sizes that run).
const std::string& text_for(text_fn make, std::size_t allocs) {
  static std::map<std::pair<text_fn, std::size_t>, std::string> cache;
  auto& t = cache[{make, allocs}];
  if (t.empty()) t = make(allocs);
  return t;
}

std::optional<host::program> parse(const std::string& text) {
  auto r = host::parse_program(text, "bench.py");
  return std::move(r.value);
}

/// The plan holds `allocs` allocations, and three scopes per host orchestrator.
template <class Plan>
bool plan_as_expected(const Plan& plan, std::size_t allocs) {
  if (!plan.ok()) return false;
  std::size_t a = 0;
  for (const auto& f : plan.functions) {
    if (f.scopes.size() != scopes_per_function) return false;
    a += f.allocs.size();
  }
  return a == allocs;
}

void counters(benchmark::State& state, std::size_t allocs) {
  state.SetComplexityN(static_cast<std::int64_t>(allocs));
  state.counters["allocs/s"] =
      benchmark::Counter(static_cast<double>(allocs), benchmark::Counter::kIsIterationInvariantRate);
}

void plan_only(benchmark::State& state, text_fn make) {
  const auto allocs = static_cast<std::size_t>(state.range(0));
  const auto p = parse(text_for(make, allocs));
  if (!p) return state.SkipWithError("the generated host program does not parse");
  bool ok = true;
  bool checked = false;
  for (auto _ : state) {
    auto plan = neuronrw::plan_comm_domain_scopes(*p);
    benchmark::DoNotOptimize(plan.functions.data());
    if (!checked) {  // the first plan; the others are the same
      state.PauseTiming();
      ok = plan_as_expected(plan, allocs);
      checked = true;
      state.ResumeTiming();
    }
  }
  if (!ok) return state.SkipWithError("unexpected plan (allocations, scopes or refusals)");
  counters(state, allocs);
}

void full(benchmark::State& state, text_fn make) {
  const auto allocs = static_cast<std::size_t>(state.range(0));
  const std::string& text = text_for(make, allocs);
  bool ok = true;
  bool checked = false;
  for (auto _ : state) {
    state.PauseTiming();
    auto p = parse(text);
    if (!p) return state.SkipWithError("the generated host program does not parse");
    state.ResumeTiming();
    const auto errors = neuronrw::materialize_comm_domain_scopes(*p);
    benchmark::DoNotOptimize(errors.data());
    state.PauseTiming();
    ok = ok && errors.empty();
    if (!checked) {
      ok = ok && neuronrw::check_comm_domain_scopes(*p).empty();
      checked = true;
    }
    p.reset();  // destruction outside the measurement
    state.ResumeTiming();
  }
  if (!ok) return state.SkipWithError("the program was not materialized, or its output fails the checker");
  counters(state, allocs);
}

void BM_comm_domain_functions_plan(benchmark::State& state) { plan_only(state, functions_text); }
void BM_comm_domain_functions_full(benchmark::State& state) { full(state, functions_text); }
void BM_comm_domain_one_function_plan(benchmark::State& state) { plan_only(state, one_function_text); }
void BM_comm_domain_one_function_full(benchmark::State& state) { full(state, one_function_text); }

void options(benchmark::internal::Benchmark* b) {
  b->Apply(bench_support::sizes<1'000, 10'000, 100'000>)
      ->Apply(bench_support::fit<benchmark::oN>)
      ->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_comm_domain_functions_plan)->Apply(options);
BENCHMARK(BM_comm_domain_functions_full)->Apply(options);
BENCHMARK(BM_comm_domain_one_function_plan)->Apply(options);
BENCHMARK(BM_comm_domain_one_function_full)->Apply(options);

}  // namespace

BENCHMARK_MAIN();
