// A reschedulable IR asked to be groupable.
#include "common_partial_ir.hpp"

#ifdef NEURONRW_COMPILE_FAIL_CONTROL
static_assert(neuronrw::require_reschedulable_ir<partial_ir>());
#else
// expected-error: neuronrw groupable_ir requirement 14: ir_traits<G> lacks `static op_handle group_ops(G&, const neuronrw::group_request<op_handle, value_handle>&)`.
static_assert(neuronrw::require_groupable_ir<partial_ir>());
#endif
int main() {}
