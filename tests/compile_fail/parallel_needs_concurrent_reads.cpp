// The parallel driver (passes/parallel.hpp) on an IR whose traits do not declare R1 (reads safe
// from several threads at once): one error, the static_assert saying what to declare or to run
// the sequential pass instead. With the declaration (CONTROL) it compiles.
#include <neuronrw/passes/parallel.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "archetype/archetype_ir.hpp"

// An IR whose reads fill a cache: its traits say nothing of R1.
struct caching_ir : neuronrw::archetype::ir {};

template <>
struct neuronrw::ir_traits<caching_ir> : neuronrw::ir_traits<neuronrw::archetype::ir> {
#ifdef NEURONRW_COMPILE_FAIL_CONTROL
  static constexpr bool concurrent_reads = true;
#else
  static constexpr bool concurrent_reads = false;
#endif
};

// expected-error: neuronrw parallel driver: the IR's traits do not declare R1 (passes/parallel.hpp). Fix: when every const traits function may be called from several threads at once on an unchanging IR (no lazy cache, index or counter filled by a read), add `static constexpr bool concurrent_reads = true;` to your ir_traits / host_traits specialization; otherwise run the sequential pass (D::plan / neuronrw::apply).
// expected-error-count: 1
int main() {
  caching_ir g;
  const auto plan = neuronrw::plan_pass_parallel<neuronrw::passes::schedule_fusion>(g, {}, {.threads = 2});
  return plan.clusters.empty() ? 0 : 1;
}
