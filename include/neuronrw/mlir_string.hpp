// neuronrw/mlir_string.hpp — MLIR string literals, IR-neutral: quoting a value the way MLIR's
// printer does, and reading a literal's value back (`"a\22b"` <-> `a"b`). Passes build attribute
// texts with it; the reference IR stores every string and symbol name as its plain value.
//
// Customization points: none.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace neuronrw {

/// MLIR string literal of `s`: quotes, `\\`, `\"`, `\n`, `\t`, other control bytes as `\XX`.
inline std::string mlir_string_literal(std::string_view s) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string r = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': r += "\\\""; break;
      case '\\': r += "\\\\"; break;
      case '\n': r += "\\n"; break;
      case '\t': r += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          r += '\\';
          r += hex[c >> 4];
          r += hex[c & 15];
        } else {
          r += static_cast<char>(c);
        }
    }
  }
  r += '"';
  return r;
}

/// The value of an MLIR string literal (`"a\22b"` → `a"b`), or nullopt when `text` is not
/// exactly one well-formed string literal.
inline std::optional<std::string> mlir_string_value(std::string_view text) {
  if (text.size() < 2 || text.front() != '"' || text.back() != '"') return std::nullopt;
  auto hexval = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string r;
  for (std::size_t i = 1; i + 1 < text.size(); ++i) {
    char c = text[i];
    if (c == '"') return std::nullopt;  // an unescaped quote ends the literal early
    if (c != '\\') {
      r += c;
      continue;
    }
    if (i + 2 >= text.size()) return std::nullopt;
    char e = text[++i];
    switch (e) {
      case '"': case '\\': r += e; break;
      case 'n': r += '\n'; break;
      case 't': r += '\t'; break;
      default: {
        int hi = hexval(e), lo = hexval(text[i + 1]);
        if (hi < 0 || lo < 0 || i + 2 >= text.size()) return std::nullopt;
        r += static_cast<char>(hi * 16 + lo);
        ++i;
      }
    }
  }
  return r;
}

}  // namespace neuronrw
