// Folding a type that is not a join_semilattice names the type and the missing requirement.
// expected-error: neuronrw: this type is not a join_semilattice: no join
// expected-error: neuronrw::error::not_a_join_semilattice<merge_by_min>
#include <neuronrw/descriptors/lattice.hpp>

#include <vector>

struct merge_by_min {
  int v = 0;
  static merge_by_min bottom() { return {}; }
#ifdef NEURONRW_COMPILE_FAIL_CONTROL
  static merge_by_min join(const merge_by_min& a, const merge_by_min& b) { return a.v < b.v ? b : a; }
#else
  static merge_by_min meet(const merge_by_min& a, const merge_by_min& b) { return a.v < b.v ? a : b; }
#endif
  static bool leq(const merge_by_min& a, const merge_by_min& b) { return a.v <= b.v; }
  friend bool operator==(const merge_by_min&, const merge_by_min&) = default;
};

merge_by_min merged(const std::vector<merge_by_min>& xs) { return neuronrw::lattice::join_all(xs); }
