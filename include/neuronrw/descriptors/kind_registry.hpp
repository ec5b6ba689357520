// neuronrw/descriptors/kind_registry.hpp — compile-time registries of kind names: validation
// diagnostics, lookup, iteration and exhaustive dispatch (docs/descriptors.md §"Kind registries";
// the original's registries: docs/sources.md §"The fusion-name registry").
//
// Customization points: none to specialize. A user declares a registry in one line,
//   using my_registry = neuronrw::fusion_op_registry::with_kinds<"RmsNorm">;
// or from scratch,
//   using my_registry = neuronrw::kind_registry<"Unknown kind '{}'; expected one of: {}.",
//                                               neuronrw::list_style::comma_and, "A", "B">;
// and dispatches with one handler per kind:
//   my_registry::dispatch(name, neuronrw::handlers(neuronrw::on<"A">(fa), neuronrw::on<"B">(fb)),
//                         fatal, args...);
//
// The original compiler's two registries are predefined: `fusion_op_registry` (the MHLO FusionOp
// validator's order) and `composite_op_registry` (the StableHLO CompositeOp validator's order, with
// "and"), together with the consumer's emitter mapping (`composite_route_of`).
#pragma once

#include <neuronrw/descriptors/kinds.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/hana/basic_tuple.hpp>

namespace neuronrw {

/// How a registry's diagnostic joins its kind names:
/// `comma`: "A, B, C"; `comma_and`: "A, B, and C" (two names: "A and B").
enum class list_style : std::uint8_t { comma, comma_and };

/// Compile errors whose template arguments spell the offending kind name character by character
/// (the one spelling that g++ and clang both print legibly). Instantiated only on the error path.
namespace error {

template <char... Name>
struct no_handler_for_kind {
  static_assert(detail::dependent_false_value_v<Name...>,
                "neuronrw::kind_registry::dispatch: no handler for the kind spelled in this error's "
                "template arguments; add neuronrw::on<\"Kind\">(handler) to the handler set, or add "
                "the kind to an existing on<...> entry.");
};

template <char... Name>
struct two_handlers_for_kind {
  static_assert(detail::dependent_false_value_v<Name...>,
                "neuronrw::kind_registry::dispatch: two handlers for the kind spelled in this "
                "error's template arguments; each kind must have exactly one.");
};

template <char... Name>
struct handler_for_kind_not_in_registry {
  static_assert(detail::dependent_false_value_v<Name...>,
                "neuronrw::kind_registry::dispatch: a handler is keyed by the name spelled in this "
                "error's template arguments, which is not a kind of the registry (a typo?).");
};

template <char... Name>
struct kind_not_in_registry {
  static_assert(detail::dependent_false_value_v<Name...>,
                "neuronrw::kind_registry: the name spelled in this error's template arguments is "
                "not a kind of the registry.");
};

template <char... Name>
struct duplicate_kind_in_registry {
  static_assert(detail::dependent_false_value_v<Name...>,
                "neuronrw::kind_registry: the kind spelled in this error's template arguments is "
                "listed twice; list each kind once.");
};

template <char... Name>
struct colliding_kind_id_in_registry {
  static_assert(detail::dependent_false_value_v<Name...>,
                "neuronrw::kind_registry: the kind spelled in this error's template arguments has "
                "the same kind_id (32-bit FNV-1a) as an earlier, different kind; rename one.");
};

}  // namespace error

/// The kind a dispatch handler receives: a kind tag (it models kind_tag_type) that also carries
/// its position in the registry. Handlers may use `k.name` / `decltype(k)::index` in constant
/// expressions.
template <fixed_string Name, std::size_t Index>
struct registry_kind : kind_tag<registry_kind<Name, Index>> {
  static constexpr std::string_view name = Name.view();
  static constexpr std::size_t index = Index;
  static constexpr kind_id id = kind_id_of(Name.view());
  static constexpr auto literal = Name;
};

/// One dispatch handler and the kind names it serves (one or more), e.g.
/// `on<"Expm1", "Log1p", "Elementwise">(emit_elementwise)`. The handler is called as
/// `fn(kind, args...)` with `kind` a registry_kind and `args` dispatch's trailing arguments.
template <class F, fixed_string... Keys>
struct kind_handler {
  static_assert(sizeof...(Keys) > 0, "neuronrw::on<...>: name at least one kind");
  F fn;
  static constexpr std::array<std::string_view, sizeof...(Keys)> keys{Keys.view()...};
};

template <fixed_string... Keys, class F>
constexpr kind_handler<std::decay_t<F>, Keys...> on(F&& fn) {
  return {std::forward<F>(fn)};
}

namespace detail {
template <class T>
inline constexpr bool is_kind_handler_v = false;
template <class F, fixed_string... Keys>
inline constexpr bool is_kind_handler_v<kind_handler<F, Keys...>> = true;

template <std::size_t K>
struct flat_keys {
  std::array<std::string_view, K> keys{};
  std::array<std::size_t, K> entry{};  // the entry each key belongs to
};

template <std::size_t K>
constexpr flat_keys<K> flatten_keys(std::initializer_list<std::span<const std::string_view>> per_entry) {
  flat_keys<K> out{};
  std::size_t k = 0;
  std::size_t e = 0;
  for (std::span<const std::string_view> keys : per_entry) {
    for (std::string_view key : keys) {
      out.keys[k] = key;
      out.entry[k] = e;
      ++k;
    }
    ++e;
  }
  return out;
}

// Entries are stored as distinct bases. Each also derives from one non-template base, and the
// set keeps a pointer to each entry as that base: a dispatch thunk then takes the base and casts
// down to its own entry, so neither its signature nor its template arguments mention the whole
// handler set. Why: a thunk named after the set (and the registry) carries all N kind names in
// its mangled name, N thunks make O(N^2) bytes of symbols, and at 256 kinds emitting them was
// most of the compile time.
struct handler_leaf_base {};
template <std::size_t E, class Entry>
struct handler_leaf : handler_leaf_base {
  constexpr explicit handler_leaf(Entry e) : entry(std::move(e)) {}
  Entry entry;
};
template <class Seq, class... Entries>
struct handler_storage;
template <std::size_t... Es, class... Entries>
struct handler_storage<std::index_sequence<Es...>, Entries...> : handler_leaf<Es, Entries>... {
  constexpr explicit handler_storage(Entries... es)
      : handler_leaf<Es, Entries>(std::move(es))..., leaves(self()) {}
  // Copies point at their own entries, never at the source's.
  constexpr handler_storage(const handler_storage& o)
      : handler_leaf<Es, Entries>(static_cast<const handler_leaf<Es, Entries>&>(o))..., leaves(self()) {}
  constexpr handler_storage(handler_storage&& o) noexcept(
      (std::is_nothrow_move_constructible_v<Entries> && ...))
      : handler_leaf<Es, Entries>(static_cast<handler_leaf<Es, Entries>&&>(o))..., leaves(self()) {}
  handler_storage& operator=(const handler_storage&) = delete;
  handler_storage& operator=(handler_storage&&) = delete;
  constexpr ~handler_storage() = default;

