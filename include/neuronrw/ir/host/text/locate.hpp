// neuronrw/ir/host/text/locate.hpp — where the `@pl.program` classes of a Python file are, and
// what of the file the reader reads for each: pypto programs live in Python modules next to
// other Python (test functions, argument parsing, `if __name__ == "__main__":`), nested in
// functions, several to a file.
//
//   locate_programs(text, first_line = 1) -> std::vector<program_location>
//   program_location            one program: its class name, the line of its decorator, and the
//                               pieces of the text that make it up
//   source_piece                a byte range of whole lines and the number of its first line
//   text_detail::first_jit_decorator(text, first_line)   where a `@pl.jit` function starts, if any
//   is_pypto_name(s)            whether s is `pl.NAME...` / `pld.NAME...` (a dtype, an enum value)
//
// For each `@pl.program` decorator that starts a logical line (at any indentation; not one in a
// string or a comment), the pieces are, in the text's order:
//   - the imports and constants (`SIZE = 256`, `N = 2 * SIZE`, `B = 4 * pl.FP32.get_byte()`,
//     `DTYPE = pl.FP32`) visible where the class is defined: the module's, then those of each enclosing block, as
//     Python resolves a closure variable when the class body runs (the last binding before the
//     class wins; a binding the reader cannot evaluate hides an outer constant of that name);
//   - the `@pl.function` / `@pl.inline` functions visible there (by their `def` or an alias
//     `NAME = OTHER`) whose names the class's code uses, and those their bodies use in turn,
//     each from its decorator to the end of its body (program_location::functions);
//   - the class itself, from its decorator to the end of its indented body.
// Everything else is not read: other Python statements, other programs, `@pl.jit` functions.
// The one piece of a file that is one program in the reader's own grammar
// (docs/host-programs.md) is that whole file, so it reads as before.
//
// The scan is Python's layout only: logical lines (brackets, backslash continuations,
// string literals with any prefix, single- or triple-quoted, comments) and their indentation (a
// tab advances to the next multiple of 8, as Python's tokenizer counts it). It never fails: text
// that is not Python ends a logical line where Python would report it, and what the reader
// reads is checked by the reader. O(size of text).
//
// Customization points: none.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <neuronrw/diagnostic.hpp>
#include <neuronrw/ir/host/text/common.hpp>

namespace neuronrw::host {

/// A byte range of whole lines of a text, and the number of its first line.
struct source_piece {
  std::size_t begin = 0, end = 0;
  std::uint32_t first_line = 1;
};

/// A parameter of a function that encloses a program (program_location::parameters).
struct factory_parameter {
  std::string name;
  std::string function;    ///< the function's name
  std::uint32_t line = 0;  ///< the line of its `def`
  /// The value it is called with, when the caller knows it (neuronrw-opt --host-parameter): the
  /// reader then reads the parameter as the integer constant `NAME = VALUE`. Unset, a use of it
  /// is the dynamic dimension `NAME = pl.dynamic("NAME")`, unless `symbol` is set.
  std::optional<std::int64_t> value = std::nullopt;
  /// Or the pypto name it stands for (`pl.FP16`, `pld.ReduceOp.Sum`): a dtype or an enum value,
  /// which has no dynamic form. locate_programs sets it from the parameter's default when the
  /// default is such a name (`dtype=pl.FP32`); the caller may set it (neuronrw-opt
  /// --host-parameter=dtype=pl.FP16). The reader then reads the parameter as the constant
  /// `NAME = SYMBOL`. `value` wins when both are set.
  std::string symbol = {};
  bool operator==(const factory_parameter&) const = default;
};

/// One `@pl.program` class of a Python file (locate_programs).
struct program_location {
  std::string name;             ///< the class name ("" when no `class NAME` follows the decorator)
  std::uint32_t line = 0;       ///< the line of the `@pl.program` decorator
  std::uint32_t column = 1;     ///< its column
  std::vector<source_piece> pieces;  ///< imports, constants, the class: what the reader reads
  /// The text is this one program in the reader's own layout (imports and `NAME = ...` lines
  /// at the left margin, then the class, nothing after it): its one piece is the whole text, so
  /// each of its lines is read and checked as before.
  bool whole_text = false;
  /// Names the class sees bound by lines the reader does not read (`N = compute()`, `N: int = 4`,
  /// `SIZE = cfg.size`), each with the line of its last binding: a use of one is an undefined
  /// variable, and the reader's error says which line bound it.
  std::vector<std::pair<std::string, std::uint32_t>> unread_bindings;
  /// Parameters of the functions the class is defined in (a factory `def build(n_ranks: int):`
  /// whose program closes over `n_ranks`), visible at the class: values known only when the
  /// function is called. The reader reads a use of one as a dynamic dimension, or as the integer
  /// its `value` gives (docs/host-programs.md §"Programs built by factories").
  std::vector<factory_parameter> parameters;
  /// Names the class calls by their bare name that are bound to a `@pl.function` or `@pl.inline`
  /// function defined outside the class (in the module or a block around the class, by its
  /// `def` or an alias `NAME = OTHER`), each with the line of that function's decorator: pieces
  /// holds those definitions, and the reader adds the first kind to the program and expands the
  /// second where it is called (docs/host-programs.md §"Functions outside the class").
  std::vector<std::pair<std::string, std::uint32_t>> functions;
  /// Not empty for a program pypto's JIT front end would build (docs/host-programs.md §"pypto's
  /// JIT functions"): the `@pl.jit` function `name` names (`_jit_ENTRY`, as pypto names the class
  /// it generates), called by no other, and the JIT functions it calls, and those they call in
  /// turn: their names in the order pypto emits them (each callee before its first caller, the
  /// entry last). pieces then holds the imports and constants visible at the entry and each of
  /// those functions from its decorator to the end of its body; `line` is the entry's decorator.
  std::vector<std::string> jit_functions;
};

namespace text_detail {

/// Past the string literal of `s` whose opening quote is at `i` (a prefix such as `r`, `b`, `f`
/// is read as a name before it), single- or triple-quoted; an unterminated one ends at its line's
/// end (single quotes) or at the end of `s` (triple quotes), where Python would report it. A
/// backslash escapes the next character, also in a raw string (`r"\""` is one literal). Adds the
/// line ends passed (`\r\n` is one) to `*lines` when given.
inline std::size_t python_string_end(std::string_view s, std::size_t i, std::uint32_t* lines = nullptr) {
  auto eol = [&](std::size_t k) { return s[k] == '\n' || s[k] == '\r'; };
  auto past_eol = [&](std::size_t k) {
    if (lines != nullptr) ++*lines;
    return k + (s[k] == '\r' && k + 1 < s.size() && s[k + 1] == '\n' ? 2 : 1);
  };
  const char q = s[i];
  const bool triple = i + 2 < s.size() && s[i + 1] == q && s[i + 2] == q;
  i += triple ? 3 : 1;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\\' && i + 1 < s.size()) {
      i = eol(i + 1) ? past_eol(i + 1) : i + 2;
      continue;
    }
    if (eol(i)) {
      if (!triple) return i;
      i = past_eol(i);
      continue;
    }
    ++i;
    if (c != q) continue;
    if (!triple) return i;
    if (i + 1 < s.size() && s[i] == q && s[i + 1] == q) return i + 2;
  }
  return i;
}

