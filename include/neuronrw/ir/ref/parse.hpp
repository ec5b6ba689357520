// neuronrw/ir/ref/parse.hpp — the text parser of the reference IR: the MLIR subset of
// docs/reference-ir.md (the func dialect's pretty forms, generic ops of any dialect, one region
// with one block per op) read into a `ref::module`. Whatever `mlir-opt
// --allow-unregistered-dialect` prints for such a module parses; bad input gives one located
// diagnostic and no module.
//
// Customization points: none. The accepted format is described in docs/reference-ir.md.
//
// Design: a single-pass recursive-descent parser over the characters. Types and attribute values
// are opaque balanced text (brackets, `->` and string literals are tracked, nothing else), so the
// parser needs no type system and printing the text back is a fixed point. Every scan is linear,
// nothing is re-read except the few inherent attributes of a generic `func.func`, and nesting
// (regions and brackets) is capped so hostile input cannot exhaust the stack. The first error
// stops the parse: it is thrown internally as `parse_failure` and turned into the diagnostic.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <neuronrw/diagnostic.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/string_literal.hpp>
#include <neuronrw/mlir_string.hpp>

namespace neuronrw::ref {

/// Parser knobs, filled with designated initializers.
struct parse_options {
  /// Keep `loc(...)` texts (of ops, block arguments, functions, the module) and `#x = loc(...)`
  /// alias definitions; when false they are read and dropped.
  bool keep_locations = true;
  /// Deepest nesting of regions, and of brackets inside one type or attribute value, accepted
  /// before the parser gives up with an error (bounds the parser's recursion).
  std::uint32_t max_nesting = 256;
};

/// The module, or the first error (`value` is empty then: no partial output).
struct parse_result {
  std::optional<module> value;
  diagnostic error;
  bool ok() const noexcept { return value.has_value(); }
};

namespace detail {

/// Internal: the first error, unwound to `text_parser::run`.
struct parse_failure {
  std::size_t at;
  std::string message;
};

inline constexpr bool parse_is_letter(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
inline constexpr bool parse_is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
inline constexpr bool parse_is_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
// bare-id ::= (letter|[_]) (letter|digit|[_$.])*: mlir_is_bare_id* (neuronrw/mlir_string.hpp).
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

/// The recursive-descent parser. One instance parses one text.
class text_parser {
 public:
  text_parser(std::string_view text, std::string_view file, const parse_options& options)
      : src_(text), file_(file), opt_(options) {
    // A line ends at "\n", "\r\n" or a lone "\r" (MLIR's lexer ends a comment at either byte).
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < src_.size(); ++i)
      if (src_[i] == '\n' || (src_[i] == '\r' && (i + 1 == src_.size() || src_[i + 1] != '\n')))
        line_starts_.push_back(i + 1);
    m_.source_name = std::string(file);
  }

  parse_result run() {
    try {
      parse_top();
    } catch (const parse_failure& f) {
      return parse_result{std::nullopt, diagnostic{std::string(file_), loc_of(f.at), f.message}};
    }
    return parse_result{std::optional<module>(std::move(m_)), diagnostic{}};
  }

 private:
  // ------------------------------------------------------------------ records
  struct dict_entry {
    std::string name;
    std::string value;  // "" for a unit attribute
    std::size_t name_at = 0, value_at = 0, value_end = 0;
  };
  struct ssa_use {
    std::string spelled;  // "%x#1", for messages
    std::string name;     // "x"
    std::uint32_t index = 0;
    std::size_t at = 0;
  };
  struct result_group {
    std::string name;
    std::uint32_t count = 1;
    std::size_t at = 0;
  };
  struct function_type {
    std::vector<type_ref> inputs, results;
    std::size_t at = 0;
  };
  struct block_context {
    block_ref block;
    bool function_body = false;  // bare `return` / `call` allowed
    bool top_level = false;      // `func.func` allowed
  };
  // A name in scope: `count` consecutive values starting at id `first` (a result group or one
  // block argument).
  struct value_entry {
    std::uint32_t first = 0;
    std::uint32_t count = 0;
  };
  // A use of a name not defined yet (forward reference inside one isolated scope).
  struct pending_use {
    op_ref op;
    std::uint32_t operand = 0;
    std::uint32_t index = 0;
    std::size_t at = 0;
    type_ref type;
    std::string spelled;
  };
  // Names of one isolated-from-above scope (the module top level, or one function). Names
  // defined in a nested region leave the scope when the region closes, as in MLIR.
  struct name_scope {
    std::unordered_map<std::string, value_entry> values;
    std::unordered_map<std::string, std::vector<pending_use>> pending;
    std::vector<std::vector<std::string>> regions;
  };

  // ------------------------------------------------------------------ positions and errors
  source_loc loc_of(std::size_t at) const {
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), at);
    const auto line = static_cast<std::size_t>(it - line_starts_.begin());
    return source_loc{static_cast<std::uint32_t>(line),
                      static_cast<std::uint32_t>(at - line_starts_[line - 1] + 1)};
  }
  std::string where(std::size_t at) const {
    auto l = loc_of(at);
    return std::to_string(l.line) + ":" + std::to_string(l.col);
  }
  [[noreturn]] void fail(std::size_t at, std::string message) const {
    throw parse_failure{at, std::move(message)};
  }
  std::string describe_here() const {
    if (eof()) return "end of input";
    return std::string("'") + src_[pos_] + "'";
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
  void expect(char c, const char* message) {
    skip_ws();
    if (peek() != c || eof()) fail(pos_, message);
    ++pos_;
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

  std::string_view lex_bare_id() {
    const std::size_t b = pos_;
    if (!mlir_is_bare_id_start(peek())) fail(pos_, "expected identifier");
    while (!eof() && mlir_is_bare_id_char(src_[pos_])) ++pos_;
    return src_.substr(b, pos_ - b);
  }
  std::string_view lex_suffix_id(const char* message) {
    const std::size_t b = pos_;
    if (parse_is_digit(peek())) {
      while (!eof() && parse_is_digit(src_[pos_])) ++pos_;
    } else if (!eof() && parse_is_suffix_id_char(peek())) {
      while (!eof() && parse_is_suffix_id_char(src_[pos_])) ++pos_;
    } else {
      fail(pos_, message);
    }
    return src_.substr(b, pos_ - b);
  }
  std::uint32_t lex_number(const char* message) {
    const std::size_t b = pos_;
    if (!parse_is_digit(peek())) fail(pos_, message);
    std::uint64_t v = 0;
    while (!eof() && parse_is_digit(src_[pos_])) {
      v = v * 10 + static_cast<std::uint64_t>(src_[pos_] - '0');
      if (v > 0xFFFFFFu) fail(b, "integer is too large");
      ++pos_;
    }
    return static_cast<std::uint32_t>(v);
  }

  /// `at` is a '"'. Returns the offset just past the closing quote; checks the escapes MLIR knows.
  std::size_t scan_string(std::size_t at) const {
    const mlir_string_scan scan = scan_mlir_string_literal(src_, at);
    if (scan.bad_escape != mlir_string_scan::npos) fail(scan.bad_escape, "unknown escape in string literal");
    if (!scan.terminated) fail(at, "unterminated string literal");
    return scan.end;
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
  [[noreturn]] void fail_unbalanced(std::size_t open_at) const {
    const char o = src_[open_at];
    fail(open_at, std::string("unbalanced '") + o + "' (no matching '" + closer_of(o) + "')");
  }

  /// Advances over balanced text: (), [], {} and <> nest, `->` is an arrow, string literals and
  /// `//` comments are skipped whole, and a '>' inside (), [] or {} (a comparison in an integer
  /// set) is an ordinary character. With `group`, the cursor is on an opening bracket and the
  /// scan ends just past its partner; otherwise it stops, without consuming, at a character of
  /// `stops` outside every bracket, or at the end of input.
  void scan_balanced(std::string_view stops, bool group) {
    auto& st = bracket_stack_;
    st.clear();
    const std::size_t n = src_.size();
    while (pos_ < n) {
      const char c = src_[pos_];
      if (st.empty() && !group && stops.find(c) != std::string_view::npos) return;
      switch (c) {
        case '"':
          pos_ = scan_string(pos_);
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
            fail(pos_, "brackets are nested too deeply (limit " + std::to_string(opt_.max_nesting) +
                           ")");
          st.push_back(pos_);
          break;
        case ')':
        case ']':
        case '}':
        case '>': {
          if (st.empty()) fail(pos_, std::string("unexpected '") + c + "'");
          const char open = src_[st.back()];
          if (c == '>' && open != '<') break;
          if (open != opener_of(c)) fail_unbalanced(st.back());
          st.pop_back();
          if (st.empty() && group) {
            ++pos_;
            return;
          }
          break;
        }
        default:
          break;
      }
      ++pos_;
    }
    if (!st.empty()) fail_unbalanced(st.back());
  }

  /// The source text [b, e) as stored: trimmed, `//` comments dropped, and every run of
  /// whitespace that spans a line break folded to one space (string literals are kept as is).
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
          if (j < s.size()) out += ' ';
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
  std::string dict_text() {
    const std::size_t b = pos_;
    scan_balanced({}, true);
    std::string t = clean(b, pos_);
    std::size_t i = 1;
    while (i + 1 < t.size() && parse_is_space(t[i])) ++i;
    return i + 1 >= t.size() ? std::string() : t;
  }

  std::string parse_loc() {
    const std::size_t b = pos_;
    pos_ += 3;
    skip_blanks();
    scan_balanced({}, true);
    return clean(b, pos_);
  }
  /// An optional trailing `loc(...)`; "" when absent or when locations are dropped.
  std::string parse_optional_loc() {
    skip_ws();
    if (!at_loc()) return {};
    auto t = parse_loc();
    return opt_.keep_locations ? t : std::string();
  }

  // ------------------------------------------------------------------ types
  void scan_word_type() {
    if (!parse_is_type_start(peek())) fail(pos_, "expected type");
    while (!eof() && parse_is_type_char(src_[pos_])) ++pos_;
    if (peek() == '<') scan_balanced({}, true);
  }
  /// One type: `i32`, `tensor<...>`, `!d.t<...>`, `(A, B)` or a function type `(A) -> B`.
  type_ref parse_type() {
    skip_ws();
    const std::size_t b = pos_;
    if (peek() == '(') {
      scan_balanced({}, true);
      const std::size_t after = pos_;
      skip_ws();
      if (at_arrow()) {
        pos_ += 2;
        skip_ws();
        if (peek() == '(')
          scan_balanced({}, true);
        else
          scan_word_type();
      } else {
        pos_ = after;
      }
    } else {
      scan_word_type();
    }
    return m_.intern_type(clean(b, pos_));
  }
  /// `(` [type (`,` type)*] `)`, the cursor on '('.
  std::vector<type_ref> parse_paren_type_list() {
    ++pos_;
    std::vector<type_ref> ts;
    skip_ws();
    if (peek() == ')') {
      ++pos_;
      return ts;
    }
    for (;;) {
      ts.push_back(parse_type());
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ')') {
        ++pos_;
        return ts;
      }
      fail(pos_, "expected ',' or ')' in type list");
    }
  }
  /// `(A, B) -> R` or `(A) -> (R1, R2)`.
  function_type parse_function_type() {
    skip_ws();
    function_type f;
    f.at = pos_;
    if (peek() != '(') fail(pos_, "expected '(' to begin a function type");
    f.inputs = parse_paren_type_list();
    skip_ws();
    if (!at_arrow()) fail(pos_, "expected '->' in function type");
    pos_ += 2;
    skip_ws();
    if (peek() == '(')
      f.results = parse_paren_type_list();
    else
      f.results.push_back(parse_type());
    return f;
  }

  // ------------------------------------------------------------------ attributes and symbols
  /// `{` [entry (`,` entry)*] `}`, the cursor on '{'. Entry: name [`=` value].
  std::vector<dict_entry> parse_dict() {
    std::vector<dict_entry> es;
    std::unordered_set<std::string> seen;  // filled only for large dictionaries
    auto duplicate = [&](const std::string& name) {
      if (es.size() < 16)
        return std::any_of(es.begin(), es.end(), [&](const dict_entry& x) { return x.name == name; });
      if (seen.empty())
        for (auto& x : es) seen.insert(x.name);
      return !seen.insert(name).second;
    };
    ++pos_;
    skip_ws();
    if (peek() == '}') {
      ++pos_;
      return es;
    }
    for (;;) {
      skip_ws();
      dict_entry e;
      e.name_at = pos_;
      if (peek() == '"') {
        const std::size_t end = scan_string(pos_);
        const auto raw = src_.substr(pos_, end - pos_);
        const auto inner = raw.substr(1, raw.size() - 2);
        e.name = std::string(mlir_is_bare_id(inner) ? inner : raw);
        pos_ = end;
      } else if (mlir_is_bare_id_start(peek())) {
        e.name = std::string(lex_bare_id());
      } else {
        fail(pos_, "expected attribute name");
      }
      if (duplicate(e.name))
        fail(e.name_at, "duplicate key '" + e.name + "' in dictionary attribute");
      skip_ws();
      if (peek() == '=') {
        ++pos_;
        skip_ws();
        e.value_at = pos_;
        scan_balanced(",}", false);
        e.value_end = pos_;
        e.value = clean(e.value_at, pos_);
        if (e.value.empty()) fail(e.value_at, "expected attribute value");
      }
      es.push_back(std::move(e));
      if (peek() == ',' && !eof()) {
        ++pos_;
        continue;
      }
      if (peek() == '}' && !eof()) {
        ++pos_;
        return es;
      }
      fail(pos_, "expected ',' or '}' in attribute dictionary");
    }
  }
  static std::vector<attribute> to_attributes(std::vector<dict_entry>&& es) {
    std::vector<attribute> as;
    as.reserve(es.size());
    for (auto& e : es) as.push_back(attribute{std::move(e.name), std::move(e.value)});
    return as;
  }

  /// After `@`: a bare-id, or a string literal (stored as its plain value).
  std::string parse_symbol_name() {
    if (peek() == '"') {
      const std::size_t end = scan_string(pos_);
      const auto raw = src_.substr(pos_, end - pos_);
      auto value = unquote(raw);  // symbol names are stored as their plain value
      if (!value) fail(pos_, "invalid escape in symbol name");
      pos_ = end;
      return std::move(*value);
    }
    if (!mlir_is_bare_id_start(peek())) fail(pos_, "expected valid '@'-identifier for symbol name");
    return std::string(lex_bare_id());
  }
  /// The value of `e` (re-read from the source) is exactly one flat symbol reference (`@f`, not
  /// `@f::@g`), as a func.call's callee must be.
  void check_flat_symbol_ref_value(const dict_entry& e) {
    const std::size_t save = pos_;
    pos_ = e.value_at;
    if (peek() != '@') fail(pos_, "expected a symbol reference for '" + e.name + "'");
    parse_flat_callee();
    skip_ws();
    if (pos_ < e.value_end) fail(pos_, "unexpected text after the symbol reference");
    pos_ = save;
  }
  /// `@f`, the cursor on '@'; returns its text. A nested reference (`@f::@g`) is an error: a
  /// func.call's callee is a flat symbol reference.
  std::string parse_flat_callee() {
    const std::size_t at = pos_;
    ++pos_;
    parse_symbol_name();
    if (peek() == ':' && peek(1) == ':' && peek(2) == '@')
      fail(at, "'func.call' op attribute 'callee' failed to satisfy constraint: flat symbol reference attribute");
    return std::string(src_.substr(at, pos_ - at));
  }
  /// mlir-opt's message for an `arg_attrs` / `res_attrs` array (`what`: "argument" / "result")
  /// of the wrong length.
  [[noreturn]] void fail_attr_array_size(std::size_t at, std::string_view what, std::size_t got,
                                         std::size_t expected) const {
    const std::string w(what);
    fail(at, "'func.func' op expects " + w + " attribute array to have the same number of elements as the number of "
                 "function " + w + "s, got " + std::to_string(got) + ", but expected " + std::to_string(expected));
  }
  /// `no_inline` of func.func and func.call is a unit attribute: bare, `= unit`, or an alias.
  void check_unit_value(const dict_entry& e, std::string_view op_name) const {
    if (!is_unit_value(e))
      fail(e.value_at, "'" + std::string(op_name) + "' op attribute '" + e.name +
                           "' failed to satisfy constraint: unit attribute");
  }
  static bool is_unit_value(const dict_entry& e) noexcept {
    return e.value.empty() || e.value == "unit" || e.value.starts_with('#');
  }
  /// `{k = v, k2}` of `es`, for a dictionary some of whose entries the parser consumed.
  static std::string dict_text_of(const std::vector<dict_entry>& es) {
    if (es.empty()) return {};
    std::string t = "{";
    for (const auto& e : es) {
      if (t.size() > 1) t += ", ";
      t += e.name;
      if (!e.value.empty()) t += " = " + e.value;
    }
    return t + "}";
  }
  /// The attributes of a registered op written in the generic form, read as MLIR reads them:
  /// an inherent attribute (a name in `inherent`) may come as a property or in the attribute
  /// dictionary and the property wins; a property that is no inherent attribute of the op is
  /// dropped, as mlir-opt drops it. Returns the dictionary's entries in order, each inherent
  /// one replaced by its property when there is one, then the inherent properties the
  /// dictionary does not name, in property order.
  static std::vector<dict_entry> merge_inherent(std::vector<dict_entry>&& props, std::vector<dict_entry>&& attrs,
                                                std::initializer_list<std::string_view> inherent) {
    auto is_inherent = [&](const std::string& n) {
      return std::find(inherent.begin(), inherent.end(), n) != inherent.end();
    };
    std::vector<dict_entry> out;
    out.reserve(props.size() + attrs.size());
    std::vector<bool> used(props.size(), false);
    for (auto& a : attrs) {
      std::size_t i = 0;
      if (is_inherent(a.name))
        while (i < props.size() && props[i].name != a.name) ++i;
      else
        i = props.size();
      if (i < props.size()) {
        used[i] = true;
        out.push_back(std::move(props[i]));
      } else {
        out.push_back(std::move(a));
      }
    }
    for (std::size_t i = 0; i < props.size(); ++i)
      if (!used[i] && is_inherent(props[i].name)) out.push_back(std::move(props[i]));
    return out;
  }

  /// The value of `e` (re-read from the source) is exactly one string literal; returns it with
  /// its quotes.
  std::string string_value(const dict_entry& e) {
    const std::size_t save = pos_;
    pos_ = e.value_at;
    if (peek() != '"') fail(pos_, "expected a string for '" + e.name + "'");
    pos_ = scan_string(pos_);
    std::string raw(src_.substr(e.value_at, pos_ - e.value_at));
    skip_ws();
    if (pos_ < e.value_end) fail(pos_, "unexpected text after the string");
    pos_ = save;
    return raw;
  }
  /// A symbol name given as a string, stored as its plain value, as in `parse_symbol_name`.
  std::string symbol_from_string(const dict_entry& e) {
    auto raw = string_value(e);
    auto value = unquote(raw);
    if (!value) fail(e.name_at, "invalid escape in symbol name");
    return std::move(*value);
  }

  // ------------------------------------------------------------------ SSA names
  ssa_use parse_ssa_use() {
    ssa_use u;
    u.at = pos_;
    ++pos_;
    u.name = std::string(lex_suffix_id("expected SSA value name after '%'"));
    if (peek() == '#') {
      ++pos_;
      u.index = lex_number("expected result number after '#'");
    }
    u.spelled = std::string(src_.substr(u.at, pos_ - u.at));
    return u;
  }
  /// `(` [use (`,` use)*] `)`, the cursor on '('.
  std::vector<ssa_use> parse_operand_list() {
    std::vector<ssa_use> us;
    ++pos_;
    skip_ws();
    if (peek() == ')') {
      ++pos_;
      return us;
    }
    for (;;) {
      skip_ws();
      if (peek() != '%') fail(pos_, "expected SSA operand");
      us.push_back(parse_ssa_use());
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ')') {
        ++pos_;
        return us;
      }
      fail(pos_, "expected ',' or ')' in operand list");
    }
  }

  name_scope& scope() { return scopes_.back(); }
  void push_isolated_scope() {
    scopes_.emplace_back();
    scopes_.back().regions.emplace_back();
  }
  /// Closes an isolated scope; a name still pending was never defined.
  void pop_isolated_scope() {
    auto& s = scope();
    const pending_use* first = nullptr;
    for (auto& [name, uses] : s.pending)
      for (auto& u : uses)
        if (first == nullptr || u.at < first->at) first = &u;
    if (first != nullptr) {
      auto name = first->spelled.substr(0, first->spelled.find('#'));
      fail(first->at, "use of undeclared SSA value name '" + name + "'");
    }
    scopes_.pop_back();
  }
  void open_region_scope() { scope().regions.emplace_back(); }
  void close_region_scope() {
    auto& s = scope();
    for (auto& n : s.regions.back()) s.values.erase(n);
    s.regions.pop_back();
  }
  void enter_region(std::size_t at) {
    if (++region_depth_ > opt_.max_nesting)
      fail(at, "regions are nested too deeply (limit " + std::to_string(opt_.max_nesting) + ")");
  }
  void leave_region() noexcept { --region_depth_; }

  void bind_use(const pending_use& u, value_entry e) {
    if (u.index >= e.count) fail(u.at, "reference to invalid result number");
    const value_ref v{e.first + u.index};
    if (m_.type(v) != u.type)
      fail(u.at, "use of value '" + u.spelled + "' expects different type than prior uses: '" +
                     std::string(m_.type_text(u.type)) + "' vs '" +
                     std::string(m_.type_text(m_.type(v))) + "'");
    m_.set_operand(u.op, u.operand, v);
  }
  void define_value(const std::string& name, value_entry e, std::size_t at) {
    auto& s = scope();
    if (!s.values.emplace(name, e).second) fail(at, "redefinition of SSA value '%" + name + "'");
    s.regions.back().push_back(name);
    if (auto it = s.pending.find(name); it != s.pending.end()) {
      auto uses = std::move(it->second);
      s.pending.erase(it);
      for (auto& u : uses) bind_use(u, e);
    }
  }
  void resolve_operands(op_ref op, const std::vector<ssa_use>& uses,
                        const std::vector<type_ref>& types) {
    for (std::size_t i = 0; i < uses.size(); ++i) {
      const auto& u = uses[i];
      pending_use p{op, static_cast<std::uint32_t>(i), u.index, u.at, types[i], u.spelled};
      auto& s = scope();
      if (auto it = s.values.find(u.name); it != s.values.end())
        bind_use(p, it->second);
      else
        s.pending[u.name].push_back(std::move(p));
    }
  }
  void define_results(op_ref op, const std::vector<result_group>& groups) {
    std::uint32_t offset = 0;
    const std::uint32_t first = m_.num_results(op) > 0 ? m_.result(op, 0).id : 0;
    for (auto& g : groups) {
      define_value(g.name, value_entry{first + offset, g.count}, g.at);
      offset += g.count;
    }
    if (!groups.empty()) m_.set_name_hint(op, groups.front().name);
  }
  void check_result_count(std::size_t start, std::size_t defined, std::uint64_t bound) const {
    if (bound != 0 && defined != bound)
      fail(start, "operation defines " + std::to_string(defined) + " results but was provided " +
                      std::to_string(bound) + " to bind");
  }
  void check_operand_count(const function_type& f, std::size_t operands) const {
    if (f.inputs.size() != operands)
      fail(f.at, "expected " + std::to_string(operands) + " operand types but had " +
                     std::to_string(f.inputs.size()));
  }

  // ------------------------------------------------------------------ top level
  void parse_top() {
    push_isolated_scope();
    bool module_done = false, implicit = false;
    for (;;) {
      skip_ws();
      if (eof()) break;
      const char c = peek();
      if (c == '#' || c == '!') {
        parse_alias();
        continue;
      }
      if (src_.substr(pos_, 3) == "{-#") {
        parse_file_metadata();
        continue;
      }
      if (module_done) fail(pos_, "unexpected " + describe_here() + " after the module");
      if (!implicit && (at_word("module") || at_word("builtin.module"))) {
        parse_module_pretty();
        module_done = true;
        continue;
      }
      if (!implicit && src_.substr(pos_, 16) == "\"builtin.module\"") {
        parse_module_generic();
        module_done = true;
        continue;
      }
      if (c == '}') fail(pos_, "unexpected '}' at top level");
      implicit = true;
      parse_operation(block_context{m_.body(), false, true});
    }
    pop_isolated_scope();
  }

  /// `{-# entries #-}`: the file metadata dictionary (resource blobs), kept verbatim.
  void parse_file_metadata() {
    const std::size_t start = pos_;
    if (!m_.file_metadata.empty())
      fail(start, "a second file metadata dictionary ('{-# ... #-}') is not supported by the reference IR");
    pos_ += 3;
    const std::size_t b = pos_;
    // Balanced like any attribute text, up to the '#' of the closing `#-}`.
    scan_balanced("#", false);
    if (src_.substr(pos_, 3) != "#-}") fail(start, "expected '#-}' to end the file metadata dictionary");
    m_.file_metadata = clean(b, pos_);
    pos_ += 3;
  }

  /// `#name = attribute` or `!name = type`, up to the end of its line (or of its brackets).
  void parse_alias() {
    const char sigil = peek();
    ++pos_;
    if (!mlir_is_bare_id_start(peek())) fail(pos_, "expected alias name");
    const auto name = lex_bare_id();
    skip_blanks();
    if (peek() != '=') fail(pos_, "expected '=' in alias definition");
    ++pos_;
    skip_blanks();
    const std::size_t b = pos_;
    scan_balanced("\n\r", false);
    auto value = clean(b, pos_);
    if (value.empty()) fail(b, "expected a value in alias definition");
    if (!opt_.keep_locations && sigil == '#' && value.starts_with("loc(")) return;
    std::string def(1, sigil);
    def += name;
    def += " = ";
    def += value;
    m_.alias_definitions.push_back(std::move(def));
  }

  /// `[builtin.]module [@name] [attributes {...}] { ... } [loc]`.
  void parse_module_pretty() {
    pos_ += at_word("module") ? 6 : 14;
    skip_ws();
    if (peek() == '@') {
      ++pos_;
      m_.sym_name = parse_symbol_name();
      skip_ws();
    }
    if (at_word("attributes")) {
      pos_ += 10;
      skip_ws();
      if (peek() != '{') fail(pos_, "expected '{' after 'attributes'");
      const std::size_t b = pos_;
      auto es = parse_dict();
      set_module_attributes(std::move(es), b, pos_, false);
      skip_ws();
    }
    if (peek() != '{' || eof()) fail(pos_, "expected '{' to begin the module body");
    const std::size_t open = pos_;
    ++pos_;
    parse_block_body(block_context{m_.body(), false, true}, open);
    m_.module_loc_text = parse_optional_loc();
  }

  /// The module's attribute dictionary `es` (its text is [b, e)): a
  /// `sym_name` in it names the module, as in MLIR, where it is the op's inherent attribute
  /// (`module @m attributes {sym_name = "n"}` is module @n); `sym_visibility` stays an entry,
  /// which is where mlir-opt prints it. The text is kept as written unless an entry was taken
  /// out or `rebuilt` (entries merged from properties).
  void set_module_attributes(std::vector<dict_entry> es, std::size_t b, std::size_t e, bool rebuilt) {
    for (auto it = es.begin(); it != es.end(); ++it)
      if (it->name == "sym_name") {
        m_.sym_name = symbol_from_string(*it);
        es.erase(it);
        rebuilt = true;
        break;
      }
    for (const auto& x : es)
      if (x.name == "sym_visibility" && !x.value.starts_with('#')) string_value(x);  // a string, as MLIR requires
    m_.attributes_text = es.empty() ? std::string() : rebuilt ? dict_text_of(es) : clean(b, e);
  }

  void parse_module_generic() {
    const std::size_t start = pos_;
    pos_ += 16;
    expect('(', "expected '(' to start the operand list");
    expect(')', "'builtin.module' takes no operands");
    skip_ws();
    std::vector<dict_entry> props;
    if (peek() == '<') {
      ++pos_;
      skip_ws();
      if (peek() != '{') fail(pos_, "expected '{' to begin the properties of 'builtin.module'");
      props = parse_dict();
      expect('>', "expected '>' to close the properties");
    }
    expect('(', "expected '(' before the region of 'builtin.module'");
    skip_ws();
    if (peek() != '{') fail(pos_, "expected '{' to begin a region");
    const std::size_t open = pos_;
    ++pos_;
    skip_ws();
    if (peek() == '^') {
      ++pos_;
      lex_suffix_id("expected block name");
      skip_ws();
      if (peek() != ':') fail(pos_, "expected ':' after block name");
      ++pos_;
    } else if (peek() == '}') {
      fail(start, "'builtin.module' op region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks");
    }
    parse_block_body(block_context{m_.body(), false, true}, open);
    skip_ws();
    if (peek() == ',') {
      ++pos_;
      skip_ws();
      fail(pos_, "the reference IR supports at most one region per op");
    }
    expect(')', "expected ')' after the region");
    skip_ws();
    std::vector<dict_entry> attrs;
    std::size_t b = pos_, e = pos_;
    if (peek() == '{') {
      attrs = parse_dict();
      e = pos_;
      skip_ws();
    }
    const bool had_props = !props.empty();
    auto es = merge_inherent(std::move(props), std::move(attrs), {"sym_name", "sym_visibility"});
    set_module_attributes(std::move(es), b, e, had_props);
    if (peek() != ':') fail(pos_, "expected ':' followed by operation type");
    ++pos_;
    auto f = parse_function_type();
    if (!f.inputs.empty() || !f.results.empty())
      fail(f.at, "expected '() -> ()' as the type of 'builtin.module'");
    m_.module_loc_text = parse_optional_loc();
  }

  /// The ops of a block up to and including its closing '}'; the cursor is past the '{'.
  void parse_block_body(const block_context& ctx, std::size_t open_at) {
    for (;;) {
      skip_ws();
      if (eof()) fail(pos_, "missing '}' to close the '{' at " + where(open_at));
      const char c = peek();
      if (c == '}') {
        ++pos_;
        return;
      }
      if (c == '^') fail(pos_, "the reference IR supports at most one block per region");
      parse_operation(ctx);
    }
  }

  /// `^name[(%a: T [loc], ...)]:` — defines the arguments in the current region scope.
  void parse_block_header(block_ref b, std::vector<std::size_t>* arg_positions) {
    ++pos_;
    lex_suffix_id("expected block name");
    skip_ws();
    if (peek() == '(') {
      ++pos_;
      skip_ws();
      if (peek() != ')') {
        for (;;) {
          skip_ws();
          if (peek() != '%') fail(pos_, "expected SSA identifier");
          const std::size_t at = pos_;
          ++pos_;
          std::string name(lex_suffix_id("expected SSA value name after '%'"));
          expect(':', "expected ':' and type for SSA operand");
          auto t = parse_type();
          auto loc = parse_optional_loc();
          auto v = m_.add_block_argument(b, t, name);
          if (!loc.empty()) m_.set_arg_loc_text(v, std::move(loc));
          if (arg_positions != nullptr) arg_positions->push_back(at);
          define_value(name, value_entry{v.id, 1}, at);
          skip_ws();
          if (peek() == ',') {
            ++pos_;
            continue;
          }
          if (peek() == ')') break;
          fail(pos_, "expected ',' or ')' in block argument list");
        }
      }
      ++pos_;
      skip_ws();
    }
    if (peek() != ':' || eof()) fail(pos_, "expected ':' after block name");
    ++pos_;
  }

  // ------------------------------------------------------------------ operations
  void parse_operation(const block_context& ctx) {
    const std::size_t start = pos_;
    std::vector<result_group> groups;
    std::uint64_t bound = 0;
    if (peek() == '%') {
      for (;;) {
        result_group g;
        g.at = pos_;
        ++pos_;
        g.name = std::string(lex_suffix_id("expected SSA value name after '%'"));
        skip_ws();
        if (peek() == ':') {
          ++pos_;
          skip_ws();
          const std::size_t at = pos_;
          g.count = lex_number("expected result count after ':'");
          if (g.count == 0) fail(at, "expected named operation to have at least 1 result");
          skip_ws();
        }
        bound += g.count;
        groups.push_back(std::move(g));
        if (peek() == ',') {
          ++pos_;
          skip_ws();
          if (peek() != '%') fail(pos_, "expected SSA value name");
          continue;
        }
        break;
      }
      if (peek() != '=') fail(pos_, "expected '=' after the result names");
      ++pos_;
      skip_ws();
      // Each result needs a type further on, so this bounds the work by the input size.
      if (bound > src_.size() - pos_) fail(start, "more results than the rest of the input can type");
    }
    const std::size_t name_at = pos_;
    if (peek() == '"') {
      parse_generic_operation(ctx, start, groups, bound);
      return;
    }
    if (mlir_is_bare_id_start(peek())) {
      const auto id = lex_bare_id();
      if (id == "func.func") {
        if (!ctx.top_level) fail(name_at, "'func.func' is only supported at module level");
        if (!groups.empty()) fail(start, "cannot name an operation with no results");
        parse_function(start);
        return;
      }
      if (id == "func.return" || (id == "return" && ctx.function_body)) {
        if (!groups.empty()) fail(start, "cannot name an operation with no results");
        parse_return(ctx, start);
        return;
      }
      if (id == "func.call" || (id == "call" && ctx.function_body)) {
        parse_call(ctx, start, groups, bound);
        return;
      }
      if (id == "return" || id == "call")
        fail(name_at, "'" + std::string(id) + "' needs the 'func.' prefix outside a function body");
      if (id == "module" || id == "builtin.module")
        fail(name_at, "nested modules are not supported by the reference IR");
      fail(name_at, "custom op '" + std::string(id) +
                        "' is not supported by the reference IR (write it in the generic form)");
    }
    fail(pos_, "expected operation name in quotes");
  }

  /// Replaces `old` (created before its signature was read, without results) by an op with
  /// `result_types`, moving its region over. The old id stays an erased tombstone.
  op_ref rebuild_with_results(op_ref old, std::span<const type_ref> result_types) {
    const std::vector<value_ref> none(m_.num_operands(old));
    const std::string name(m_.name(old));
    const auto op = m_.create_op(name, none, result_types, {}, m_.loc(old));
    m_.insert_before(op, old);
    if (m_.has_region(old)) {
      const auto ob = m_.region_block(old);
      const auto oargs = m_.arguments(ob);
      std::vector<type_ref> ts;
      for (auto a : oargs) ts.push_back(m_.type(a));
      const auto nb = m_.add_region(op, ts);
      m_.set_explicit_block(nb, m_.explicit_block(ob));
      for (std::size_t i = 0; i < oargs.size(); ++i) {
        const auto na = m_.arguments(nb)[i], oa = m_.arguments(ob)[i];
        m_.set_arg_name_hint(na, m_.arg_name_hint(oa));
        m_.set_arg_loc_text(na, m_.arg_loc_text(oa));
        m_.replace_all_uses(oa, na);
      }
      std::vector<op_ref> inner;
      for (auto o : m_.ops(ob)) inner.push_back(o);
      for (auto o : inner) m_.move_to_end(o, nb);
    }
    m_.erase_op(old);
    return op;
  }

  /// `"name"(operands) [<props>] [({region})] [{attrs}] : (types) -> results [loc]`.
  void parse_generic_operation(const block_context& ctx, std::size_t start,
                               const std::vector<result_group>& groups, std::uint64_t bound) {
    const std::size_t name_at = pos_;
    const std::size_t name_end = scan_string(pos_);
    const std::string name(src_.substr(pos_ + 1, name_end - pos_ - 2));
    pos_ = name_end;
    if (name.empty()) fail(name_at, "expected a non-empty operation name");
    if (name == "func.func") {
      if (!ctx.top_level) fail(name_at, "'func.func' is only supported at module level");
      if (!groups.empty()) fail(start, "cannot name an operation with no results");
      parse_generic_function(start);
      return;
    }
    if (name == "builtin.module") fail(name_at, "nested modules are not supported by the reference IR");
    const bool is_call = name == "func.call", is_return = name == "func.return";
    if (is_return && !groups.empty()) fail(start, "cannot name an operation with no results");

    skip_ws();
    if (peek() != '(') fail(pos_, "expected '(' to start the operand list");
    auto uses = parse_operand_list();
    skip_ws();
    if (peek() == '[') fail(pos_, "successors are not supported by the reference IR");
    std::string props;
    std::size_t props_at = 0, props_end = 0;
    if (peek() == '<') {
      props_at = pos_;
      scan_balanced({}, true);
      props_end = pos_;
      props = clean(props_at + 1, pos_ - 1);
      if (props.empty()) fail(props_at, "expected properties between '<' and '>'");
      if (is_return) fail(props_at, "'func.return' takes no properties");
      skip_ws();
    }
    const std::vector<value_ref> none(uses.size());
    op_ref op;
    if (peek() == '(') {
      if (is_call || is_return) fail(pos_, "'" + name + "' takes no region");
      // The op must exist before its region is read (the region needs a parent): it gets the
      // bound number of results now, their types once the signature is read.
      if (placeholder_type_ == type_ref{}) placeholder_type_ = m_.intern_type("");
      const std::vector<type_ref> unknown(static_cast<std::size_t>(bound), placeholder_type_);
      op = m_.create_op(name, none, unknown, {}, loc_of(start));
      m_.push_back(ctx.block, op);
      ++pos_;
      skip_ws();
      if (peek() != '{' || eof()) fail(pos_, "expected '{' to begin a region");
      parse_op_region(op);
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        skip_ws();
        fail(pos_, "the reference IR supports at most one region per op");
      }
      if (peek() != ')') fail(pos_, "expected ')' after the region");
      ++pos_;
      skip_ws();
    }
    std::vector<dict_entry> attrs;
    if (peek() == '{') {
      attrs = parse_dict();
      skip_ws();
    }
    if (peek() != ':') fail(pos_, "expected ':' followed by operation type");
    ++pos_;
    const auto f = parse_function_type();
    check_operand_count(f, uses.size());
    check_result_count(start, f.results.size(), bound);
    if (is_return && !f.results.empty()) fail(f.at, "'func.return' has no results");
    if (!op.valid()) {
      op = m_.create_op(name, none, f.results, {}, loc_of(start));
      m_.push_back(ctx.block, op);
    } else if (m_.num_results(op) != f.results.size()) {
      // Unnamed results of an op with a region (never printed so by mlir-opt): rebuild it.
      op = rebuild_with_results(op, f.results);
    } else {
      for (std::size_t i = 0; i < f.results.size(); ++i) m_.set_type(m_.result(op, i), f.results[i]);
    }
    if (is_call) {
      std::vector<dict_entry> pes;
      if (!props.empty()) {
        const std::size_t save = pos_;
        pos_ = props_at + 1;
        skip_ws();
        if (peek() != '{') fail(pos_, "expected a dictionary of properties for 'func.call'");
        pes = parse_dict();
        skip_ws();
        if (pos_ + 1 < props_end) fail(pos_, "unexpected text after the properties of 'func.call'");
        pos_ = save;
      }
      // func.call's inherent attributes (LLVM 22): callee, arg_attrs, res_attrs, no_inline.
      auto rest = merge_inherent(std::move(pes), std::move(attrs), {"callee", "arg_attrs", "res_attrs", "no_inline"});
      std::vector<attribute> as;
      for (auto& e : rest)
        if (e.name == "callee") {
          check_flat_symbol_ref_value(e);
          as.push_back(attribute{e.name, e.value});
        }
      if (as.empty()) fail(name_at, "'func.call' requires a 'callee' symbol reference");
      for (auto& e : rest) {
        if (e.name == "callee") continue;
        if (e.name == "no_inline") check_unit_value(e, "func.call");
        as.push_back(attribute{std::move(e.name), std::move(e.value)});
      }
      m_.attributes(op) = std::move(as);
    } else {
      m_.attributes(op) = to_attributes(std::move(attrs));
      if (!props.empty()) m_.set_properties_text(op, std::move(props));
    }
    resolve_operands(op, uses, f.inputs);
    define_results(op, groups);
    if (auto l = parse_optional_loc(); !l.empty()) m_.set_loc_text(op, std::move(l));
  }