  using entry_indices = std::index_sequence<Es...>;
  using entry_list = type_list<Entries...>;

  std::array<handler_leaf_base*, sizeof...(Entries)> leaves;  // entry e, as its base

 private:
  constexpr std::array<handler_leaf_base*, sizeof...(Entries)> self() noexcept {
    return {static_cast<handler_leaf_base*>(static_cast<handler_leaf<Es, Entries>*>(this))...};
  }
};

template <std::size_t N>
constexpr fixed_string<N> to_fixed(std::string_view s) noexcept {
  char chars[N + 1]{};
  for (std::size_t i = 0; i < N; ++i) chars[i] = s[i];
  return fixed_string<N>(chars);
}

// The common type of many handler results, as one fold instead of common_type's recursion.
struct no_common_type {};
template <class T>
struct type_box {
  using type = T;
};
template <class A, class B>
  requires requires { typename std::common_type<A, B>::type; }
type_box<std::common_type_t<A, B>> operator^(type_box<A>, type_box<B>);
template <class A, class B>
type_box<no_common_type> operator^(type_box<A>, type_box<B>);
template <class... Ts>
auto common_of(type_list<Ts...>) -> decltype((type_box<Ts>{} ^ ...));
}  // namespace detail

/// A set of kind handlers, built by `handlers(on<...>(f), ...)`. Build it once and dispatch many
/// times; `flat` lists every entry's names with the entry each belongs to. It refers to its own
/// entries, so a `constexpr` handler set needs static storage (`static constexpr` in a function);
/// a `const` one can live anywhere. Copyable, not assignable.
template <class... Entries>
struct handler_set : detail::handler_storage<std::index_sequence_for<Entries...>, Entries...> {
  static_assert((detail::is_kind_handler_v<Entries> && ...),
                "neuronrw::handlers: every argument must be neuronrw::on<\"Kind\", ...>(handler)");
  using detail::handler_storage<std::index_sequence_for<Entries...>, Entries...>::handler_storage;