/// One logical line of Python source.
struct logical_line {
  std::size_t begin = 0;    ///< the start of its first physical line
  std::size_t content = 0;  ///< its first character after the indentation
  std::size_t end = 0;      ///< just past the line end of its last physical line (or the text's end)
  std::size_t code_end = 0; ///< the end of its code: before a trailing comment and the line end
  std::uint32_t line = 1;
  std::uint32_t indent = 0;
  bool blank = false;       ///< blank or a comment only
};

/// The logical lines of `text`.
class python_lines {
 public:
  python_lines(std::string_view text, std::uint32_t first_line) : s_(text), line_(first_line == 0 ? 1 : first_line) {}

  std::vector<logical_line> run() {
    std::vector<logical_line> out;
    while (pos_ < s_.size()) out.push_back(next());
    return out;
  }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
  std::uint32_t line_ = 1;

  bool eol(std::size_t i) const { return s_[i] == '\n' || s_[i] == '\r'; }
  /// Past the line end at `i` ("\r\n" is one), counting the line.
  std::size_t past_eol(std::size_t i) {
    ++line_;
    return i + (s_[i] == '\r' && i + 1 < s_.size() && s_[i + 1] == '\n' ? 2 : 1);
  }

  logical_line next() {
    logical_line l;
    l.begin = pos_;
    l.line = line_;
    std::uint32_t col = 0;
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\f')) {
      col = s_[pos_] == '\t' ? (col / 8 + 1) * 8 : s_[pos_] == ' ' ? col + 1 : 0;
      ++pos_;
    }
    l.indent = col;
    l.content = pos_;
    l.blank = pos_ >= s_.size() || eol(pos_) || s_[pos_] == '#';
    std::size_t depth = 0;
    l.code_end = pos_;
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (eol(pos_)) {
        pos_ = past_eol(pos_);
        if (depth == 0) break;
        continue;
      }
      if (c == '#') {
        while (pos_ < s_.size() && !eol(pos_)) ++pos_;
        continue;
      }
      if (c == '\\' && pos_ + 1 < s_.size() && eol(pos_ + 1)) {  // a continuation line
        pos_ = past_eol(pos_ + 1);
        continue;
      }
      if (c == '"' || c == '\'') {
        skip_string();
        l.code_end = pos_;
        continue;
      }
      if (c == '(' || c == '[' || c == '{') ++depth;
      else if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
      ++pos_;
      if (c != ' ' && c != '\t' && c != '\f') l.code_end = pos_;
    }
    l.end = pos_;
    return l;
  }
  /// Past the string literal whose opening quote is at the cursor (python_string_end).
  void skip_string() { pos_ = python_string_end(s_, pos_, &line_); }
};

/// The code of logical line `l`: from its content to the end of its code, comments left out
/// only at the end.
inline std::string_view code_of(std::string_view text, const logical_line& l) {
  return text.substr(l.content, l.code_end - l.content);
}

