// neuronrw/passes/options.hpp — a pass's options, declared once: a constexpr schema per options
// struct, from which neuronrw-opt's flags, --help and pipeline parser, the MLIR passes' Option<>s
// and the docs' option tables are made or checked (docs/passes.md §"Options: declared once").
//
//   template <>
//   inline constexpr auto option_schema_v<my_options> = std::array{
//       option_field<my_options>{.name = "budget", .type = option_type::uint64, .default_text = "100",
//                                .help = "Most ops ...", .member = option_member<&my_options::budget>},
//       option_field<my_options>{.name = "dry-run", .type = option_type::boolean, .default_text = "false",
//                                .help = "Print the plan ...; change nothing"},   // run-level: no member
//   };
//
// One field per option the tools offer, in the order they list them (neuronrw-opt lists them as
// given; MLIR sorts them by name). A field with a `member` sets that member of the options struct;
// one without is a run-level option the tool acts on itself (`dry-run`, `remarks`). A field's
// `default_text` is the canonical text of its default (`true`/`false`, a decimal integer, the
// string); check_option_defaults(schema) holds it against the struct's default member values, so a
// schema cannot drift from its struct (static_assert it after the specialization).
//
// Values arrive as text (a pipeline, a flag, an MLIR option): check_option_value checks a text
// against the field's type and constraint and gives its canonical text or the problem in words;
// fill_options fills a struct from (name, text) pairs. A string member is a string_view of the
// text it was given: keep the texts alive as long as the struct.
//
// Generic: includes nothing concrete; no exceptions, no RTTI.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <neuronrw/descriptors/kind_names.hpp>

namespace neuronrw {

/// An option's type, as the tools read and list it (LLVM's `<ulong>`, `<string>`, a flag).
enum class option_type : std::uint8_t { uint64, string, boolean };

/// How tools list a type: `=<ulong>`, `=<string>`; a flag shows none.
constexpr std::string_view option_type_text(option_type t) noexcept {
  switch (t) {
    case option_type::uint64: return "=<ulong>";
    case option_type::string: return "=<string>";
    case option_type::boolean: return "";
  }
  return "";
}

/// A value check beyond the type.
enum class option_check : std::uint8_t {
  none,
  op_name,    ///< `dialect.op`: an op the pass creates (MLIR needs the dialect prefix), of no
              ///< dialect with fixed forms (created_op_problem)
  terminator, ///< op_name, and a terminator by name: `.return`, `.yield` or `.terminator` last
  non_empty,  ///< a non-empty string
  kind_name,  ///< a kind name (`all_gather`, read canonically: `AllGather`, `all-gather`), or empty
  kind_list,  ///< comma-separated kind names (descriptors/kind_names.hpp, parse_kind_list), or empty
};

/// The tools that offer an option (a bit set): neuronrw-opt, the MLIR passes.
enum class option_tools : std::uint8_t { driver = 1, mlir = 2, all = 3 };

constexpr bool offers(option_tools set, option_tools tool) noexcept {
  return (static_cast<unsigned>(set) & static_cast<unsigned>(tool)) != 0;
}

/// How a field reaches its member: set it from a checked canonical text (a string member views
/// the text), and whether a text equals the member's default value.
template <class Options>
struct option_access {
  void (*set)(Options&, std::string_view) = nullptr;
  bool (*is_default)(std::string_view) = nullptr;
  bool (*is_open)() = nullptr;  ///< the struct's default is empty (an empty optional or string)
  explicit constexpr operator bool() const noexcept { return set != nullptr; }
};

/// One option of a pass.
template <class Options>
struct option_field {
  std::string_view name;
  std::string_view alias = {};  ///< another accepted name (empty: none)
  option_type type = option_type::string;
  std::string_view default_text = {};  ///< canonical text of the default
  std::string_view help = {};          ///< one line
  option_check check = option_check::none;
  option_access<Options> member = {};  ///< none: a run-level option (the tool acts on it)
  option_tools tools = option_tools::all;  ///< who offers it
  std::string_view mlir_help = {};     ///< the MLIR passes' help line when it differs (empty: `help`)
  /// The struct leaves the default open (an empty optional or string: the pass's own, e.g. its
  /// pattern's); default_text is then the default descriptor's, and a descriptor may give its own
  /// (`D::option_default(name)`, see descriptor_option_default).
  bool open_default = false;
};

/// The part of a field that does not depend on the options struct: what a tool lists and checks.
struct option_info {
  std::string_view name;
  std::string_view alias;
  option_type type = option_type::string;
  std::string_view default_text;
  std::string_view help;
  option_check check = option_check::none;
  bool member = false;  ///< sets a member of the options struct (false: run-level)
  option_tools tools = option_tools::all;
  std::string_view mlir_help;

