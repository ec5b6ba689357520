// neuronrw/ir/ref/syntax/lexer.hpp — the character level of the reference IR's text reader:
// positions and located errors, whitespace and comments, identifiers, numbers, string literals,
// balanced bracket scanning and the cleaning of kept source text. Shared by the value reader
// (types, attributes), the op-syntax interpreter and the module reader (ir/ref/parse.hpp).
//
// Customization points: none.
//
// Design: a cursor over the text (`pos_`); every scan is linear and bracket nesting is capped by
// `parse_options::max_nesting`, so hostile input cannot exhaust the stack. The first error is
// recorded by `fail` (which returns false); every scan that can fail returns `bool`, and its
// callers pass the failure on (NEURONRW_TRY, neuronrw/detail/try.hpp) up to `parse()`, which
// turns the recorded error into the diagnostic. No exceptions: this builds with -fno-exceptions.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <neuronrw/detail/try.hpp>
#include <neuronrw/diagnostic.hpp>
#include <neuronrw/ir/ref/mlir_string.hpp>

namespace neuronrw::ref {

/// Parser knobs, filled with designated initializers.
struct parse_options {
  /// Keep `loc(...)` texts (of ops, block arguments, functions, the module) and `#x = loc(...)`
  /// alias definitions; when false they are read and dropped.
  bool keep_locations = true;
  /// Deepest nesting of regions, and of brackets inside one type or attribute value, accepted
  /// before the parser gives up with an error (bounds the parser's recursion).
  std::uint32_t max_nesting = 256;
  /// The line number of the text's first line (0 reads as 1): a piece of a larger file — one
  /// `--split-input-file` chunk — is parsed with its own first line, so diagnostics and op
  /// locations carry the whole file's line numbers without the piece being copied behind padding.
  /// Columns are unaffected.
  std::uint32_t first_line = 1;
};

namespace detail {

inline constexpr bool parse_is_letter(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
inline constexpr bool parse_is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
inline constexpr bool parse_is_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
// bare-id ::= (letter|[_]) (letter|digit|[_$.])*: mlir_is_bare_id* (neuronrw/concepts/attribute.hpp).
/// suffix-id ::= digit+ | (letter|[$._-]) (letter|digit|[$._-])*
inline constexpr bool parse_is_suffix_id_char(char c) noexcept {
  return parse_is_letter(c) || parse_is_digit(c) || c == '$' || c == '.' || c == '_' || c == '-';
}
/// The first character of a type keyword or dialect type (`i32`, `tensor<...>`, `!x.y`).
inline constexpr bool parse_is_type_start(char c) noexcept {
  return parse_is_letter(c) || c == '_' || c == '!';
}
inline constexpr bool parse_is_type_char(char c) noexcept {
  return mlir_is_bare_id_char(c) || c == '!';
}

/// The cursor over one text, with the character-level scans every reader layer uses.
class lexer {
 public:
  lexer(std::string_view text, std::string_view file, const parse_options& options)
      : src_(text), file_(file), opt_(options) {
    // A line ends at "\n", "\r\n" or a lone "\r" (MLIR's lexer ends a comment at either byte).
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < src_.size(); ++i)
      if (src_[i] == '\n' || (src_[i] == '\r' && (i + 1 == src_.size() || src_[i + 1] != '\n')))
        line_starts_.push_back(i + 1);
  }

 protected:
  // ------------------------------------------------------------------ positions and errors
  source_loc loc_of(std::size_t at) const {
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), at);
    const auto line = static_cast<std::size_t>(it - line_starts_.begin());
    const std::uint32_t first = opt_.first_line == 0 ? 1 : opt_.first_line;
    return source_loc{static_cast<std::uint32_t>(line - 1 + first),
                      static_cast<std::uint32_t>(at - line_starts_[line - 1] + 1)};
  }
  std::string where(std::size_t at) const {
    auto l = loc_of(at);
    return std::to_string(l.line) + ":" + std::to_string(l.col);
  }
  /// Records the first error (offset `at`) and returns false, for `return fail(...)`.
  bool fail(std::size_t at, std::string message) {
    if (!failed_) {
      failed_ = true;
      error_at_ = at;
      error_ = std::move(message);
    }
    return false;
  }
  bool failed() const noexcept { return failed_; }
  /// The character at the cursor for a message: `'x'`, or `byte 0x00` for one that would not
  /// print (a control byte, a byte of a multi-byte character).
  std::string describe_here() const {
    if (eof()) return "end of input";
    const auto c = static_cast<unsigned char>(src_[pos_]);
    if (c >= 0x20 && c < 0x7F) return std::string("'") + src_[pos_] + "'";
    static constexpr char hex[] = "0123456789abcdef";
    return std::string("byte 0x") + hex[c >> 4] + hex[c & 15];
  }

  // ------------------------------------------------------------------ characters
  bool eof() const noexcept { return pos_ >= src_.size(); }
  char peek(std::size_t k = 0) const noexcept {
    return pos_ + k < src_.size() ? src_[pos_ + k] : '\0';
  }
  bool at_arrow() const noexcept { return peek() == '-' && peek(1) == '>'; }

