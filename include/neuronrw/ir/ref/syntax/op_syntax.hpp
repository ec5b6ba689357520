// neuronrw/ir/ref/syntax/op_syntax.hpp — ops' custom assembly as data: the declaration of one
// op's syntax (its operands, results, inherent attributes, regions and an ODS-style assembly
// format), the compiler of such a format into directives, and the interpreter that reads an op
// written in that format and prints one back. Adding an op is one table entry
// (ir/ref/syntax/op_table.hpp), not a parse function and a print function.
//
// Customization points: none (the table is data; the named custom directives are the ones
// StableHLO, MHLO and Shardy declare in their ODS files, implemented here once).
//
// Design. An op read in its custom form is stored exactly as if it had been read in the generic
// form with properties: operands, result types, and every attribute, inherent ones included, in
// generic spelling (`dims = [0, 1]` is stored as `broadcast_dimensions = array<i64: 0, 1>`),
// plus `syntax_form::custom`. The passes therefore see one representation whichever form the user
// wrote. Printing runs the format backwards from that data; when an attribute's value has no
// custom spelling (an unexpected type, a missing required attribute) the op is printed generic
// with properties instead, so printing never loses anything. Spacing follows MLIR's generated
// printers (OpFormatGen: a space before each element unless punctuation rules say otherwise),
// computed once per format.
//
// Supported format elements: literals (`x`, `` `` `` for no space, `` ` ` `` for one), `$name`
// (operand, attribute, region or result), `operands`, `results`, `attr-dict`,
// `attr-dict-with-keyword`, `type(...)`, `functional-type(operands, results)`, optional groups
// `( ... $anchor^ ... )?` with an optional `:( ... )` else-group, and `custom<Name>(args)` with
// args `$x`, `type($x)`, `ref($x)`, `ref(type($x))`.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace neuronrw::ref {

/// How an op of the reference IR is printed (module::syntax_form).
enum class syntax_form : std::uint8_t {
  generic = 0,     ///< generic, attributes as read (`properties_text` opaque)
  custom = 1,      ///< the dialect's custom form (an op of the syntax table)
  properties = 2,  ///< generic, the table's inherent attributes as properties `<{...}>`
};

/// The byte module::syntax_form stores: the form (bits 0-1) and whether a hand-written custom
/// form was read in its alternative spelling (bit 2): a reduce in its `reducer(...)` form where
/// the compact `applies` form was possible, a while whose `cond` is indented one more column
/// (StableHLO before July 2025). Printing keeps the spelling read.
constexpr std::uint8_t syntax_bits(syntax_form f, bool alternative = false) noexcept {
  return static_cast<std::uint8_t>(static_cast<std::uint8_t>(f) | (alternative ? 4u : 0u));
}
constexpr syntax_form form_of(std::uint8_t bits) noexcept { return static_cast<syntax_form>(bits & 3u); }
constexpr bool alternative_spelling(std::uint8_t bits) noexcept { return (bits & 4u) != 0; }

/// How an inherent attribute named in a format is spelled there, and what its generic value is.
enum class attr_spelling : std::uint8_t {
  opaque,       ///< the value as is
  i64,          ///< `3` ↔ `3 : i64`
  i32,          ///< `3` ↔ `3 : i32`
  boolean,      ///< `true` ↔ `true`
  string,       ///< `"s"` ↔ `"s"`
  i64_array,    ///< `[1, 2]` ↔ `array<i64: 1, 2>`
  bool_array,   ///< `[true]` ↔ `array<i1: true>`
  i64_elements, ///< `[1, 2]` ↔ `dense<[1, 2]> : tensor<2xi64>` (MHLO's 1-D integer elements)
  bool_elements,///< `[true]` ↔ `dense<true> : tensor<1xi1>`
  enum_keyword, ///< `EQ` ↔ `#stablehlo<comparison_direction EQ>` (prefix in `enum_prefix`)
  symbol,       ///< `@f` ↔ `@f`
  symbol_name,  ///< `@f` ↔ `"f"` (a symbol's own name, as `sdy.mesh @mesh` declares it)
  wrapped,      ///< `<["x"=2]>` ↔ `#sdy.mesh<["x"=2]>`: a dialect attribute printed stripped of
                ///< its prefix (`enum_prefix`) and suffix (`suffix`)
  int_enum,     ///< `BACKWARD` ↔ `2 : i32`: an I32EnumAttr, its cases in `cases` (case i has value i)
};

