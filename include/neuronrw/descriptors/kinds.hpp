// neuronrw/descriptors/kinds.hpp — op-kind tags and their run-time ids.
//
// Customization points: none to specialize. A user adds a kind by declaring a tag type
//   struct collective_permute : neuronrw::kind_tag<collective_permute> {
//     static constexpr std::string_view name = "collective_permute";
//   };
// (or with NEURONRW_DECLARE_KIND(collective_permute), or as neuronrw::named_kind<"collective_permute">)
// without touching the library.
//
// Also here, because every descriptor needs them: `fixed_string` (kind names as C++20 template
// arguments) and `detail::kind_id_index` (the O(1) id -> position table that boundary sets and
// kind registries share).
//
// Why an id is a hash of the canonical name: an adapter maps each of its ops to a kind_id once
// (the reference IR does it when an op is created), and every later classification is an integer
// compare. Hashing the name means user tags need no central enumeration and two libraries that
// both declare "collective_permute" agree on its id. Boundary sets reject colliding ids at
// compile time, so a collision can never classify silently wrong inside one set.
#pragma once

#include <array>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#include <neuronrw/detail/fnv1a.hpp>

namespace neuronrw {

/// Run-time identity of an op kind: 32-bit FNV-1a of the canonical kind name
/// (e.g. "all_gather"). 0 is reserved for "no kind / unclassified".
using kind_id = std::uint32_t;

inline constexpr kind_id unknown_kind = 0;

/// The id of a canonical kind name. constexpr, so tag ids are compile-time constants.
constexpr kind_id kind_id_of(std::string_view name) noexcept {
  const std::uint32_t h = detail::fnv1a_32_of(name);
  return h == unknown_kind ? 1u : h;
}

/// CRTP base that marks a type as a kind tag. The derived type supplies
/// `static constexpr std::string_view name`.
template <class Derived>
struct kind_tag {};

namespace detail {
template <class T>
concept has_kind_name = requires {
  { T::name } -> std::convertible_to<std::string_view>;
};
}  // namespace detail

/// A kind tag: a type with a static `name` (the canonical, dialect-free kind name).
template <class T>
concept kind_tag_type = detail::has_kind_name<T>;

/// Compile-time id of a tag.
template <kind_tag_type Tag>
inline constexpr kind_id kind_id_v = kind_id_of(Tag::name);

#define NEURONRW_DECLARE_KIND(tag_name)                                  \
  struct tag_name : ::neuronrw::kind_tag<tag_name> {                     \
    static constexpr ::std::string_view name = #tag_name;                \
  }

/// A string usable as a template argument (C++20 class-type NTTP): `kind_registry<..., "Expm1">`,
/// `named_kind<"collective_permute">`. N is the length without the terminating NUL.
template <std::size_t N>
struct fixed_string {
  char chars[N + 1]{};  // public: a structural type is required for template arguments

  constexpr fixed_string(const char (&s)[N + 1]) noexcept {  // NOLINT: implicit by design
    for (std::size_t i = 0; i <= N; ++i) chars[i] = s[i];
  }
  static constexpr std::size_t size() noexcept { return N; }
  constexpr std::string_view view() const noexcept { return {chars, N}; }
  constexpr operator std::string_view() const noexcept { return view(); }  // NOLINT
};

template <std::size_t N>
fixed_string(const char (&)[N]) -> fixed_string<N - 1>;

/// A kind tag made from a name alone, for users who prefer not to declare a struct:
/// `boundary_set<kinds::all_gather, named_kind<"collective_permute">>`.
template <fixed_string Name>
struct named_kind : kind_tag<named_kind<Name>> {
  static constexpr std::string_view name = Name.view();
};

namespace detail {

inline constexpr std::size_t npos_index = static_cast<std::size_t>(-1);

// Mp11-style O(1) indexing into a pack: overload resolution picks the base with index I, so no
// recursive instantiation is needed. Used only on error paths, to name the offending tags.
template <std::size_t I, class T>
struct indexed_type {
  using type = T;
};
template <class Seq, class... Ts>
struct indexed_types;
template <std::size_t... Is, class... Ts>
struct indexed_types<std::index_sequence<Is...>, Ts...> : indexed_type<Is, Ts>... {};
template <std::size_t I, class T>
indexed_type<I, T> select_indexed(const indexed_type<I, T>&);
template <std::size_t I, class... Ts>
using nth_type_t = typename decltype(select_indexed<I>(
    std::declval<indexed_types<std::index_sequence_for<Ts...>, Ts...>>()))::type;

template <class... Ts>
struct type_list {};
template <class... As, class... Bs>
type_list<As..., Bs...> operator+(type_list<As...>, type_list<Bs...>);

template <auto... Vs>
inline constexpr bool dependent_false_value_v = false;

/// Why a list of kind names cannot form one index: the same name twice, or two different names
/// whose 32-bit ids collide (either would make an id-based lookup answer for the wrong kind).
enum class id_conflict : std::uint8_t { none, same_name, same_id };

/// Constant-time map from a kind_id to its position in a compile-time list of kinds.
///
/// Why two strategies: up to `linear_max` ids fit in one cache line, and an unrolled scan of a
/// constant array is cheaper than hashing (no dependent load); beyond that an open-addressing
/// table (Fibonacci hashing of the id, linear probing, load factor <= 1/2) answers in ~1.5 probes
/// on average and never more than `max_probe + 1`, a bound fixed when the table is built.
/// Building it also detects duplicates in O(N) expected time, which keeps 256-kind lists cheap to
/// compile (a pairwise check would be 32k comparisons in the constant evaluator).
template <std::size_t N>
struct kind_id_index {
  static constexpr std::size_t linear_max = 8;
  static constexpr bool hashed = N > linear_max;
  static constexpr std::size_t capacity = hashed ? std::bit_ceil(2 * N) : 1;
  static constexpr int shift = hashed ? 32 - std::countr_zero(capacity) : 0;

