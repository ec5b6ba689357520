// neuronrw/passes/parallel.hpp — any pass over the functions of one module on several threads
// (std::jthread), with output byte-identical to the sequential pass. One generic driver over the
// per-function protocol (passes/protocol.hpp: partitioned_pass, part_applicable_pass):
//
//   namespace np = neuronrw::passes;
//   auto plan = neuronrw::plan_pass_parallel<np::schedule_fusion>(g, {}, {.threads = 4});
//   auto plan = neuronrw::run_pass_parallel<np::fusion_to_composite>(g, {}, {.threads = 4});
//   neuronrw::apply_pass_parallel<np::materialize_comm_domain_scopes>(p, plan, {.threads = 4});
//
// How: the units (D::units(g), or the ones given) are handed out one at a time (an atomic
// counter) to N workers, the calling thread and N-1 std::jthreads, each with its own scratch
// (D::scratch); D::merge then joins the parts in unit order on the calling thread and takes the
// module-level decisions, so the plan equals D::plan(g, options) whatever the threads or their
// scheduling. apply runs in parallel only on an IR whose traits declare function-local mutation
// (R2) and for a pass whose plan applies per function (D::apply_begin / apply_task / apply_end);
// otherwise it is D::apply, sequential. Either way the result is the sequential pass's.
//
// The traits an IR declares (D::traits<G>, docs/concepts.md §"Threads"):
//   R1. `static constexpr bool concurrent_reads = true;` — any number of threads may call the const
//       traits functions on one unchanging IR at once: no read fills a cache, builds an index or
//       orders labels lazily unless synchronized. Required at compile time: the reference IR, the
//       host IR, the custom-IR example and the archetypes declare it; the MLIR adapter (it numbers
//       ops lazily) and the Boost.Graph view (it builds its indices lazily) do not.
//   R2. `static constexpr bool concurrent_function_mutation = true;` (optional) — the mutations a
//       pass makes to one function touch no state another function's mutations or reads touch, so
//       different functions may be rewritten at once, outside a transaction. The host IR and the
//       custom-IR example declare it; the reference IR does not (module-wide vectors).
//   While a parallel pass runs, nothing else may change the IR.
//
// Failures: none of its own; a failure to start a thread terminates under -fno-exceptions.
// Complexity: the sequential pass's work spread over the workers, plus O(plan size) to merge.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <ranges>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <neuronrw/passes/protocol.hpp>

namespace neuronrw {

/// How many threads a parallel pass uses.
struct parallel_options {
  /// Workers, the calling thread included; 0 = std::thread::hardware_concurrency() (1 when
  /// unknown). Never more than the number of units; 1 runs everything on the calling thread.
  unsigned threads = 0;
};

/// R1 (see the header comment): the traits declare that their reads are safe from many threads.
template <class Traits>
concept declares_concurrent_reads = requires { requires static_cast<bool>(Traits::concurrent_reads); };

/// R2 (see the header comment): one function's mutations touch nothing another function's touch.
template <class Traits>
concept declares_concurrent_function_mutation = requires {
  requires static_cast<bool>(Traits::concurrent_function_mutation);
};

namespace parallel_detail {

inline unsigned worker_count(const parallel_options& o, std::size_t jobs) {
  unsigned n = o.threads != 0 ? o.threads : std::thread::hardware_concurrency();
  if (n == 0) n = 1;
  return static_cast<unsigned>(std::min<std::size_t>(n, std::max<std::size_t>(jobs, 1)));
}

/// Calls body(state, i) once for every i in [0, n) on `workers` threads (the calling one among
/// them); each thread makes its own state with make_state() and takes the next index from a shared
/// counter. Returns when every call has returned (the jthreads' joins publish their writes).
template <class MakeState, class Body>
void for_each_index(std::size_t n, unsigned workers, MakeState&& make_state, Body&& body) {
  if (n == 0) return;
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    auto state = make_state();
    for (std::size_t i = next.fetch_add(1, std::memory_order_relaxed); i < n;
         i = next.fetch_add(1, std::memory_order_relaxed))
      body(state, i);
  };
  std::vector<std::jthread> pool;
  pool.reserve(workers > 1 ? workers - 1 : 0);
  for (unsigned k = 1; k < workers; ++k) pool.emplace_back(work);
  work();
}

template <class D, class G>
constexpr void require_concurrent_reads() {
  static_assert(declares_concurrent_reads<typename D::template traits<G>>,
                "neuronrw parallel driver: the IR's traits do not declare R1 (passes/parallel.hpp). Fix: when "
                "every const traits function may be called from several threads at once on an unchanging IR "
                "(no lazy cache, index or counter filled by a read), add `static constexpr bool "
                "concurrent_reads = true;` to your ir_traits / host_traits specialization; otherwise run the "
                "sequential pass (D::plan / neuronrw::apply).");
}

}  // namespace parallel_detail