  static constexpr std::size_t key_count = (std::size_t{0} + ... + Entries::keys.size());
  static constexpr detail::flat_keys<key_count> flat =
      detail::flatten_keys<key_count>({std::span<const std::string_view>(Entries::keys)...});

  static constexpr std::string_view key(std::size_t k) noexcept { return flat.keys[k]; }
};

template <class... Entries>
constexpr handler_set<std::decay_t<Entries>...> handlers(Entries&&... entries) {
  return handler_set<std::decay_t<Entries>...>(std::forward<Entries>(entries)...);
}

namespace detail {
template <class T>
inline constexpr bool is_handler_set_v = false;
template <class... Es>
inline constexpr bool is_handler_set_v<handler_set<Es...>> = true;

// Spells the W-th name of Source (a type with `static constexpr std::string_view get(size_t)`)
// into Error<'c', 'h', ...>, so the diagnostic shows the name on every compiler.
template <template <char...> class Error, class Source, std::size_t W,
          class Seq = std::make_index_sequence<Source::get(W).size()>>
struct spelled;
template <template <char...> class Error, class Source, std::size_t W, std::size_t... Is>
struct spelled<Error, Source, W, std::index_sequence<Is...>> {
  using type = Error<Source::get(W)[Is]...>;
};

template <fixed_string S>
struct fixed_source {
  static constexpr std::string_view get(std::size_t) noexcept { return S.view(); }
};

template <bool Fail, template <char...> class Error, class Source, std::size_t W>
struct report_if : std::true_type {};
template <template <char...> class Error, class Source, std::size_t W>
struct report_if<true, Error, Source, W>
    : std::bool_constant<(sizeof(typename spelled<Error, Source, W>::type) > 0)> {};

template <std::size_t I, class Source>
struct checked_index : std::integral_constant<std::size_t, I> {
  static_assert(report_if<I == npos_index, error::kind_not_in_registry, Source, 0>::value);
};

struct format_split {
  std::size_t first = std::string_view::npos;   // position of the first "{}"
  std::size_t second = std::string_view::npos;  // position of the second "{}"
  bool exactly_two = false;
};

// An index loop, not string_view::find: under -fsanitize=undefined g++ 12 rejects find's
// null-pointer test on a template parameter object in a constant expression.
constexpr std::size_t find_placeholder(std::string_view f, std::size_t from) noexcept {
  for (std::size_t i = from; i + 1 < f.size(); ++i)
    if (f[i] == '{' && f[i + 1] == '}') return i;
  return std::string_view::npos;
}

constexpr format_split split_format(std::string_view f) noexcept {
  format_split s;
  s.first = find_placeholder(f, 0);
  if (s.first == std::string_view::npos) return s;
  s.second = find_placeholder(f, s.first + 2);
  if (s.second == std::string_view::npos) return s;
  s.exactly_two = find_placeholder(f, s.second + 2) == std::string_view::npos;
  return s;
}

// Writes the joined list into `out` (when non-null) and returns its length; one routine for
// both, so the computed size and the rendered text cannot disagree.
template <std::size_t N>
constexpr std::size_t render_list(const std::array<std::string_view, N>& names, list_style style,
                                  char* out) noexcept {
  std::size_t n = 0;
  const auto put = [&](std::string_view s) {
    for (char c : s) {
      if (out != nullptr) out[n] = c;
      ++n;
    }
  };
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0) {
      const bool last = i + 1 == N;
      if (style == list_style::comma_and && last)
        put(N == 2 ? " and " : ", and ");
      else
        put(", ");
    }
    put(names[i]);
  }
  return n;
}

template <std::size_t Size, std::size_t N>
constexpr std::array<char, Size + 1> render_tail(std::string_view middle,
                                                 const std::array<std::string_view, N>& names,
                                                 list_style style, std::string_view end) noexcept {
  std::array<char, Size + 1> t{};
  std::size_t n = 0;
  for (char c : middle) t[n++] = c;
  n += render_list(names, style, t.data() + n);
  for (char c : end) t[n++] = c;
  return t;
}
}  // namespace detail

