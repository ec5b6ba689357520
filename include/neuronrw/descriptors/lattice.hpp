// neuronrw/descriptors/lattice.hpp — join-semilattices for merging descriptors: the concept,
// generic operations, a law checker, and two generic instances (max_lattice, product_lattice).
//
// Customization points:
//   - `neuronrw::join_semilattice_traits<L>`: specialize with static `bottom()`, `join(a, b)`,
//     `leq(a, b)` and optionally `top()` and `join_all(range)`, to adapt a type you cannot change.
//   - or give L the same members directly (static `bottom()`, `join(a, b)`, `leq(a, b)`, and
//     optionally `top()`, `join_all(range)`): the primary traits forward to them.
// The device-coverage lattice (docs/descriptors.md §"Lattices") is in device_coverage.hpp.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <string_view>
#include <type_traits>
#include <utility>

#include <neuronrw/detail/ranges.hpp>

namespace neuronrw {

/// Lattice operations of L; the primary template forwards to L's static members.
template <class L>
struct join_semilattice_traits {
  static constexpr L bottom()
    requires requires { { L::bottom() } -> std::convertible_to<L>; }
  {
    return L::bottom();
  }
  static constexpr L top()
    requires requires { { L::top() } -> std::convertible_to<L>; }
  {
    return L::top();
  }
  static constexpr L join(const L& a, const L& b)
    requires requires { { L::join(a, b) } -> std::convertible_to<L>; }
  {
    return L::join(a, b);
  }
  static constexpr bool leq(const L& a, const L& b)
    requires requires { { L::leq(a, b) } -> std::convertible_to<bool>; }
  {
    return L::leq(a, b);
  }
  template <class R>
  static constexpr L join_all(R&& range)
    requires requires { { L::join_all(std::forward<R>(range)) } -> std::convertible_to<L>; }
  {
    return L::join_all(std::forward<R>(range));
  }
};

namespace detail {
template <class L>
concept has_lattice_bottom = requires {
  { join_semilattice_traits<L>::bottom() } -> std::same_as<L>;
};
template <class L>
concept has_lattice_join = requires(const L& a, const L& b) {
  { join_semilattice_traits<L>::join(a, b) } -> std::same_as<L>;
};
template <class L>
concept has_lattice_leq = requires(const L& a, const L& b) {
  { join_semilattice_traits<L>::leq(a, b) } -> std::same_as<bool>;
};
}  // namespace detail

/// A join-semilattice (L, ⊑, ⊔, ⊥). Requirements:
///   1. L is copyable and equality-comparable (a == b iff a ⊑ b and b ⊑ a);
///   2. `join_semilattice_traits<L>::bottom()` -> L: the least element;
///   3. `join_semilattice_traits<L>::join(a, b)` -> L: the least upper bound (associative,
///      commutative, idempotent, with ⊥ as identity);
///   4. `join_semilattice_traits<L>::leq(a, b)` -> bool: a ⊑ b, equivalent to join(a, b) == b.
/// Laws 3 and 4 are semantic; `lattice::check_laws` verifies them over a universe of values.
template <class L>
concept join_semilattice = std::copyable<L> && std::equality_comparable<L> &&
                           detail::has_lattice_bottom<L> && detail::has_lattice_join<L> &&
                           detail::has_lattice_leq<L>;

/// A join-semilattice with a greatest element: 5. `join_semilattice_traits<L>::top()` -> L,
/// absorbing for join.
template <class L>
concept bounded_join_semilattice = join_semilattice<L> && requires {
  { join_semilattice_traits<L>::top() } -> std::same_as<L>;
};

namespace error {
/// Instantiated where a join_semilattice is required; each failed requirement gets its own
/// message naming the fix. T is the offending type.
template <class T>
struct not_a_join_semilattice {
  static_assert(std::copyable<T> && std::equality_comparable<T>,
                "neuronrw: this type is not a join_semilattice: it must be copyable and "
                "equality-comparable (operator==)");
  static_assert(detail::has_lattice_bottom<T>,
                "neuronrw: this type is not a join_semilattice: no bottom. Give it `static T "
                "bottom()` or specialize neuronrw::join_semilattice_traits<T> with `static T "
                "bottom()`");
  static_assert(detail::has_lattice_join<T>,
                "neuronrw: this type is not a join_semilattice: no join. Give it `static T "
                "join(const T&, const T&)` or specialize neuronrw::join_semilattice_traits<T> "
                "with it");
  static_assert(detail::has_lattice_leq<T>,
                "neuronrw: this type is not a join_semilattice: no leq. Give it `static bool "
                "leq(const T&, const T&)` or specialize neuronrw::join_semilattice_traits<T> "
                "with it");
  static constexpr bool value = true;
};
}  // namespace error

namespace detail {
// Asserting this class's ::value (rather than a variable template) keeps clang from adding a
// second "not an integral constant expression" error after the requirement's own message.
template <class T>
struct join_semilattice_check : std::bool_constant<(sizeof(error::not_a_join_semilattice<T>) > 0)> {};
}  // namespace detail

/// `static_assert(neuronrw::require_join_semilattice<T>)`: true, or errors that name the missing
/// requirement (the concept alone would only say "constraints not satisfied"). Inside a template,
/// prefer `static_assert(detail::join_semilattice_check<T>::value)`: same errors, and clang adds
/// no follow-up error.
template <class T>
inline constexpr bool require_join_semilattice = detail::join_semilattice_check<T>::value;

/// Generic lattice operations, for any join_semilattice. Called qualified (`lattice::join`), so
/// the names cannot be captured by unrelated ADL overloads.
namespace lattice {

// Each operation asserts the concept (a readable error naming the type and the missing part),
// then does its work only when the concept holds, so that error is the only one.

template <class L>
constexpr L bottom() {
  static_assert(detail::join_semilattice_check<L>::value);
  if constexpr (join_semilattice<L>) return join_semilattice_traits<L>::bottom();
  else std::abort();
}

template <class L>
constexpr L top() {
  static_assert(detail::join_semilattice_check<L>::value);
  static_assert(bounded_join_semilattice<L>,
                "neuronrw::lattice::top: this lattice has no top; give it `static T top()` or "
                "specialize neuronrw::join_semilattice_traits<T>::top()");
  if constexpr (bounded_join_semilattice<L>) return join_semilattice_traits<L>::top();
  else std::abort();
}

template <class L>
constexpr L join(const L& a, const L& b) {
  static_assert(detail::join_semilattice_check<L>::value);
  if constexpr (join_semilattice<L>) return join_semilattice_traits<L>::join(a, b);
  else std::abort();
}

template <class L>
constexpr bool leq(const L& a, const L& b) {
  static_assert(detail::join_semilattice_check<L>::value);
  if constexpr (join_semilattice<L>) return join_semilattice_traits<L>::leq(a, b);
  else std::abort();
}

namespace impl {
template <class R>
constexpr std::ranges::range_value_t<R> join_all_range(R&& range) {
  using L = std::ranges::range_value_t<R>;
  static_assert(detail::join_semilattice_check<L>::value);
  using traits = join_semilattice_traits<L>;
  if constexpr (!join_semilattice<L>) {
    std::abort();
  } else if constexpr (requires { { traits::join_all(std::forward<R>(range)) } -> std::same_as<L>; }) {
    return traits::join_all(std::forward<R>(range));
  } else {
    L acc = traits::bottom();
    if constexpr (bounded_join_semilattice<L>) {
      const L t = traits::top();
      for (auto&& x : range) {
        acc = traits::join(acc, x);
        if (acc == t) break;
      }
    } else {
      for (auto&& x : range) acc = traits::join(acc, x);
    }
    return acc;
  }
}
}  // namespace impl

/// The join of every element of `range` (⊥ for an empty range).
///
/// Uses the lattice's own `join_all` when it has one (device_coverage merges all its intervals in
/// one sort instead of n pairwise merges); otherwise a left fold, O(n) joins, that stops early
/// once a bounded lattice reaches ⊤ (nothing can change it after that).
template <std::ranges::input_range R>
constexpr std::ranges::range_value_t<R> join_all(R&& range) {
  return impl::join_all_range(std::forward<R>(range));
}

template <class L>
constexpr L join_all(std::initializer_list<L> values) {
  return impl::join_all_range(values);
}

/// A law of join_semilattice / bounded_join_semilattice.
enum class law : std::uint8_t {
  none,                 // every law holds
  join_associative,     // join(join(a, b), c) == join(a, join(b, c))
  join_commutative,     // join(a, b) == join(b, a)
  join_idempotent,      // join(a, a) == a
  bottom_identity,      // join(⊥, a) == a and leq(⊥, a)
  top_absorbing,        // join(⊤, a) == ⊤ and leq(a, ⊤)
  leq_consistent,       // leq(a, b) == (join(a, b) == b)
  leq_antisymmetric,    // leq(a, b) && leq(b, a) implies a == b
};

constexpr std::string_view law_name(law l) noexcept {
  switch (l) {
    case law::none: return "none";
    case law::join_associative: return "join_associative";
    case law::join_commutative: return "join_commutative";
    case law::join_idempotent: return "join_idempotent";
    case law::bottom_identity: return "bottom_identity";
    case law::top_absorbing: return "top_absorbing";
    case law::leq_consistent: return "leq_consistent";
    case law::leq_antisymmetric: return "leq_antisymmetric";
  }
  return "unknown";
}

/// The first law that fails and the universe positions that witness it (b, c unused by unary
/// laws). `ok()` when every law holds.
struct law_report {
  law failed = law::none;
  std::size_t a = 0;
  std::size_t b = 0;
  std::size_t c = 0;
  constexpr bool ok() const noexcept { return failed == law::none; }
  friend constexpr bool operator==(const law_report&, const law_report&) = default;
};

/// Checks every law over all pairs and triples of `universe` (plus ⊥ and, when bounded, ⊤).
/// One checker for every instance, usable in a static_assert when L is constexpr.
/// O(|U|^3) joins: keep universes small (tens of elements) and exhaustive.
template <std::ranges::random_access_range U>
  requires std::ranges::sized_range<U>
constexpr law_report check_laws(const U& universe) {
  using L = std::ranges::range_value_t<U>;
  static_assert(detail::join_semilattice_check<L>::value);
  if constexpr (!join_semilattice<L>) {
    std::abort();
  } else {
    using traits = join_semilattice_traits<L>;
    const std::size_t n = std::ranges::size(universe);
    auto at = [&](std::size_t i) -> const L& {
      return std::ranges::begin(universe)[static_cast<std::ptrdiff_t>(i)];
    };
    const L bot = traits::bottom();
    for (std::size_t i = 0; i < n; ++i) {
      const L& a = at(i);
      if (!(traits::join(a, a) == a)) return {law::join_idempotent, i, 0, 0};
      if (!(traits::join(bot, a) == a) || !(traits::join(a, bot) == a) || !traits::leq(bot, a))
        return {law::bottom_identity, i, 0, 0};
      if constexpr (bounded_join_semilattice<L>) {
        const L t = traits::top();
        if (!(traits::join(t, a) == t) || !(traits::join(a, t) == t) || !traits::leq(a, t))
          return {law::top_absorbing, i, 0, 0};
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        const L& a = at(i);
        const L& b = at(j);
        const L ab = traits::join(a, b);
        if (!(ab == traits::join(b, a))) return {law::join_commutative, i, j, 0};
        if (traits::leq(a, b) != (ab == b)) return {law::leq_consistent, i, j, 0};
        if (traits::leq(a, b) && traits::leq(b, a) && !(a == b))
          return {law::leq_antisymmetric, i, j, 0};
        for (std::size_t k = 0; k < n; ++k) {
          const L& c = at(k);
          if (!(traits::join(ab, c) == traits::join(a, traits::join(b, c))))
            return {law::join_associative, i, j, k};
        }
      }
    }
    return {};
  }
}

}  // namespace lattice

/// The chain lattice of a totally ordered arithmetic type under max: ⊥ = lowest(), ⊤ = max().
/// E.g. a "latest stage reached" descriptor; max_lattice<bool> is the two-point lattice.
template <class T>
  requires std::totally_ordered<T> && std::numeric_limits<T>::is_specialized
struct max_lattice {
  T value = std::numeric_limits<T>::lowest();

