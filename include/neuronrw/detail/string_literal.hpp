// neuronrw/detail/string_literal.hpp — the library's one string-literal escaper, and the Python
// string literal written with it.
//
//   detail::append_escaped(out, s, format)      the loop every quoted literal is written with
//   detail::python_string_literal(s, quote)     'a\'b' / "a\"b": the Python-like texts (host
//                                                programs, the composite emitter's output)
//   detail::hex_digit_value(c)                  0..15, or -1
//
// Two formats share the loop, and differ only where the languages differ (escape_format):
//   MLIR    (concepts/attribute.hpp): `"`, `\\`, `\"`, `\n` `\t` by name (or not, see
//           mlir_escapes), every other control byte as `\XX` (upper-case hex, no `x`).
//   Python: the chosen quote, `\\`, `\n` `\t` `\r` by name, every other control byte as `\xhh`.
// In both, bytes >= 0x80 are copied unchanged (UTF-8 text stays readable) and DEL (0x7F) counts as
// a control byte.
//
// Generic: no IR headers, no exceptions, no allocation beyond the output string.
//
// Customization points: none.
#pragma once

#include <string>
#include <string_view>

namespace neuronrw::detail {

/// The value of one hexadecimal digit (either case), or -1.
constexpr int hex_digit_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// How a quoted literal spells what it cannot hold as is.
struct escape_format {
  char quote = '"';                    ///< the delimiter; written as `\` + quote inside
  bool named_newline_tab = true;       ///< `\n` and `\t`, else the hex form
  bool named_carriage_return = false;  ///< `\r`, else the hex form
  bool python_hex = false;             ///< `\xhh` (lower case), else MLIR's `\XX` (upper case)
};

/// Appends `s` quoted in `f`: the quote, the escaped bytes, the quote. O(s).
inline void append_escaped(std::string& out, std::string_view s, const escape_format& f) {
  const char* const hex = f.python_hex ? "0123456789abcdef" : "0123456789ABCDEF";
  out.reserve(out.size() + s.size() + 2);
  out += f.quote;
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == f.quote || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (f.named_newline_tab && ch == '\n') {
      out += "\\n";
    } else if (f.named_newline_tab && ch == '\t') {
      out += "\\t";
    } else if (f.named_carriage_return && ch == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7F) {
      out += f.python_hex ? "\\x" : "\\";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  out += f.quote;
}

/// The Python format with `quote` as delimiter (`'` or `"`).
constexpr escape_format python_format(char quote) noexcept {
  return escape_format{.quote = quote, .named_newline_tab = true, .named_carriage_return = true, .python_hex = true};
}

/// Python string literal of `s` delimited by `quote`: Python (and the host-program lexer,
/// ir/host/text.hpp) reads it back as exactly the bytes of `s`. O(s).
inline std::string python_string_literal(std::string_view s, char quote = '\'') {
  std::string r;
  append_escaped(r, s, python_format(quote));
  return r;
}

}  // namespace neuronrw::detail