/// One op's syntax, as written in the table: lists are comma-separated names; an operand or
/// result name ending in `*` is variadic, in `?` optional; an attribute is `name: spelling`
/// (`name?: ...` when optional), spelling one of `any i64 i32 bool str i64s bools i64elems
/// boolelems sym symname`, `wrap PREFIX [SUFFIX]` (a dialect attribute printed stripped),
/// `enum DIALECT MNEMONIC` (generic `#DIALECT<MNEMONIC VALUE>`) or `ienum CASE0 CASE1 ...` (an
/// I32EnumAttr: the keyword CASEi is generic `i : i32`), and `... = VALUE` gives the
/// generic value of a default the printer leaves out. `format` is the op's ODS
/// assembly format; "" declares an op that has no custom form (printed generic with properties)
/// and a name in `special` one whose reader and printer are hand-written (constant, while,
/// reduce, scan; op_reader.hpp and op_printer.hpp).
struct op_syntax_decl {
  std::string_view name;
  std::string_view operands;
  std::string_view results;
  std::string_view attributes;
  std::string_view regions;
  std::string_view format;
  std::string_view special = {};
};

namespace syntax_detail {

struct attr_decl {
  std::string name;
  attr_spelling spelling = attr_spelling::opaque;
  std::string enum_prefix;    // "#stablehlo<comparison_direction "
  std::string default_value;  // generic value ODS elides ("" when none)
  std::string suffix;         // of a wrapped spelling
  std::vector<std::string> cases;  // of an int_enum spelling, case i being value i
  bool optional = false;
};
struct value_decl {
  std::string name;
  bool variadic = false;
  bool optional = false;
};

enum class ref_kind : std::uint8_t { none, operand, result, attribute, region, operands, results };
struct ref {
  ref_kind kind = ref_kind::none;
  std::uint32_t index = 0;
};

enum class elem_kind : std::uint8_t {
  literal,
  space,      // `` `` `` or `` ` ` ``
  value,      // $x (operand, attribute, region)
  operands,   // all operands
  attr_dict,
  attr_dict_kw,
  type,       // type($x) / type(operands) / type(results)
  functional_type,
  custom,
  optional,
};
struct custom_arg {
  ref target;
  bool type = false;  // type($x)
};
struct element {
  elem_kind kind = elem_kind::literal;
  std::string text;   // literal text, custom directive name
  ref target;         // value / type
  std::vector<custom_arg> args;
  std::vector<element> then_elems, else_elems;
  std::int32_t anchor = -1;  // index into then_elems
  bool is_anchor = false;
  bool space_before = false;
};

}  // namespace syntax_detail

/// A compiled op syntax: the declaration's lists resolved, the format as directives.
struct op_syntax {
  std::string name;
  std::vector<syntax_detail::value_decl> operands, results, regions;
  std::vector<syntax_detail::attr_decl> attributes;
  std::vector<syntax_detail::element> format;
  std::string special;
  bool has_format = false;
  /// Per operand / result group: whether the format spells its types. A group it does not
  /// spell takes the types of the one group on the other side it does not spell either
  /// (ODS's AllTypesMatch: `sdy.sharding_constraint %x <...> : T` types %x by its result).
  std::vector<bool> operand_typed, result_typed;
  std::string error;  // non-empty: the declaration is malformed (tests check every entry)

  const syntax_detail::attr_decl* find_attribute(std::string_view n) const {
    for (const auto& a : attributes)
      if (a.name == n) return &a;
    return nullptr;
  }
  bool is_inherent(std::string_view n) const { return find_attribute(n) != nullptr; }
};

