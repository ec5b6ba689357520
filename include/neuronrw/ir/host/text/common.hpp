// neuronrw/ir/host/text/common.hpp — the character and name helpers the lexer, the parser and
// the printer of the host text format (ir/host/text.hpp) share, in namespace
// host::text_detail.
//
//   is_ident_start(c) / is_ident_char(c)     [A-Za-z_] / [A-Za-z0-9_]
//   is_ident(s) / is_dotted(s)               NAME / NAME ('.' NAME)+
//   is_reserved(s)                           Python's keywords and `self`
//   starts_with(s, prefix)
//   quote(s)                                 "..." as the lexer reads it back byte for byte
//   sanitize(hint)                           a printable, unreserved variable name
//
// Customization points: none.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <neuronrw/detail/string_literal.hpp>

namespace neuronrw::host::text_detail {

inline bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
inline bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

/// Python's keywords, plus the names the format reserves (a variable called `self` would read as
/// the method receiver).
inline bool is_reserved(std::string_view s) {
  static constexpr std::string_view words[] = {
      "False", "None",  "True",  "and",    "as",     "assert", "async", "await",    "break",
      "class", "continue", "def", "del",   "elif",   "else",   "except", "finally", "for",
      "from",  "global", "if",   "import", "in",     "is",     "lambda", "nonlocal", "not",
      "or",    "pass",  "raise", "return", "try",    "while",  "with",   "yield",    "self"};
  for (auto w : words)
    if (w == s) return true;
  return false;
}

inline bool is_ident(std::string_view s) {
  if (s.empty() || !is_ident_start(s[0])) return false;
  for (char c : s)
    if (!is_ident_char(c)) return false;
  return true;
}

/// `a.b` or longer, every component an identifier.
inline bool is_dotted(std::string_view s) {
  if (s.find('.') == std::string_view::npos) return false;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = s.find('.', start);
    if (!is_ident(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

inline bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }
inline bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

/// A double-quoted Python literal the lexer reads back byte for byte.
inline std::string quote(std::string_view s) { return neuronrw::detail::python_string_literal(s, '"'); }

/// A printable variable name for a hint: identifier characters only, not reserved.
inline std::string sanitize(std::string_view hint) {
  std::string s;
  for (char c : hint) s += is_ident_char(c) ? c : '_';
  if (s.empty() || !is_ident_start(s[0])) s = "v" + s;
  if (is_reserved(s)) s += '_';
  return s;
}

}  // namespace neuronrw::host::text_detail