  /// `{ [^bb(args):] ops }` of an ordinary op, the cursor on '{'.
  void parse_op_region(op_ref op) {
    const std::size_t open = pos_;
    enter_region(open);
    ++pos_;
    const auto b = m_.add_region(op);
    open_region_scope();
    skip_ws();
    if (peek() == '^') {
      parse_block_header(b, nullptr);
      m_.set_explicit_block(b, true);  // `({ ^bb0: })` is one empty block, `({ })` none
    }
    parse_block_body(block_context{b, false, false}, open);
    close_region_scope();
    leave_region();
  }

  /// `return [{attrs}] [%a, ... : T, ...]` (pretty form of func.return).
  void parse_return(const block_context& ctx, std::size_t start) {
    skip_ws();
    std::vector<dict_entry> attrs;
    if (peek() == '{') {
      attrs = parse_dict();
      skip_ws();
    }
    std::vector<ssa_use> uses;
    std::vector<type_ref> types;
    if (peek() == '%') {
      for (;;) {
        uses.push_back(parse_ssa_use());
        skip_ws();
        if (peek() == ',') {
          ++pos_;
          skip_ws();
          if (peek() != '%') fail(pos_, "expected SSA operand");
          continue;
        }
        break;
      }
      if (peek() != ':') fail(pos_, "expected ':' and the types of the returned values");
      ++pos_;
      skip_ws();
      const std::size_t types_at = pos_;
      for (;;) {
        types.push_back(parse_type());
        skip_ws();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        break;
      }
      if (types.size() != uses.size())
        fail(types_at, "expected " + std::to_string(uses.size()) + " types after ':' but had " +
                           std::to_string(types.size()));
    }
    const std::vector<value_ref> none(uses.size());
    const auto op = m_.create_op("func.return", none, {}, to_attributes(std::move(attrs)), loc_of(start));
    m_.push_back(ctx.block, op);
    resolve_operands(op, uses, types);
    if (auto l = parse_optional_loc(); !l.empty()) m_.set_loc_text(op, std::move(l));
  }

