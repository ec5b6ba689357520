// Static tests for neuronrw/descriptors/boundary_set.hpp: membership, union, extension.
#include <neuronrw/descriptors/boundary_set.hpp>

#include <string_view>
#include <type_traits>

#include <boost/hana/type.hpp>

namespace {

namespace hana = boost::hana;
namespace kinds = neuronrw::kinds;
using neuronrw::boundary_set;
using neuronrw::default_boundary_set;
using neuronrw::kind_id_of;

// The seed's four-collective boundary set, in the seed's order.
static_assert(default_boundary_set::size() == 4);
static_assert(default_boundary_set::names()[0] == "all_gather");
static_assert(default_boundary_set::names()[1] == "reduce_scatter");
static_assert(default_boundary_set::names()[2] == "all_reduce");
static_assert(default_boundary_set::names()[3] == "all_to_all");
static_assert(default_boundary_set::ids()[0] == kind_id_of("all_gather"));

// Compile-time membership, three spellings.
static_assert(default_boundary_set::contains_v<kinds::all_gather>);
static_assert(default_boundary_set::contains_v<kinds::all_to_all>);
static_assert(!default_boundary_set::contains_v<kinds::collective_permute>);
static_assert(!default_boundary_set::contains_v<kinds::fusion>);
static_assert(default_boundary_set::contains(hana::type_c<kinds::reduce_scatter>));
static_assert(!default_boundary_set::contains(hana::type_c<kinds::get_tuple_element>));
static_assert(std::is_same_v<decltype(default_boundary_set::contains(hana::type_c<kinds::all_reduce>)),
                             hana::bool_<true>>);
// By kind, not by C++ type: a user's own tag named "all_reduce" is the same kind.
struct my_all_reduce : neuronrw::kind_tag<my_all_reduce> {
  static constexpr std::string_view name = "all_reduce";
};
static_assert(default_boundary_set::contains_v<my_all_reduce>);

// Run-time membership is constexpr too.
static_assert(default_boundary_set::contains(kind_id_of("all_gather")));
static_assert(!default_boundary_set::contains(kind_id_of("collective_permute")));
static_assert(!default_boundary_set::contains(neuronrw::unknown_kind));
static_assert(default_boundary_set::position(kind_id_of("all_to_all")) == 3);

// Extension adds kinds; union drops kinds already present (by name), keeping A's order first.
using with_permute = default_boundary_set::with<kinds::collective_permute>;
static_assert(std::is_same_v<with_permute, boundary_set<kinds::all_gather, kinds::reduce_scatter,
                                                        kinds::all_reduce, kinds::all_to_all,
                                                        kinds::collective_permute>>);
static_assert(with_permute::contains(kind_id_of("collective_permute")));

using united = neuronrw::boundary_set_union_t<
    default_boundary_set, boundary_set<my_all_reduce, neuronrw::named_kind<"send">, kinds::all_gather>>;
static_assert(std::is_same_v<united, boundary_set<kinds::all_gather, kinds::reduce_scatter,
                                                  kinds::all_reduce, kinds::all_to_all,
                                                  neuronrw::named_kind<"send">>>);
static_assert(std::is_same_v<decltype(neuronrw::default_boundary | boundary_set<kinds::fusion>{}),
                             default_boundary_set::with<kinds::fusion>>);
static_assert(std::is_same_v<neuronrw::boundary_set_union_t<default_boundary_set, default_boundary_set>,
                             default_boundary_set>);

// The empty set (a dependence walk with no boundary) contains nothing.
static_assert(boundary_set<>::size() == 0 && !boundary_set<>::contains(kind_id_of("all_gather")));

// Sets above 8 kinds switch to the hashed index; answers are unchanged.
using big = default_boundary_set::with<kinds::collective_permute, kinds::get_tuple_element,
                                       kinds::fusion, kinds::composite, kinds::func, kinds::call,
                                       kinds::return_, kinds::module>;
static_assert(big::size() == 12);
static_assert(big::contains(kind_id_of("return")) && big::contains(kind_id_of("all_to_all")));
static_assert(!big::contains(kind_id_of("while")));
static_assert(big::position(kind_id_of("module")) == 11);
static_assert(big::contains_v<kinds::call> && !big::contains_v<neuronrw::named_kind<"while">>);

// A kind whose id collides with a member's is still not a member at compile time.
using collide_a = neuronrw::named_kind<"nakmvxxv">;
using collide_b = neuronrw::named_kind<"tbdxatiq">;
static_assert(boundary_set<collide_a>::contains(neuronrw::kind_id_v<collide_b>));  // same id
static_assert(!boundary_set<collide_a>::contains_v<collide_b>);                    // exact

}  // namespace
