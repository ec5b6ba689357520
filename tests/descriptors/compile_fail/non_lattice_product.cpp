// A product of lattices whose component is not a join_semilattice names the requirement.
// expected-error: neuronrw: this type is not a join_semilattice: no bottom
// expected-error: neuronrw::error::not_a_join_semilattice<int>
#include <neuronrw/descriptors/lattice.hpp>

#ifndef NEURONRW_COMPILE_FAIL_CONTROL
using bad = neuronrw::product_lattice<neuronrw::max_lattice<int>, int>;
#else
using bad = neuronrw::product_lattice<neuronrw::max_lattice<int>, neuronrw::max_lattice<long>>;
#endif
static_assert(sizeof(bad) > 0);
