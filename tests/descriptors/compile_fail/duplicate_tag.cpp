// A boundary set that lists a kind twice does not compile; the error names both tags.
// expected-error: neuronrw::boundary_set: duplicate kind tag
// expected-error: neuronrw::error::duplicate_kind_in_boundary_set<neuronrw::kinds::all_gather, neuronrw::kinds::all_gather>
#include <neuronrw/descriptors/boundary_set.hpp>

namespace kinds = neuronrw::kinds;

#ifndef NEURONRW_COMPILE_FAIL_CONTROL
using bad = neuronrw::boundary_set<kinds::all_gather, kinds::reduce_scatter, kinds::all_gather>;
#else
using bad = neuronrw::boundary_set<kinds::all_gather, kinds::reduce_scatter>;
#endif

static_assert(bad::contains_v<kinds::all_gather>);
