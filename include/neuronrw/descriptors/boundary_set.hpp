// neuronrw/descriptors/boundary_set.hpp — compile-time sets of op-kind tags (collective boundaries).
//
// Customization points: none to specialize. A user declares a set from any kind tags, including
// their own (see kinds.hpp):
//   using my_boundary = neuronrw::default_boundary_set::with<neuronrw::kinds::collective_permute>;
// An op's membership is `S::contains(kind_id)`, or `S::contains_op(g, op)`, which reads the kind
// through the IR's `ir_traits<G>::kind` (concepts/ir.hpp) or, failing that, ADL `kind(g, op)`.
//
// Why not a hana::set: membership is asked for every op a dependence walk visits, so it must be
// an integer test on the op's pre-mapped kind_id, not a type-level search; and hana::set's
// compile time grows badly with size (docs/performance.md §"Compile-time descriptors": 1.5 s for
// 64 kinds and 54 s for 256 with g++, against 0.27 s and 0.41 s for a boundary_set). The tags
// stay available as a Hana sequence (`tags`) for compile-time iteration, which is cheap.
//
// Membership is by kind, i.e. by canonical name: two tag types with the same `name` are the same
// kind. Listing a kind twice, or two names whose kind_ids collide, is a compile error that names
// the tags.
#pragma once

#include <neuronrw/descriptors/kinds.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <string_view>
#include <type_traits>

#include <boost/hana/basic_tuple.hpp>
#include <boost/hana/bool.hpp>
#include <boost/hana/not.hpp>  // so `!S::contains(hana::type_c<T>)` works
#include <boost/hana/type.hpp>

namespace neuronrw {

/// Compile errors whose template arguments name the offending tags or kind names. They are
/// instantiated only on the error path.
namespace error {

template <class First, class Second>
struct duplicate_kind_in_boundary_set {
  static_assert(sizeof(First) == 0,
                "neuronrw::boundary_set: duplicate kind tag. The two tags in this error's template "
                "arguments name the same kind (same `name`); list each kind once, or build the set "
                "with neuronrw::boundary_set_union_t, which drops kinds already present.");
};

template <class First, class Second>
struct colliding_kind_ids_in_boundary_set {
  static_assert(sizeof(First) == 0,
                "neuronrw::boundary_set: two different kind names have the same kind_id (32-bit "
                "FNV-1a collision), so run-time membership could not tell them apart; rename one "
                "of the two tags in this error's template arguments.");
};

}  // namespace error

// Declared, not defined, here: the IR concepts (concepts/ir.hpp) own it. Naming it lets
// contains_op use an IR's traits without this header depending on the concepts.
template <class G>
struct ir_traits;

namespace detail {

template <class Graph, class Op>
concept has_traits_kind = requires(const Graph& g, const Op& op) {
  { ir_traits<Graph>::kind(g, op) } -> std::convertible_to<kind_id>;
};
template <class Graph, class Op>
concept has_adl_kind = requires(const Graph& g, const Op& op) {
  { kind(g, op) } -> std::convertible_to<kind_id>;
};

template <id_conflict C, std::size_t I, std::size_t J, class... Tags>
struct boundary_set_diagnose : std::true_type {};
template <std::size_t I, std::size_t J, class... Tags>
struct boundary_set_diagnose<id_conflict::same_name, I, J, Tags...>
    : std::bool_constant<(sizeof(error::duplicate_kind_in_boundary_set<nth_type_t<I, Tags...>,
                                                                       nth_type_t<J, Tags...>>) > 0)> {};
template <std::size_t I, std::size_t J, class... Tags>
struct boundary_set_diagnose<id_conflict::same_id, I, J, Tags...>
    : std::bool_constant<(sizeof(error::colliding_kind_ids_in_boundary_set<
                                 nth_type_t<I, Tags...>, nth_type_t<J, Tags...>>) > 0)> {};

}  // namespace detail

/// A compile-time set of kind tags.
///
/// - `contains(kind_id)`: run-time membership, O(1) (see detail::kind_id_index), constexpr.
/// - `contains_v<Tag>` / `contains(hana::type_c<Tag>)`: compile-time membership, for static_assert.
/// - `contains_op(g, op)`: membership of an op of any IR whose adapter provides
///   `kind(g, op) -> kind_id` (found by ADL).
/// - `with<More...>`: extension (a kind already present is a duplicate-tag error);
///   `boundary_set_union_t<A, B>` / `a | b`: union (kinds already present are dropped).
/// - `ids()`, `names()`: the members' ids and names in declaration order; `tags`: a Hana sequence
///   of `hana::type<Tag>` for compile-time iteration (`hana::for_each(S::tags, f)`).
template <kind_tag_type... Tags>
class boundary_set {
  static constexpr std::array<std::string_view, sizeof...(Tags)> names_{
      std::string_view(Tags::name)...};
  static constexpr detail::kind_id_index<sizeof...(Tags)> index_ = detail::make_kind_id_index(names_);
  static_assert(detail::boundary_set_diagnose<index_.conflict, index_.conflict_first,
                                              index_.conflict_second, Tags...>::value);

