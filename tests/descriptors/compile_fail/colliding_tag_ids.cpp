// Two different kind names whose 32-bit ids collide cannot share a set: run-time membership
// (an id compare) could not tell them apart. "nakmvxxv" and "tbdxatiq" collide under FNV-1a.
// expected-error: two different kind names have the same kind_id
// expected-error: neuronrw::error::colliding_kind_ids_in_boundary_set<nakmvxxv, tbdxatiq>
#include <neuronrw/descriptors/boundary_set.hpp>

NEURONRW_DECLARE_KIND(nakmvxxv);
NEURONRW_DECLARE_KIND(tbdxatiq);
NEURONRW_DECLARE_KIND(tbdxatir);

#ifndef NEURONRW_COMPILE_FAIL_CONTROL
using bad = neuronrw::boundary_set<nakmvxxv, tbdxatiq>;
#else
using bad = neuronrw::boundary_set<nakmvxxv, tbdxatir>;
#endif
static_assert(bad::size() == 2);
