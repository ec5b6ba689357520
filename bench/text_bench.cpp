// bench/text_bench.cpp — parse and print throughput of the two text formats, in bytes per second
// (Google Benchmark prints them as MB/s): the reference IR's MLIR text (ir/ref/parse.hpp,
// print.hpp) and host programs (ir/host/text.hpp, parse_program / print_program only), on
// generated inputs of 1, 10 and 50 MiB (host programs: 1 and 10) (bench/text_inputs.hpp:
// tests/driver/gen_large.py's shapes), each built once per size, on first use. Rates are Google
// Benchmark's: bytes over the thread's CPU time.
//
//   bm_parse_ref/MB    ref::parse of the MLIR text; bytes = the input's
//   bm_print_ref/MB    ref::print of that module; bytes = the printed text's
//   bm_parse_host/MB   host::parse_program of the host program; bytes = the input's
//   bm_print_host/MB   host::print_program of that program; bytes = the printed text's
//   bm_locate_host/MB  host::locate_programs of the host program alone: the part of
//                      bm_parse_host that finds the program in a Python module; bytes = the input's
//
// No baseline runs in this binary: the comparison with MLIR is a whole-process one,
// bench/text_vs_mlir_opt.py (neuronrw-opt against mlir-opt on the same file). Checks (a failed
// one is SkipWithError): every parse succeeds; the reference module holds the expected number of
// ops (42 per function); printing is a fixed point (the printed text parses and prints back
// byte-identically) and every print has the size of the first one.
//
//   ninja -C <build> bench/text_bench && <build>/bench/text_bench
#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>

#include "bench_support.hpp"
#include "text_inputs.hpp"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace {

namespace ref = neuronrw::ref;
namespace host = neuronrw::host;

constexpr std::size_t mib = std::size_t{1} << 20;

std::size_t count_ops(const ref::module& m, ref::block_ref b) {
  std::size_t n = 0;
  for (const ref::op_ref op : m.ops(b)) {
    ++n;
    for (const ref::block_ref inner : m.region_blocks(op)) n += count_ops(m, inner);
  }
  return n;
}

// An input and what the benchmarks compare against; `error` is non-empty when building it
// found something wrong (the benchmarks then skip with it).
struct ref_input {
  std::string text;
  std::size_t ops = 0;
  std::optional<ref::module> parsed;
  std::size_t printed_size = 0;
  std::string error;
};

struct host_input {
  std::string text;
  std::optional<host::program> parsed;
  std::size_t printed_size = 0;
  std::string error;
};

const ref_input& ref_input_of(std::size_t megabytes) {
  static std::map<std::size_t, std::unique_ptr<ref_input>> cache;
  auto& slot = cache[megabytes];
  if (slot) return *slot;
  slot = std::make_unique<ref_input>();
  ref_input& in = *slot;
  std::size_t functions = 0;
  in.text = bench_support::mlir_text(megabytes * mib, &functions);
  in.ops = functions * bench_support::mlir_ops_per_function;
  auto r = ref::parse(in.text, "input.mlir");
  if (!r.ok()) {
    in.error = "parse failed: " + r.error.str();
    return in;
  }
  const std::size_t found = count_ops(*r.value, r.value->body());
  if (found != in.ops) {
    in.error = "parsed " + std::to_string(found) + " ops, expected " + std::to_string(in.ops);
    return in;
  }
  const std::string printed = ref::print(*r.value);
  auto again = ref::parse(printed, "printed.mlir");
  if (!again.ok() || ref::print(*again.value) != printed) {
    in.error = "printing is not a fixed point";
    return in;
  }
  in.printed_size = printed.size();
  in.parsed = std::move(r.value);
  return in;
}

const host_input& host_input_of(std::size_t megabytes) {
  static std::map<std::size_t, std::unique_ptr<host_input>> cache;
  auto& slot = cache[megabytes];
  if (slot) return *slot;
  slot = std::make_unique<host_input>();
  host_input& in = *slot;
  in.text = bench_support::host_text(megabytes * mib);
  auto r = host::parse_program(in.text, "input.py");
  if (!r.ok()) {
    in.error = "parse failed: " + r.error.str();
    return in;
  }
  const std::string printed = host::print_program(*r.value);
  auto again = host::parse_program(printed, "printed.py");
  if (!again.ok() || host::print_program(*again.value) != printed) {
    in.error = "printing is not a fixed point";
    return in;
  }
  in.printed_size = printed.size();
  in.parsed = std::move(r.value);
  return in;
}

void bm_parse_ref(benchmark::State& state) {
  const ref_input& in = ref_input_of(static_cast<std::size_t>(state.range(0)));
  if (!in.error.empty()) {
    state.SkipWithError(in.error.c_str());
    return;
  }
  for (auto _ : state) {
    auto r = ref::parse(in.text, "input.mlir");
    if (!r.ok()) {
      state.SkipWithError("parse failed");
      break;
    }
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.text.size()));
  state.counters["ops"] = static_cast<double>(in.ops);
}

void bm_print_ref(benchmark::State& state) {
  const ref_input& in = ref_input_of(static_cast<std::size_t>(state.range(0)));
  if (!in.error.empty()) {
    state.SkipWithError(in.error.c_str());
    return;
  }
  for (auto _ : state) {
    std::string out = ref::print(*in.parsed);
    if (out.size() != in.printed_size) {
      state.SkipWithError("the print's size differs from the first one's");
      break;
    }
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.printed_size));
  state.counters["ops"] = static_cast<double>(in.ops);
}

void bm_parse_host(benchmark::State& state) {
  const host_input& in = host_input_of(static_cast<std::size_t>(state.range(0)));
  if (!in.error.empty()) {
    state.SkipWithError(in.error.c_str());
    return;
  }
  for (auto _ : state) {
    auto r = host::parse_program(in.text, "input.py");
    if (!r.ok()) {
      state.SkipWithError("parse failed");
      break;
    }
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.text.size()));
}

void bm_locate_host(benchmark::State& state) {
  const host_input& in = host_input_of(static_cast<std::size_t>(state.range(0)));
  if (!in.error.empty()) {
    state.SkipWithError(in.error.c_str());
    return;
  }
  for (auto _ : state) {
    auto ps = host::locate_programs(in.text);
    if (ps.size() != 1 || !ps.front().whole_text) {
      state.SkipWithError("expected one program, read whole");
      break;
    }
    benchmark::DoNotOptimize(ps);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.text.size()));
}

void bm_print_host(benchmark::State& state) {
  const host_input& in = host_input_of(static_cast<std::size_t>(state.range(0)));
  if (!in.error.empty()) {
    state.SkipWithError(in.error.c_str());
    return;
  }
  for (auto _ : state) {
    std::string out = host::print_program(*in.parsed);
    if (out.size() != in.printed_size) {
      state.SkipWithError("the print's size differs from the first one's");
      break;
    }
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.printed_size));
}

}  // namespace

// 50 MiB for the MLIR text only: a 50 MiB host program holds 1.6 GB while it parses.
BENCHMARK(bm_parse_ref)->Apply(bench_support::sizes<1, 10, 50>)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_print_ref)->Apply(bench_support::sizes<1, 10, 50>)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_parse_host)->Apply(bench_support::sizes<1, 10>)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_print_host)->Apply(bench_support::sizes<1, 10>)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_locate_host)->Apply(bench_support::sizes<1, 10>)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
