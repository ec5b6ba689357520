// Static tests for neuronrw/descriptors/device_coverage.hpp: SPEC §3's equations and the lattice
// laws, evaluated by the compiler (device_coverage is constexpr, spilled intervals included).
#include <neuronrw/descriptors/device_coverage.hpp>

#include "lattice_universes.hpp"

#include <iterator>
#include <ranges>
#include <vector>

namespace {

namespace lattice = neuronrw::lattice;
using dc = neuronrw::device_coverage;

static_assert(neuronrw::bounded_join_semilattice<dc>);
static_assert(std::forward_iterator<dc::rank_iterator>);
static_assert(std::ranges::forward_range<dc::rank_view>);

// ⊥ is the identity, ⊤ absorbs, sets unite (SPEC §3).
static_assert(dc::join(dc::bottom(), dc::of({1, 2})) == dc::of({1, 2}));
static_assert(dc::join(dc::all(), dc::of({1, 2})) == dc::all());
static_assert(dc::join(dc::of({0, 1}), dc::of({1, 2})) == dc::of({0, 1, 2}));
static_assert(dc::join(dc::of({0, 1}), dc::of({1, 2})) == dc::range(0, 3));
static_assert(dc::join(dc::bottom(), dc::bottom()).is_bottom());

// The empty set is ⊥; a range is one interval; order and duplicates do not matter.
static_assert(dc::of({}).is_bottom() && dc::range(4, 4).is_bottom());
static_assert(dc::of({3, 1, 2, 2, 1}) == dc::range(1, 4));
static_assert(dc::range(1, 4).intervals().size() == 1);
static_assert(dc::of({0, 2, 4}).intervals().size() == 3);  // spills past the 2 inline intervals
static_assert(dc::of({0, 2, 4}) != dc::of({0, 2}) && dc::of({0, 1}) != dc::of({0, 1, 2}));
static_assert(dc::all() != dc::range(0, 4294967295u));  // ⊤ is not a finite set

// Order.
static_assert(dc::leq(dc::bottom(), dc::of({7})) && dc::leq(dc::of({7}), dc::all()));
static_assert(!dc::leq(dc::all(), dc::range(0, 100000)));
static_assert(dc::leq(dc::of({2, 5}), dc::of({1, 2, 3, 5})) && !dc::leq(dc::of({2, 4}), dc::of({1, 2, 3, 5})));

// Observers.
static_assert(dc::range(0, 65536).rank_count() == 65536);
static_assert(!dc::all().rank_count() && dc::bottom().rank_count() == 0);
static_assert(dc::of({5, 9}).contains(9) && !dc::of({5, 9}).contains(7) && dc::all().contains(123456));
static_assert(!dc::bottom().contains(0));
static_assert([] {
  std::vector<dc::rank_type> got;
  const dc c = dc::of({9, 1, 2, 3, 7});  // ranks() views c: c must outlive the loop
  for (dc::rank_type r : c.ranks()) got.push_back(r);
  return got == std::vector<dc::rank_type>{1, 2, 3, 7, 9};
}());
// Rank 2^32-1 does not overflow the adjacency test.
static_assert(dc::join(dc::single(4294967295u), dc::single(4294967294u)).intervals().size() == 1);
static_assert(dc::join(dc::single(4294967295u), dc::single(4294967294u)).rank_count() == 2);
static_assert(dc::join(dc::single(4294967295u), dc::single(0)).intervals().size() == 2);

// The laws, exhaustively over ⊥, the subsets of {0, 2, 4}, {1}, {1, 3} and ⊤ (11 elements).
static_assert(lattice::check_laws(neuronrw::test::small_coverage_universe()).ok());
// The product with a max lattice: coverage plus a "stage" descriptor.
static_assert(lattice::check_laws(neuronrw::test::product_universe(
                                      neuronrw::test::coverage_universe({0, 1}),
                                      neuronrw::test::max_universe<bool>({false, true})))
                  .ok());

// The bulk join (vectors are filled by push_back: g++ 12 cannot copy an initializer_list of
// objects owning constexpr-allocated memory).
constexpr std::vector<dc> three(dc a, dc b, dc c) {
  std::vector<dc> v;
  v.push_back(a);
  v.push_back(b);
  v.push_back(c);
  return v;
}
static_assert(lattice::join_all(three(dc::single(3), dc::range(0, 3), dc::single(5))) == dc::of({0, 1, 2, 3, 5}));
static_assert(lattice::join_all(three(dc::single(3), dc::all(), dc::single(5))) == dc::all());
static_assert(lattice::join_all(std::vector<dc>{}).is_bottom());

}  // namespace
