// A value handle without any hash: neither std::hash nor neuronrw::handle_hash.
#ifndef NEURONRW_COMPILE_FAIL_CONTROL
#define OMIT_VALUE_HASH
#endif
#include "common_partial_ir.hpp"
#include <neuronrw/algorithms/ancestry.hpp>

// expected-error: neuronrw read_ir requirement 1: op_handle and value_handle must be copyable, equality-comparable and hashable. Fix: give them operator== and a std::hash specialization, or specialize neuronrw::handle_hash<H>.
int main() {
  partial_ir g;
  return neuronrw::is_ancestor_or_self(g, p_op{1}, p_op{2}) ? 1 : 0;
}