/// A small cursor over one line's code for the checks below.
struct code_cursor {
  std::string_view s;
  std::size_t i = 0;
  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\f' || s[i] == '\\' || s[i] == '\n' || s[i] == '\r'))
      ++i;
  }
  std::string_view name() {
    ws();
    const std::size_t b = i;
    if (i < s.size() && is_ident_start(s[i]))
      while (i < s.size() && is_ident_char(s[i])) ++i;
    return s.substr(b, i - b);
  }
  bool dotted() {
    if (name().empty()) return false;
    for (;;) {
      ws();
      if (i >= s.size() || s[i] != '.') return true;
      ++i;
      if (name().empty()) return false;
    }
  }
  bool punct(char c) {
    ws();
    if (i < s.size() && s[i] == c) {
      ++i;
      return true;
    }
    return false;
  }
  bool done() {
    ws();
    return i >= s.size();
  }
};

/// Whether `s` is a dotted name into pypto's DSL, `pl.NAME...` or `pld.NAME...` (a dtype such as
/// `pl.FP32`, an enum value such as `pld.ReduceOp.Sum`), without spaces.
inline bool is_pypto_name(std::string_view s) {
  if (!s.starts_with("pl.") && !s.starts_with("pld.")) return false;
  bool start = true;
  for (std::size_t k = 0; k < s.size(); ++k) {
    const char ch = s[k];
    if (ch == '.') {
      if (start) return false;
      start = true;
    } else if (start ? is_ident_start(ch) : is_ident_char(ch)) {
      start = false;
    } else {
      return false;
    }
  }
  return !start;
}

/// Whether `code` is `@pl.program` (the decorator, any spacing after `@`).
inline bool is_program_decorator(std::string_view code) {
  code_cursor c{code};
  if (!c.punct('@')) return false;
  const auto a = c.name();
  if (a != "pl" || !c.punct('.')) return false;
  return c.name() == "program" && c.done();
}

/// What a decorator line `code` makes of the function after it: 1 for `@pl.function` or
/// `@pl.function(...)`, 2 for `@pl.inline`, 0 for anything else.
inline int external_decorator(std::string_view code) {
  code_cursor c{code};
  if (!c.punct('@') || c.name() != "pl" || !c.punct('.')) return 0;
  const auto n = c.name();
  if (n == "inline") return c.done() ? 2 : 0;
  if (n != "function") return 0;
  return c.done() || c.punct('(') ? 1 : 0;
}

/// What pypto's JIT decorator a line `code` is: `@pl.jit` (a chip orchestrator), `@pl.jit.host`,
/// `@pl.jit.incore`, `@pl.jit.inline`, `@pl.jit.opaque`, `@pl.jit.extern`, each also with
/// arguments (`@pl.jit.incore(level=...)`); `other` for another `@pl.jit.NAME`, `none` for
/// anything else.
enum class jit_kind : std::uint8_t { none, orchestration, host, incore, inline_, opaque, extern_, other };
inline jit_kind jit_decorator(std::string_view code) {
  code_cursor c{code};
  if (!c.punct('@') || c.name() != "pl" || !c.punct('.') || c.name() != "jit") return jit_kind::none;
  jit_kind k = jit_kind::orchestration;
  if (c.punct('.')) {
    const auto n = c.name();
    k = n == "host" ? jit_kind::host
        : n == "incore" ? jit_kind::incore
        : n == "inline" ? jit_kind::inline_
        : n == "opaque" ? jit_kind::opaque
        : n == "extern" ? jit_kind::extern_
                        : jit_kind::other;
  }
  return c.done() || c.punct('(') ? k : jit_kind::none;
}
/// Whether a JIT function of kind `caller` takes a JIT function of kind `callee` it calls by its
/// bare name into its program, as pypto's dependence discovery does: kernels and helpers always,
/// a chip orchestrator only from a host orchestrator (two `@pl.jit` entries never fold into one
/// program).
inline bool jit_takes(jit_kind caller, jit_kind callee) {
  switch (callee) {
    case jit_kind::incore:
    case jit_kind::inline_:
    case jit_kind::opaque:
    case jit_kind::extern_: return true;
    case jit_kind::orchestration: return caller == jit_kind::host;
    default: return false;
  }
}

/// Calls `fn(name)` for each name in `code` that is not an attribute (`x` of `a.x`), outside
/// string literals and comments.
template <class Fn>
void for_each_bare_name(std::string_view code, Fn&& fn) {
  char before = '\0';  // the last character that is not a space
  for (std::size_t i = 0; i < code.size();) {
    const char ch = code[i];
    if (ch == '"' || ch == '\'') {
      i = python_string_end(code, i);
      before = '"';
    } else if (ch == '#') {
      while (i < code.size() && code[i] != '\n' && code[i] != '\r') ++i;
    } else if (ch >= '0' && ch <= '9') {
      while (i < code.size() && (is_ident_char(code[i]) || code[i] == '.')) ++i;
      before = '0';
    } else if (is_ident_start(ch)) {
      const std::size_t b = i;
      while (i < code.size() && is_ident_char(code[i])) ++i;
      // A string prefix (`f"..."`, `rb'...'`) is not a name.
      if (i < code.size() && (code[i] == '"' || code[i] == '\'')) continue;
      if (before != '.') fn(code.substr(b, i - b));
      before = 'a';
    } else {
      if (ch != ' ' && ch != '\t' && ch != '\f' && ch != '\n' && ch != '\r' && ch != '\\') before = ch;
      ++i;
    }
  }
}