/// The plan of pass D over `units` (any of D::plan_part's unit types), planned on popt.threads
/// threads and merged in unit order. Nothing is changed. @pre R1; the units are distinct functions.
template <class D, class G, std::ranges::input_range Units>
auto plan_pass_parallel(const G& g, Units&& units, const typename D::options& opt = {},
                        const parallel_options& popt = {}) {
  parallel_detail::require_concurrent_reads<D, G>();
  static_assert(partitioned_pass<D, G>, "neuronrw parallel driver: D is not a partitioned_pass for this IR "
                                        "(passes/protocol.hpp lists units, scratch, plan_part, merge)");
  std::vector<std::ranges::range_value_t<Units>> us(std::ranges::begin(units), std::ranges::end(units));
  using scratch_t = decltype(D::scratch(g, opt));
  std::vector<decltype(D::plan_part(g, us.front(), std::declval<scratch_t&>()))> parts(us.size());
  parallel_detail::for_each_index(
      us.size(), parallel_detail::worker_count(popt, us.size()), [&] { return D::scratch(g, opt); },
      [&](scratch_t& s, std::size_t i) { parts[i] = D::plan_part(g, us[i], s); });
  return D::merge(g, opt, std::move(parts));
}

/// The plan of pass D over its units (D::units(g)), planned in parallel: equal to D::plan(g, opt).
template <class D, class G>
auto plan_pass_parallel(const G& g, const typename D::options& opt = {}, const parallel_options& popt = {}) {
  return plan_pass_parallel<D>(g, D::units(g), opt, popt);
}

/// D::apply(g, plan), with the plan's functions rewritten on different threads when the IR
/// declares R2 and the pass applies per function. @pre the plan was made on this IR, unchanged
/// since; no transaction is open on `g`.
template <class D, class G, class Plan>
decltype(auto) apply_pass_parallel(G& g, const Plan& plan, const parallel_options& popt = {}) {
  if constexpr (declares_concurrent_function_mutation<typename D::template traits<G>> &&
                part_applicable_pass<D, G>) {
    if (auto state = D::apply_begin(std::as_const(g), plan)) {
      const std::size_t n = state->tasks();
      parallel_detail::for_each_index(
          n, parallel_detail::worker_count(popt, n), [] { return 0; },
          [&](int, std::size_t k) { D::apply_task(g, plan, *state, k); });
      return D::apply_end(g, plan, *state);
    }
  }
  return D::apply(g, plan);
}

/// Plans pass D in parallel, applies it (apply_pass_parallel), returns the plan.
template <class D, class G>
auto run_pass_parallel(G& g, const typename D::options& opt = {}, const parallel_options& popt = {}) {
  auto plan = plan_pass_parallel<D>(std::as_const(g), opt, popt);
  apply_pass_parallel<D>(g, plan, popt);
  return plan;
}

/// run_pass_parallel over the given units (root blocks, for IRs without functions(g)).
template <class D, class G, std::ranges::input_range Units>
auto run_pass_parallel(G& g, Units&& units, const typename D::options& opt = {}, const parallel_options& popt = {}) {
  auto plan = plan_pass_parallel<D>(std::as_const(g), std::forward<Units>(units), opt, popt);
  apply_pass_parallel<D>(g, plan, popt);
  return plan;
}

}  // namespace neuronrw