  /// `call @f(%a, ...) [{attrs}] : (T, ...) -> R` (pretty form of func.call).
  void parse_call(const block_context& ctx, std::size_t start, const std::vector<result_group>& groups,
                  std::uint64_t bound) {
    skip_ws();
    if (peek() != '@') fail(pos_, "expected symbol reference to the callee");
    auto callee = parse_flat_callee();
    skip_ws();
    if (peek() != '(') fail(pos_, "expected '(' to start the operand list");
    auto uses = parse_operand_list();
    skip_ws();
    std::vector<attribute> attrs{attribute{"callee", std::move(callee)}};
    if (peek() == '{') {
      for (auto& e : parse_dict()) {
        if (e.name == "no_inline") check_unit_value(e, "func.call");
        if (e.name == "callee") {  // the dictionary's callee replaces the written one, as in MLIR
          check_flat_symbol_ref_value(e);
          attrs.front().value = std::move(e.value);
          continue;
        }
        attrs.push_back(attribute{std::move(e.name), std::move(e.value)});
      }
      skip_ws();
    }
    if (peek() != ':') fail(pos_, "expected ':' followed by the callee's function type");
    ++pos_;
    const auto f = parse_function_type();
    check_operand_count(f, uses.size());
    check_result_count(start, f.results.size(), bound);
    const std::vector<value_ref> none(uses.size());
    const auto op = m_.create_op("func.call", none, f.results, std::move(attrs), loc_of(start));
    m_.push_back(ctx.block, op);
    resolve_operands(op, uses, f.inputs);
    define_results(op, groups);
    if (auto l = parse_optional_loc(); !l.empty()) m_.set_loc_text(op, std::move(l));
  }

