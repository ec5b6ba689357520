// neuronrw/ir/ref/mlir_string.hpp — MLIR string literals and symbol names, read and written: the
// reference IR's parser, printer and verifier use it for every string and symbol name, which the
// IR stores as plain values. The writers are concepts/attribute.hpp's (the canonical text of the
// attribute values the passes hand to an IR); the readers are here, beside their users.
//
//   mlir_string_literal(s[, style])          a"b -> "a\"b"               (concepts/attribute.hpp)
//   append_mlir_string_literal(out, s[, style])                          (concepts/attribute.hpp)
//   mlir_symbol_reference(name[, style])     f -> @f, has space -> @"has space"
//   append_mlir_symbol_name(out, name[, style])   the same without the '@'
//   mlir_is_bare_id(s), mlir_is_bare_id_start(c), mlir_is_bare_id_char(c)
//   scan_mlir_string_literal(text, at)       where a literal ends, and whether its escapes are valid
//   read_mlir_string_literal(text, at)       its value, advancing `at`
//   mlir_string_value(text)                  the value of a text that is exactly one literal
//
// The grammar is MLIR's (its lexer and its `bare-id` rule): a literal is `"` ... `"` on one line,
// with the escapes `\"`, `\\`, `\n`, `\t` and `\XX` (two hex digits); a bare id is
// (letter|_) (letter|digit|[_$.])*. The escaping loop is shared with the Python-like printers
// (detail/string_literal.hpp).
//
// No exceptions. Customization points: none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <neuronrw/concepts/attribute.hpp>
#include <neuronrw/detail/string_literal.hpp>

namespace neuronrw {

/// Where the string literal that starts at a '"' ends (see scan_mlir_string_literal).
struct mlir_string_scan {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::size_t end = 0;          ///< just past the closing quote; else where the scan stopped
  bool terminated = false;      ///< a closing quote was found on the same line
  std::size_t bad_escape = npos;  ///< offset of the first '\' that starts no valid escape
  constexpr bool ok() const noexcept { return terminated && bad_escape == npos; }
};

/// Scans the literal starting at `text[at]` (@pre a '"'). It ends at the first unescaped '"', or
/// unterminated at a line break or the end of `text`; an invalid escape is recorded (the first
/// one) and scanning goes on after its backslash, so `end` is where MLIR's lexer would resume.
/// O(length of the literal).
constexpr mlir_string_scan scan_mlir_string_literal(std::string_view text, std::size_t at) noexcept {
  mlir_string_scan r;
  const std::size_t n = text.size();
  std::size_t i = at + 1;
  while (i < n) {
    const char c = text[i];
    if (c == '"') {
      r.end = i + 1;
      r.terminated = true;
      return r;
    }
    if (c == '\n' || c == '\r') break;
    if (c != '\\') {
      ++i;
      continue;
    }
    const char d = i + 1 < n ? text[i + 1] : '\0';
    if (d == '"' || d == '\\' || d == 'n' || d == 't') {
      i += 2;
    } else if (detail::hex_digit_value(d) >= 0 && i + 2 < n && detail::hex_digit_value(text[i + 2]) >= 0) {
      i += 3;
    } else {
      if (r.bad_escape == mlir_string_scan::npos) r.bad_escape = i;
      ++i;
    }
  }
  r.end = i < n ? i : n;
  return r;
}

/// Reads the literal starting at `text[at]` (@pre a '"'): its value, with `at` moved just past
/// the closing quote; or nullopt when it is unterminated or has an invalid escape, with `at`
/// moved to scan_mlir_string_literal's `end` (so a caller skipping literals always advances).
inline std::optional<std::string> read_mlir_string_literal(std::string_view text, std::size_t& at) {
  const mlir_string_scan scan = scan_mlir_string_literal(text, at);
  const std::size_t begin = at + 1;
  at = scan.end;
  if (!scan.ok()) return std::nullopt;
  std::string r;
  r.reserve(scan.end - 1 - begin);
  for (std::size_t i = begin; i + 1 < scan.end; ++i) {
    const char c = text[i];
    if (c != '\\') {
      r += c;
      continue;
    }
    const char e = text[++i];
    switch (e) {
      case 'n': r += '\n'; break;
      case 't': r += '\t'; break;
      case '"': case '\\': r += e; break;
      default:  // two hex digits, checked by the scan
        r += static_cast<char>(detail::hex_digit_value(e) * 16 + detail::hex_digit_value(text[i + 1]));
        ++i;
    }
  }
  return r;
}

/// The value of an MLIR string literal (`"a\22b"` → `a"b`), or nullopt when `text` is not
/// exactly one well-formed string literal.
inline std::optional<std::string> mlir_string_value(std::string_view text) {
  if (text.empty() || text.front() != '"') return std::nullopt;
  std::size_t at = 0;
  auto value = read_mlir_string_literal(text, at);
  if (!value || at != text.size()) return std::nullopt;
  return value;
}

}  // namespace neuronrw