 public:
  static constexpr std::size_t size() noexcept { return sizeof...(Tags); }
  static constexpr const std::array<kind_id, sizeof...(Tags)>& ids() noexcept { return index_.ids; }
  static constexpr const std::array<std::string_view, sizeof...(Tags)>& names() noexcept {
    return names_;
  }

  static constexpr boost::hana::basic_tuple<boost::hana::type<Tags>...> tags{};

  /// O(1) run-time membership of an op's kind. unknown_kind is never a member.
  static constexpr bool contains(kind_id id) noexcept { return index_.find(id) != detail::npos_index; }

  /// Compile-time membership by kind; exact even if a foreign name's id collided with a member's.
  template <kind_tag_type Tag>
  static constexpr bool contains_v = [] {
    const std::size_t i = index_.find(kind_id_v<Tag>);
    return i != detail::npos_index && names_[i] == std::string_view(Tag::name);
  }();

  template <kind_tag_type Tag>
  static constexpr boost::hana::bool_<contains_v<Tag>> contains(boost::hana::basic_type<Tag>) noexcept {
    return {};
  }

  /// Position of a kind in declaration order, or detail::npos_index. O(1).
  static constexpr std::size_t position(kind_id id) noexcept { return index_.find(id); }

  /// Membership of an op of any IR model: one call to the adapter's kind mapping, then O(1).
  /// The mapping is `ir_traits<Graph>::kind(g, op)` (the IR concepts, concepts/ir.hpp) when the
  /// IR has one, else `kind(g, op)` found by ADL.
  template <class Graph, class Op>
    requires detail::has_traits_kind<Graph, Op> || detail::has_adl_kind<Graph, Op>
  static constexpr bool contains_op(const Graph& g, const Op& op) {
    if constexpr (detail::has_traits_kind<Graph, Op>)
      return contains(static_cast<kind_id>(ir_traits<Graph>::kind(g, op)));
    else
      return contains(static_cast<kind_id>(kind(g, op)));
  }

  template <kind_tag_type... More>
  using with = boundary_set<Tags..., More...>;
};

namespace detail {
template <class List>
struct boundary_set_from_list;
template <class... Ts>
struct boundary_set_from_list<type_list<Ts...>> {
  using type = boundary_set<Ts...>;
};
template <class A, class B>
struct boundary_set_union;
template <class... As, class... Bs>
struct boundary_set_union<boundary_set<As...>, boundary_set<Bs...>> {
  // One pack expansion, no recursion: each of B's tags contributes itself or nothing.
  using type = typename boundary_set_from_list<decltype((
      type_list<As...>{} + ... +
      std::conditional_t<boundary_set<As...>::template contains_v<Bs>, type_list<>, type_list<Bs>>{}))>::type;
};
}  // namespace detail

/// Union: A's tags in order, then B's tags whose kind A lacks. O(|A| + |B|) instantiations.
template <class A, class B>
using boundary_set_union_t = typename detail::boundary_set_union<A, B>::type;

template <class... As, class... Bs>
constexpr boundary_set_union_t<boundary_set<As...>, boundary_set<Bs...>> operator|(
    boundary_set<As...>, boundary_set<Bs...>) noexcept {
  return {};
}

/// The original ScheduleFusion's four-collective boundary set (docs/sources.md §"The
/// four-collective boundary set"): a dependence
/// walk stops at any of these, because a second collective on the producer chain is a scheduling
/// barrier that overlap must not reach across.
using default_boundary_set =
    boundary_set<kinds::all_gather, kinds::reduce_scatter, kinds::all_reduce, kinds::all_to_all>;

inline constexpr default_boundary_set default_boundary{};

}  // namespace neuronrw