/// Whether `code` is an import the reader reads: `import A.B [as C], ...` or
/// `from A.B import C [as D], ...` (no parentheses, no `*`, no relative module).
inline bool is_readable_import(std::string_view code) {
  code_cursor c{code};
  const auto kw = c.name();
  const bool from = kw == "from";
  if (from && (!c.dotted() || c.name() != "import")) return false;
  if (!from && kw != "import") return false;
  // `NAME [as NAME], ...`, each name dotted after `import`.
  for (;;) {
    if (from ? c.name().empty() : !c.dotted()) return false;
    const std::size_t save = c.i;
    if (c.name() == "as") {
      if (c.name().empty()) return false;
    } else {
      c.i = save;
    }
    if (c.done()) return true;
    if (!c.punct(',')) return false;
  }
}

/// The name `code` binds when it is a plain assignment `NAME = ...` ("" otherwise; `N: int = 4`,
/// `a = b = 1`, `a += 1` and tuple targets bind too, but not as constants: `binds` names them).
/// `constant` tells whether the value is an integer expression the reader evaluates: decimal
/// integers, names of `known` constants, `pl.DTYPE.get_byte()`, `+ - * // %` and parentheses; or
/// pypto's dynamic dimension `pl.dynamic("NAME")`; or a pypto name alone (`pl.FP32`).
struct binding {
  std::string name;
  bool constant = false;
};
template <class Known>
binding binding_of(std::string_view code, const Known& known) {
  code_cursor c{code};
  binding b;
  b.name = std::string(c.name());
  if (b.name.empty() || is_reserved(b.name)) return binding{};
  c.ws();
  const std::size_t eq = c.i;
  if (!c.punct('=') || (c.i < c.s.size() && c.s[c.i] == '=')) {
    // An annotated or augmented assignment binds the name too, with a value not read here.
    c.i = eq;
    if (c.punct(':') || (c.i + 1 < c.s.size() && c.s[c.i + 1] == '=' && std::string_view("+-*/%@&|^").find(c.s[c.i]) != std::string_view::npos))
      return b;
    return binding{};
  }
  // pypto's dynamic dimension, `NAME = pl.dynamic("NAME")`: read as a named dimension.
  {
    code_cursor d = c;
    if (d.name() == "pl" && d.punct('.') && d.name() == "dynamic" && d.punct('(')) {
      d.ws();
      const char q = d.i < d.s.size() ? d.s[d.i] : '\0';
      if (q == '"' || q == '\'') {
        ++d.i;
        while (d.i < d.s.size() && d.s[d.i] != q && d.s[d.i] != '\\' && d.s[d.i] != '\n') ++d.i;
        if (d.i < d.s.size() && d.s[d.i] == q && (++d.i, d.punct(')'))) {
          d.ws();
          b.constant = d.i == d.s.size();
          return b;
        }
      }
    }
  }
  // A pypto name alone (`DTYPE = pl.FP32`, `OP = pld.ReduceOp.Sum`): read as a named constant.
  {
    code_cursor d = c;
    d.ws();
    const std::size_t from = d.i;
    if (d.dotted()) {
      std::string_view text = d.s.substr(from, d.i - from);
      text = text.substr(0, text.find_first_of(" \t\f\\\n\r"));  // dotted() reads past the spaces after
      if (d.done() && is_pypto_name(text)) {
        b.constant = true;
        return b;
      }
    }
  }
  // The value: an integer expression of the reader's constant grammar, and nothing else.
  bool operand = false, any = false;
  std::size_t open = 0;
  for (;;) {
    c.ws();
    if (c.i >= c.s.size()) break;
    const char ch = c.s[c.i];
    any = true;
    if (ch >= '0' && ch <= '9') {
      if (operand) return b;
      while (c.i < c.s.size() && c.s[c.i] >= '0' && c.s[c.i] <= '9') ++c.i;
      if (c.i < c.s.size() && (is_ident_char(c.s[c.i]) || c.s[c.i] == '.')) return b;  // 1.5, 0x10, 1_000
      operand = true;
    } else if (is_ident_start(ch)) {
      if (operand) return b;
      const auto n = c.name();
      if (n == "pl") {  // pl.DTYPE.get_byte()
        if (!c.punct('.') || c.name().empty() || !c.punct('.') || c.name() != "get_byte" || !c.punct('(') || !c.punct(')'))
          return b;
      } else if (!known(n)) {
        return b;
      }
      operand = true;
    } else if (ch == '(') {
      if (operand) return b;
      ++open;
      ++c.i;
    } else if (ch == ')') {
      if (!operand || open == 0) return b;
      --open;
      ++c.i;
    } else if (ch == '+' || ch == '-' || ch == '~' || ch == '*' || ch == '%' || ch == '/' || ch == '&' || ch == '|' ||
               ch == '^' || ch == '<' || ch == '>') {
      const bool doubled = c.i + 1 < c.s.size() && c.s[c.i + 1] == ch;
      if (ch == '/' && !doubled) return b;                  // true division makes a float
      if ((ch == '<' || ch == '>') && !doubled) return b;  // a comparison
      if (ch == '~' ? operand : !operand && ch != '-' && ch != '+') return b;  // `~` is unary; `- +` both
      if ((ch == '*' || ch == '/' || ch == '<' || ch == '>') && doubled) ++c.i;  // ** // << >>
      ++c.i;
      if (ch == '*' && doubled) {  // `2 ** -3` is a float in Python: not a constant of the grammar
        code_cursor d = c;
        d.ws();
        if (d.i < d.s.size() && d.s[d.i] == '-') return b;
      }
      operand = false;
    } else {
      return b;
    }
  }
  b.constant = any && operand && open == 0;
  return b;
}