  /// The help line `tool` shows.
  constexpr std::string_view help_for(option_tools tool) const noexcept {
    return tool == option_tools::mlir && !mlir_help.empty() ? mlir_help : help;
  }
};

template <class Options>
constexpr option_info info_of(const option_field<Options>& f) noexcept {
  return {f.name, f.alias, f.type, f.default_text, f.help, f.check, static_cast<bool>(f.member), f.tools, f.mlir_help};
}

/// A problem with a pass's options as a whole (a rule between options, beyond each value's own
/// check): the option to point at and what is wrong, worded to follow "option 'NAME' ".
/// A descriptor that has such rules offers `static std::optional<option_problem>
/// check_options(const options&)`; the tools call it after each value passed its own check.
struct option_problem {
  std::string_view option;
  std::string message;
};

/// D::check_options(o) when D has it; nullopt otherwise.
template <class D, class Options>
std::optional<option_problem> descriptor_check_options(const Options& o) {
  if constexpr (requires { { D::check_options(o) } -> std::convertible_to<std::optional<option_problem>>; })
    return D::check_options(o);
  else
    return std::nullopt;
}

/// The options schema of an options struct: a std::array of option_field<Options>. Specialize it
/// right after the struct. Unspecialized: no options.
template <class Options>
inline constexpr std::array<option_field<Options>, 0> option_schema_v{};

// ------------------------------------------------------------------------------- text checks
namespace options_detail {

constexpr bool is_name_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '-';
}

/// A decimal unsigned integer below 2^64; false on anything else (`overflow` says why).
constexpr bool parse_uint64(std::string_view t, std::uint64_t& v, bool* overflow = nullptr) noexcept {
  if (t.empty()) return false;
  v = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return false;
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) {
      if (overflow) *overflow = true;
      return false;
    }
    v = v * 10 + d;
  }
  return true;
}

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

template <class T>
constexpr bool text_equals(const T& value, std::string_view text) noexcept {
  if constexpr (std::is_same_v<T, bool>) {
    return text == (value ? "true" : "false");
  } else if constexpr (std::is_integral_v<T>) {
    std::uint64_t v = 0;
    return parse_uint64(text, v) && v == static_cast<std::uint64_t>(value);
  } else if constexpr (is_optional<T>::value) {
    return value && text_equals(*value, text);
  } else {
    return std::string_view(value) == text;
  }
}

}  // namespace options_detail

/// An op name a pass may create: `dialect.op` of name characters.
constexpr bool is_op_name(std::string_view n) noexcept {
  const auto dot = n.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 >= n.size()) return false;
  for (char c : n)
    if (!options_detail::is_name_char(c) && c != '$') return false;
  return true;
}

/// The dialects whose ops have fixed forms both tools verify: neuronrw-mlir-opt registers func,
/// arith and scf (builtin always), and the reference IR's verifier knows func.func and
/// func.return. An op a pass creates generically (a grouping op holding a region, its terminator,
/// a composite) cannot take their forms, and the two tools would disagree on the result, so the
/// options schema refuses such names in both.
inline constexpr std::array<std::string_view, 4> fixed_form_dialects{"builtin", "func", "arith", "scf"};

/// What is wrong with `name` as an op a pass creates (check op_name, or terminator with
/// `terminator`), in the words that follow "option 'K' of pass 'P' "; nothing when it is fine.
inline std::optional<std::string> created_op_problem(std::string_view name, bool terminator) {
  if (!is_op_name(name)) return "must be an op name 'dialect.op', not '" + std::string(name) + "'";
  const std::string_view dialect = name.substr(0, name.find('.'));
  for (std::string_view d : fixed_form_dialects)
    if (dialect == d)
      return "must not name an op of the builtin, func, arith or scf dialects (their ops have fixed forms the op "
             "the pass creates cannot take), not '" +
             std::string(name) + "'";
  if (terminator && !name.ends_with(".return") && !name.ends_with(".yield") && !name.ends_with(".terminator"))
    return "must name a terminator, ending in '.return', '.yield' or '.terminator' (as a region's last op is "
           "recognized), not '" +
           std::string(name) + "'";
  return std::nullopt;
}

