// neuronrw/concepts/attribute.hpp — the attribute values the passes ask an IR to set, typed: the
// generic requests (group_request, outline_request, replace_request in concepts/ir.hpp) carry
// them, and each IR converts them to its own attributes (docs/concepts.md §"Attributes").
//
//   attr::string{"ScheduleFusion"}   a string                 MLIR: StringAttr
//   attr::symbol{"f"}                a reference to symbol f   MLIR: FlatSymbolRefAttr
//   attr::integer{0, 32}             a signless integer iN     MLIR: IntegerAttr of IntegerType(N)
//   attr::boolean{true}              a boolean                 MLIR: BoolAttr
//   attr::unit{}                     presence only             MLIR: UnitAttr
//   attr::empty_dictionary{}         a dictionary, empty       MLIR: DictionaryAttr {}
//   attribute_value                  std::variant of the six; named_attribute = {name, value}
//
// An IR that stores attributes as text writes them with attribute_text(v), their canonical text:
// MLIR's attribute syntax (`"ScheduleFusion"`, `@f`, `0 : i32`, `true`, `unit`, `{}`), which the
// library also uses wherever it prints a value (describe, diagnostics). The writers it uses are
// here too: mlir_string_literal (a"b -> "a\"b"), mlir_symbol_reference (f -> @f, has space ->
// @"has space"), mlir_is_bare_id; the readers are in ir/ref/mlir_string.hpp, beside the parser.
//
// String views in a value refer to the caller's storage: a request is used during one call.
//
// Generic: no IR headers, no exceptions. Customization points: none.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include <neuronrw/detail/string_literal.hpp>

namespace neuronrw {

namespace attr {

struct string {
  std::string_view value;
  friend constexpr bool operator==(const string&, const string&) = default;
};
struct symbol {
  std::string_view name;  ///< without '@'
  friend constexpr bool operator==(const symbol&, const symbol&) = default;
};
struct integer {
  std::int64_t value = 0;
  unsigned width = 64;  ///< bits of the signless integer type
  friend constexpr bool operator==(const integer&, const integer&) = default;
};
struct boolean {
  bool value = false;
  friend constexpr bool operator==(const boolean&, const boolean&) = default;
};
struct unit {
  friend constexpr bool operator==(const unit&, const unit&) = default;
};
struct empty_dictionary {
  friend constexpr bool operator==(const empty_dictionary&, const empty_dictionary&) = default;
};

}  // namespace attr

using attribute_value =
    std::variant<attr::string, attr::symbol, attr::integer, attr::boolean, attr::unit, attr::empty_dictionary>;

/// A (name, typed value) pair: how the generic requests pass an attribute to an IR.
struct named_attribute {
  std::string_view name;
  attribute_value value;
};

/// How control bytes are spelled inside an MLIR string literal. Both forms read back the same.
enum class mlir_escapes : std::uint8_t {
  readable,  ///< `\n` and `\t` by name, other control bytes as `\XX`: the texts the library writes
  hex,       ///< every control byte as `\XX`: how mlir-opt's diagnostics spell symbol names
};

namespace detail {
constexpr escape_format mlir_format(mlir_escapes style) noexcept {
  return escape_format{.quote = '"',
                       .named_newline_tab = style == mlir_escapes::readable,
                       .named_carriage_return = false,
                       .python_hex = false};
}
}  // namespace detail

/// bare-id ::= (letter|[_]) (letter|digit|[_$.])*
constexpr bool mlir_is_bare_id_start(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
constexpr bool mlir_is_bare_id_char(char c) noexcept {
  return mlir_is_bare_id_start(c) || (c >= '0' && c <= '9') || c == '$' || c == '.';
}
constexpr bool mlir_is_bare_id(std::string_view s) noexcept {
  if (s.empty() || !mlir_is_bare_id_start(s.front())) return false;
  for (char c : s)
    if (!mlir_is_bare_id_char(c)) return false;
  return true;
}

/// Appends the MLIR string literal of `s` to `out`. O(s).
inline void append_mlir_string_literal(std::string& out, std::string_view s,
                                       mlir_escapes style = mlir_escapes::readable) {
  detail::append_escaped(out, s, detail::mlir_format(style));
}

/// MLIR string literal of `s`: quotes, `\\`, `\"`, `\n`, `\t` (readable style), other control
/// bytes as `\XX`. O(s).
inline std::string mlir_string_literal(std::string_view s, mlir_escapes style = mlir_escapes::readable) {
  std::string r;
  append_mlir_string_literal(r, s, style);
  return r;
}

/// Appends the symbol name `name` as written after '@': the name itself when it is a bare id,
/// else its string literal. O(name).
inline void append_mlir_symbol_name(std::string& out, std::string_view name,
                                    mlir_escapes style = mlir_escapes::readable) {
  if (mlir_is_bare_id(name))
    out += name;
  else
    append_mlir_string_literal(out, name, style);
}

/// MLIR symbol reference to `name`: `@name` when name is a bare id, else `@"..."`. O(name).
inline std::string mlir_symbol_reference(std::string_view name, mlir_escapes style = mlir_escapes::readable) {
  std::string r = "@";
  append_mlir_symbol_name(r, name, style);
  return r;
}

namespace attribute_detail {
template <class... F>
struct overloaded : F... {
  using F::operator()...;
};
template <class... F>
overloaded(F...) -> overloaded<F...>;
}  // namespace attribute_detail

/// Appends the canonical text of `v` (see the header comment). O(size of the text).
inline void append_attribute_text(std::string& out, const attribute_value& v) {
  std::visit(attribute_detail::overloaded{
                 [&](const attr::string& s) { append_mlir_string_literal(out, s.value); },
                 [&](const attr::symbol& s) {
                   out += '@';
                   append_mlir_symbol_name(out, s.name);
                 },
                 [&](const attr::integer& i) {
                   out += std::to_string(i.value);
                   if (i.width != 64) {  // MLIR's default integer type, elided as MLIR prints it
                     out += " : i";
                     out += std::to_string(i.width);
                   }
                 },
                 [&](const attr::boolean& b) { out += b.value ? "true" : "false"; },
                 [&](const attr::unit&) { out += "unit"; },
                 [&](const attr::empty_dictionary&) { out += "{}"; },
             },
             v);
}

/// The canonical text of `v`: `"s"`, `@f`, `0 : i32` (an i64 without its type, `0`), `true`,
/// `unit`, `{}`. MLIR's parser reads it as the attribute the MLIR adapter builds. O(size of the text).
inline std::string attribute_text(const attribute_value& v) {
  std::string r;
  append_attribute_text(r, v);
  return r;
}

}  // namespace neuronrw
