// examples/neuronrw-opt/dot_escape.hpp — Graphviz DOT text built from untrusted bytes: every name
// `--emit-dot` (emit_dot.hpp) writes comes from the input, and a quoted MLIR name may hold a
// newline, a quote, a backslash, a NUL (`@"\00"`), any control byte or bytes that are not UTF-8.
//
//   dot_escape(s)         the body of a double-quoted DOT string (ID or label) that Graphviz
//                         renders as `s` and boost::read_graphviz reads back in one piece
//   dot_quoted(s)         the same between double quotes
//   dot_comment_line(s)   a `// ...` comment line that stays one line
//
// What Graphviz does with a quoted string (https://graphviz.org/doc/info/lang.html and
// https://graphviz.org/docs/attr-types/escString/; checked with dot 2.42 and Boost 1.74's
// read_graphviz): `\"` is a quote and `\\` a backslash inside it, a backslash before a line break
// continues the line, and raw line breaks are kept. In a label, `\n`, `\l`, `\r` are line breaks,
// `\N`, `\G`, `\E`, ... the node's, graph's, edge's names, and HTML entities (`&lt;`, `&amp;`,
// `&alpha;`) the characters they name. So dot_escape writes, for the text made valid UTF-8 first
// (utf8.hpp; Graphviz reads UTF-8 and warns about or mangles other bytes):
//   `"` -> `\"`, `\` -> `\\`, a line feed -> `\n` (a centred line break), `&` -> `&amp;`,
//   every other control byte (U+0000..U+001F, U+007F) -> `\\XX` (upper-case hex), shown as the
//   text `\XX`, as MLIR spells the byte in a string literal; every other byte as is.
// (boost::read_graphviz decodes `\"` only: it reads the label back with `\\`, `\n` and `&amp;`
// as written.)
// The output holds no raw control byte, so no line break: a DOT statement or comment never ends
// inside it.
//
// Customization points: none.
#pragma once

#include <string>
#include <string_view>

#include "utf8.hpp"

namespace neuronrw_opt {

/// The body (no quotes) of a DOT double-quoted string that renders as `s` (see the header
/// comment). O(s).
inline std::string dot_escape(std::string_view s) {
  static constexpr char hex[] = "0123456789ABCDEF";
  const std::string text = valid_utf8(s);
  std::string out;
  out.reserve(text.size() + text.size() / 8 + 2);
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '&') {
      out += "&amp;";
    } else if (c < 0x20 || c == 0x7F) {
      out += "\\\\";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  return out;
}

/// `"` + dot_escape(s) + `"`: a DOT ID or attribute value. O(s).
inline std::string dot_quoted(std::string_view s) { return "\"" + dot_escape(s) + "\""; }

/// `// ` + `text` + a line feed, where `text` has every control byte written as `\XX` (a
/// backslash stays as is: a comment has no escapes) and is made valid UTF-8. O(text).
inline std::string dot_comment_line(std::string_view text) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out = "// ";
  for (const char ch : valid_utf8(text)) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7F) {
      out += '\\';
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  out += '\n';
  return out;
}

}  // namespace neuronrw_opt
