// A registry's diagnostic format needs exactly two {} placeholders (the name, then the list).
// expected-error: the diagnostic format must contain exactly two '{}' placeholders
#include <neuronrw/descriptors/kind_registry.hpp>

#ifndef NEURONRW_COMPILE_FAIL_CONTROL
using mine = neuronrw::kind_registry<"Unknown kind '{}'.", neuronrw::list_style::comma, "A", "B">;
#else
using mine = neuronrw::kind_registry<"Unknown kind '{}' (want {}).", neuronrw::list_style::comma, "A", "B">;
#endif
static_assert(mine::size() == 2);
