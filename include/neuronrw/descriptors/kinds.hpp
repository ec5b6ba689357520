// neuronrw/descriptors/kinds.hpp — op-kind tags and their run-time ids.
//
// Customization points: none to specialize. A user adds a kind by declaring a tag type
//   struct collective_permute : neuronrw::kind_tag<collective_permute> {
//     static constexpr std::string_view name = "collective_permute";
//   };
// (or with NEURONRW_DECLARE_KIND(collective_permute)) without touching the library.
//
// Why an id is a hash of the canonical name: an adapter maps each of its ops to a kind_id once
// (the reference IR does it when an op is created), and every later classification is an integer
// compare. Hashing the name means user tags need no central enumeration and two libraries that
// both declare "collective_permute" agree on its id. Boundary sets reject colliding ids at
// compile time, so a collision can never classify silently wrong inside one set.
#pragma once

#include <concepts>
#include <cstdint>
#include <string_view>

namespace neuronrw {

/// Run-time identity of an op kind: 32-bit FNV-1a of the canonical kind name
/// (e.g. "all_gather"). 0 is reserved for "no kind / unclassified".
using kind_id = std::uint32_t;

inline constexpr kind_id unknown_kind = 0;

/// The id of a canonical kind name. constexpr, so tag ids are compile-time constants.
constexpr kind_id kind_id_of(std::string_view name) noexcept {
  std::uint32_t h = 2166136261u;
  for (char c : name) {
    h ^= static_cast<std::uint8_t>(c);
    h *= 16777619u;
  }
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