  std::array<kind_id, N> ids{};                   // in declaration order
  std::array<kind_id, capacity> slot_id{};        // unknown_kind (0) marks an empty slot
  std::array<std::uint32_t, capacity> slot_pos{};
  std::size_t max_probe = 0;
  id_conflict conflict = id_conflict::none;
  std::size_t conflict_first = 0;   // positions of the first conflicting pair
  std::size_t conflict_second = 0;

  static constexpr std::size_t home_slot(kind_id id) noexcept {
    return static_cast<std::uint32_t>(id * 2654435769u) >> shift;
  }

  /// Position of `id`, or npos_index. O(1): at most max(N, linear_max) compares unrolled, or
  /// max_probe + 1 probes.
  constexpr std::size_t find(kind_id id) const noexcept {
    if constexpr (!hashed) {
      for (std::size_t i = 0; i < N; ++i)
        if (ids[i] == id) return i;
      return npos_index;
    } else {
      if (id == unknown_kind) return npos_index;  // 0 marks empty slots
      std::size_t s = home_slot(id);
      for (std::size_t p = 0; p <= max_probe; ++p, s = (s + 1) & (capacity - 1)) {
        if (slot_id[s] == id) return slot_pos[s];
        if (slot_id[s] == unknown_kind) return npos_index;
      }
      return npos_index;
    }
  }
};

/// Builds the index of `names` (canonical kind names, in declaration order) and records the first
/// conflict instead of failing, so the caller can report it with the offending names.
template <std::size_t N>
constexpr kind_id_index<N> make_kind_id_index(const std::array<std::string_view, N>& names) noexcept {
  kind_id_index<N> index;
  for (std::size_t i = 0; i < N; ++i) index.ids[i] = kind_id_of(names[i]);
  auto record = [&](std::size_t first, std::size_t second) {
    if (index.conflict != id_conflict::none) return;
    index.conflict = names[first] == names[second] ? id_conflict::same_name : id_conflict::same_id;
    index.conflict_first = first;
    index.conflict_second = second;
  };
  if constexpr (!kind_id_index<N>::hashed) {
    for (std::size_t j = 1; j < N; ++j)
      for (std::size_t i = 0; i < j; ++i)
        if (index.ids[i] == index.ids[j]) record(i, j);
  } else {
    constexpr std::size_t mask = kind_id_index<N>::capacity - 1;
    for (std::size_t i = 0; i < N; ++i) {
      const kind_id id = index.ids[i];
      std::size_t s = kind_id_index<N>::home_slot(id);
      std::size_t probe = 0;
      while (index.slot_id[s] != unknown_kind && index.slot_id[s] != id) {
        s = (s + 1) & mask;
        ++probe;
      }
      if (index.slot_id[s] == id) {
        record(index.slot_pos[s], i);
        continue;
      }
      index.slot_id[s] = id;
      index.slot_pos[s] = static_cast<std::uint32_t>(i);
      if (probe > index.max_probe) index.max_probe = probe;
    }
  }
  return index;
}

}  // namespace detail

/// The kinds the library's passes name. Canonical names are dialect-free: an adapter maps
/// "mhlo.all_gather" and "stablehlo.all_gather" alike to `kinds::all_gather`.
namespace kinds {
NEURONRW_DECLARE_KIND(all_gather);
NEURONRW_DECLARE_KIND(reduce_scatter);
NEURONRW_DECLARE_KIND(all_reduce);
NEURONRW_DECLARE_KIND(all_to_all);
NEURONRW_DECLARE_KIND(collective_permute);
NEURONRW_DECLARE_KIND(get_tuple_element);
NEURONRW_DECLARE_KIND(fusion);     // the grouping op (mhlo.fusion)
NEURONRW_DECLARE_KIND(composite);  // stablehlo.composite
NEURONRW_DECLARE_KIND(func);       // a function-like op (func.func)
NEURONRW_DECLARE_KIND(call);       // func.call
// any region/function terminator that returns values; `return` is a keyword, hence the spelling
struct return_ : ::neuronrw::kind_tag<return_> {
  static constexpr std::string_view name = "return";
};
NEURONRW_DECLARE_KIND(module);     // builtin.module
}  // namespace kinds

}  // namespace neuronrw