  // ------------------------------------------------------------------ functions
  /// `func.func [vis] @name(args) [-> results] [attributes {...}] [{ body }] [loc]`.
  void parse_function(std::size_t start) {
    const auto op = m_.create_op("func.func", {}, {}, {}, loc_of(start));
    m_.push_back(m_.body(), op);
    m_.make_function(op);
    skip_ws();
    std::string visibility;
    if (at_word("private") || at_word("public") || at_word("nested")) {
      visibility = std::string(lex_bare_id());  // kept as written: mlir-opt prints an explicit `public`
      skip_ws();
    }
    if (peek() != '@') fail(pos_, "expected valid '@'-identifier for symbol name");
    ++pos_;
    auto sym = parse_symbol_name();
    skip_ws();
    if (peek() != '(') fail(pos_, "expected '(' in function signature");
    ++pos_;
    struct argument {
      std::string name;
      std::size_t at = 0;
      type_ref type;
      std::string attrs, loc;
    };
    std::vector<argument> args;
    bool named = false;
    skip_ws();
    if (peek() != ')') {
      for (;;) {
        skip_ws();
        argument a;
        a.at = pos_;
        if (peek() == '%') {
          if (!args.empty() && !named) fail(pos_, "expected type instead of SSA identifier");
          named = true;
          ++pos_;
          a.name = std::string(lex_suffix_id("expected SSA value name after '%'"));
          expect(':', "expected ':'");
        } else if (named) {
          fail(pos_, "expected SSA identifier");
        }
        a.type = parse_type();
        skip_ws();
        if (peek() == '{') {
          a.attrs = dict_text();
          skip_ws();
        }
        if (at_loc()) a.loc = parse_optional_loc();
        args.push_back(std::move(a));
        skip_ws();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        if (peek() == ')') break;
        fail(pos_, "expected ',' or ')' in function signature");
      }
    }
    ++pos_;
    std::vector<type_ref> results;
    std::vector<std::string> result_attrs;
    skip_ws();
    if (at_arrow()) {
      pos_ += 2;
      skip_ws();
      if (peek() == '(') {
        ++pos_;
        skip_ws();
        if (peek() != ')') {
          for (;;) {
            results.push_back(parse_type());
            skip_ws();
            result_attrs.push_back(peek() == '{' ? dict_text() : std::string());
            skip_ws();
            if (peek() == ',') {
              ++pos_;
              continue;
            }
            if (peek() == ')') break;
            fail(pos_, "expected ',' or ')' in function result list");
          }
        }
        ++pos_;
      } else {
        results.push_back(parse_type());
        result_attrs.emplace_back();
      }
      skip_ws();
    }
    std::vector<std::string> arg_attrs;
    for (auto& a : args) arg_attrs.push_back(a.attrs);
    if (at_word("attributes")) {
      const std::size_t attributes_at = pos_;
      pos_ += 10;
      skip_ws();
      if (peek() != '{') fail(pos_, "expected '{' after 'attributes'");
      auto es = parse_dict();
      take_signature_attributes(es, start, attributes_at, arg_attrs, result_attrs);
      m_.attributes(op) = to_attributes(std::move(es));
      skip_ws();
    }
    {
      auto& f = m_.function(op);
      f.sym_name = std::move(sym);
      f.visibility = std::move(visibility);
      f.result_types = std::move(results);
      f.result_attrs = std::move(result_attrs);
      f.arg_attrs = std::move(arg_attrs);
    }
    if (peek() == '{' && !eof()) {
      if (!args.empty() && !named) fail(pos_, "a function body needs named arguments ('%name: type')");
      const std::size_t open = pos_;
      enter_region(open);
      ++pos_;
      const auto b = m_.add_region(op);
      push_isolated_scope();
      for (auto& a : args) {
        const auto v = m_.add_block_argument(b, a.type, a.name);
        if (!a.loc.empty()) m_.set_arg_loc_text(v, a.loc);
        define_value(a.name, value_entry{v.id, 1}, a.at);
      }
      skip_ws();
      if (peek() == '^') fail(pos_, "a function body takes its arguments from the signature, not from a block label");
      parse_block_body(block_context{b, true, false}, open);
      pop_isolated_scope();
      leave_region();
    } else {
      auto& f = m_.function(op);
      f.declaration = true;
      for (auto& a : args) f.decl_arg_types.push_back(a.type);
    }
    if (auto l = parse_optional_loc(); !l.empty()) m_.set_loc_text(op, std::move(l));
  }

