// Asking for reschedulable_ir from an IR that cannot move ops.
#ifndef NEURONRW_COMPILE_FAIL_CONTROL
#define OMIT_MOVES
#endif
#include "common_partial_ir.hpp"

// expected-error: neuronrw reschedulable_ir requirement 13: ir_traits<G> lacks `static void move_before(G&, op_handle op, op_handle anchor)` and/or `move_after`
static_assert(neuronrw::require_reschedulable_ir<partial_ir>());
int main() {}