/// The access of member M (`&Options::member`): string_view, std::string, bool, an unsigned
/// integer, or an optional of one.
template <auto M>
struct option_member_t;
template <class Options, class T, T Options::*M>
struct option_member_t<M> {
  static void set(Options& o, std::string_view text) {
    if constexpr (std::is_same_v<T, bool>) {
      o.*M = text == "true";
    } else if constexpr (std::is_integral_v<T> || options_detail::is_optional<T>::value) {
      std::uint64_t v = 0;
      options_detail::parse_uint64(text, v);
      if constexpr (options_detail::is_optional<T>::value)
        o.*M = static_cast<typename T::value_type>(v);
      else
        o.*M = static_cast<T>(v);
    } else {
      o.*M = T(text);
    }
  }
  static constexpr bool is_default(std::string_view text) noexcept { return options_detail::text_equals(Options{}.*M, text); }
  static constexpr bool is_open() noexcept {
    if constexpr (options_detail::is_optional<T>::value)
      return !(Options{}.*M).has_value();
    else if constexpr (std::is_same_v<T, bool> || std::is_integral_v<T>)
      return false;
    else
      return std::string_view(Options{}.*M).empty();
  }
  static constexpr option_access<Options> access{&set, &is_default, &is_open};
};
/// `.member = option_member<&my_options::budget>` in a schema field.
template <auto M>
inline constexpr auto option_member = option_member_t<M>::access;

/// Whether every default text of `schema` equals its struct's default member value, and every
/// field marked open_default has an open (empty) default in the struct.
template <class Options, std::size_t N>
constexpr bool check_option_defaults(const std::array<option_field<Options>, N>& schema) noexcept {
  for (const auto& f : schema)
    if (f.member && (f.open_default ? !f.member.is_open() : !f.member.is_default(f.default_text))) return false;
  return true;
}

/// The default text of field `f` for descriptor D: D::option_default(name) when D has it and it
/// answers (non-empty), else the schema's.
template <class D, class Options>
std::string descriptor_option_default(const option_field<Options>& f) {
  if constexpr (requires { { D::option_default(f.name) } -> std::convertible_to<std::string>; }) {
    if (f.open_default) {
      std::string t = D::option_default(f.name);
      if (!t.empty()) return t;
    }
  }
  return std::string(f.default_text);
}

/// The canonical text of `raw` for `type`, or the problem as neuronrw-opt words it after
/// "option 'K' of pass 'P' takes ": `an unsigned integer`, `an unsigned integer below 2^64`,
/// `true or false`. Bools accept what LLVM accepts (`1`/`0`, `TRUE`, `True`, ...).
inline std::optional<std::string> canonical_option_text(option_type type, std::string_view raw, std::string& why) {
  switch (type) {
    case option_type::uint64: {
      std::uint64_t v = 0;
      bool overflow = false;
      if (!options_detail::parse_uint64(raw, v, &overflow))
        return why = overflow ? "an unsigned integer below 2^64" : "an unsigned integer", std::nullopt;
      return std::to_string(v);
    }
    case option_type::boolean:
      if (raw == "true" || raw == "TRUE" || raw == "True" || raw == "1") return std::string("true");
      if (raw == "false" || raw == "FALSE" || raw == "False" || raw == "0") return std::string("false");
      return why = "true or false", std::nullopt;
    case option_type::string: return std::string(raw);
  }
  return std::nullopt;
}

