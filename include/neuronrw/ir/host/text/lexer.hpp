// neuronrw/ir/host/text/lexer.hpp — the lexer of the host text format (ir/host/text.hpp), in
// namespace host::text_detail: Python's layout (INDENT / DEDENT / NEWLINE, no line ends inside
// brackets, comments, "\n" / "\r\n" / "\r" line ends) over the format's few token kinds.
//
//   lexer(src).run(out) -> bool     the tokens and the decoded string literals into `out`;
//                                   false on bad input, with the error in error()
//   token, tok                      one token: kind, location, its text's offset and length
//   failure                         a located error: the first one the lexer or the parser met
//   max_source_bytes, max_nesting   the limits both enforce (docs/reliability.md)
//
// Customization points: none.
//
// No exceptions (the lexer and the parser build with -fno-exceptions): `fail` records the first
// error and returns false, and every step that can fail returns `bool` (NEURONRW_TRY,
// neuronrw/detail/try.hpp, passes a failure on).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <neuronrw/detail/string_literal.hpp>
#include <neuronrw/detail/try.hpp>
#include <neuronrw/diagnostic.hpp>
#include <neuronrw/ir/host/text/common.hpp>
#include <neuronrw/ir/host/text/locate.hpp>

namespace neuronrw::host::text_detail {

/// `integer`: a decimal, hexadecimal, octal or binary literal, with Python's `_` separators
/// (parser.hpp reads its value); `floating`: a float literal (`1.0`, `2.`, `1e-3`, `1_0.5`).
/// `bad`: a token the format has no use for, which Python has (`2j`, `"\d"`, `~`): its text is
/// the error it is (a message in lexed::strings). The lexer goes on past it, so that the parser can
/// step over a function it keeps as written (a kernel, parser.hpp) whatever it holds; anywhere
/// else the parser reports it as the lexer found it.
enum class tok : std::uint8_t { name, integer, string, punct, newline, indent, dedent, eof, bad, floating };

/// One token: 20 bytes, a host program has about one per 3 bytes of text. Its text (name, digits,
/// punctuation) is `len` bytes at `off` in the source, or for a string literal its decoded value
/// at `off` in lexed::strings; indent, dedent, newline and eof have none.
struct token {
  std::uint32_t off = 0;
  std::uint32_t len = 0;
  source_loc loc;
  tok kind = tok::eof;
};

/// The lexer's output: the tokens and the decoded values of the string literals. A deque: it
/// grows without copying, where a vector of millions of tokens peaks at 3x while it doubles.
struct lexed {
  std::deque<token> tokens;
  std::string strings;
};

/// The largest host program the parser reads (token offsets and columns are 32-bit).
inline constexpr std::size_t max_source_bytes = 0xFFFFFFFFu;

/// A located error: what `fail` records (the first one wins).
struct failure {
  source_loc loc;
  std::string message;
};

inline constexpr std::size_t max_nesting = 200;

class lexer {
 public:
  /// `first_line`: the line number of the source's first line (0 reads as 1), for a piece of a
  /// larger file (parse_program).
  explicit lexer(std::string_view src, std::uint32_t first_line = 1)
      : src_(src), line_(first_line == 0 ? 1 : first_line) {}
  /// Only `pieces` of `src` (whole lines, in the text's order; locate.hpp's program pieces), as
  /// if they were adjacent: tokens and locations are the source's own.
  lexer(std::string_view src, std::span<const source_piece> pieces) : src_(src), pieces_(pieces) {}

  /// The tokens of the whole source into `out`; false (see error()) on bad input.
  [[nodiscard]] bool run(lexed& out) {
    if (!lex()) return false;
    out = std::move(out_);
    return true;
  }
  /// The first error, after run() returned false.
  const failure& error() const noexcept { return error_; }

