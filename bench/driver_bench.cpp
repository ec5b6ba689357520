// bench/driver_bench.cpp — the driver's --verify-diagnostics and --split-input-file machinery
// (examples/neuronrw-opt/verify_diagnostics.hpp, split_input.hpp) at sizes a red team made
// quadratic: matching scanned every expectation per diagnostic (100K against 100K: 5.6 s), and
// each chunk was parsed behind a line break per line before it (100K marker lines: 15.5 s).
//
//   BM_verify_diagnostics/N  parse_expectations over an N-line file with one expectation per
//                            line, then N diagnostics (one per line) through diagnostic_verifier
//   BM_split_input/N         split_chunks over N `// -----` lines with one op between each two,
//                            and ref::parse of every chunk where it stands (parse_options::
//                            first_line), as neuronrw-opt --split-input-file does
//
// Both are fitted to O(N) (bench/report: linear, and 1M in under 2 s). Checks (a failed one is
// SkipWithError): every expectation matches and the verifier reports nothing; every chunk
// parses, there are N + 1 of them, and each chunk's op carries its line in the whole file.
//
//   ninja -C <build> bench/driver_bench && <build>/bench/driver_bench
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/parse.hpp>

#include "neuronrw-opt/diagnostics_render.hpp"
#include "neuronrw-opt/split_input.hpp"
#include "neuronrw-opt/verify_diagnostics.hpp"

#include "bench_support.hpp"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace opt = neuronrw_opt;
namespace ref = neuronrw::ref;

const std::string message = "'func.call' op 'nope' does not reference a valid function";

// An N-line file of calls, each with its expectation, and the N diagnostics the verifier of the
// reference IR gives for it; built once per size.
struct verify_input {
  std::string text;
  std::vector<opt::diagnostic> diagnostics;
};

const verify_input& verify_input_of(std::size_t n) {
  static std::map<std::size_t, verify_input> cache;
  auto [it, fresh] = cache.try_emplace(n);
  if (fresh) {
    for (std::size_t i = 0; i < n; ++i) {
      it->second.text += "  func.call @nope() : () -> () // expected-error {{does not reference a valid function}}\n";
      it->second.diagnostics.push_back(
          opt::diagnostic{"bench.mlir", {static_cast<std::uint32_t>(i + 1), 3}, message});
    }
  }
  return it->second;
}

void BM_verify_diagnostics(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const verify_input& in = verify_input_of(n);
  const opt::source_text src("bench.mlir", in.text);
  for (auto _ : state) {
    std::ostringstream err;
    std::vector<opt::diagnostic> bad;
    auto expected = opt::parse_expectations(src, 1, src.line_count(), bad);
    if (expected.size() != n || !bad.empty()) {
      state.SkipWithError("parse_expectations did not find one expectation per line");
      break;
    }
    opt::diagnostic_verifier verifier(err, src, std::move(expected), false);
    for (const auto& d : in.diagnostics) verifier.process(d);
    if (!verifier.finish() || !err.str().empty()) {
      state.SkipWithError("the verifier reported a mismatch");
      break;
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.SetComplexityN(state.range(0));
}

const std::string& split_input_of(std::size_t n) {
  static std::map<std::size_t, std::string> cache;
  auto [it, fresh] = cache.try_emplace(n);
  if (fresh)
    for (std::size_t i = 0; i < n; ++i) it->second += "\"x.y\"() : () -> ()\n// -----\n";
  return it->second;
}

void BM_split_input(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::string& text = split_input_of(n);
  const std::string_view all(text);
  for (auto _ : state) {
    const std::vector<opt::chunk> chunks = opt::split_chunks(all, "// -----");
    if (chunks.size() != n + 1) {
      state.SkipWithError("split_chunks did not find one chunk per marker line plus one");
      break;
    }
    bool ok = true;
    for (std::size_t k = 0; k < n && ok; ++k) {
      const opt::chunk& c = chunks[k];
      auto r = ref::parse(all.substr(c.begin, c.end - c.begin), "bench.mlir",
                          ref::parse_options{.first_line = c.first_line});
      ok = r.ok() && r.value->loc(r.value->front(r.value->body())).line == 2 * k + 1;
      benchmark::DoNotOptimize(r);
    }
    if (!ok || !ref::parse(all.substr(chunks[n].begin), "bench.mlir", ref::parse_options{.first_line = chunks[n].first_line}).ok()) {
      state.SkipWithError("a chunk did not parse, or its op's line is not its line in the file");
      break;
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.SetComplexityN(state.range(0));
}

}  // namespace

BENCHMARK(BM_verify_diagnostics)
    ->Apply(bench_support::sizes<10'000, 100'000, 1'000'000>)
    ->Apply(bench_support::fit<benchmark::oN>)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_split_input)
    ->Apply(bench_support::sizes<10'000, 100'000, 1'000'000>)
    ->Apply(bench_support::fit<benchmark::oN>)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
