// An adaptation that forgot to map ops to kind tags.
#ifndef NEURONRW_COMPILE_FAIL_CONTROL
#define OMIT_KIND
#endif
#include "common_partial_ir.hpp"
#include <neuronrw/algorithms/ancestry.hpp>

// expected-error: neuronrw read_ir requirement 3: ir_traits<G> lacks `static kind_id kind(const G&, op_handle)`. Fix: map each op to a tag id once
int main() {
  partial_ir g;
  return neuronrw::is_ancestor_or_self(g, p_op{1}, p_op{2}) ? 1 : 0;
}