 private:
  [[nodiscard]] bool lex() {
    if (src_.size() > max_source_bytes)
      return fail({line_, 1}, "input too large (" + std::to_string(src_.size()) + " bytes; at most " +
                       std::to_string(max_source_bytes) + ")");
    if (pieces_.empty()) {
      end_ = src_.size();
      NEURONRW_TRY(lex_piece());
    }
    std::size_t opened = 0;  // the indentation of the previous piece's first line
    for (const auto& p : pieces_) {
      // A piece of several lines (a function defined outside the class) closes the blocks it
      // opened: the next piece may be deeper than its first line but not inside its body.
      while (&p != pieces_.data() && indents_.size() > 1 && indents_.back() > opened) {
        indents_.pop_back();
        emit(tok::dedent, {p.first_line, 1});
      }
      opened = 0;
      for (std::size_t k = p.begin; k < p.end && src_[k] == ' '; ++k) ++opened;
      pos_ = line_begin_ = p.begin;
      end_ = p.end;
      line_ = p.first_line == 0 ? 1 : p.first_line;
      NEURONRW_TRY(lex_piece());
    }
    if (!brackets_.empty()) return fail(brackets_.back().loc, std::string("'") + brackets_.back().open + "' was never closed");
    if (!out_.tokens.empty() && out_.tokens.back().kind != tok::newline && out_.tokens.back().kind != tok::dedent)
      emit(tok::newline, here(), pos_);
    while (indents_.size() > 1) {
      indents_.pop_back();
      emit(tok::dedent, here());
    }
    emit(tok::eof, here());
    return true;
  }
  /// The tokens of [pos_, end_), whole lines.
  [[nodiscard]] bool lex_piece() {
    bool line_start = true;
    while (pos_ < end_) {
      if (line_start && brackets_.empty()) {
        std::size_t width = 0;
        while (pos_ < end_ && (src_[pos_] == ' ' || src_[pos_] == '\t' || src_[pos_] == '\f')) {
          if (src_[pos_] == '\t') return fail(here(), "tab in indentation (indent with spaces)");
          if (src_[pos_] == ' ') ++width;
          ++pos_;
        }
        if (pos_ >= end_) break;
        if (at_line_end() || src_[pos_] == '#') {  // blank or comment-only line
          skip_line();
          continue;
        }
        if (width > indents_.back()) {
          indents_.push_back(width);
          if (indents_.size() > max_nesting) return fail(here(), "nesting too deep");
          emit(tok::indent, here());
        } else {
          while (width < indents_.back()) {
            indents_.pop_back();
            emit(tok::dedent, here());
          }
          if (width != indents_.back()) return fail(here(), "unindent does not match any outer indentation level");
        }
        line_start = false;
      }
      const char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\f') {
        ++pos_;
      } else if (c == '#') {
        while (pos_ < end_ && !at_line_end()) ++pos_;
      } else if (c == '\n' || c == '\r') {
        if (brackets_.empty()) {
          emit(tok::newline, here(), pos_);  // at its line end (parser.hpp keep_as_written)
          line_start = true;
        }
        newline();
      } else if (is_ident_start(c)) {
        const source_loc at = here();
        const std::size_t b = pos_;
        while (pos_ < end_ && is_ident_char(src_[pos_])) ++pos_;
        emit(tok::name, at, b, pos_ - b);
      } else if (c >= '0' && c <= '9') {
        lex_number();
      } else if (c == '"' || c == '\'') {
        NEURONRW_TRY(lex_string());
      } else {
        NEURONRW_TRY(lex_punct());
      }
    }
    return true;
  }

  struct open_bracket {
    char open;
    source_loc loc;
  };
  std::string_view src_;
  std::span<const source_piece> pieces_;
  std::size_t end_ = 0;
  std::size_t pos_ = 0;
  std::size_t line_begin_ = 0;
  std::uint32_t line_ = 1;
  std::vector<std::size_t> indents_{0};
  std::vector<open_bracket> brackets_;
  lexed out_;
  std::unordered_map<std::string, std::uint32_t> messages_;  // bad tokens' messages in out_.strings
  failure error_;
  bool failed_ = false;

