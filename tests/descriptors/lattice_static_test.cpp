// Static tests for neuronrw/descriptors/lattice.hpp: the concepts, the generic operations, and
// the laws of max_lattice and product_lattice checked by the one generic checker at compile time.
#include <neuronrw/descriptors/lattice.hpp>

#include "lattice_universes.hpp"

#include <cstdint>
#include <vector>

namespace {

namespace lattice = neuronrw::lattice;
using neuronrw::max_lattice;
using neuronrw::product_lattice;

using u8 = max_lattice<std::uint8_t>;
using flag = max_lattice<bool>;

static_assert(neuronrw::join_semilattice<u8> && neuronrw::bounded_join_semilattice<u8>);
static_assert(neuronrw::bounded_join_semilattice<product_lattice<u8, flag>>);
static_assert(neuronrw::bounded_join_semilattice<product_lattice<product_lattice<u8, flag>, u8>>);
static_assert(!neuronrw::join_semilattice<int>);

// An unbounded instance: a lattice without top is still a join_semilattice.
struct unbounded {
  int v = 0;
  static constexpr unbounded bottom() { return {}; }
  static constexpr unbounded join(const unbounded& a, const unbounded& b) { return {a.v > b.v ? a.v : b.v}; }
  static constexpr bool leq(const unbounded& a, const unbounded& b) { return a.v <= b.v; }
  friend constexpr bool operator==(const unbounded&, const unbounded&) = default;
};
static_assert(neuronrw::join_semilattice<unbounded> && !neuronrw::bounded_join_semilattice<unbounded>);
static_assert(neuronrw::join_semilattice<product_lattice<unbounded, u8>>);
static_assert(!neuronrw::bounded_join_semilattice<product_lattice<unbounded, u8>>);

// A type adapted through the traits instead of members: int as a max lattice over [0, inf).
struct counter {
  int n = 0;
  friend constexpr bool operator==(const counter&, const counter&) = default;
};
}  // namespace
template <>
struct neuronrw::join_semilattice_traits<counter> {
  static constexpr counter bottom() { return {}; }
  static constexpr counter join(const counter& a, const counter& b) { return a.n < b.n ? b : a; }
  static constexpr bool leq(const counter& a, const counter& b) { return a.n <= b.n; }
};
namespace {
static_assert(neuronrw::join_semilattice<counter>);
static_assert(lattice::join(counter{3}, counter{5}) == counter{5});

// Generic operations.
static_assert(lattice::bottom<u8>() == u8{0} && lattice::top<u8>() == u8{255});
static_assert(lattice::join(u8{3}, u8{9}) == u8{9} && lattice::leq(u8{3}, u8{9}) && !lattice::leq(u8{9}, u8{3}));
static_assert(lattice::join_all(std::vector<u8>{}) == u8{0});
static_assert(lattice::join_all({u8{4}, u8{200}, u8{7}}) == u8{200});
static_assert(lattice::join_all({unbounded{4}, unbounded{-2}}) == unbounded{4});
static_assert(lattice::join(product_lattice<u8, flag>{u8{3}, flag{true}}, {u8{5}, flag{false}}) ==
              product_lattice<u8, flag>{u8{5}, flag{true}});
static_assert(!lattice::leq(product_lattice<u8, flag>{u8{3}, flag{true}}, {u8{5}, flag{false}}));

// The laws, checked exhaustively at compile time by the same checker the run-time tests use.
static_assert(lattice::check_laws(neuronrw::test::max_universe<bool>({false, true})).ok());
static_assert(lattice::check_laws(neuronrw::test::max_universe<std::uint8_t>({0, 1, 2, 3, 7, 128, 254, 255})).ok());
static_assert(lattice::check_laws(neuronrw::test::max_universe<std::int8_t>({-128, -1, 0, 1, 127})).ok());
static_assert(lattice::check_laws(neuronrw::test::product_universe(
                                      neuronrw::test::max_universe<std::uint8_t>({0, 1, 2, 255}),
                                      neuronrw::test::max_universe<bool>({false, true})))
                  .ok());
static_assert(lattice::check_laws(std::vector<unbounded>{{0}, {1}, {5}}).ok());

// The checker catches each broken law and names it, with the witnesses.
struct min_posing_as_join {  // join = min: ⊥ (0) is then not an identity
  int v = 0;
  static constexpr min_posing_as_join bottom() { return {}; }
  static constexpr min_posing_as_join join(const min_posing_as_join& a, const min_posing_as_join& b) {
    return {a.v < b.v ? a.v : b.v};
  }
  static constexpr bool leq(const min_posing_as_join& a, const min_posing_as_join& b) { return a.v <= b.v; }
  friend constexpr bool operator==(const min_posing_as_join&, const min_posing_as_join&) = default;
};
static_assert(lattice::check_laws(std::vector<min_posing_as_join>{{0}, {1}}) ==
              lattice::law_report{lattice::law::bottom_identity, 1, 0, 0});

struct left_projection {  // join(a, b) = a unless a is ⊥: not commutative
  int v = 0;
  static constexpr left_projection bottom() { return {}; }
  static constexpr left_projection join(const left_projection& a, const left_projection& b) {
    return a.v == 0 ? b : a;
  }
  static constexpr bool leq(const left_projection& a, const left_projection& b) { return a.v == 0 || a == b; }
  friend constexpr bool operator==(const left_projection&, const left_projection&) = default;
};
static_assert(lattice::check_laws(std::vector<left_projection>{{0}, {1}, {2}}) ==
              lattice::law_report{lattice::law::join_commutative, 1, 2, 0});

struct leq_too_strict {  // a correct max join with a discrete order (only ⊥ below others)
  int v = 0;
  static constexpr leq_too_strict bottom() { return {}; }
  static constexpr leq_too_strict join(const leq_too_strict& a, const leq_too_strict& b) { return a.v < b.v ? b : a; }
  static constexpr bool leq(const leq_too_strict& a, const leq_too_strict& b) { return a.v == 0 || a.v == b.v; }
  friend constexpr bool operator==(const leq_too_strict&, const leq_too_strict&) = default;
};
static_assert(lattice::check_laws(std::vector<leq_too_strict>{{1}, {2}}) ==
              lattice::law_report{lattice::law::leq_consistent, 0, 1, 0});

struct top_not_absorbing {  // claims a top that join does not respect
  int v = 0;
  static constexpr top_not_absorbing bottom() { return {}; }
  static constexpr top_not_absorbing top() { return {5}; }
  static constexpr top_not_absorbing join(const top_not_absorbing& a, const top_not_absorbing& b) {
    return a.v < b.v ? b : a;
  }
  static constexpr bool leq(const top_not_absorbing& a, const top_not_absorbing& b) { return a.v <= b.v; }
  friend constexpr bool operator==(const top_not_absorbing&, const top_not_absorbing&) = default;
};
static_assert(lattice::check_laws(std::vector<top_not_absorbing>{{1}, {9}}) ==
              lattice::law_report{lattice::law::top_absorbing, 1, 0, 0});

struct saturating_add {  // join = min(a + b, 3): not idempotent
  int v = 0;
  static constexpr saturating_add bottom() { return {}; }
  static constexpr saturating_add join(const saturating_add& a, const saturating_add& b) {
    return {a.v + b.v > 3 ? 3 : a.v + b.v};
  }
  static constexpr bool leq(const saturating_add& a, const saturating_add& b) { return a.v <= b.v; }
  friend constexpr bool operator==(const saturating_add&, const saturating_add&) = default;
};
static_assert(lattice::check_laws(std::vector<saturating_add>{{0}, {1}}) ==
              lattice::law_report{lattice::law::join_idempotent, 1, 0, 0});
static_assert(lattice::law_name(lattice::law::join_associative) == "join_associative");

}  // namespace