namespace syntax_detail {

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}
inline std::vector<std::string_view> split_commas(std::string_view s) {
  std::vector<std::string_view> out;
  s = trim(s);
  if (s.empty()) return out;
  std::size_t b = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == ',') {
      out.push_back(trim(s.substr(b, i - b)));
      b = i + 1;
    }
  return out;
}
inline std::vector<value_decl> value_decls(std::string_view s) {
  std::vector<value_decl> out;
  for (auto n : split_commas(s)) {
    value_decl v;
    if (n.ends_with('*')) {
      v.variadic = true;
      n.remove_suffix(1);
    } else if (n.ends_with('?')) {
      v.optional = true;
      n.remove_suffix(1);
    }
    v.name = std::string(n);
    out.push_back(std::move(v));
  }
  return out;
}

/// Compiles one declaration's format. Errors go to `s.error` (a malformed table entry).
class format_compiler {
 public:
  format_compiler(op_syntax& s, std::string_view f) : s_(s), f_(f) {}
  void run() {
    s_.format = elements(false);
    if (!s_.error.empty()) return;
    if (pos_ < f_.size()) return err("unexpected text");
    bool space = true, punct = false;
    assign_spaces(s_.format, space, punct);
  }

 private:
  void err(const std::string& m) {
    if (s_.error.empty()) s_.error = s_.name + ": format: " + m + " at offset " + std::to_string(pos_);
  }
  void ws() {
    while (pos_ < f_.size() && (f_[pos_] == ' ' || f_[pos_] == '\n' || f_[pos_] == '\t')) ++pos_;
  }
  bool at(std::string_view w) {
    ws();
    return f_.substr(pos_, w.size()) == w;
  }
  std::string ident() {
    ws();
    std::size_t b = pos_;
    while (pos_ < f_.size() && (std::isalnum(static_cast<unsigned char>(f_[pos_])) || f_[pos_] == '_' || f_[pos_] == '-'))
      ++pos_;
    return std::string(f_.substr(b, pos_ - b));
  }
  /// `n` (written at offset `at`) as an operand, attribute, region or result of the op.
  ref resolve(const std::string& n, std::size_t at) {
    for (std::uint32_t i = 0; i < s_.operands.size(); ++i)
      if (s_.operands[i].name == n) return {ref_kind::operand, i};
    for (std::uint32_t i = 0; i < s_.attributes.size(); ++i)
      if (s_.attributes[i].name == n) return {ref_kind::attribute, i};
    for (std::uint32_t i = 0; i < s_.regions.size(); ++i)
      if (s_.regions[i].name == n) return {ref_kind::region, i};
    for (std::uint32_t i = 0; i < s_.results.size(); ++i)
      if (s_.results[i].name == n) return {ref_kind::result, i};
    pos_ = at;
    err("unknown name $" + n);
    return {};
  }
  ref target() {
    ws();
    if (at("$")) {
      const std::size_t at_name = pos_++;
      return resolve(ident(), at_name);
    }
    auto w = ident();
    if (w == "operands") return {ref_kind::operands, 0};
    if (w == "results") return {ref_kind::results, 0};
    err("expected $name, operands or results");
    return {};
  }
  std::vector<element> elements(bool in_group) {
    std::vector<element> out;
    for (;;) {
      ws();
      if (pos_ >= f_.size() || !s_.error.empty()) return out;
      if (in_group && f_[pos_] == ')') return out;
      out.push_back(one());
    }
  }
  element one() {
    element e;
    ws();
    const char c = f_[pos_];
    if (c == '`') {
      auto end = f_.find('`', pos_ + 1);
      if (end == std::string_view::npos) {
        err("unterminated literal");
        return e;
      }
      e.text = std::string(f_.substr(pos_ + 1, end - pos_ - 1));
      pos_ = end + 1;
      e.kind = e.text.empty() || e.text == " " ? elem_kind::space : elem_kind::literal;
      return e;
    }
    if (c == '$') {
      const std::size_t name_at = pos_++;
      e.kind = elem_kind::value;
      e.target = resolve(ident(), name_at);
      if (at("^")) {
        ++pos_;
        e.is_anchor = true;
      }
      return e;
    }
    if (c == '(') {
      ++pos_;
      e.kind = elem_kind::optional;
      e.then_elems = elements(true);
      if (!at(")")) {
        err("expected ')' to end an optional group");
        return e;
      }
      ++pos_;
      if (at(":")) {
        ++pos_;
        if (!at("(")) {
          err("expected '(' to begin an else group");
          return e;
        }
        ++pos_;
        e.else_elems = elements(true);
        if (!at(")")) {
          err("expected ')' to end an else group");
          return e;
        }
        ++pos_;
      }
      if (!at("?")) {
        err("expected '?' after an optional group");
        return e;
      }
      ++pos_;
      for (std::size_t i = 0; i < e.then_elems.size(); ++i)
        if (e.then_elems[i].is_anchor) e.anchor = static_cast<std::int32_t>(i);
      if (e.anchor < 0) err("optional group without an anchor");
      return e;
    }
    auto w = ident();
    if (w == "attr-dict") {
      e.kind = elem_kind::attr_dict;
    } else if (w == "attr-dict-with-keyword") {
      e.kind = elem_kind::attr_dict_kw;
    } else if (w == "operands") {
      e.kind = elem_kind::operands;
    } else if (w == "type") {
      e.kind = elem_kind::type;
      if (!at("(")) err("expected '(' after type");
      ++pos_;
      e.target = target();
      if (!at(")")) err("expected ')' after type(...");
      ++pos_;
    } else if (w == "functional-type") {
      e.kind = elem_kind::functional_type;
      if (!at("(")) err("expected '(' after functional-type");
      ++pos_;
      target();
      if (!at(",")) err("expected ','");
      ++pos_;
      target();
      if (!at(")")) err("expected ')'");
      ++pos_;
    } else if (w == "custom") {
      e.kind = elem_kind::custom;
      if (!at("<")) err("expected '<' after custom");
      ++pos_;
      e.text = ident();
      if (!at(">")) err("expected '>'");
      ++pos_;
      if (!at("(")) err("expected '('");
      ++pos_;
      while (s_.error.empty() && !at(")")) {
        custom_arg a;
        bool ref_wrapped = false;
        if (at("ref")) {
          pos_ += 3;
          if (!at("(")) err("expected '('");
          ++pos_;
          ref_wrapped = true;
        }
        if (at("type")) {
          pos_ += 4;
          if (!at("(")) err("expected '('");
          ++pos_;
          a.type = true;
          a.target = target();
          if (!at(")")) err("expected ')'");
          ++pos_;
        } else {
          a.target = target();
        }
        if (ref_wrapped) {
          if (!at(")")) err("expected ')'");
          ++pos_;
        }
        e.args.push_back(a);
        if (at(",")) ++pos_;
      }
      ++pos_;
    } else {
      err("unknown directive '" + w + "'");
    }
    if (at("^")) {
      ++pos_;
      e.is_anchor = true;
    }
    return e;
  }

