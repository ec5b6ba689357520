// Asking a registry for the compile-time position of a name it lacks does not compile.
// expected-error: neuronrw::kind_registry: the name spelled in this error's template arguments is not a kind of the registry
// expected-error: neuronrw::error::kind_not_in_registry<'F', 'u', 's', 'e', 'd', 'C', 'o', 'm', 'p', 'o', 's', 'i', 't', 'e'>
#include <neuronrw/descriptors/kind_registry.hpp>

#ifndef NEURONRW_COMPILE_FAIL_CONTROL
constexpr auto i = neuronrw::composite_op_registry::index_v<"FusedComposite">;
#else
constexpr auto i = neuronrw::composite_op_registry::index_v<"DotSoftmax">;
#endif
static_assert(i < 7);