  /// The inherent attributes of a pretty `func.func`'s `attributes {...}` (`es`), taken out as
  /// MLIR's function parser takes them (LLVM 22): `sym_name`, `function_type` and
  /// `sym_visibility` come from the signature and are an error here; `arg_attrs` / `res_attrs`
  /// set the argument / result dictionaries when the signature writes none (else they occur
  /// twice), are dropped when not an array (as MLIR drops an inherent attribute of the wrong
  /// kind) and must have one dictionary per argument / result; a `no_inline` that is not a unit
  /// is dropped for the same reason. `start` is the op's position, `attributes_at` the keyword's.
  void take_signature_attributes(std::vector<dict_entry>& es, std::size_t start, std::size_t attributes_at,
                                 std::vector<std::string>& arg_attrs, std::vector<std::string>& result_attrs) {
    for (const auto& e : es)
      if (e.name == "sym_name" || e.name == "function_type" || e.name == "sym_visibility")
        fail(attributes_at, "custom op 'func.func' '" + e.name +
                                "' is an inferred attribute and should not be specified in the explicit attribute "
                                "dictionary");
    auto take = [&](const char* key, std::vector<std::string>& dicts, const char* what) {
      auto it = std::find_if(es.begin(), es.end(), [&](const dict_entry& e) { return e.name == key; });
      if (it == es.end()) return;
      if (std::any_of(dicts.begin(), dicts.end(), [](const std::string& d) { return !d.empty(); }))
        fail(start, std::string("custom op 'func.func' attribute '") + key + "' occurs more than once in the attribute list");
      const dict_entry e = std::move(*it);
      es.erase(it);
      if (!e.value.starts_with('[')) return;
      auto ds = parse_dict_array(e);
      if (ds.size() != dicts.size()) fail_attr_array_size(start, what, ds.size(), dicts.size());
      dicts = std::move(ds);
    };
    take("arg_attrs", arg_attrs, "argument");
    take("res_attrs", result_attrs, "result");
    std::erase_if(es, [](const dict_entry& e) { return e.name == "no_inline" && !is_unit_value(e); });
  }

