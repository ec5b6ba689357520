// Move+query throughput of neuronrw::order_maintenance against a whole-list renumbering
// baseline (what MLIR does: a splice invalidates the block's op order, the next isBeforeInBlock
// renumbers every op). One step = move a random node before a random anchor, then ask is_before
// of two random nodes. Items/s = pairs/s, comparable across the two in one run (SPEC §8).
#include <neuronrw/algorithms/order.hpp>

#include "bench_support.hpp"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

// xorshift64*: cheap enough not to dominate a ~100 ns step, deterministic across runs.
struct rng64 {
  std::uint64_t s = 0x9E3779B97F4A7C15ull;
  std::uint32_t below(std::uint32_t n) noexcept {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return static_cast<std::uint32_t>(((s * 0x2545F4914F6CDD1Dull) >> 32) * n >> 32);
  }
};

void bm_order_maintenance(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  neuronrw::order_maintenance om;
  om.reserve_nodes(n);
  const auto l = om.create_list();
  for (std::uint32_t i = 0; i < n; ++i) om.push_back(l, om.add_node());
  rng64 rng;
  bool sink = false;
  for (auto _ : state) {
    om.move_before(rng.below(n), rng.below(n));
    sink ^= om.is_before(rng.below(n), rng.below(n));
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["groups"] = static_cast<double>(om.group_count());
}

// The baseline: an intrusive doubly linked list with a per-node order index that a splice
// invalidates and the next query recomputes by walking the whole list (O(N) per step).
class renumbering_list {
 public:
  explicit renumbering_list(std::uint32_t n) : next_(n), prev_(n), order_(n) {
    for (std::uint32_t i = 0; i < n; ++i) {
      next_[i] = i + 1 < n ? i + 1 : npos;
      prev_[i] = i > 0 ? i - 1 : npos;
    }
    head_ = n > 0 ? 0 : npos;
    renumber();
  }

  void move_before(std::uint32_t x, std::uint32_t anchor) noexcept {
    if (x == anchor || next_[x] == anchor) return;
    if (prev_[x] != npos) next_[prev_[x]] = next_[x]; else head_ = next_[x];
    if (next_[x] != npos) prev_[next_[x]] = prev_[x];
    prev_[x] = prev_[anchor];
    next_[x] = anchor;
    if (prev_[anchor] != npos) next_[prev_[anchor]] = x; else head_ = x;
    prev_[anchor] = x;
    valid_ = false;
  }

  bool is_before(std::uint32_t a, std::uint32_t b) noexcept {
    if (!valid_) renumber();
    return order_[a] < order_[b];
  }

 private:
  static constexpr std::uint32_t npos = 0xFFFFFFFFu;
  void renumber() noexcept {
    std::uint32_t k = 0;
    for (std::uint32_t x = head_; x != npos; x = next_[x]) order_[x] = k++;
    valid_ = true;
  }
  std::vector<std::uint32_t> next_, prev_, order_;
  std::uint32_t head_ = npos;
  bool valid_ = true;
};

void bm_renumber_baseline(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  renumbering_list list(n);
  rng64 rng;
  bool sink = false;
  for (auto _ : state) {
    list.move_before(rng.below(n), rng.below(n));
    sink ^= list.is_before(rng.below(n), rng.below(n));
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

}  // namespace

BENCHMARK(bm_order_maintenance)->Apply(bench_support::sizes<1'000, 10'000, 100'000, 1'000'000>);
BENCHMARK(bm_renumber_baseline)->Apply(bench_support::sizes<1'000, 10'000, 100'000>);
// O(N) per step: a fixed, small iteration count keeps the 1M point to about a second. Not in
// smoke mode, which runs the smallest size only (registered above).
[[maybe_unused]] static const bool renumber_1m = [] {
  if (!bench_support::smoke())
    benchmark::RegisterBenchmark("bm_renumber_baseline", bm_renumber_baseline)->Arg(1'000'000)->Iterations(100);
  return true;
}();

BENCHMARK_MAIN();