  source_loc here() const { return {line_, static_cast<std::uint32_t>(pos_ - line_begin_ + 1)}; }
  /// Records the first error and returns false, for `return fail(...)`.
  bool fail(source_loc at, std::string msg) {
    if (!failed_) {
      failed_ = true;
      error_ = failure{at, std::move(msg)};
    }
    return false;
  }
  /// A bad token at `at` whose text is `msg` (see tok::bad). Each message is stored once: a text of
  /// bad tokens costs its tokens, not a message per token.
  void bad(source_loc at, std::string msg) {
    auto [it, fresh] = messages_.try_emplace(std::move(msg), static_cast<std::uint32_t>(out_.strings.size()));
    if (fresh) out_.strings += it->first;
    emit(tok::bad, at, it->second, it->first.size());
  }
  /// A token without text, or with the `len` source bytes at `off`.
  void emit(tok k, source_loc at, std::size_t off = 0, std::size_t len = 0) {
    out_.tokens.push_back({static_cast<std::uint32_t>(off), static_cast<std::uint32_t>(len), at, k});
  }
  /// A line ends at "\n", "\r\n" or a lone "\r" (as Python reads source).
  bool at_line_end() const noexcept { return src_[pos_] == '\n' || src_[pos_] == '\r'; }
  /// Consumes the line end at the cursor ("\r\n" is one).
  void newline() {
    pos_ += src_[pos_] == '\r' && pos_ + 1 < end_ && src_[pos_ + 1] == '\n' ? 2 : 1;
    ++line_;
    line_begin_ = pos_;
  }
  void skip_line() {
    while (pos_ < end_ && !at_line_end()) ++pos_;
    if (pos_ < end_) newline();
  }
  [[nodiscard]] bool lex_string() {
    const source_loc at = here();
    const char q = src_[pos_++];
    // A triple-quoted string (a docstring) may span lines.
    const bool triple = pos_ + 1 < end_ && src_[pos_] == q && src_[pos_ + 1] == q;
    if (triple) pos_ += 2;
    std::string& value = out_.strings;
    const std::size_t begin = value.size();
    // A bad character or escape makes the literal a bad token (the first one's message, at it);
    // the literal is read to its end all the same.
    std::optional<failure> wrong;
    auto soft = [&](source_loc where, std::string msg) {
      if (!wrong) wrong = failure{where, std::move(msg)};
    };
    for (;;) {
      if (pos_ >= end_ || (!triple && at_line_end())) return fail(at, "unterminated string literal");
      if (triple && at_line_end()) {
        value += '\n';
        newline();
        continue;
      }
      const char c = src_[pos_++];
      // Python refuses a NUL byte anywhere in source; here only a string literal could keep one.
      if (c == '\0') {
        soft({line_, static_cast<std::uint32_t>(pos_ - line_begin_)}, "null character not allowed in string literal (write it as \\x00)");
        continue;
      }
      if (c == q) {
        if (!triple) break;
        if (pos_ + 1 < end_ && src_[pos_] == q && src_[pos_ + 1] == q) {
          pos_ += 2;
          break;
        }
        value += c;
        continue;
      }
      if (c != '\\') {
        value += c;
        continue;
      }
      if (pos_ >= end_) return fail(at, "unterminated string literal");
      const source_loc esc = {line_, static_cast<std::uint32_t>(pos_ - line_begin_)};
      const char e = src_[pos_++];
      switch (e) {
        case 'n': value += '\n'; break;
        case 't': value += '\t'; break;
        case 'r': value += '\r'; break;
        case '0': value += '\0'; break;
        case '\\': value += '\\'; break;
        case '"': value += '"'; break;
        case '\'': value += '\''; break;
        case 'x': {
          const int h = pos_ < end_ ? neuronrw::detail::hex_digit_value(src_[pos_]) : -1;
          const int l = pos_ + 1 < end_ ? neuronrw::detail::hex_digit_value(src_[pos_ + 1]) : -1;
          if (h < 0 || l < 0) {
            soft(esc, "invalid \\x escape (two hex digits expected)");
            break;
          }
          value += static_cast<char>(h * 16 + l);
          pos_ += 2;
          break;
        }
        default:
          // A line end escaped in a one-line literal continues it, as in Python: step onto the next line.
          if (e == '\n' || e == '\r') {
            --pos_;
            newline();
          }
          soft(esc, std::string("unknown escape sequence '\\") + (e >= 0x20 && e < 0x7f ? std::string(1, e) : "?") + "'");
      }
    }
    if (wrong) {
      value.resize(begin);
      bad(wrong->loc, wrong->message);
      return true;
    }
    emit(tok::string, at, begin, value.size() - begin);
    return true;
  }
  /// A number: Python's integer and float literals (tok::integer, tok::floating); anything else
  /// that starts with a digit (`2j`, `0x`, `1__0`, `1e`, `09`) is one bad token.
  void lex_number() {
    const source_loc at = here();
    const std::size_t b = pos_;
    auto digits = [&](auto is_digit) {  // digits with single '_' between them; false if malformed
      const std::size_t from = pos_;
      while (pos_ < end_ && (is_digit(src_[pos_]) || (src_[pos_] == '_' && pos_ > from && pos_ + 1 < end_ && is_digit(src_[pos_ + 1]))))
        ++pos_;
      return pos_ > from;
    };
    auto dec = [](char x) { return x >= '0' && x <= '9'; };
    bool ok = true, floating = false;
    const char x = pos_ + 1 < end_ ? src_[pos_ + 1] : '\0';
    if (src_[pos_] == '0' && (x == 'x' || x == 'X' || x == 'o' || x == 'O' || x == 'b' || x == 'B')) {
      pos_ += 2;
      if (pos_ < end_ && src_[pos_] == '_') ++pos_;  // `0x_1F`, as Python allows
      if (x == 'x' || x == 'X') ok = digits([](char d) { return neuronrw::detail::hex_digit_value(d) >= 0; });
      else if (x == 'o' || x == 'O') ok = digits([](char d) { return d >= '0' && d <= '7'; });
      else ok = digits([](char d) { return d == '0' || d == '1'; });
    } else {
      digits(dec);
      if (pos_ < end_ && src_[pos_] == '.') {
        floating = true;
        ++pos_;
        if (pos_ < end_ && dec(src_[pos_])) ok = digits(dec);
      }
      if (ok && pos_ < end_ && (src_[pos_] == 'e' || src_[pos_] == 'E')) {
        floating = true;
        ++pos_;
        if (pos_ < end_ && (src_[pos_] == '+' || src_[pos_] == '-')) ++pos_;
        ok = pos_ < end_ && dec(src_[pos_]) && digits(dec);
      }
      // Python refuses a decimal integer with a leading zero (`09`; `0`, `00` are fine).
      if (ok && !floating) {
        bool zeros = true;
        for (std::size_t k = b; k < pos_; ++k) zeros = zeros && (src_[k] == '0' || src_[k] == '_');
        ok = src_[b] != '0' || zeros;
      }
    }
    if (!ok || (pos_ < end_ && (is_ident_char(src_[pos_]) || src_[pos_] == '.'))) {
      // Another form (2j, 1__0, 0x, 1e, 1.2.3): one bad token, to the end of the word.
      while (pos_ < end_ && (is_ident_char(src_[pos_]) || src_[pos_] == '.')) ++pos_;
      bad(at, "invalid number literal (integers: 12, 0x1F, 0o17, 0b101, 1_000; floats: 1.0, 1e-3)");
      return;
    }
    emit(floating ? tok::floating : tok::integer, at, b, pos_ - b);
  }
  /// The punctuation of the format: lex_punct's one-character tokens (and `->`, `//`, `**`, `==`,
  /// `!=`, `<=`, `>=`, `<<`, `>>`).
  static constexpr std::string_view punct_chars = "()[]{},:.=@-+*%/<>&|^~";
  /// Whether lex_punct makes `c` a bad token: not punctuation, a name's, a string's, a comment's,
  /// white space, or a backslash (which may join lines).
  static bool is_unexpected(char c) noexcept {
    return punct_chars.find(c) == std::string_view::npos && std::string_view(" \t\f\r\n#\"'\\").find(c) == std::string_view::npos &&
           !is_ident_char(c);
  }
  [[nodiscard]] bool lex_punct() {
    const source_loc at = here();
    const char c = src_[pos_];
    if (c == '-' && pos_ + 1 < end_ && src_[pos_ + 1] == '>') {
      emit(tok::punct, at, pos_, 2);
      pos_ += 2;
      return true;
    }
    if ((c == '/' || c == '*') && pos_ + 1 < end_ && src_[pos_ + 1] == c) {  // floor division, power
      emit(tok::punct, at, pos_, 2);
      pos_ += 2;
      return true;
    }
    // Comparisons and shifts.
    if ((c == '=' || c == '!' || c == '<' || c == '>') && pos_ + 1 < end_ &&
        (src_[pos_ + 1] == '=' || (c != '=' && c != '!' && src_[pos_ + 1] == c))) {
      emit(tok::punct, at, pos_, 2);
      pos_ += 2;
      return true;
    }
    if (punct_chars.find(c) == std::string_view::npos) {
      const auto u = static_cast<unsigned char>(c);
      static constexpr char hex[] = "0123456789abcdef";
      // Python's line joining: a backslash ending a line continues the logical line.
      if (c == '\\' && pos_ + 1 < end_ && (src_[pos_ + 1] == '\n' || src_[pos_ + 1] == '\r')) {
        ++pos_;
        newline();
        return true;
      }
      bad(at, u >= 0x20 && u < 0x7f ? std::string("unexpected character '") + c + "'"
                                    : std::string("unexpected byte 0x") + hex[u >> 4] + hex[u & 15]);
      // A run of such characters is one token (its first one's error): `!=`'s '=' is not one.
      for (++pos_; pos_ < end_ && is_unexpected(src_[pos_]); ++pos_) {
      }
      return true;
    }
    if (c == '(' || c == '[' || c == '{') {
      brackets_.push_back({c, at});
      if (brackets_.size() > max_nesting) return fail(at, "nesting too deep");
    } else if (c == ')' || c == ']' || c == '}') {
      const char want = c == ')' ? '(' : c == ']' ? '[' : '{';
      if (brackets_.empty()) return fail(at, std::string("unmatched '") + c + "'");
      if (brackets_.back().open != want)
        return fail(at, std::string("closing '") + c + "' does not match '" + brackets_.back().open + "'");
      brackets_.pop_back();
    }
    emit(tok::punct, at, pos_, 1);
    ++pos_;
    return true;
  }
};

}  // namespace neuronrw::host::text_detail