  /// `[{a}, {}, ...]` of `arg_attrs` / `res_attrs` (re-read from the source).
  std::vector<std::string> parse_dict_array(const dict_entry& e) {
    const std::size_t save = pos_;
    pos_ = e.value_at;
    std::vector<std::string> out;
    if (peek() != '[') fail(pos_, "expected an array of dictionaries for '" + e.name + "'");
    ++pos_;
    skip_ws();
    if (peek() != ']') {
      for (;;) {
        skip_ws();
        if (peek() != '{') fail(pos_, "expected a dictionary in '" + e.name + "'");
        out.push_back(dict_text());
        skip_ws();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        if (peek() == ']') break;
        fail(pos_, "expected ',' or ']' in '" + e.name + "'");
      }
    }
    ++pos_;
    skip_ws();
    if (pos_ < e.value_end) fail(pos_, "unexpected text after '" + e.name + "'");
    pos_ = save;
    return out;
  }

  /// `"func.func"() <{function_type = ..., sym_name = "f", ...}> ({ [^bb0(...):] ... }) [{attrs}]
  /// : () -> ()` — the same in-memory function as the pretty form; an empty region declares.
  void parse_generic_function(std::size_t start) {
    const std::size_t name_at = start;
    expect('(', "expected '(' to start the operand list");
    expect(')', "'func.func' takes no operands");
    skip_ws();
    std::vector<dict_entry> props;
    if (peek() == '<') {
      ++pos_;
      skip_ws();
      if (peek() != '{') fail(pos_, "expected a dictionary of properties for 'func.func'");
      props = parse_dict();
      expect('>', "expected '>' to close the properties");
    }
    const auto op = m_.create_op("func.func", {}, {}, {}, loc_of(start));
    m_.push_back(m_.body(), op);
    m_.make_function(op);
    expect('(', "expected '(' before the region of 'func.func'");
    skip_ws();
    if (peek() != '{' || eof()) fail(pos_, "expected '{' to begin a region");
    const std::size_t open = pos_;
    ++pos_;
    skip_ws();
    bool definition = false;
    std::size_t header_at = open;
    std::vector<std::size_t> arg_at;
    if (peek() == '}') {
      ++pos_;
    } else {
      definition = true;
      enter_region(open);
      const auto b = m_.add_region(op);
      push_isolated_scope();
      if (peek() == '^') {
        header_at = pos_;
        parse_block_header(b, &arg_at);
      }
      parse_block_body(block_context{b, true, false}, open);
      pop_isolated_scope();
      leave_region();
    }
    skip_ws();
    if (peek() == ',') {
      ++pos_;
      skip_ws();
      fail(pos_, "the reference IR supports at most one region per op");
    }
    expect(')', "expected ')' after the region");
    skip_ws();
    std::vector<dict_entry> attrs;
    if (peek() == '{') {
      attrs = parse_dict();
      skip_ws();
    }
    if (peek() != ':') fail(pos_, "expected ':' followed by operation type");
    ++pos_;
    const auto sig = parse_function_type();
    if (!sig.inputs.empty() || !sig.results.empty())
      fail(sig.at, "expected '() -> ()' as the type of 'func.func'");

    // Inherent attributes (LLVM 22) may come as properties or in the attribute dictionary; a
    // property wins, and a property the op does not have is dropped (merge_inherent).
    const auto merged = merge_inherent(std::move(props), std::move(attrs),
                                       {"function_type", "sym_name", "sym_visibility", "arg_attrs", "res_attrs",
                                        "no_inline"});
    const dict_entry *type_e = nullptr, *name_e = nullptr, *vis_e = nullptr, *args_e = nullptr,
                     *res_e = nullptr;
    std::vector<attribute> extra;
    for (const auto& e : merged) {
      const dict_entry** slot = e.name == "function_type"    ? &type_e
                                : e.name == "sym_name"       ? &name_e
                                : e.name == "sym_visibility" ? &vis_e
                                : e.name == "arg_attrs"      ? &args_e
                                : e.name == "res_attrs"      ? &res_e
                                                             : nullptr;
      if (slot != nullptr) {
        *slot = &e;
        continue;
      }
      if (e.name == "no_inline") check_unit_value(e, "func.func");
      extra.push_back(attribute{e.name, e.value});
    }
    if (type_e == nullptr) fail(name_at, "'func.func' requires a 'function_type'");
    if (name_e == nullptr) fail(name_at, "'func.func' requires a 'sym_name'");
    const std::size_t save = pos_;
    pos_ = type_e->value_at;
    const auto ft = parse_function_type();
    skip_ws();
    if (pos_ < type_e->value_end) fail(pos_, "unexpected text after 'function_type'");
    pos_ = save;

    auto& f = m_.function(op);
    f.sym_name = symbol_from_string(*name_e);
    if (vis_e != nullptr) {
      const auto v = string_value(*vis_e);
      if (v != "\"private\"" && v != "\"nested\"" && v != "\"public\"")
        fail(vis_e->value_at, "'sym_visibility' must be \"private\", \"nested\" or \"public\"");
      f.visibility = v.substr(1, v.size() - 2);  // "public" too: mlir-opt prints it back
    }
    f.result_types = ft.results;
    f.result_attrs.assign(ft.results.size(), std::string());
    f.arg_attrs.assign(ft.inputs.size(), std::string());
    if (args_e != nullptr) {
      auto as = parse_dict_array(*args_e);
      if (as.size() != ft.inputs.size()) fail_attr_array_size(name_at, "argument", as.size(), ft.inputs.size());
      m_.function(op).arg_attrs = std::move(as);
    }
    if (res_e != nullptr) {
      auto rs = parse_dict_array(*res_e);
      if (rs.size() != ft.results.size()) fail_attr_array_size(name_at, "result", rs.size(), ft.results.size());
      m_.function(op).result_attrs = std::move(rs);
    }
    if (definition) {
      const auto args = m_.arguments(m_.region_block(op));
      if (args.size() != ft.inputs.size())
        fail(header_at, "the entry block has " + std::to_string(args.size()) +
                            " arguments but the function type has " + std::to_string(ft.inputs.size()) +
                            " inputs");
      for (std::size_t i = 0; i < args.size(); ++i)
        if (m_.type(args[i]) != ft.inputs[i])
          fail(arg_at[i], "type of entry block argument #" + std::to_string(i) + " ('" +
                              std::string(m_.type_text(args[i])) + "') does not match the function type ('" +
                              std::string(m_.type_text(ft.inputs[i])) + "')");
    } else {
      auto& fd = m_.function(op);
      fd.declaration = true;
      fd.decl_arg_types = ft.inputs;
    }
    m_.attributes(op) = std::move(extra);
    if (auto l = parse_optional_loc(); !l.empty()) m_.set_loc_text(op, std::move(l));
  }

  std::string_view src_;
  std::string_view file_;
  parse_options opt_;
  std::size_t pos_ = 0;
  std::vector<std::size_t> line_starts_;
  std::vector<std::size_t> bracket_stack_;
  std::vector<name_scope> scopes_;
  std::uint32_t region_depth_ = 0;
  type_ref placeholder_type_;
  module m_;
};

}  // namespace detail

/// Parses `text` (named `file_name` in diagnostics and in `module::source_name`).
/// Complexity: O(n) in the text size (plus hashing of names). Never throws for bad input: the
/// first error comes back as `FILE:LINE:COL: error: MESSAGE` in `error`, with no module.
inline parse_result parse(std::string_view text, std::string_view file_name,
                          const parse_options& options) {
  return detail::text_parser(text, file_name, options).run();
}

inline parse_result parse(std::string_view text, std::string_view file_name = "<input>") {
  return parse(text, file_name, parse_options{});
}

}  // namespace neuronrw::ref
