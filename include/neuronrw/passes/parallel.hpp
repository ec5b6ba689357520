// neuronrw/passes/parallel.hpp — any pass over the functions of one module on several threads
// (std::jthread), its output byte-identical to the sequential pass: one generic driver over the
// per-function protocol of the pass descriptors (passes/protocol.hpp, partitioned_pass):
//
//   auto plan = neuronrw::run_pass_parallel<neuronrw::passes::schedule_fusion>(g, {}, {.threads = 4});
//   auto plan = neuronrw::plan_pass_parallel<neuronrw::passes::fusion_to_composite>(g);
//   neuronrw::apply_pass_parallel<neuronrw::passes::materialize_comm_domain_scopes>(p, plan);
//
// How: the units (D::units(g), or those given) go one at a time (an atomic counter) to N workers,
// the calling thread and N-1 std::jthreads, each with its own D::scratch; D::merge joins the parts
// in unit order and takes the module-level decisions, so the plan equals D::plan(g, options). The
// apply runs per function on the workers only for an IR declaring R2 and a part_applicable_pass;
// otherwise it is D::apply. The IR's traits (D::traits<G>; docs/concepts.md §"Threads") declare:
//   R1. `static constexpr bool concurrent_reads = true;` (required, checked at compile time): the
//       const traits functions may run on many threads at once on an unchanging IR (no read fills
//       a cache). The reference IR, the host IR, the custom-IR example and the archetypes declare
//       it; the MLIR adapter (it numbers ops lazily) and the Boost.Graph adapter (its property
//       maps are the user's) do not.
//   R2. `static constexpr bool concurrent_function_mutation = true;` (optional): one function's
//       rewrites touch nothing another function's touch, outside a transaction. The host IR and
//       the custom-IR example declare it; the reference IR does not (module-wide vectors).
// While a parallel pass runs, nothing else may change the IR. Failures: none of its own (a thread
// that cannot start terminates under -fno-exceptions). Complexity: the sequential pass's work
// spread over the workers, plus O(plan size) to merge.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <neuronrw/detail/ranges.hpp>
#include <neuronrw/passes/protocol.hpp>

namespace neuronrw {

/// How many threads a parallel pass uses: workers, the calling thread included; 0 =
/// hardware_concurrency() (1 when unknown); never more than the units; 1 = the calling thread.
struct parallel_options {
  unsigned threads = 0;
};

/// R1 and R2 (see the header comment), as declared by an IR's traits.
template <class Traits>
concept declares_concurrent_reads = requires { requires static_cast<bool>(Traits::concurrent_reads); };
template <class Traits>
concept declares_concurrent_function_mutation = requires { requires static_cast<bool>(Traits::concurrent_function_mutation); };

namespace parallel_detail {

inline unsigned worker_count(const parallel_options& o, std::size_t jobs) {
  const unsigned n = std::max(1u, o.threads != 0 ? o.threads : std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::min<std::size_t>(n, std::max<std::size_t>(jobs, 1)));
}

/// Calls body(state, i) for every i in [0, n) on `workers` threads (the calling one among them),
/// each with its own make_state(); returns when all have returned (the joins publish writes).
template <class MakeState, class Body>
void for_each_index(std::size_t n, unsigned workers, MakeState&& make_state, Body&& body) {
  if (n == 0) return;
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    auto state = make_state();
    for (std::size_t i = 0; (i = next.fetch_add(1, std::memory_order_relaxed)) < n;) body(state, i);
  };
  std::vector<std::jthread> pool;
  for (unsigned k = 1; k < workers; ++k) pool.emplace_back(work);
  work();
}

/// apply_pass_parallel; `distinct_units`: the plan's units are known to be different functions.
template <class D, class G, class Plan>
decltype(auto) apply(G& g, const Plan& plan, const parallel_options& popt, bool distinct_units) {
  if constexpr (declares_concurrent_function_mutation<typename D::template traits<G>> &&
                part_applicable_pass<D, G>) {
    auto state = [&] {
      if constexpr (requires { D::apply_begin(std::as_const(g), plan, distinct_units); })
        return D::apply_begin(std::as_const(g), plan, distinct_units);
      else
        return D::apply_begin(std::as_const(g), plan);
    }();
    if (state) {
      const std::size_t n = state->tasks();
      for_each_index(n, worker_count(popt, n), [] { return 0; }, [&](int, std::size_t k) { D::apply_task(g, plan, *state, k); });
      return D::apply_end(g, plan, *state);
    }
  }
  return D::apply(g, plan);
}

template <class D, class G>
constexpr void require_concurrent_reads() {  // the message says how to fix
  static_assert(declares_concurrent_reads<typename D::template traits<G>>,
                "neuronrw parallel driver: the IR's traits do not declare R1 (passes/parallel.hpp). Fix: when "
                "every const traits function may be called from several threads at once on an unchanging IR "
                "(no lazy cache, index or counter filled by a read), add `static constexpr bool "
                "concurrent_reads = true;` to your ir_traits / host_traits specialization; otherwise run the "
                "sequential pass (D::plan / neuronrw::apply).");
}

}  // namespace parallel_detail

/// Pass D's plan over `units` (distinct functions), planned on popt.threads threads; reads only.
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

/// D::apply(g, plan), the plan's functions rewritten on different threads when the IR declares R2
/// and the pass applies per function. @pre the plan is of this IR, unchanged since; no transaction.
template <class D, class G, class Plan>
decltype(auto) apply_pass_parallel(G& g, const Plan& plan, const parallel_options& popt = {}) {
  return parallel_detail::apply<D>(g, plan, popt, false);
}

/// Plans pass D over `units` (different functions) in parallel, applies it, returns the plan.
template <class D, class G, std::ranges::input_range Units>
auto run_pass_parallel(G& g, Units&& units, const typename D::options& opt = {}, const parallel_options& popt = {}) {
  auto plan = plan_pass_parallel<D>(std::as_const(g), std::forward<Units>(units), opt, popt);
  parallel_detail::apply<D>(g, plan, popt, true);
  return plan;
}

/// run_pass_parallel over the pass's own units (D::units(g)): the result is D::plan + D::apply's.
template <class D, class G>
auto run_pass_parallel(G& g, const typename D::options& opt = {}, const parallel_options& popt = {}) {
  return run_pass_parallel<D>(g, D::units(std::as_const(g)), opt, popt);
}

}  // namespace neuronrw