  void skip_ws() noexcept {
    const std::size_t n = src_.size();
    while (pos_ < n) {
      const char c = src_[pos_];
      if (parse_is_space(c)) {
        ++pos_;
      } else if (c == '/' && peek(1) == '/') {
        while (pos_ < n && src_[pos_] != '\n' && src_[pos_] != '\r') ++pos_;
      } else {
        break;
      }
    }
  }
  void skip_blanks() noexcept {
    while (!eof() && (src_[pos_] == ' ' || src_[pos_] == '\t')) ++pos_;
  }
  [[nodiscard]] bool expect(char c, const char* message) {
    skip_ws();
    if (peek() != c || eof()) return fail(pos_, message);
    ++pos_;
    return true;
  }
  /// The bare-id `word` at the cursor, not followed by more identifier characters.
  bool at_word(std::string_view word) const noexcept {
    return src_.substr(pos_, word.size()) == word && !mlir_is_bare_id_char(peek(word.size()));
  }
  bool at_loc() const noexcept {
    if (!at_word("loc")) return false;
    std::size_t i = pos_ + 3;
    while (i < src_.size() && (src_[i] == ' ' || src_[i] == '\t')) ++i;
    return i < src_.size() && src_[i] == '(';
  }

  /// The bare-id at the cursor. Every caller has checked `mlir_is_bare_id_start(peek())`
  /// first (with its own message), so this cannot fail.
  std::string_view lex_bare_id() noexcept {
    const std::size_t b = pos_;
    while (!eof() && mlir_is_bare_id_char(src_[pos_])) ++pos_;
    return src_.substr(b, pos_ - b);
  }
  [[nodiscard]] bool lex_suffix_id(const char* message, std::string_view& out) {
    const std::size_t b = pos_;
    if (parse_is_digit(peek())) {
      while (!eof() && parse_is_digit(src_[pos_])) ++pos_;
    } else if (!eof() && parse_is_suffix_id_char(peek())) {
      while (!eof() && parse_is_suffix_id_char(src_[pos_])) ++pos_;
    } else {
      return fail(pos_, message);
    }
    out = src_.substr(b, pos_ - b);
    return true;
  }
  [[nodiscard]] bool lex_number(const char* message, std::uint32_t& out) {
    const std::size_t b = pos_;
    if (!parse_is_digit(peek())) return fail(pos_, message);
    std::uint64_t v = 0;
    while (!eof() && parse_is_digit(src_[pos_])) {
      v = v * 10 + static_cast<std::uint64_t>(src_[pos_] - '0');
      if (v > 0xFFFFFFu) return fail(b, "integer is too large");
      ++pos_;
    }
    out = static_cast<std::uint32_t>(v);
    return true;
  }

  /// `at` is a '"'. Sets `end` just past the closing quote; checks the escapes MLIR knows. A raw
  /// NUL byte (`what` names the literal: "string literal", "symbol name", "operation name"):
  ///   - in an operation name, refused at its offset, as mlir-opt refuses it;
  ///   - in a symbol name, kept, and printed as `\00`, as mlir-opt keeps and prints it;
  ///   - in a string literal (attribute text, which the module keeps as written), refused at its
  ///     offset: mlir-opt keeps it and prints `\00`, which text kept verbatim cannot; the input can
  ///     write `\00` itself. Every output that embeds names escapes NUL (DOT, JSON, plan text).
  [[nodiscard]] bool scan_string(std::size_t at, std::size_t& end, std::string_view what = "string literal") {
    const mlir_string_scan scan = scan_mlir_string_literal(src_, at);
    if (what != "symbol name") {
      const std::size_t nul = src_.substr(0, scan.end).find('\0', at);
      if (nul != std::string_view::npos && nul < scan.bad_escape)
        return fail(nul, "null character not allowed in " + std::string(what) +
                             (what == "operation name" ? "" : " (write it as \\00)"));
    }
    if (scan.bad_escape != mlir_string_scan::npos) return fail(scan.bad_escape, "unknown escape in string literal");
    if (!scan.terminated) return fail(at, "unterminated string literal");
    end = scan.end;
    return true;
  }

  static char closer_of(char open) noexcept {
    switch (open) {
      case '(': return ')';
      case '[': return ']';
      case '{': return '}';
      default: return '>';
    }
  }
  static char opener_of(char close) noexcept {
    switch (close) {
      case ')': return '(';
      case ']': return '[';
      case '}': return '{';
      default: return '<';
    }
  }
  bool fail_unbalanced(std::size_t open_at) {
    const char o = src_[open_at];
    return fail(open_at, std::string("unbalanced '") + o + "' (no matching '" + closer_of(o) + "')");
  }