namespace detail {
// Dispatch machinery, at namespace scope and keyed by small arguments only: a member template of
// a class with N pack arguments is keyed by all of them, which made a 256-kind dispatch
// quadratic to compile. Here each per-kind step is O(1) template work.

// Calls entry Leaf's handler for kind Kind. Its name mentions only the entry, the kind and the
// argument types.
template <class Leaf, class Kind, class R, class... Args>
constexpr R call_leaf(std::conditional_t<std::is_const_v<Leaf>, const handler_leaf_base, handler_leaf_base>& base,
                      Args&&... args) {
  auto& fn = static_cast<Leaf&>(base).entry.fn;
  if constexpr (std::is_void_v<R>)
    fn(Kind{}, std::forward<Args>(args)...);
  else
    return static_cast<R>(fn(Kind{}, std::forward<Args>(args)...));
}

// One slot of the jump table: the thunk of a kind and the entry whose handler it calls.
template <bool Const, class R, class... Args>
struct dispatch_slot {
  R (*call)(std::conditional_t<Const, const handler_leaf_base, handler_leaf_base>&, Args&&...) = nullptr;
  std::size_t entry = 0;
};

// What dispatch needs from one handler entry: the kinds of its keys, whether it is callable for
// each, its results, and its table slots.
template <class Registry, bool Const, class Entry, class ArgList>
struct entry_dispatch;
template <class Registry, bool Const, class Entry, class... Args>
struct entry_dispatch<Registry, Const, Entry, type_list<Args...>> {
  using fn_ref = std::conditional_t<Const, const decltype(Entry::fn)&, decltype(Entry::fn)&>;
  static constexpr std::size_t kind_of(std::size_t k) noexcept { return Registry::position(Entry::keys[k]); }
  template <std::size_t K>
  using kind_t = typename Registry::template kind_at<kind_of(K)>;

  template <std::size_t... Ks>
  static constexpr bool invocable(std::index_sequence<Ks...>) noexcept {
    return (std::is_invocable_v<fn_ref, kind_t<Ks>, Args...> && ...);
  }
  template <std::size_t... Ks>
  static auto results(std::index_sequence<Ks...>) -> type_list<std::invoke_result_t<fn_ref, kind_t<Ks>, Args...>...>;

  template <std::size_t E, class R, std::size_t N, std::size_t... Ks>
  static constexpr void fill(std::array<dispatch_slot<Const, R, Args...>, N>& table,
                             std::index_sequence<Ks...>) noexcept {
    using leaf = std::conditional_t<Const, const handler_leaf<E, Entry>, handler_leaf<E, Entry>>;
    ((table[kind_of(Ks)] = {&call_leaf<leaf, kind_t<Ks>, R, Args...>, E}), ...);
  }
};

template <class Entry>
using key_indices = std::make_index_sequence<Entry::keys.size()>;

// Whether every handler is callable, and the list of their results (for the result type).
template <class Registry, class HS, class ArgList,
          class Entries = typename std::remove_cv_t<HS>::entry_list>
struct dispatch_types;
template <class Registry, class HS, class ArgList, class... Entries>
struct dispatch_types<Registry, HS, ArgList, type_list<Entries...>> {
  static constexpr bool invocable =
      (entry_dispatch<Registry, std::is_const_v<HS>, Entries, ArgList>::invocable(key_indices<Entries>{}) && ...);
  // Named only when `invocable`.
  using results = decltype((type_list<>{} + ... +
                            entry_dispatch<Registry, std::is_const_v<HS>, Entries, ArgList>::results(
                                key_indices<Entries>{})));
};

template <class Registry, bool Const, class R, class... Args, std::size_t... Es, class... Entries>
constexpr std::array<dispatch_slot<Const, R, Args...>, Registry::size()> make_dispatch_table(
    type_list<Args...>, std::index_sequence<Es...>, type_list<Entries...>) noexcept {
  std::array<dispatch_slot<Const, R, Args...>, Registry::size()> table{};
  (entry_dispatch<Registry, Const, Entries, type_list<Args...>>::template fill<Es, R>(table, key_indices<Entries>{}),
   ...);
  return table;
}

// The jump table: position -> (thunk, entry). Built once per (registry, handler set, argument
// types, result type).
template <class Registry, class HS, class ArgList, class R>
struct dispatch_table {
  static constexpr auto value = make_dispatch_table<Registry, std::is_const_v<HS>, R>(
      ArgList{}, typename std::remove_cv_t<HS>::entry_indices{}, typename std::remove_cv_t<HS>::entry_list{});
};
}  // namespace detail

/// The arguments of a kind_registry, held by one type. Why: a registry's member templates
/// (index_v, dispatch's per-kind thunks) are keyed by the enclosing class's template arguments;
/// with the names as N value arguments, every such specialization hashes all N names, which made
/// 256-kind registries quadratic to compile. One type argument hashes in O(1).
template <fixed_string Format, list_style Style, fixed_string... Names>
struct registry_spec {
  static constexpr std::string_view format = Format.view();
  static constexpr list_style style = Style;
  static constexpr std::array<std::string_view, sizeof...(Names)> names{Names.view()...};
  static_assert(((Names.size() > 0) && ...), "neuronrw::kind_registry: kind names must be non-empty");