/// Checks `raw` for option `o`: its canonical text in `canonical`, or what is wrong, in the words
/// that follow "option 'K' of pass 'P' " (`takes an unsigned integer, not 'x'`, `must be an op
/// name 'dialect.op', not 'x'`, `must not be empty`).
inline std::optional<std::string> check_option_value(const option_info& o, std::string_view raw, std::string& canonical) {
  std::string why;
  auto value = canonical_option_text(o.type, raw, why);
  if (!value) return "takes " + why + ", not '" + std::string(raw) + "'";
  if (o.check == option_check::op_name || o.check == option_check::terminator)
    if (auto problem = created_op_problem(*value, o.check == option_check::terminator)) return problem;
  if (o.check == option_check::non_empty && value->empty()) return std::string("must not be empty");
  if (o.check == option_check::kind_name && !value->empty() && !is_canonical_kind_name(canonical_kind_name(*value)))
    return "must be a kind name (letters, digits, '_' and '-', e.g. all_gather), not '" + *value + "'";
  if (o.check == option_check::kind_list && !value->empty()) {
    std::vector<std::string> kinds;
    if (auto why = parse_kind_list(*value, kinds)) return *why;
  }
  canonical = std::move(*value);
  return std::nullopt;
}

/// `pass 'P' has no option 'K' (options: a b c)` / `(it takes none)`.
inline std::string unknown_option_message(std::string_view pass, std::string_view key, std::span<const option_info> options) {
  std::string msg = "pass '" + std::string(pass) + "' has no option '" + std::string(key) + "'";
  if (options.empty()) return msg + " (it takes none)";
  msg += " (options:";
  for (const auto& o : options) msg += " " + std::string(o.name);
  return msg + ")";
}

/// The fields of `Options`'s schema that `tool` offers, as option_infos, in schema order.
template <class Options, option_tools Tool = option_tools::driver>
inline constexpr auto option_infos_v = [] {
  constexpr auto& schema = option_schema_v<Options>;
  constexpr std::size_t n = [&] {
    std::size_t k = 0;
    for (const auto& f : schema) k += offers(f.tools, Tool);
    return k;
  }();
  std::array<option_info, n> out{};
  std::size_t k = 0;
  for (const auto& f : schema)
    if (offers(f.tools, Tool)) out[k++] = info_of(f);
  return out;
}();

/// One option given as text.
struct option_value {
  std::string_view name;
  std::string_view text;
};

/// Fills `o` from (name, text) pairs, in order: each name an option of `schema` that `tool`
/// offers (or its alias), its text checked (check_option_value) and set on its member; run-level
/// options are checked and skipped. The first problem stops it, in neuronrw-opt's words for the
/// pass `pass` (`pass 'P' has no option 'K' (options: ...)`, `option 'K' of pass 'P' takes ...`).
/// String members view the texts given: keep them alive.
template <class Options, std::size_t N>
std::optional<std::string> fill_options(Options& o, const std::array<option_field<Options>, N>& schema,
                                        std::string_view pass, std::span<const option_value> values,
                                        option_tools tool = option_tools::driver) {
  for (const auto& v : values) {
    const option_field<Options>* field = nullptr;
    for (const auto& f : schema)
      if (offers(f.tools, tool) && (f.name == v.name || (!f.alias.empty() && f.alias == v.name))) field = &f;
    if (!field) {
      std::array<option_info, N> infos{};
      std::size_t k = 0;
      for (const auto& f : schema)
        if (offers(f.tools, tool)) infos[k++] = info_of(f);
      return unknown_option_message(pass, v.name, std::span<const option_info>(infos.data(), k));
    }
    std::string canonical;
    if (auto problem = check_option_value(info_of(*field), v.text, canonical))
      return "option '" + std::string(v.name) + "' of pass '" + std::string(pass) + "' " + *problem;
    if (field->member) field->member.set(o, field->type == option_type::string ? v.text : std::string_view(canonical));
  }
  return std::nullopt;
}

/// Sets every member of `o` from `texts`, one canonical text per field of `schema` that `tool`
/// offers (option_infos_v's order), as a tool that checked them keeps them.
template <class Options, std::size_t N, class Texts>
void set_options(Options& o, const std::array<option_field<Options>, N>& schema, const Texts& texts,
                 option_tools tool = option_tools::driver) {
  std::size_t k = 0;
  for (const auto& f : schema) {
    if (!offers(f.tools, tool)) continue;
    if (f.member) f.member.set(o, std::string_view(texts[k]));
    ++k;
  }
}

}  // namespace neuronrw