/// A function definition's name and parameters (def_of).
struct def_header {
  std::string name;
  std::vector<std::string> parameters;  ///< as named, without `*`/`**` (`/` and a bare `*` name none)
  /// parameters[k]'s default when it is a pypto name (is_pypto_name: `pl.FP32`), else ""
  std::vector<std::string> defaults;
};
/// The header of `code` when it is a function definition `[async] def NAME(PARAMETERS)...:`
/// (annotations and defaults are skipped, strings and comments in them too).
inline std::optional<def_header> def_of(std::string_view code) {
  code_cursor c{code};
  auto kw = c.name();
  if (kw == "async") kw = c.name();
  if (kw != "def") return std::nullopt;
  def_header h;
  h.name = std::string(c.name());
  if (h.name.empty() || !c.punct('(')) return std::nullopt;
  std::size_t depth = 1;
  bool at_name = true;  // at a parameter's start: after '(' or a ',' at depth 1
  while (c.i < c.s.size() && depth > 0) {
    const char ch = c.s[c.i];
    if (ch == '"' || ch == '\'') {  // a string in an annotation or a default
      c.i = python_string_end(c.s, c.i);
      at_name = false;
      continue;
    }
    if (ch == '#') {  // a comment inside the brackets of a multi-line header
      while (c.i < c.s.size() && c.s[c.i] != '\n' && c.s[c.i] != '\r') ++c.i;
      continue;
    }
    if (ch == ' ' || ch == '\t' || ch == '\f' || ch == '\n' || ch == '\r' || ch == '\\') {
      ++c.i;
      continue;
    }
    if (depth == 1 && at_name && (ch == '*' || ch == '/')) {
      ++c.i;
      continue;
    }
    if (depth == 1 && at_name && is_ident_start(ch)) {
      h.parameters.emplace_back(c.name());
      h.defaults.emplace_back();
      at_name = false;
      continue;
    }
    if (depth == 1 && ch == '=' && !h.parameters.empty() && (c.i + 1 >= c.s.size() || c.s[c.i + 1] != '=')) {
      // A default that is exactly a pypto name, up to the ',' or ')' that ends it.
      code_cursor d{c.s, c.i + 1};
      d.ws();
      const std::size_t from = d.i;
      if (d.dotted()) {
        std::string_view text = d.s.substr(from, d.i - from);
        text = text.substr(0, text.find_first_of(" \t\f\\\n\r"));  // dotted() reads past the spaces after
        if (d.i < d.s.size() && (d.s[d.i] == ',' || d.s[d.i] == ')') && is_pypto_name(text)) h.defaults.back() = std::string(text);
      }
    }
    if (ch == '(' || ch == '[' || ch == '{') ++depth;
    else if (ch == ')' || ch == ']' || ch == '}') --depth;
    else if (ch == ',' && depth == 1) {
      ++c.i;
      at_name = true;
      continue;
    }
    at_name = false;
    ++c.i;
  }
  if (depth != 0) return std::nullopt;
  return h;
}

/// Where the first `@pl.jit` decorator (`@pl.jit`, `@pl.jit.host`, `@pl.jit(...)`) of `text` is,
/// if one starts a logical line: pypto's JIT front end, which the reader does not read.
inline std::optional<source_loc> first_jit_decorator(std::string_view text, std::uint32_t first_line) {
  for (const auto& l : python_lines(text, first_line).run()) {
    if (l.blank) continue;
    code_cursor c{code_of(text, l)};
    if (c.punct('@') && c.name() == "pl" && c.punct('.') && c.name() == "jit")
      return source_loc{l.line, static_cast<std::uint32_t>(l.content - l.begin + 1)};
  }
  return std::nullopt;
}

}  // namespace text_detail

/// Whether `s` is a dotted name into pypto's DSL, `pl.NAME...` / `pld.NAME...` (`pl.FP16`,
/// `pld.ReduceOp.Sum`), as factory_parameter::symbol holds one.
using text_detail::is_pypto_name;