  // OpFormatGen's spacing: decided per element at generation time, in the order the generated
  // printer emits them (an optional group's then-elements, then its else-elements).
  static bool space_before_literal(std::string_view v, bool last_punct) {
    if (v.size() != 1 && v != "->") return true;
    if (last_punct) return std::string_view(">)}],").find(v.front()) == std::string_view::npos;
    return std::string_view("<>(){}[],").find(v.front()) == std::string_view::npos;
  }
  static void assign_spaces(std::vector<element>& es, bool& space, bool& punct) {
    for (auto& e : es) {
      switch (e.kind) {
        case elem_kind::literal:
          e.space_before = space && space_before_literal(e.text, punct);
          space = e.text.size() != 1 || std::string_view("<({[").find(e.text.front()) == std::string_view::npos;
          punct = e.text.front() != '_' && !std::isalpha(static_cast<unsigned char>(e.text.front()));
          break;
        case elem_kind::space:
          e.space_before = false;
          if (e.text == " ") punct = false;
          else punct = true;
          space = false;
          break;
        case elem_kind::optional:
          assign_spaces(e.then_elems, space, punct);
          assign_spaces(e.else_elems, space, punct);
          break;
        case elem_kind::attr_dict:
        case elem_kind::attr_dict_kw:
          punct = false;
          break;
        default:
          e.space_before = space || !punct;
          punct = false;
          space = true;
          break;
      }
    }
  }

