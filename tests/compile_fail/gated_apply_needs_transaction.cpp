// The gated apply (passes/transaction.hpp) on an IR without the transaction capability O5: one
// error, the static_assert naming the three functions to add. With O5 (CONTROL) it compiles.
#include <neuronrw/passes/schedule_fusion.hpp>

#include "archetype/archetype_ir.hpp"

namespace a = neuronrw::archetype;
#ifdef NEURONRW_COMPILE_FAIL_CONTROL
using G = a::ir_at<a::layer::outlinable, 0, a::cap::transaction>;
#else
using G = a::ir_at<a::layer::outlinable>;
#endif

// expected-error: neuronrw: the gated apply needs the IR's transaction (optional capability O5): give ir_traits<G> `static T begin_transaction(G&)`, `static void commit(G&, T)` and `static void rollback(G&, T)` (docs/concepts.md), or call the gate-less apply(g, plan).
// expected-error-count: 1
int main() {
  G g;
  const auto plan = neuronrw::plan_schedule_fusion(g);
  return neuronrw::apply(g, plan, neuronrw::fail_at_step{0}).ok() ? 0 : 1;
}
