// An ordered IR without an order query, used by an algorithm that needs ordered_ir.
#ifndef NEURONRW_COMPILE_FAIL_CONTROL
#define OMIT_IS_BEFORE
#endif
#include "common_partial_ir.hpp"
#include <neuronrw/algorithms/ancestry.hpp>

// expected-error: neuronrw ordered_ir requirement 11: ir_traits<G> lacks `static bool is_before_in_block(const G&, op_handle, op_handle)`.
int main() {
  partial_ir g;
  return neuronrw::ancestor_in_block(g, p_op{1}, 0) == p_op{} ? 0 : 1;
}