  op_syntax& s_;
  std::string_view f_;
  std::size_t pos_ = 0;
};

inline attr_decl parse_attr_decl(std::string_view d, std::string& error, const std::string& op) {
  attr_decl a;
  if (auto eq = d.find(" = "); eq != std::string_view::npos) {
    a.default_value = std::string(trim(d.substr(eq + 3)));
    d = d.substr(0, eq);
  }
  auto colon = d.find(':');
  std::string_view n = trim(d.substr(0, colon)), sp = colon == std::string_view::npos ? "any" : trim(d.substr(colon + 1));
  if (n.ends_with('?')) {
    a.optional = true;
    n.remove_suffix(1);
  }
  a.name = std::string(n);
  if (sp == "any") a.spelling = attr_spelling::opaque;
  else if (sp == "i64") a.spelling = attr_spelling::i64;
  else if (sp == "i32") a.spelling = attr_spelling::i32;
  else if (sp == "bool") a.spelling = attr_spelling::boolean;
  else if (sp == "str") a.spelling = attr_spelling::string;
  else if (sp == "i64s") a.spelling = attr_spelling::i64_array;
  else if (sp == "bools") a.spelling = attr_spelling::bool_array;
  else if (sp == "i64elems") a.spelling = attr_spelling::i64_elements;
  else if (sp == "boolelems") a.spelling = attr_spelling::bool_elements;
  else if (sp == "sym") a.spelling = attr_spelling::symbol;
  else if (sp == "symname") a.spelling = attr_spelling::symbol_name;
  else if (sp.starts_with("wrap ")) {
    a.spelling = attr_spelling::wrapped;
    auto rest = trim(sp.substr(5));
    auto space = rest.find(' ');
    a.enum_prefix = std::string(rest.substr(0, space));
    if (space != std::string_view::npos) a.suffix = std::string(trim(rest.substr(space + 1)));
  }
  else if (sp.starts_with("enum ")) {
    a.spelling = attr_spelling::enum_keyword;
    auto rest = trim(sp.substr(5));
    auto space = rest.find(' ');
    if (space == std::string_view::npos) {
      error = op + ": attribute " + a.name + ": expected 'enum DIALECT MNEMONIC'";
    } else {
      a.enum_prefix = "#" + std::string(rest.substr(0, space)) + "<" + std::string(trim(rest.substr(space + 1))) + " ";
    }
  } else if (sp.starts_with("ienum ")) {
    a.spelling = attr_spelling::int_enum;
    auto rest = trim(sp.substr(6));
    while (!rest.empty()) {
      const auto space = rest.find(' ');
      a.cases.emplace_back(rest.substr(0, space));
      rest = space == std::string_view::npos ? std::string_view() : trim(rest.substr(space + 1));
    }
  } else if (error.empty()) {
    error = op + ": attribute " + a.name + ": unknown spelling '" + std::string(sp) + "'";
  }
  return a;
}

}  // namespace syntax_detail