  template <class Seq>
  struct impl;
  template <std::size_t... Is>
  struct impl<std::index_sequence<Is...>> {
    using kinds_tuple = boost::hana::basic_tuple<registry_kind<Names, Is>...>;
    template <class F>
    static constexpr void for_each(F& f) {
      (f(registry_kind<Names, Is>{}), ...);
    }
  };
  using impl_t = impl<std::index_sequence_for<decltype(Names)...>>;

  template <fixed_string... More>
  using with_kinds = registry_spec<Format, Style, Names..., More...>;
  template <fixed_string Format2, list_style Style2>
  using with_diagnostic = registry_spec<Format2, Style2, Names...>;
};

/// A compile-time list of kind names with its validator diagnostic; spelled
/// `kind_registry<Format, Style, "Name"...>` (an alias of basic_kind_registry<registry_spec<...>>).
///
/// `Format` holds exactly two `{}` placeholders: the unknown name, then the joined kind list
/// (joined per `Style`). Everything except the unknown name is rendered at compile time.
///
/// - `size()`, `names()`, `name(i)`, `kinds` (Hana sequence of registry_kind), `for_each_kind(f)`,
///   `kind_at<I>` (the registry_kind of position I)
/// - `index_of(name) -> optional<size_t>`, `contains(name)`: O(|name|) to hash, then O(1)
/// - `index_v<"Name">`, `contains_v<"Name">`: compile time (index_v of an unknown name is an error)
/// - `diagnostic(name)`, `validate(name) -> optional<string>` (nullopt when the name is a kind)
/// - `dispatch(name, handler_set, fatal, args...)`: O(1) jump to the kind's handler
/// - `with_kinds<"X"...>`, `with_diagnostic<Format2, Style2>`: derived registries
///
/// Compile cost is linear in the number of kinds: every per-kind step is O(1) template work
/// (measured in docs/performance.md).
template <class Spec>
class basic_kind_registry {
  static constexpr std::size_t n_ = Spec::names.size();
  static constexpr const std::array<std::string_view, n_>& names_ = Spec::names;
  static constexpr detail::kind_id_index<n_> index_ = detail::make_kind_id_index(names_);

  struct name_source {
    static constexpr std::string_view get(std::size_t i) noexcept { return names_[i]; }
  };

  static_assert(detail::report_if<index_.conflict == detail::id_conflict::same_name,
                                  error::duplicate_kind_in_registry, name_source,
                                  index_.conflict_second>::value);
  static_assert(detail::report_if<index_.conflict == detail::id_conflict::same_id,
                                  error::colliding_kind_id_in_registry, name_source,
                                  index_.conflict_second>::value);

  static constexpr detail::format_split split_ = detail::split_format(Spec::format);
  static_assert(split_.exactly_two,
                "neuronrw::kind_registry: the diagnostic format must contain exactly two '{}' "
                "placeholders: the unknown name, then the list of kinds");

  static constexpr std::string_view head_ = Spec::format.substr(0, split_.first);
  static constexpr std::string_view middle_ =
      Spec::format.substr(split_.first + 2, split_.second - split_.first - 2);
  static constexpr std::string_view end_ = Spec::format.substr(split_.second + 2);
  static constexpr std::size_t list_size_ = detail::render_list(names_, Spec::style, nullptr);
  static constexpr std::size_t tail_size_ = middle_.size() + list_size_ + end_.size();
  // Everything after the unknown name: "'. Supported kinds are: A, B, and C."
  static constexpr std::array<char, tail_size_ + 1> tail_ =
      detail::render_tail<tail_size_>(middle_, names_, Spec::style, end_);

  using impl_t = typename Spec::impl_t;

 public:
  using spec = Spec;

  static constexpr std::size_t size() noexcept { return n_; }
  static constexpr const std::array<std::string_view, n_>& names() noexcept { return names_; }
  /// @pre i < size()
  static constexpr std::string_view name(std::size_t i) noexcept { return names_[i]; }

  /// The registry_kind of position I (a kind tag carrying its name and index). O(1).
  template <std::size_t I>
  using kind_at = registry_kind<detail::to_fixed<names_[I].size()>(names_[I]), I>;

  /// The kinds as a Hana sequence of registry_kind values: `hana::for_each(R::kinds, f)`.
  static constexpr typename impl_t::kinds_tuple kinds{};