/// The `@pl.program` classes of `text` (a Python file, or a piece of one whose first line is line
/// `first_line`), in the text's order, each with the pieces the reader reads for it. O(size of
/// text + the imports and constants in scope at each program).
inline std::vector<program_location> locate_programs(std::string_view text, std::uint32_t first_line = 1) {
  using namespace text_detail;
  const std::vector<logical_line> lines = python_lines(text, first_line).run();
  // The blocks open at the current line, outermost first, each with the imports and bindings
  // met in it so far: a binding replaces the earlier one of its name in its block.
  constexpr std::size_t npos = static_cast<std::size_t>(-1);
  struct entry {
    std::size_t line;
    std::string name;  // "" for an import
    bool constant;     // a binding the reader evaluates (when its names are known where it is read)
    std::size_t function = npos;  // a parameter of defs[function] (line: its def)
    // A name bound to a `@pl.function` / `@pl.inline` function: the lines of its definition, from
    // its first decorator to its body's last line (its `def`, or an alias `NAME = OTHER`).
    std::size_t def_first = npos, def_last = npos;
  };
  struct frame {
    std::uint32_t indent;
    std::vector<entry> entries;
    std::size_t id = 0;  // unique among the blocks of the text (the module's is 0)
  };
  std::vector<frame> frames{frame{0, {}, 0}};
  std::size_t frame_ids = 0;
  // The `@pl.jit` functions: kind, lines [first (its first decorator), last], the blocks open at
  // it (ids, outermost first: the last is the block it is defined in) and what is visible there.
  struct jit_def {
    std::string name;
    jit_kind kind = jit_kind::none;
    std::size_t first = 0, def = 0, last = 0;
    std::vector<std::size_t> blocks;
    program_location scope;
  };
  std::vector<jit_def> jits;
  std::size_t jit_body_end = 0;  // the line after the last JIT function's body
  std::vector<def_header> defs;  // the headers of the functions whose bodies frames open (entry::function)
  std::size_t opener = lines.size();  // the last line that is not blank: the line a deeper one is the body of
  std::vector<program_location> out;
  bool plain = true;  // every line so far outside the program at the margin, an import or a binding
  bool plain_program = false;
  bool functions_seen = false;  // a `@pl.function` / `@pl.inline` definition so far (aliases are looked for then)
  // The function whose decorator starts line i: its `def` (after more decorators at the same
  // indentation) and the last line of its body; none when no `def` follows.
  struct decorated {
    def_header header;
    std::size_t def = 0, last = 0;
  };
  auto decorated_at = [&](std::size_t i) -> std::optional<decorated> {
    const std::uint32_t indent = lines[i].indent;
    std::size_t j = i + 1;
    while (j < lines.size() && (lines[j].blank || (lines[j].indent == indent && text[lines[j].content] == '@'))) ++j;
    if (j >= lines.size() || lines[j].indent != indent) return std::nullopt;
    auto h = def_of(code_of(text, lines[j]));
    if (!h) return std::nullopt;
    std::size_t last = j;
    for (std::size_t k = j + 1; k < lines.size() && (lines[k].blank || lines[k].indent > indent); ++k)
      if (!lines[k].blank) last = k;
    return decorated{std::move(*h), j, last};
  };
  // What is visible at a program's definition (lines [from, to]: a class, or a JIT entry) in
  // the blocks open now: its imports, constants, factory parameters and unread bindings; with
  // `with_functions`, the functions outside it that its code calls by a bare name, and those
  // theirs call. Into p (pieces: those lines, in the text's order).
  auto read_scope = [&](program_location& p, std::size_t from, std::size_t to, bool with_functions) {
    // What is visible, outermost block first (so in the text's order): an inner
    // binding hides an outer one of its name; a constant is read when the names it uses are.
    std::vector<const entry*> kept;
    auto find = [&](std::string_view n) -> std::size_t {
      for (std::size_t y = 0; y < kept.size(); ++y)
        if (!kept[y]->name.empty() && kept[y]->name == n) return y;
      return kept.size();
    };
    auto& unread = p.unread_bindings;
    auto forget = [&](std::string_view n) {
      for (std::size_t y = 0; y < unread.size(); ++y)
        if (unread[y].first == n) {
          unread.erase(unread.begin() + static_cast<std::ptrdiff_t>(y));
          return;
        }
    };
    auto& params = p.parameters;
    auto is_param = [&](std::string_view n) {
      for (const auto& q : params)
        if (q.name == n) return true;
      return false;
    };
    for (const auto& f : frames)
      for (const auto& e : f.entries) {
        if (e.name.empty()) {
          bool dup = false;
          for (const auto* k : kept) dup = dup || (k->name.empty() && code_of(text, lines[k->line]) == code_of(text, lines[e.line]));
          if (!dup) kept.push_back(&e);
          continue;
        }
        if (const auto y = find(e.name); y < kept.size()) kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(y));
        forget(e.name);
        for (std::size_t y = 0; y < params.size(); ++y)
          if (params[y].name == e.name) {
            params.erase(params.begin() + static_cast<std::ptrdiff_t>(y));
            break;
          }
        if (e.function != npos) {
          const def_header& h = defs[e.function];
          std::string symbol;
          for (std::size_t k = 0; k < h.parameters.size(); ++k)
            if (h.parameters[k] == e.name) symbol = h.defaults[k];
          params.push_back({e.name, h.name, lines[e.line].line, std::nullopt, std::move(symbol)});
          continue;
        }
        if (e.def_first != npos) {
          kept.push_back(&e);
          continue;
        }
        // A constant over a parameter (`nr = n_ranks`, `ROUNDS = 2 * (n_ranks - 1)`) is read too:
        // the reader reads it as a dynamic dimension.
        const bool readable =
            e.constant && binding_of(code_of(text, lines[e.line]), [&](std::string_view n) {
                            return find(n) < kept.size() || is_param(n);
                          }).constant;
        if (readable) kept.push_back(&e);
        else unread.emplace_back(e.name, lines[e.line].line);
      }
    // The functions the class calls by a bare name, and those their bodies call, in turn.
    std::vector<std::pair<std::size_t, std::size_t>> ranges;  // lines [first, last] read, in the text's order
    for (const auto* k : kept)
      if (k->def_first == npos) ranges.emplace_back(k->line, k->line);
    std::vector<std::size_t> function_entries;  // kept's names bound to functions
    for (std::size_t y = 0; y < kept.size(); ++y)
      if (kept[y]->def_first != npos) function_entries.push_back(y);
    if (with_functions && !function_entries.empty()) {
      std::vector<char> named(kept.size(), 0);
      std::vector<std::pair<std::size_t, std::size_t>> scan{{from, to}};
      std::vector<std::size_t> defs_read;
      while (!scan.empty()) {
        const auto [a, z] = scan.back();
        scan.pop_back();
        for (std::size_t k = a; k <= z; ++k) {
          if (lines[k].blank) continue;
          for_each_bare_name(code_of(text, lines[k]), [&](std::string_view n) {
            for (const std::size_t y : function_entries) {
              const entry& e = *kept[y];
              if (named[y] || e.name != n) continue;
              named[y] = 1;
              p.functions.emplace_back(e.name, lines[e.def_first].line);
              bool read = false;
              for (const auto df : defs_read) read = read || df == e.def_first;
              if (read) continue;
              defs_read.push_back(e.def_first);
              ranges.emplace_back(e.def_first, e.def_last);
              scan.emplace_back(e.def_first, e.def_last);
            }
          });
        }
      }
      std::sort(ranges.begin(), ranges.end());
    }
    for (const auto& [a, z] : ranges) p.pieces.push_back({lines[a].begin, lines[z].end, lines[a].line});
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const logical_line& d = lines[i];
    if (d.blank) continue;
    while (frames.size() > 1 && frames.back().indent > d.indent) frames.pop_back();
    if (frames.back().indent < d.indent) {
      frames.push_back(frame{d.indent, {}, ++frame_ids});
      // A function's body: its parameters are bound first (a factory's program closes over them).
      if (opener < lines.size())
        if (auto h = def_of(code_of(text, lines[opener]))) {
          defs.push_back(std::move(*h));
          for (const auto& n : defs.back().parameters)
            if (!is_reserved(n)) frames.back().entries.push_back({opener, n, false, defs.size() - 1});
        }
    }
    opener = i;
    const auto code = code_of(text, d);
    if (!is_program_decorator(code)) {
      auto& es = frames.back().entries;
      const bool import = code.starts_with("import") || code.starts_with("from");
      auto b = binding_of(code, [](std::string_view) { return true; });
      // `NAME = ...` (a reserved name too: the reader says why it cannot be bound).
      code_cursor assign{code};
      const bool binds = !assign.name().empty() && assign.punct('=') && !assign.punct('=');
      plain = plain && out.empty() && d.indent == 0 && (import || binds);
      auto drop = [&es](std::string_view n) {
        for (std::size_t y = 0; y < es.size(); ++y)
          if (es[y].name == n) {
            es.erase(es.begin() + static_cast<std::ptrdiff_t>(y));
            return;
          }
      };
      // A JIT function: recorded; its lines are read on as any others. (A JIT decorator in a JIT
      // function's body is that body's text: pypto specializes the body from its source, never
      // runs it.)
      if (const jit_kind jk = code.empty() || code.front() != '@' ? jit_kind::none : jit_decorator(code);
          jk != jit_kind::none && i >= jit_body_end) {
        if (auto f = decorated_at(i)) {
          jit_body_end = f->last + 1;
          jit_def jd{std::move(f->header.name), jk, i, f->def, f->last, {}, {}};
          for (const auto& fr : frames) jd.blocks.push_back(fr.id);
          read_scope(jd.scope, i, f->last, false);
          jits.push_back(std::move(jd));
          plain = false;
        }
        continue;
      }
      // A function a program may call by its bare name: its decorators, `def NAME(...)`, its body.
      if (external_decorator(code) != 0) {
        if (auto f = decorated_at(i)) {
          drop(f->header.name);
          es.push_back({i, std::move(f->header.name), false, npos, i, f->last});
          functions_seen = true;
        }
        continue;
      }
      if (is_readable_import(code)) {
        es.push_back({i, {}, false});
      } else if (!b.name.empty()) {
        // `NAME = OTHER`, OTHER such a function: NAME is bound to it too (an alias).
        code_cursor a{code};
        a.name();
        a.punct('=');
        const auto other = a.name();
        if (functions_seen && !other.empty() && a.done()) {
          const entry* target = nullptr;
          for (std::size_t fi = frames.size(); fi-- > 0 && target == nullptr;)
            for (const auto& e : frames[fi].entries)
              if (e.name == other) target = &e;  // the last binding of OTHER in the innermost block
          if (target != nullptr && target->def_first != npos) {
            const std::size_t first = target->def_first, dlast = target->def_last;
            drop(b.name);
            es.push_back({i, std::move(b.name), false, npos, first, dlast});
            continue;
          }
        }
        for (std::size_t y = 0; y < es.size(); ++y)
          if (es[y].name == b.name) {
            es.erase(es.begin() + static_cast<std::ptrdiff_t>(y));
            break;
          }
        es.push_back({i, std::move(b.name), b.constant});
      }
      continue;
    }
    program_location p;
    p.line = d.line;
    p.column = static_cast<std::uint32_t>(d.content - d.begin + 1);
    // The class: more decorators at its indentation, the definition line, then its body (the
    // lines indented deeper; blank lines between them are in it, trailing ones are not).
    std::size_t j = i + 1;
    while (j < lines.size() && (lines[j].blank || (lines[j].indent == d.indent && text[lines[j].content] == '@'))) ++j;
    std::size_t last = i;
    if (j < lines.size() && lines[j].indent == d.indent) {
      code_cursor c{code_of(text, lines[j])};
      if (c.name() == "class") p.name = std::string(c.name());
      last = j;
      for (std::size_t k = j + 1; k < lines.size() && (lines[k].blank || lines[k].indent > d.indent); ++k)
        if (!lines[k].blank) last = k;
      // No indented body: the next line is read too, for the error Python gives there (unless
      // it starts another program).
      if (last == j)
        for (std::size_t k = j + 1; k < lines.size() && last == j; ++k)
          if (!lines[k].blank) {
            if (!is_program_decorator(code_of(text, lines[k]))) last = k;
            break;
          }
    }
    plain_program = plain && out.empty() && d.indent == 0;
    plain = false;
    read_scope(p, i, last, true);
    p.pieces.push_back({d.begin, lines[last].end, d.line});
    out.push_back(std::move(p));
    opener = last;
    i = last;
  }
  // The programs pypto's JIT front end builds: one per JIT function no other takes in (pypto's
  // entry), with the JIT functions it calls by their bare names, resolved as Python resolves
  // them (the innermost block around the caller that defines the name, its last definition
  // there), and kept as pypto keeps them (jit_takes), in turn.
  if (!jits.empty()) {
    // (block, name) -> the last JIT function of that name defined in that block
    std::map<std::pair<std::size_t, std::string_view>, std::size_t> defined;
    for (std::size_t y = 0; y < jits.size(); ++y) defined[{jits[y].blocks.back(), jits[y].name}] = y;
    std::vector<std::vector<std::size_t>> callees(jits.size());
    std::vector<char> taken(jits.size(), 0);
    for (std::size_t c = 0; c < jits.size(); ++c) {
      std::set<std::string_view> seen;
      for (std::size_t k = jits[c].def; k <= jits[c].last; ++k) {
        if (lines[k].blank) continue;
        const auto code = code_of(text, lines[k]);
        for_each_bare_name(code, [&](std::string_view n) {
          // a call: the name is followed by '('
          std::size_t at = static_cast<std::size_t>(n.data() - code.data()) + n.size();
          while (at < code.size() && (code[at] == ' ' || code[at] == '\t')) ++at;
          if (at >= code.size() || code[at] != '(' || !seen.insert(n).second) return;
          for (std::size_t b = jits[c].blocks.size(); b-- > 0;)
            if (const auto it = defined.find({jits[c].blocks[b], n}); it != defined.end()) {
              const std::size_t found = it->second;
              if (found != c && jit_takes(jits[c].kind, jits[found].kind)) {
                callees[c].push_back(found);
                taken[found] = 1;
              }
              return;
            }
        });
      }
    }
    std::vector<char> visited(jits.size(), 0);
    for (std::size_t r = 0; r < jits.size(); ++r) {
      if (taken[r]) continue;
      program_location p = std::move(jits[r].scope);
      p.name = "_jit_" + jits[r].name;
      p.line = lines[jits[r].first].line;
      p.column = static_cast<std::uint32_t>(lines[jits[r].first].content - lines[jits[r].first].begin + 1);
      // pypto's order: depth first from the entry, each callee after its own callees, in the
      // order of their first calls; the entry last.
      std::vector<std::size_t> order;
      visited[r] = 1;
      std::vector<std::pair<std::size_t, std::size_t>> stack{{r, 0}};
      while (!stack.empty()) {
        auto& [fn, next] = stack.back();
        if (next < callees[fn].size()) {
          const std::size_t callee = callees[fn][next++];
          if (!visited[callee]) {
            visited[callee] = 1;
            stack.emplace_back(callee, 0);
          }
          continue;
        }
        order.push_back(fn);
        stack.pop_back();
      }
      for (const std::size_t fn : order) visited[fn] = 0;
      std::vector<std::pair<std::size_t, std::size_t>> ranges;
      for (const std::size_t fn : order) {
        p.jit_functions.push_back(jits[fn].name);
        ranges.emplace_back(jits[fn].first, jits[fn].last);
      }
      for (const auto& [a, z] : ranges) p.pieces.push_back({lines[a].begin, lines[z].end, lines[a].line});
      // In the text's order, each line once: a piece inside another's lines (a JIT function, or a
      // constant, defined in another's body) is read with it.
      std::stable_sort(p.pieces.begin(), p.pieces.end(),
                       [](const source_piece& x, const source_piece& y) { return x.begin < y.begin; });
      std::size_t kept = 0, read_to = 0;
      for (const source_piece& piece : p.pieces)
        if (piece.begin >= read_to) {
          p.pieces[kept++] = piece;
          read_to = piece.end;
        } else if (piece.end > read_to) {  // (pieces are whole logical lines: never only overlapping)
          p.pieces[kept - 1].end = piece.end;
          read_to = piece.end;
        }
      p.pieces.resize(kept);
      out.push_back(std::move(p));
    }
    std::stable_sort(out.begin(), out.end(), [](const program_location& x, const program_location& y) { return x.line < y.line; });
  }
  if (out.size() == 1 && plain_program) {
    bool after = false;
    for (std::size_t k = 0; k < lines.size() && !after; ++k)
      after = !lines[k].blank && lines[k].begin >= out[0].pieces.back().end;
    // Read whole: one piece, every line of the text.
    if (!after) out[0].pieces.assign(1, source_piece{0, text.size(), first_line == 0 ? 1 : first_line});
    out[0].whole_text = !after;
  }
  return out;
}

}  // namespace neuronrw::host
