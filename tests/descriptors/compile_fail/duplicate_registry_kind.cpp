// A registry that lists a kind twice does not compile; the error spells the kind.
// expected-error: neuronrw::kind_registry: the kind spelled in this error's template arguments is listed twice
// expected-error: neuronrw::error::duplicate_kind_in_registry<'E', 'x', 'p', 'm', '1'>
#include <neuronrw/descriptors/kind_registry.hpp>

#ifndef NEURONRW_COMPILE_FAIL_CONTROL
using mine = neuronrw::fusion_op_registry::with_kinds<"Gelu", "Expm1">;
#else
using mine = neuronrw::fusion_op_registry::with_kinds<"Gelu", "Expm2">;
#endif
static_assert(mine::size() == 9);