  /// Calls f(registry_kind<Name, I>{}) for every kind, in registry order.
  template <class F>
  static constexpr void for_each_kind(F&& f) {
    impl_t::for_each(f);
  }

  /// Position of `name`, or detail::npos_index. O(|name|) to hash, then O(1).
  static constexpr std::size_t position(std::string_view name) noexcept {
    const std::size_t i = index_.find(kind_id_of(name));
    return i != detail::npos_index && names_[i] == name ? i : detail::npos_index;
  }

  /// Position of `name` in the registry. O(|name|) to hash, then O(1).
  static constexpr std::optional<std::size_t> index_of(std::string_view name) noexcept {
    const std::size_t i = position(name);
    if (i == detail::npos_index) return std::nullopt;
    return i;
  }
  static constexpr bool contains(std::string_view name) noexcept {
    return position(name) != detail::npos_index;
  }

  template <fixed_string Name>
  static constexpr bool contains_v = position(Name.view()) != detail::npos_index;

  /// Position of a kind, at compile time; an unknown name is a compile error that spells it.
  template <fixed_string Name>
  static constexpr std::size_t index_v =
      detail::checked_index<position(Name.view()), detail::fixed_source<Name>>::value;

  /// The joined kind list as it appears in the diagnostic, e.g. "A, B, and C".
  static constexpr std::string_view kind_list() noexcept {
    return {tail_.data() + middle_.size(), list_size_};
  }

  /// The validator's text for `name`, whether or not it is a kind. One allocation.
  static std::string diagnostic(std::string_view name) {
    std::string out;
    out.reserve(head_.size() + name.size() + tail_size_);
    out.append(head_).append(name).append(tail_.data(), tail_size_);
    return out;
  }

  /// nullopt when `name` is a kind; otherwise the exact diagnostic.
  static std::optional<std::string> validate(std::string_view name) {
    if (contains(name)) return std::nullopt;
    return diagnostic(name);
  }

 private:
  struct handler_plan {
    std::array<std::size_t, n_> owner{};  // entry index serving each kind
    std::size_t unknown_key = detail::npos_index;
    std::size_t missing_kind = detail::npos_index;
    std::size_t twice_kind = detail::npos_index;
    constexpr bool complete() const noexcept {
      return unknown_key == detail::npos_index && missing_kind == detail::npos_index &&
             twice_kind == detail::npos_index;
    }
  };

  // O(K + N) for K handler keys: each key is placed through the O(1) index.
  template <class HS>
  static constexpr handler_plan make_plan() noexcept {
    handler_plan p{};
    p.owner.fill(detail::npos_index);
    for (std::size_t k = 0; k < HS::key_count; ++k) {
      const std::size_t i = position(HS::flat.keys[k]);
      if (i == detail::npos_index) {
        if (p.unknown_key == detail::npos_index) p.unknown_key = k;
      } else if (p.owner[i] != detail::npos_index) {
        if (p.twice_kind == detail::npos_index) p.twice_kind = i;
      } else {
        p.owner[i] = HS::flat.entry[k];
      }
    }
    for (std::size_t i = 0; i < n_; ++i)
      if (p.owner[i] == detail::npos_index && p.missing_kind == detail::npos_index) p.missing_kind = i;
    return p;
  }
  template <class HS>
  static constexpr handler_plan plan_v = make_plan<HS>();

  template <class HS>
  struct key_source {
    static constexpr std::string_view get(std::size_t k) noexcept { return HS::key(k); }
  };

  // Class-scope static_asserts: a failure reports once, and `value` stays usable, so callers do
  // not add a second, uninformative error.
  template <class P, bool = detail::is_handler_set_v<P>>
  struct handler_check {
    static_assert(detail::is_handler_set_v<P>,
                  "neuronrw::kind_registry: pass handlers(on<\"Kind\">(f), ...)");
    static constexpr bool value = true;
  };
  template <class P>
  struct handler_check<P, true> {
    static constexpr handler_plan p = plan_v<P>;
    static_assert(detail::report_if<p.unknown_key != detail::npos_index,
                                    error::handler_for_kind_not_in_registry, key_source<P>,
                                    p.unknown_key == detail::npos_index ? 0 : p.unknown_key>::value);
    static_assert(detail::report_if<p.missing_kind != detail::npos_index, error::no_handler_for_kind,
                                    name_source,
                                    p.missing_kind == detail::npos_index ? 0 : p.missing_kind>::value);
    static_assert(detail::report_if<p.twice_kind != detail::npos_index, error::two_handlers_for_kind,
                                    name_source,
                                    p.twice_kind == detail::npos_index ? 0 : p.twice_kind>::value);
    static constexpr bool value = true;
  };

