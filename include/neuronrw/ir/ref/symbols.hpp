// neuronrw/ir/ref/symbols.hpp — symbol definitions and references of the reference IR, read out
// of the attribute and property texts it stores verbatim: which symbol a top-level op defines,
// and which symbol a known symbol use (a call's callee, a composite's decomposition) names. The
// verifier checks the symbol table with them and the rewrites (rewrite.hpp: has_symbol) ask the
// same question, so the two cannot disagree about what is a symbol.
//
//   defined_symbol(m, op) -> std::optional<std::string>        plain name, or nullopt
//   referenced_symbol(attribute_value) -> std::optional<std::string>   `@a::@b` -> "a"
//
// Names are plain values (`@"a\22b"` defines `a"b`); string literals and bare ids are read with
// neuronrw/ir/ref/mlir_string.hpp. Every reader is one linear pass over the text.
//
// Customization points: none (concrete IR).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/mlir_string.hpp>

namespace neuronrw::ref {

namespace symbols_detail {

/// Reads a symbol name after '@' at text[i] (bare id or string literal); advances i.
inline std::optional<std::string> read_symbol_name(std::string_view text, std::size_t& i) {
  if (i >= text.size()) return std::nullopt;
  if (text[i] == '"') return read_mlir_string_literal(text, i);
  if (!mlir_is_bare_id_start(text[i])) return std::nullopt;
  auto b = i;
  while (i < text.size() && mlir_is_bare_id_char(text[i])) ++i;
  return std::string(text.substr(b, i - b));
}

/// Where the value of key `key` starts at the outer level of an attribute dictionary text (the
/// text is `{...}`, `<{...}>` or a bare `k = v, ...` list), or npos. Keys of nested dictionaries
/// and text inside string literals never match. One pass.
inline std::size_t find_dict_value(std::string_view text, std::string_view key) {
  int depth = 0;  // counts ( [ { only: '<' '>' also occur unbalanced in `->`
  char prev = '{';  // last significant character seen
  std::size_t i = 0;
  auto blanks = [&](std::size_t j) {
    while (j < text.size() && (text[j] == ' ' || text[j] == '\n' || text[j] == '\t' || text[j] == '\r')) ++j;
    return j;
  };
  while (i < text.size()) {
    char c = text[i];
    if (c == '"') {
      i = scan_mlir_string_literal(text, i).end;
      prev = '"';
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (mlir_is_bare_id_start(c) && depth <= 1 && (prev == '{' || prev == ',' || prev == '<')) {
      auto b = i;
      while (i < text.size() && mlir_is_bare_id_char(text[i])) ++i;
      auto word = text.substr(b, i - b);
      auto j = blanks(i);
      if (word == key && j < text.size() && text[j] == '=') return blanks(j + 1);
      prev = 'a';
      continue;
    }
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') prev = c;
    ++i;
  }
  return std::string_view::npos;
}

/// The string value of key `key` at the outer level of an attribute dictionary text:
/// `sym_name = "f"` → "f"; nullopt when absent or not a string.
inline std::optional<std::string> find_dict_string(std::string_view text, std::string_view key) {
  auto j = find_dict_value(text, key);
  if (j >= text.size() || text[j] != '"') return std::nullopt;
  return read_mlir_string_literal(text, j);
}

/// The root name of the symbol reference (`@a::@b` → "a") an attribute value starts with
/// (leading blanks allowed), or nullopt.
inline std::optional<std::string> leading_symbol(std::string_view value) {
  std::size_t i = 0;
  while (i < value.size() && (value[i] == ' ' || value[i] == '\t' || value[i] == '\n')) ++i;
  if (i >= value.size() || value[i] != '@') return std::nullopt;
  ++i;
  return read_symbol_name(value, i);
}

/// Whether the symbol reference an attribute value starts with is nested (`@a::@b`), which a
/// func.call's callee may not be (MLIR: a flat symbol reference).
inline bool leading_symbol_is_nested(std::string_view value) {
  std::size_t i = 0;
  while (i < value.size() && (value[i] == ' ' || value[i] == '\t' || value[i] == '\n')) ++i;
  if (i >= value.size() || value[i] != '@') return false;
  ++i;
  if (!read_symbol_name(value, i)) return false;
  return value.substr(i, 3) == "::@";
}

/// The root name of the symbol reference under key `key` at the outer level of a dictionary
/// text (`callee = @g` → "g"), for properties; nullopt when absent or not a symbol reference.
inline std::optional<std::string> find_dict_symbol(std::string_view text, std::string_view key) {
  auto j = find_dict_value(text, key);
  if (j >= text.size()) return std::nullopt;
  return leading_symbol(text.substr(j));
}

}  // namespace symbols_detail

/// The plain root name of the symbol reference an attribute value is (`@f` → "f", `@"has space"`
/// → "has space", `@a::@b` → "a"; leading blanks allowed), or nullopt when the value does not
/// start with a well-formed one. O(value).
inline std::optional<std::string> referenced_symbol(std::string_view value) {
  return symbols_detail::leading_symbol(value);
}

/// The symbol a top-level op defines (functions: sym_name; others: a `sym_name` string
/// attribute or property), as a plain name, or nullopt.
inline std::optional<std::string> defined_symbol(const module& m, op_ref op) {
  if (m.is_function(op)) return m.function(op).sym_name;
  if (auto* a = m.find_attribute(op, "sym_name")) {
    std::size_t i = 0;
    auto v = std::string_view(a->value);
    while (i < v.size() && v[i] == ' ') ++i;
    if (i < v.size() && v[i] == '"') return read_mlir_string_literal(v, i);
    return std::nullopt;
  }
  if (!m.properties_text(op).empty()) return symbols_detail::find_dict_string(m.properties_text(op), "sym_name");
  return std::nullopt;
}

}  // namespace neuronrw::ref
