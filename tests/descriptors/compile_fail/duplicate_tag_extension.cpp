// Extending a set with a kind it already has is a duplicate too, even through another tag type
// of the same name (membership is by kind name).
// expected-error: neuronrw::boundary_set: duplicate kind tag
// expected-error: neuronrw::error::duplicate_kind_in_boundary_set<neuronrw::kinds::all_to_all, my_all_to_all>
#include <neuronrw/descriptors/boundary_set.hpp>

#include <string_view>

struct my_all_to_all : neuronrw::kind_tag<my_all_to_all> {
#ifndef NEURONRW_COMPILE_FAIL_CONTROL
  static constexpr std::string_view name = "all_to_all";
#else
  static constexpr std::string_view name = "all_to_all_v";
#endif
};

using extended = neuronrw::default_boundary_set::with<my_all_to_all>;
static_assert(extended::size() == 5);