 public:
  /// True when HS has exactly one handler for each kind and none for a name outside the registry.
  template <class HS>
  static constexpr bool handles_all_v = [] {
    if constexpr (detail::is_handler_set_v<std::remove_cvref_t<HS>>)
      return plan_v<std::remove_cvref_t<HS>>.complete();
    else
      return false;
  }();

  /// Compile-time check of a handler set: returns true, or fails with an error whose template
  /// arguments spell the first offending name (no handler, two handlers, or a key that is not a
  /// kind). `static_assert(R::check_handlers<decltype(hs)>())` checks where the set is declared.
  template <class HS>
  static constexpr bool check_handlers() {
    return handler_check<std::remove_cvref_t<HS>>::value;
  }

 private:
  template <class Plan, class Fatal, class... Args>
  struct dispatch_result {
    static constexpr bool fatal_invocable = std::is_invocable_v<Fatal&, std::string_view, Args...>;
    static_assert(fatal_invocable,
                  "neuronrw::kind_registry::dispatch: the fatal default must be callable as "
                  "fatal(std::string_view unknown_name, args...)");
    using fatal_result =
        typename std::conditional_t<fatal_invocable, std::invoke_result<Fatal&, std::string_view, Args...>,
                                    std::type_identity<void>>::type;
    // Handlers decide the result type; a non-void fatal result joins the common type, and a void
    // fatal default is taken to be [[noreturn]] (aborts if it returns, see dispatch).
    template <bool HandlersUsable, class = void>
    struct pick {
      using type = fatal_result;
    };
    template <class Unused>
    struct pick<true, Unused> {
      using handlers_common = typename decltype(detail::common_of(typename Plan::results{}))::type;
      using type = typename std::conditional_t<
          std::is_void_v<fatal_result> || std::is_same_v<handlers_common, detail::no_common_type>,
          std::type_identity<handlers_common>, detail::type_box<std::common_type_t<handlers_common, fatal_result>>>::type;
    };
    using type = typename pick<(n_ > 0 && Plan::invocable)>::type;
    static_assert(!std::is_same_v<type, detail::no_common_type>,
                  "neuronrw::kind_registry::dispatch: the handlers' results have no common type; "
                  "make every handler return the same type (or convertible ones)");
  };

 public:
  /// Calls the handler of kind `name` as handler(registry_kind, args...), or, when `name` is not a
  /// kind, fatal(name, args...) — the original consumer's NCC_ISPP054 path; `diagnostic(name)`
  /// gives the registry's text for it. O(|name|) + O(1): an index lookup and one indirect call.
  ///
  /// Result: the common type of the handlers' results (and of fatal's, when it is not void).
  /// A void `fatal` must not return when the result is not void; if it does, std::abort().
  template <class HS, class Fatal, class... Args>
  static constexpr decltype(auto) dispatch(std::string_view name, HS&& hs, Fatal&& fatal,
                                           Args&&... args) {
    using H = std::remove_reference_t<HS>;
    // The errors name the offending kind; everything below is skipped when the set is incomplete,
    // so the first diagnostic is the only one.
    static_assert(check_handlers<std::remove_cv_t<H>>());
    if constexpr (!handles_all_v<std::remove_cv_t<H>>) {
      std::abort();
    } else {
      using plan = detail::dispatch_types<basic_kind_registry, H, detail::type_list<Args...>>;
      static_assert(plan::invocable,
                    "neuronrw::kind_registry::dispatch: every handler must be callable as "
                    "handler(kind, args...), where kind is a neuronrw::registry_kind (with ::name "
                    "and ::index) and args are dispatch's trailing arguments");
      using R = typename dispatch_result<plan, std::remove_reference_t<Fatal>, Args&&...>::type;
      const std::size_t i = position(name);
      if (i == detail::npos_index) {
        if constexpr (std::is_void_v<R>) {
          return static_cast<void>(fatal(name, std::forward<Args>(args)...));
        } else if constexpr (std::is_void_v<decltype(fatal(name, std::forward<Args>(args)...))>) {
          fatal(name, std::forward<Args>(args)...);
          std::abort();
        } else {
          return static_cast<R>(fatal(name, std::forward<Args>(args)...));
        }
      }
      if constexpr (n_ > 0 && plan::invocable) {
        const auto& slot = detail::dispatch_table<basic_kind_registry, H, detail::type_list<Args...>, R>::value[i];
        return slot.call(*hs.leaves[slot.entry], std::forward<Args>(args)...);
      } else {
        std::abort();  // unreachable: an empty registry finds no kind
      }
    }
  }