  /// Advances over balanced text: (), [], {} and <> nest, `->` is an arrow, string literals and
  /// `//` comments are skipped whole, and a '>' inside (), [] or {} (a comparison in an integer
  /// set) is an ordinary character. With `group`, the cursor is on an opening bracket and the
  /// scan ends just past its partner; otherwise it stops, without consuming, at a character of
  /// `stops` outside every bracket, or at the end of input.
  [[nodiscard]] bool scan_balanced(std::string_view stops, bool group) {
    auto& st = bracket_stack_;
    st.clear();
    const std::size_t n = src_.size();
    while (pos_ < n) {
      const char c = src_[pos_];
      if (st.empty() && !group && stops.find(c) != std::string_view::npos) return true;
      switch (c) {
        case '"':
          NEURONRW_TRY(scan_string(pos_, pos_));
          continue;
        case '/':
          if (peek(1) == '/') {
            while (pos_ < n && src_[pos_] != '\n' && src_[pos_] != '\r') ++pos_;
            continue;
          }
          break;
        case '-':
          if (peek(1) == '>') {
            pos_ += 2;
            continue;
          }
          break;
        case '(':
        case '[':
        case '{':
        case '<':
          if (st.size() >= opt_.max_nesting)
            return fail(pos_, "brackets are nested too deeply (limit " + std::to_string(opt_.max_nesting) +
                                  ")");
          st.push_back(pos_);
          break;
        case ')':
        case ']':
        case '}':
        case '>': {
          if (st.empty()) return fail(pos_, std::string("unexpected '") + c + "'");
          const char open = src_[st.back()];
          if (c == '>' && open != '<') break;
          if (open != opener_of(c)) return fail_unbalanced(st.back());
          st.pop_back();
          if (st.empty() && group) {
            ++pos_;
            return true;
          }
          break;
        }
        default:
          break;
      }
      ++pos_;
    }
    if (!st.empty()) return fail_unbalanced(st.back());
    return true;
  }

  /// The source text [b, e) as stored: trimmed, `//` comments dropped, and every run of
  /// whitespace that spans a line break folded to one space, or to none after `<`, `(`, `[` and
  /// before `>`, `)`, `]`, `,` (as MLIR prints `#stablehlo.dot<...>` written over several
  /// lines; braces keep their space, as in `#sparse_tensor.encoding<{ map = ... }>`); string
  /// literals are kept as is.
  std::string clean(std::size_t b, std::size_t e) const {
    while (b < e && parse_is_space(src_[b])) ++b;
    while (e > b && parse_is_space(src_[e - 1])) --e;
    const std::string_view s = src_.substr(b, e - b);
    if (s.find('\n') == std::string_view::npos && s.find('\r') == std::string_view::npos &&
        s.find("//") == std::string_view::npos)
      return std::string(s);
    std::string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
      const char c = s[i];
      if (c == '"') {  // the source was scanned already, so the literal is well formed
        const std::size_t j = scan_mlir_string_literal(s, i).end;
        out.append(s.substr(i, j - i));
        i = j;
        continue;
      }
      if (parse_is_space(c) || (c == '/' && i + 1 < s.size() && s[i + 1] == '/')) {
        std::size_t j = i;
        bool line_break = false;
        while (j < s.size()) {
          if (parse_is_space(s[j])) {
            line_break = line_break || s[j] == '\n' || s[j] == '\r';
            ++j;
          } else if (s[j] == '/' && j + 1 < s.size() && s[j + 1] == '/') {
            line_break = true;
            while (j < s.size() && s[j] != '\n' && s[j] != '\r') ++j;
          } else {
            break;
          }
        }
        if (line_break) {
          const bool after_open = !out.empty() && (out.back() == '<' || out.back() == '(' || out.back() == '[');
          const bool before_close = j < s.size() && (s[j] == '>' || s[j] == ')' || s[j] == ']' || s[j] == ',');
          if (j < s.size() && !after_open && !before_close) out += ' ';
        } else {
          out.append(s.substr(i, j - i));
        }
        i = j;
        continue;
      }
      out += c;
      ++i;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
  }

  /// A dictionary's text, or "" for `{}`. The cursor is on '{'.
  [[nodiscard]] bool dict_text(std::string& out) {
    const std::size_t b = pos_;
    NEURONRW_TRY(scan_balanced({}, true));
    std::string t = clean(b, pos_);
    std::size_t i = 1;
    while (i + 1 < t.size() && parse_is_space(t[i])) ++i;
    out = i + 1 >= t.size() ? std::string() : std::move(t);
    return true;
  }

  [[nodiscard]] bool parse_loc(std::string& out) {
    const std::size_t b = pos_;
    pos_ += 3;
    skip_blanks();
    NEURONRW_TRY(scan_balanced({}, true));
    out = clean(b, pos_);
    return true;
  }
  /// An optional trailing `loc(...)` into `out`; "" when absent or when locations are dropped.
  [[nodiscard]] bool parse_optional_loc(std::string& out) {
    out.clear();
    skip_ws();
    if (!at_loc()) return true;
    NEURONRW_TRY(parse_loc(out));
    if (!opt_.keep_locations) out.clear();
    return true;
  }

  std::string_view src_;
  std::string_view file_;
  parse_options opt_;
  std::size_t pos_ = 0;
  std::vector<std::size_t> line_starts_;
  std::vector<std::size_t> bracket_stack_;
  // The first error (`fail`): its offset and message.
  bool failed_ = false;
  std::size_t error_at_ = 0;
  std::string error_;
};

}  // namespace detail
}  // namespace neuronrw::ref