  static constexpr max_lattice bottom() noexcept { return {}; }
  static constexpr max_lattice top() noexcept { return {std::numeric_limits<T>::max()}; }
  static constexpr max_lattice join(const max_lattice& a, const max_lattice& b) noexcept {
    return a.value < b.value ? b : a;
  }
  static constexpr bool leq(const max_lattice& a, const max_lattice& b) noexcept {
    return !(b.value < a.value);
  }
  friend constexpr bool operator==(const max_lattice&, const max_lattice&) = default;
};

/// The product of two lattices, ordered componentwise: join and leq act per component,
/// ⊥ = (⊥, ⊥), and ⊤ = (⊤, ⊤) exists when both have one. Nest it for more components.
template <class A, class B>
struct product_lattice {
  // Each names its component type and the missing requirement if A or B is not a lattice.
  static_assert(detail::join_semilattice_check<A>::value);
  static_assert(detail::join_semilattice_check<B>::value);

  A first = join_semilattice_traits<A>::bottom();
  B second = join_semilattice_traits<B>::bottom();

  static constexpr product_lattice bottom() { return {}; }
  static constexpr product_lattice top()
    requires bounded_join_semilattice<A> && bounded_join_semilattice<B>
  {
    return {join_semilattice_traits<A>::top(), join_semilattice_traits<B>::top()};
  }
  static constexpr product_lattice join(const product_lattice& x, const product_lattice& y) {
    return {join_semilattice_traits<A>::join(x.first, y.first),
            join_semilattice_traits<B>::join(x.second, y.second)};
  }
  static constexpr bool leq(const product_lattice& x, const product_lattice& y) {
    return join_semilattice_traits<A>::leq(x.first, y.first) &&
           join_semilattice_traits<B>::leq(x.second, y.second);
  }
  friend constexpr bool operator==(const product_lattice&, const product_lattice&) = default;
};

}  // namespace neuronrw