namespace syntax_detail {
/// The element type of a ranked tensor type's text (`tensor<2x?xf32, #e>` → `f32`); "" when `t`
/// is no tensor type. (The compact reduce's block arguments are `tensor<E>` of its input's E.)
inline std::string tensor_element_type(std::string_view t) {
  if (!t.starts_with("tensor<") || !t.ends_with('>')) return {};
  const auto body = t.substr(7, t.size() - 8);
  std::size_t i = 0;  // past the dimensions: (digits | '?') 'x', repeated
  for (;;) {
    std::size_t j = i;
    while (j < body.size() && ((body[j] >= '0' && body[j] <= '9') || body[j] == '?')) ++j;
    if (j == i || j >= body.size() || body[j] != 'x') break;
    i = j + 1;
  }
  std::size_t depth = 0, j = i;  // up to a ',' outside brackets (an encoding follows it)
  for (; j < body.size(); ++j) {
    const char c = body[j];
    if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
    else if (c == '>' || c == ')' || c == ']' || c == '}') --depth;
    else if (c == ',' && depth == 0) break;
  }
  return std::string(body.substr(i, j - i));
}
}  // namespace syntax_detail

namespace syntax_detail {
/// The text a type alias stands for (`!tuple` with `!tuple = tuple<i32>` among `aliases`, the
/// module's alias definitions: `tuple<i32>`), followed through a few aliases of aliases;
/// anything else as it is.
template <class Aliases>
std::string resolve_type_alias(std::string_view t, const Aliases& aliases) {
  std::string cur(t);
  for (int depth = 0; depth < 8 && cur.starts_with('!') && cur.find('<') == std::string::npos; ++depth) {
    const std::string head = cur + " = ";
    bool found = false;
    for (const auto& a : aliases)
      if (std::string_view(a).starts_with(head)) {
        cur = a.substr(head.size());
        found = true;
        break;
      }
    if (!found) break;
  }
  return cur;
}
}  // namespace syntax_detail

/// Compiles a declaration (never fails; a malformed one has a non-empty `error`).
inline op_syntax compile_op_syntax(const op_syntax_decl& d) {
  op_syntax s;
  s.name = std::string(d.name);
  s.operands = syntax_detail::value_decls(d.operands);
  s.results = syntax_detail::value_decls(d.results);
  s.regions = syntax_detail::value_decls(d.regions);
  for (auto a : syntax_detail::split_commas(d.attributes))
    s.attributes.push_back(syntax_detail::parse_attr_decl(a, s.error, s.name));
  s.special = std::string(d.special);
  s.has_format = !syntax_detail::trim(d.format).empty() || !s.special.empty();
  if (s.error.empty() && !syntax_detail::trim(d.format).empty())
    syntax_detail::format_compiler(s, d.format).run();
  s.operand_typed.assign(s.operands.size(), !s.special.empty());
  s.result_typed.assign(s.results.size(), !s.special.empty());
  auto mark = [&](const syntax_detail::ref& r) {
    using syntax_detail::ref_kind;
    if (r.kind == ref_kind::operand) s.operand_typed[r.index] = true;
    if (r.kind == ref_kind::result) s.result_typed[r.index] = true;
    if (r.kind == ref_kind::operands) s.operand_typed.assign(s.operands.size(), true);
    if (r.kind == ref_kind::results) s.result_typed.assign(s.results.size(), true);
  };
  auto scan = [&](auto&& self, const std::vector<syntax_detail::element>& es) -> void {
    for (const auto& e : es) {
      if (e.kind == syntax_detail::elem_kind::type) mark(e.target);
      if (e.kind == syntax_detail::elem_kind::functional_type) {
        mark({syntax_detail::ref_kind::operands, 0});
        mark({syntax_detail::ref_kind::results, 0});
      }
      if (e.kind == syntax_detail::elem_kind::custom)
        for (const auto& a : e.args)
          if (a.type) mark(a.target);
      if (e.kind == syntax_detail::elem_kind::optional) {
        self(self, e.then_elems);
        self(self, e.else_elems);
      }
    }
  };
  scan(scan, s.format);
  // Several variadic groups are of the same size (ODS's SameVariadicOperandSize, which every
  // such op of the table has); an optional group is never one of several.
  std::size_t variadic = 0, optional = 0;
  for (const auto& o : s.operands) (o.optional ? optional : variadic) += o.variadic || o.optional;
  if (s.error.empty() && optional > 0 && variadic + optional > 1)
    s.error = s.name + ": an optional operand group next to another variadic one";
  return s;
}

}  // namespace neuronrw::ref