  template <fixed_string... More>
  using with_kinds = basic_kind_registry<typename Spec::template with_kinds<More...>>;

  template <fixed_string Format2, list_style Style2>
  using with_diagnostic = basic_kind_registry<typename Spec::template with_diagnostic<Format2, Style2>>;
};

template <fixed_string Format, list_style Style, fixed_string... Names>
using kind_registry = basic_kind_registry<registry_spec<Format, Style, Names...>>;

/// The original compiler's MHLO FusionOp validator (in hlo2penguin, at 0x3a9bc0; docs/sources.md
/// §"The fusion-name registry"): seven kinds, plain list.
using fusion_op_registry =
    kind_registry<"Unexpected FusionOp type '{}'. Supported fusion types are: {}.", list_style::comma,
                  "ScheduleFusion", "MulRedSqrt", "DotLogistic", "Elementwise", "Expm1", "Log1p",
                  "DotSoftmax">;

/// The original compiler's StableHLO CompositeOp validator (at 0x2e0258; same section): the same
/// seven kinds in the consumer's order, joined with a serial "and". Its dispatch is the consumer of
/// FusionToComposite.
using composite_op_registry =
    kind_registry<"Unexpected CompositeOp kind '{}'. Supported kinds are: {}.",
                  list_style::comma_and, "ScheduleFusion", "MulRedSqrt", "DotLogistic", "Expm1",
                  "Log1p", "Elementwise", "DotSoftmax">;

/// Which emitter the original consumer (StableHLOToPythonPrinter) uses for a kind.
enum class composite_emitter : std::uint8_t { bespoke, arbitrary };

struct composite_route {
  std::string_view kind;          // the CompositeKind
  composite_emitter emitter;
  std::string_view emitted_kind;  // the kind the emitter is given (bespoke: the kind itself)
  friend constexpr bool operator==(const composite_route&, const composite_route&) = default;
};

/// The consumer mapping (docs/sources.md §"The fusion-name registry"): Expm1, Log1p and Elementwise
/// collapse onto the arbitrary emitter with kind "Elementwise"; DotSoftmax uses the arbitrary
/// emitter with its own kind; ScheduleFusion, MulRedSqrt and DotLogistic have bespoke emitters.
inline constexpr std::array<composite_route, 7> composite_routes{{
    {"ScheduleFusion", composite_emitter::bespoke, "ScheduleFusion"},
    {"MulRedSqrt", composite_emitter::bespoke, "MulRedSqrt"},
    {"DotLogistic", composite_emitter::bespoke, "DotLogistic"},
    {"Expm1", composite_emitter::arbitrary, "Elementwise"},
    {"Log1p", composite_emitter::arbitrary, "Elementwise"},
    {"Elementwise", composite_emitter::arbitrary, "Elementwise"},
    {"DotSoftmax", composite_emitter::arbitrary, "DotSoftmax"},
}};

/// The route of a CompositeKind, nullopt for a name outside composite_op_registry. O(7).
constexpr std::optional<composite_route> composite_route_of(std::string_view kind) noexcept {
  for (const composite_route& r : composite_routes)
    if (r.kind == kind) return r;
  return std::nullopt;
}

namespace detail {
constexpr bool composite_routes_cover_registry() noexcept {
  if (composite_routes.size() != composite_op_registry::size()) return false;
  for (std::string_view k : composite_op_registry::names())
    if (!composite_route_of(k)) return false;
  return true;
}
static_assert(composite_routes_cover_registry(),
              "neuronrw: composite_routes must map every kind of composite_op_registry exactly once");
}  // namespace detail

/// Dispatch entry for every kind the consumer sends to the arbitrary emitter; `fn` is called as
/// fn(emitted_kind, args...), so one arbitrary emitter serves all four. Pair it with on<...>
/// entries for the bespoke kinds.
template <class F>
constexpr auto on_arbitrary_composite(F fn) {
  return on<"Expm1", "Log1p", "Elementwise", "DotSoftmax">(
      [fn](auto kind, auto&&... args) -> decltype(auto) {
        constexpr std::string_view emitted = composite_route_of(decltype(kind)::name)->emitted_kind;
        static_assert(composite_route_of(decltype(kind)::name)->emitter == composite_emitter::arbitrary);
        return fn(emitted, std::forward<decltype(args)>(args)...);
      });
}

}  // namespace neuronrw
