// neuronrw/ir/ref/syntax/op_reader.hpp — the reading half of the op-syntax interpreter: an op
// written in its dialect's custom form (ir/ref/syntax/op_syntax.hpp) read into operands, types,
// attributes in generic spelling, and regions.
//
// Customization points: none.
//
// Design: one layer over `value_reader`. The interpreter walks the compiled format once, left to
// right, reading what each element names into per-declaration slots; the module reader
// (ir/ref/parse.hpp) creates the op from them. Regions are read in place through
// `read_custom_region`, which the module reader implements (a region needs its op to exist).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/syntax/op_syntax.hpp>
#include <neuronrw/ir/ref/syntax/values.hpp>

namespace neuronrw::ref::detail {

/// Reads ops in their custom form; the module reader derives from it.
class op_syntax_reader : public value_reader {
 public:
  op_syntax_reader(std::string_view text, std::string_view file, const parse_options& options)
      : value_reader(text, file, options) {}

 protected:
  /// An entry-block argument a custom form declares for a region (the `%iterArg` of a while).
  struct region_arg {
    std::string name;
    type_ref type;
    std::size_t at = 0;
    std::string loc;
  };
  /// What one custom op spelled: per declared operand, result and attribute.
  struct custom_parts {
    std::vector<std::vector<ssa_use>> operands;
    std::vector<std::vector<type_ref>> operand_types;
    std::vector<bool> operand_types_set;
    std::vector<std::vector<type_ref>> result_types;
    std::vector<bool> result_types_set;
    std::vector<std::optional<dict_entry>> inherent;
    std::vector<dict_entry> dictionary;  // attr-dict entries
    std::size_t regions_read = 0;
    bool alternative = false;  // the alternative spelling of a hand-written form (syntax_bits)
  };

  /// Reads one region of the op being read (creating the op first when needed); `args` are
  /// entry-block arguments the custom form declared outside the region.
  virtual void read_custom_region(custom_parts& parts, std::span<const region_arg> args) = 0;
  /// Builds the region of a reduce written `applies OP`: one block with two `scalar` arguments,
  /// `%r = OP %a, %b` and `DIALECT.return %r`, as StableHLO's parser builds it.
  virtual void build_reducer_region(custom_parts& parts, std::string_view inner_op, type_ref scalar,
                                    std::size_t at) = 0;

  void start_parts(const op_syntax& s, custom_parts& p) {
    p.operands.assign(s.operands.size(), {});
    p.operand_types.assign(s.operands.size(), {});
    p.operand_types_set.assign(s.operands.size(), false);
    p.result_types.assign(s.results.size(), {});
    p.result_types_set.assign(s.results.size(), false);
    p.inherent.assign(s.attributes.size(), std::nullopt);
  }

  /// Reads the custom form of `s` (the cursor just past the op name; `op_start` where the op's
  /// text begins).
  void read_custom(const op_syntax& s, custom_parts& p, std::size_t name_at, std::size_t op_start) {
    start_parts(s, p);
    op_start_ = op_start;
    if (!s.special.empty()) {
      read_special(s, p, name_at);
      return;
    }
    read_elements(s, s.format, p);
  }

  /// 0-based column of offset `at`; the indentation (spaces and tabs) of the line holding it.
  std::size_t column_of(std::size_t at) const {
    std::size_t b = at;
    while (b > 0 && src_[b - 1] != '\n' && src_[b - 1] != '\r') --b;
    return at - b;
  }
  std::size_t indentation_of_line(std::size_t at) const {
    std::size_t b = at - column_of(at), e = b;
    while (e < src_.size() && (src_[e] == ' ' || src_[e] == '\t')) ++e;
    return e - b;
  }

  /// Consumes a `,` (after whitespace) when one comes next; otherwise leaves the cursor.
  bool take_comma() {
    const std::size_t save = pos_;
    skip_ws();
    if (peek() == ',') {
      ++pos_;
      return true;
    }
    pos_ = save;
    return false;
  }

  /// `%name` of an entry-block argument a custom form declares outside its region; `what` is
  /// the error when no `%` comes.
  region_arg read_region_arg_name(const char* what) {
    skip_ws();
    if (peek() != '%') fail(pos_, what);
    region_arg a;
    a.at = pos_;
    ++pos_;
    a.name = std::string(lex_suffix_id("expected SSA value name after '%'"));
    if (peek() == '#') fail(pos_, "expected a block argument name without a result number");
    return a;
  }
  /// `%name: T [loc]`.
  region_arg read_typed_region_arg() {
    auto a = read_region_arg_name("expected SSA identifier");
    expect(':', "expected ':'");
    a.type = parse_type();
    a.loc = parse_optional_loc();
    return a;
  }

  // ------------------------------------------------------------------ elements
  void read_elements(const op_syntax& s, const std::vector<syntax_detail::element>& es, custom_parts& p) {
    for (const auto& e : es) read_element(s, e, p);
  }

  bool at_literal(std::string_view text) {
    skip_ws();
    if (text.empty()) return true;
    if (mlir_is_bare_id_start(text.front())) return at_word(text);
    return src_.substr(pos_, text.size()) == text;
  }
  void expect_literal(std::string_view text) {
    if (!at_literal(text)) fail(pos_, "expected '" + std::string(text) + "'");
    pos_ += text.size();
  }

  /// Whether an optional group is present: decided by its first element, as ODS decides.
  bool group_present(const op_syntax& s, const syntax_detail::element& g) {
    skip_ws();
    for (const auto& e : g.then_elems) {
      using syntax_detail::elem_kind;
      switch (e.kind) {
        case elem_kind::space:
          continue;
        case elem_kind::literal:
          return at_literal(e.text);
        case elem_kind::value:
          switch (e.target.kind) {
            case syntax_detail::ref_kind::operand:
              return peek() == '%';
            case syntax_detail::ref_kind::region:
              return peek() == '{';
            case syntax_detail::ref_kind::attribute: {
              const auto& a = s.attributes[e.target.index];
              if (a.spelling == attr_spelling::enum_keyword || a.spelling == attr_spelling::int_enum)
                return mlir_is_bare_id_start(peek());
              if (a.spelling == attr_spelling::wrapped)
                return peek() == '<' || peek() == '{' || peek() == '[' || peek() == '(';
              if (a.spelling == attr_spelling::symbol || a.spelling == attr_spelling::symbol_name) return peek() == '@';
              if (a.spelling == attr_spelling::i64_array || a.spelling == attr_spelling::bool_array ||
                  a.spelling == attr_spelling::i64_elements || a.spelling == attr_spelling::bool_elements)
                return peek() == '[';
              return !eof() && peek() != ':' && peek() != '{';
            }
            default:
              return false;
          }
        case elem_kind::operands:
          return peek() == '%';
        case elem_kind::type:
        case elem_kind::functional_type:
          return parse_is_type_start(peek()) || peek() == '(';
        default:
          return false;
      }
    }
    return false;
  }

  void read_element(const op_syntax& s, const syntax_detail::element& e, custom_parts& p) {
    using syntax_detail::elem_kind;
    using syntax_detail::ref_kind;
    switch (e.kind) {
      case elem_kind::literal:
        expect_literal(e.text);
        return;
      case elem_kind::space:
        return;
      case elem_kind::value:
        switch (e.target.kind) {
          case ref_kind::operand:
            read_operand_group(s, e.target.index, p);
            return;
          case ref_kind::attribute:
            read_attribute(s, e.target.index, p);
            return;
          case ref_kind::region:
            read_region_group(s, e.target.index, p);
            return;
          default:
            fail(pos_, "'" + s.name + "': a result cannot be read here");
        }
      case elem_kind::operands:
        read_all_operands(s, p);
        return;
      case elem_kind::attr_dict:
        skip_ws();
        if (peek() == '{') read_attr_dict(p);
        return;
      case elem_kind::attr_dict_kw:
        read_attr_dict_with_keyword(p);
        return;
      case elem_kind::type:
        read_type_directive(s, e.target, p);
        return;
      case elem_kind::functional_type:
        read_functional_type(s, p);
        return;
      case elem_kind::custom:
        read_custom_directive(s, e, p);
        return;
      case elem_kind::optional:
        if (group_present(s, e))
          read_elements(s, e.then_elems, p);
        else
          read_elements(s, e.else_elems, p);
        return;
    }
  }

  void read_attr_dict(custom_parts& p) {
    for (auto& d : parse_dict()) p.dictionary.push_back(std::move(d));
  }
  /// `[attributes {...}]`.
  void read_attr_dict_with_keyword(custom_parts& p) {
    skip_ws();
    if (!at_word("attributes")) return;
    pos_ += 10;
    skip_ws();
    if (peek() != '{') fail(pos_, "expected '{' after 'attributes'");
    read_attr_dict(p);
  }

  /// `%a` or, for a variadic group, `%a, %b, ...` (possibly none); a comma not followed by a
  /// value is left for the next element.
  std::vector<ssa_use> read_use_list(bool many) {
    std::vector<ssa_use> us;
    skip_ws();
    if (peek() != '%') {
      if (!many) fail(pos_, "expected SSA operand");
      return us;
    }
    for (;;) {
      us.push_back(parse_ssa_use());
      if (!many) return us;
      const std::size_t save = pos_;  // a comma not followed by a value is the next element's
      if (!take_comma()) return us;
      skip_ws();
      if (peek() != '%') {
        pos_ = save;
        return us;
      }
    }
  }
  void read_operand_group(const op_syntax& s, std::uint32_t i, custom_parts& p) {
    const auto& d = s.operands[i];
    p.operands[i] = read_use_list(d.variadic || d.optional);
    if (d.optional && p.operands[i].size() > 1) fail(p.operands[i][1].at, "'" + s.name + "' takes at most one '" + d.name + "'");
  }
  /// `operands`: every operand, distributed over the declared groups (one variadic at most).
  void read_all_operands(const op_syntax& s, custom_parts& p) {
    const std::size_t at = pos_;
    auto us = read_use_list(true);
    distribute_operands(s, std::move(us), p, at);
  }
  void distribute_operands(const op_syntax& s, std::vector<ssa_use> us, custom_parts& p, std::size_t at) {
    std::size_t fixed = 0, variadic = 0;
    for (const auto& d : s.operands) (d.variadic || d.optional) ? ++variadic : ++fixed;
    if (us.size() < fixed || (variadic == 0 && us.size() != fixed) ||
        (variadic > 0 && (us.size() - fixed) % variadic != 0))
      fail(at, "'" + s.name + "' expects " + std::to_string(fixed) + (variadic ? " or more" : "") + " operands, got " +
                   std::to_string(us.size()));
    std::size_t k = 0;
    for (std::size_t i = 0; i < s.operands.size(); ++i) {
      const auto& d = s.operands[i];
      std::size_t n = 1;
      if (d.variadic || d.optional) n = (us.size() - fixed) / variadic;
      if (d.optional && n > 1) fail(at, "'" + s.name + "' takes at most one '" + d.name + "'");
      p.operands[i].assign(us.begin() + static_cast<std::ptrdiff_t>(k), us.begin() + static_cast<std::ptrdiff_t>(k + n));
      k += n;
    }
  }

  void read_region_group(const op_syntax& s, std::uint32_t i, custom_parts& p) {
    const auto& d = s.regions[i];
    skip_ws();
    if (peek() != '{') fail(pos_, "expected '{' to begin a region");
    for (;;) {
      read_custom_region(p, {});
      if (!d.variadic) return;
      if (!take_comma()) return;
      skip_ws();
      if (peek() != '{') fail(pos_, "expected '{' to begin a region");
    }
  }

  // ------------------------------------------------------------------ attributes
  std::string read_integer_text() {
    skip_ws();
    const std::size_t b = pos_;
    if (peek() == '-') ++pos_;
    if (!parse_is_digit(peek())) fail(pos_, "expected integer value");
    while (parse_is_digit(peek())) ++pos_;
    return std::string(src_.substr(b, pos_ - b));
  }
  /// `[` elements `]` where each element is read by `one`; returns the elements' texts.
  template <class One>
  std::vector<std::string> read_square_list(One one) {
    skip_ws();
    if (peek() != '[') fail(pos_, "expected '['");
    ++pos_;
    std::vector<std::string> xs;
    skip_ws();
    if (peek() == ']') {
      ++pos_;
      return xs;
    }
    for (;;) {
      xs.push_back(one());
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ']') {
        ++pos_;
        return xs;
      }
      fail(pos_, "expected ',' or ']'");
    }
  }
  std::string read_bool_text() {
    skip_ws();
    if (at_word("true")) {
      pos_ += 4;
      return "true";
    }
    if (at_word("false")) {
      pos_ += 5;
      return "false";
    }
    fail(pos_, "expected 'true' or 'false'");
  }
  static std::string join(const std::vector<std::string>& xs) {
    std::string t;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if (i) t += ", ";
      t += xs[i];
    }
    return t;
  }
  static std::string array_text(std::string_view elem, const std::vector<std::string>& xs) {
    std::string t = "array<";
    t += elem;
    if (!xs.empty()) {
      t += ": ";
      t += join(xs);
    }
    return t + ">";
  }
  std::string read_i64_array() {
    return array_text("i64", read_square_list([&] { return read_integer_text(); }));
  }
  /// `dense<...> : tensor<Nx ELEM>` of a 1-D list as MLIR prints it: a splat when all are equal.
  static std::string elements_text(std::string_view elem, const std::vector<std::string>& xs) {
    std::string body;
    if (!xs.empty()) {
      const bool splat = std::all_of(xs.begin(), xs.end(), [&](const std::string& x) { return x == xs[0]; });
      body = splat ? xs[0] : "[" + join(xs) + "]";
    }
    return "dense<" + body + "> : tensor<" + std::to_string(xs.size()) + "x" + std::string(elem) + ">";
  }
  /// A `[...]` list of integers (or, for booleans, `true`/`false`/integers) in `a`'s spelling.
  std::string read_list_as(const syntax_detail::attr_decl& a) {
    const bool boolean = a.spelling == attr_spelling::bool_array || a.spelling == attr_spelling::bool_elements;
    auto xs = read_square_list([&] {
      skip_ws();
      if (boolean && (at_word("true") || at_word("false"))) return read_bool_text();
      auto n = read_integer_text();
      return boolean ? std::string(n == "0" ? "false" : "true") : n;
    });
    switch (a.spelling) {
      case attr_spelling::bool_array: return array_text("i1", xs);
      case attr_spelling::i64_elements: return elements_text("i64", xs);
      case attr_spelling::bool_elements: return elements_text("i1", xs);
      default: return array_text("i64", xs);
    }
  }

  /// One attribute in its custom spelling; returns its generic value.
  std::string read_attribute_value(const syntax_detail::attr_decl& a) {
    skip_ws();
    switch (a.spelling) {
      case attr_spelling::i64:
        return read_integer_text() + " : i64";
      case attr_spelling::i32:
        return read_integer_text() + " : i32";
      case attr_spelling::boolean:
        return read_bool_text();
      case attr_spelling::string: {
        if (peek() != '"') fail(pos_, "expected string for '" + a.name + "'");
        const std::size_t b = pos_;
        pos_ = scan_string(pos_);
        return std::string(src_.substr(b, pos_ - b));
      }
      case attr_spelling::i64_array:
        return read_i64_array();
      case attr_spelling::bool_array:
        return array_text("i1", read_square_list([&] { return read_bool_text(); }));
      case attr_spelling::i64_elements:
      case attr_spelling::bool_elements:
        return read_list_as(a);
      case attr_spelling::enum_keyword: {
        if (!mlir_is_bare_id_start(peek())) fail(pos_, "expected keyword for '" + a.name + "'");
        auto w = lex_bare_id();
        return a.enum_prefix + std::string(w) + ">";
      }
      case attr_spelling::int_enum: {
        const std::size_t at = pos_;
        if (mlir_is_bare_id_start(peek())) {
          const auto w = lex_bare_id();
          for (std::size_t i = 0; i < a.cases.size(); ++i)
            if (a.cases[i] == w) return std::to_string(i) + " : i32";
        }
        std::string all;
        for (const auto& c : a.cases) all += (all.empty() ? "" : ", ") + c;
        fail(at, "expected one of [" + all + "] for '" + a.name + "'");
      }
      case attr_spelling::symbol: {
        if (peek() != '@') fail(pos_, "expected symbol reference for '" + a.name + "'");
        const std::size_t b = pos_;
        ++pos_;
        parse_symbol_name();
        return std::string(src_.substr(b, pos_ - b));
      }
      case attr_spelling::symbol_name: {
        if (peek() != '@') fail(pos_, "expected '@' and the symbol name for '" + a.name + "'");
        ++pos_;
        return mlir_string_literal(parse_symbol_name());
      }
      case attr_spelling::wrapped: {
        if (peek() != '<' && peek() != '{' && peek() != '[' && peek() != '(')
          fail(pos_, "expected the value of '" + a.name + "'");
        const std::size_t b = pos_;
        scan_balanced({}, true);
        return a.enum_prefix + clean(b, pos_) + a.suffix;
      }
      case attr_spelling::opaque:
        break;
    }
    const std::size_t b = pos_;
    scan_balanced(",:{", false);
    auto t = clean(b, pos_);
    if (t.empty()) fail(b, "expected attribute value for '" + a.name + "'");
    return t;
  }
  void set_inherent(const op_syntax& s, std::uint32_t i, custom_parts& p, std::string value, std::size_t at) {
    dict_entry d;
    d.name = s.attributes[i].name;
    d.value = std::move(value);
    d.name_at = d.value_at = at;
    p.inherent[i] = std::move(d);
  }
  void read_attribute(const op_syntax& s, std::uint32_t i, custom_parts& p) {
    skip_ws();
    const std::size_t at = pos_;
    set_inherent(s, i, p, read_attribute_value(s.attributes[i]), at);
  }

  // ------------------------------------------------------------------ types
  std::vector<type_ref> read_type_list() {
    std::vector<type_ref> ts;
    for (;;) {
      ts.push_back(parse_type());
      if (!take_comma()) return ts;
    }
  }
  void set_operand_types(custom_parts& p, std::uint32_t i, std::vector<type_ref> ts) {
    p.operand_types[i] = std::move(ts);
    p.operand_types_set[i] = true;
  }
  void set_result_types(custom_parts& p, std::uint32_t i, std::vector<type_ref> ts) {
    p.result_types[i] = std::move(ts);
    p.result_types_set[i] = true;
  }
  void read_type_directive(const op_syntax& s, syntax_detail::ref t, custom_parts& p) {
    using syntax_detail::ref_kind;
    skip_ws();
    switch (t.kind) {
      case ref_kind::operand: {
        const auto& d = s.operands[t.index];
        const bool many = d.variadic || d.optional;
        if (many && p.operands[t.index].empty()) {
          set_operand_types(p, t.index, {});
          return;
        }
        set_operand_types(p, t.index, many ? read_type_list() : std::vector<type_ref>{parse_type()});
        return;
      }
      case ref_kind::result: {
        const auto& d = s.results[t.index];
        set_result_types(p, t.index, d.variadic || d.optional ? read_type_list() : std::vector<type_ref>{parse_type()});
        return;
      }
      case ref_kind::operands: {
        std::vector<type_ref> ts;
        std::size_t n = 0;
        for (auto& g : p.operands) n += g.size();
        if (n > 0) ts = read_type_list();
        assign_flat_operand_types(s, p, std::move(ts), pos_);
        return;
      }
      case ref_kind::results:
        assign_flat_result_types(s, p, read_type_list());
        return;
      default:
        fail(pos_, "'" + s.name + "': bad type directive");
    }
  }
  void assign_flat_operand_types(const op_syntax& s, custom_parts& p, std::vector<type_ref> ts, std::size_t at) {
    std::size_t n = 0;
    for (auto& g : p.operands) n += g.size();
    if (ts.size() != n)
      fail(at, std::to_string(n) + " operands present, but expected " + std::to_string(ts.size()));
    std::size_t k = 0;
    for (std::uint32_t i = 0; i < s.operands.size(); ++i) {
      const auto m = p.operands[i].size();
      set_operand_types(p, i, std::vector<type_ref>(ts.begin() + static_cast<std::ptrdiff_t>(k),
                                                    ts.begin() + static_cast<std::ptrdiff_t>(k + m)));
      k += m;
    }
  }
  void assign_flat_result_types(const op_syntax& s, custom_parts& p, std::vector<type_ref> ts) {
    // One variadic result group at most (as in every op of the table): it takes the rest.
    std::size_t fixed = 0;
    for (const auto& d : s.results) fixed += !(d.variadic || d.optional);
    if (ts.size() < fixed) fail(pos_, "'" + s.name + "' expects " + std::to_string(fixed) + " result types");
    std::size_t k = 0;
    for (std::uint32_t i = 0; i < s.results.size(); ++i) {
      const auto& d = s.results[i];
      const std::size_t m = d.variadic || d.optional ? ts.size() - fixed : 1;
      set_result_types(p, i, std::vector<type_ref>(ts.begin() + static_cast<std::ptrdiff_t>(k),
                                                   ts.begin() + static_cast<std::ptrdiff_t>(k + m)));
      k += m;
    }
  }
  void read_functional_type(const op_syntax& s, custom_parts& p) {
    const auto f = parse_function_type();
    assign_flat_operand_types(s, p, f.inputs, f.at);
    assign_flat_result_types(s, p, f.results);
  }

  // ------------------------------------------------------------------ custom directives
  /// The argument `k` of directive `e`, an operand group's index (for type(...) args too).
  static std::uint32_t arg_index(const syntax_detail::element& e, std::size_t k) { return e.args[k].target.index; }

  /// Assigns the same-type form: `T` (every operand and the result have type T) or a function
  /// type. Operands are the directive's type($x) args but the last, which is the result.
  void read_same_operands_and_result_type(const syntax_detail::element& e, custom_parts& p) {
    skip_ws();
    const std::size_t at = pos_;
    const auto t = parse_type();
    const auto text = m_.type_text(t);
    std::vector<std::uint32_t> ops;
    for (std::size_t k = 0; k + 1 < e.args.size(); ++k)
      if (e.args[k].type && e.args[k].target.kind == syntax_detail::ref_kind::operand) ops.push_back(arg_index(e, k));
    const auto res = e.args.back().target.index;
    if (text.starts_with('(')) {
      // A function type: re-read it as one.
      pos_ = at;
      const auto f = parse_function_type();
      std::size_t n = 0;
      for (auto i : ops) n += p.operands[i].size();
      if (f.inputs.size() != n)
        fail(at, std::to_string(n) + " operands present, but expected " + std::to_string(f.inputs.size()));
      if (f.results.size() != 1) fail(at, "expected single output");
      std::size_t k = 0;
      for (auto i : ops) {
        const auto m = p.operands[i].size();
        set_operand_types(p, i, std::vector<type_ref>(f.inputs.begin() + static_cast<std::ptrdiff_t>(k),
                                                      f.inputs.begin() + static_cast<std::ptrdiff_t>(k + m)));
        k += m;
      }
      set_result_types(p, res, {f.results[0]});
      return;
    }
    for (auto i : ops) set_operand_types(p, i, std::vector<type_ref>(p.operands[i].size(), t));
    set_result_types(p, res, {t});
  }

  void read_custom_directive(const op_syntax& s, const syntax_detail::element& e, custom_parts& p) {
    const std::string& n = e.text;
    if (n == "SameOperandsAndResultType" || n == "VariadicSameOperandsAndResultType") {
      read_same_operands_and_result_type(e, p);
      return;
    }
    if (n == "VariadicOperandWithAttribute") {
      // `%a, %b, ` — every operand followed by a comma.
      const auto i = arg_index(e, 0);
      for (;;) {
        skip_ws();
        if (peek() != '%') break;
        p.operands[i].push_back(parse_ssa_use());
        expect(',', "expected ','");
      }
      return;
    }
    if (n == "TupleOpType") {
      skip_ws();
      const std::size_t at = pos_;
      const auto t = parse_type();
      const auto text = syntax_detail::resolve_type_alias(m_.type_text(t), m_.alias_definitions);
      if (!text.starts_with("tuple<")) fail(at, "expected tuple type");
      std::vector<type_ref> elems;
      const std::string inner = text.substr(6, text.size() - 7);
      split_type_list(inner, elems);
      if (elems.size() != p.operands[arg_index(e, 0)].size())
        fail(at, std::to_string(p.operands[arg_index(e, 0)].size()) + " operands present, but the tuple type has " +
                     std::to_string(elems.size()) + " elements");
      set_operand_types(p, arg_index(e, 0), std::move(elems));
      set_result_types(p, e.args[1].target.index, {t});
      return;
    }
    if (n == "PairwiseOpType") {
      auto ts = read_type_list();
      if (ts.size() != p.operands[arg_index(e, 0)].size())
        fail(pos_, std::to_string(p.operands[arg_index(e, 0)].size()) + " operands present, but expected " +
                       std::to_string(ts.size()));
      set_operand_types(p, arg_index(e, 0), ts);
      set_result_types(p, e.args[1].target.index, std::move(ts));
      return;
    }
    if (n == "SelectOpType") {
      skip_ws();
      const std::size_t at = pos_;
      auto ts = read_type_list();
      if (ts.size() == 2) {
        set_operand_types(p, arg_index(e, 0), {ts[0]});
        set_operand_types(p, arg_index(e, 1), {ts[1]});
        set_operand_types(p, arg_index(e, 2), {ts[1]});
        set_result_types(p, e.args[3].target.index, {ts[1]});
        return;
      }
      if (ts.size() != 1 || !m_.type_text(ts[0]).starts_with('(')) fail(at, "expected functional type or list of two types");
      pos_ = at;
      read_functional_type(s, p);
      return;
    }
    if (n == "ComplexOpType") {
      skip_ws();
      const std::size_t at = pos_;
      const auto t = parse_type();
      const auto text = std::string(m_.type_text(t));
      if (text.starts_with('(')) {
        pos_ = at;
        read_functional_type(s, p);
        return;
      }
      const auto real = real_type_of(text);
      if (!real) fail(at, "expected tensor with complex element type");
      const auto r = m_.intern_type(*real);
      set_operand_types(p, arg_index(e, 0), {r});
      set_operand_types(p, arg_index(e, 1), {r});
      set_result_types(p, e.args[2].target.index, {t});
      return;
    }
    if (n == "SliceRanges") {
      read_slice_ranges(s, e, p);
      return;
    }
    if (n == "CustomCallTarget") {
      skip_ws();
      if (peek() != '@') fail(pos_, "expected '@' and the custom call target");
      const std::size_t at = pos_;
      ++pos_;
      auto target = parse_symbol_name();
      set_inherent(s, arg_index(e, 0), p, mlir_string_literal(target), at);
      return;
    }
    if (n == "ExponentMantissa") {
      skip_ws();
      const std::size_t at = pos_;
      if (!mlir_is_bare_id_start(peek())) fail(at, "expected exponent mantissa in format e#m#");
      const auto w = lex_bare_id();
      const auto m = w.find('m');
      auto digits = [](std::string_view x) {
        return !x.empty() && x.size() < 10 && std::all_of(x.begin(), x.end(), [](char c) { return c >= '0' && c <= '9'; });
      };
      if (w.size() < 4 || w.front() != 'e' || m == std::string_view::npos || !digits(w.substr(1, m - 1)) || !digits(w.substr(m + 1)))
        fail(at, "expected exponent mantissa in format e#m#, saw " + std::string(w));
      set_inherent(s, arg_index(e, 0), p, std::to_string(std::stoul(std::string(w.substr(1, m - 1)))) + " : i32", at);
      set_inherent(s, arg_index(e, 1), p, std::to_string(std::stoul(std::string(w.substr(m + 1)))) + " : i32", at);
      return;
    }
    if (n == "DotDimensionNumbers") {
      read_dot_dimension_numbers(s, e, p);
      return;
    }
    if (n == "PrecisionConfig" || n == "PrecisionConfigAndAlgorithm") {
      read_precision_and_algorithm(s, e, p, n == "PrecisionConfigAndAlgorithm");
      return;
    }
    if (n == "StrippedTensorShardingPerValueAttr") {
      // `[<@mesh, [...]>, ...]` → `#sdy.sharding_per_value<[...]>`
      skip_ws();
      if (peek() != '[') fail(pos_, "expected '['");
      const std::size_t b = pos_;
      scan_balanced({}, true);
      set_inherent(s, arg_index(e, 0), p, "#" + dialect_of(s) + ".sharding_per_value<" + clean(b, pos_) + ">", b);
      return;
    }
    if (n == "SingleBlockRegionNoBlockId") {
      // `(%a: T [loc], ...) { ops }`: the entry block's arguments, then its ops.
      expect('(', "expected '('");
      std::vector<region_arg> args;
      skip_ws();
      if (peek() != ')') {
        do args.push_back(read_typed_region_arg());
        while (take_comma());
      }
      expect(')', "expected ')'");
      skip_ws();
      if (peek() != '{') fail(pos_, "expected '{' to begin a region");
      read_custom_region(p, args);
      return;
    }
    if (n == "ConvolutionDimensions") {
      read_convolution_dimensions(s, e, p);
      return;
    }
    if (n == "WindowAttributes") {
      read_window_attributes(s, e, p);
      return;
    }
    fail(pos_, "'" + s.name + "': custom directive '" + n + "' is not supported by the reference IR");
  }

  /// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` → `#D.conv<...>` (each list re-spaced as printed).
  void read_convolution_dimensions(const op_syntax& s, const syntax_detail::element& e, custom_parts& p) {
    skip_ws();
    const std::size_t at = pos_;
    auto dim_list = [&] {
      skip_ws();
      if (peek() != '[') fail(pos_, "expected '['");
      return read_square_list([&] {
        skip_ws();
        const std::size_t b = pos_;
        while (!eof() && (mlir_is_bare_id_char(peek()))) ++pos_;
        if (b == pos_) fail(pos_, "expected a dimension ('b', 'f', 'i', 'o' or a number)");
        return std::string(src_.substr(b, pos_ - b));
      });
    };
    auto lhs = dim_list();
    skip_ws();
    if (peek() != 'x') fail(pos_, "expected 'x'");
    ++pos_;
    auto rhs = dim_list();
    skip_ws();
    if (!at_arrow()) fail(pos_, "expected '->'");
    pos_ += 2;
    auto out = dim_list();
    set_inherent(s, arg_index(e, 0), p,
                 "#" + dialect_of(s) + ".conv<[" + join(lhs) + "]x[" + join(rhs) + "]->[" + join(out) + "]>", at);
  }

  /// `stride = [..], pad = [[l, h], ...], lhs_dilate = [..], rhs_dilate = [..], reverse = [..]`,
  /// each at most once, in any order.
  void read_window_attributes(const op_syntax& s, const syntax_detail::element& e, custom_parts& p) {
    static constexpr std::string_view names[] = {"stride", "pad", "lhs_dilate", "rhs_dilate", "reverse"};
    bool seen[5] = {false, false, false, false, false};
    for (;;) {
      skip_ws();
      if (!mlir_is_bare_id_start(peek())) return;
      const std::size_t at = pos_;
      const auto w = lex_bare_id();
      std::size_t k = 0;
      while (k < 5 && names[k] != w) ++k;
      if (k == 5 || seen[k]) fail(at, "Unexpected keyword " + std::string(w));
      seen[k] = true;
      expect('=', "expected '='");
      std::string value;
      if (k == 1) {
        std::vector<std::string> flat;
        std::size_t rows = 0;
        read_square_list([&] {
          auto pair = read_square_list([&] { return read_integer_text(); });
          if (pair.size() != 2)
            fail(pos_, "Expected array with 2 elements, got " + std::to_string(pair.size()) + " elements instead");
          flat.push_back(pair[0]);
          flat.push_back(pair[1]);
          ++rows;
          return std::string();
        });
        const bool splat = !flat.empty() && std::all_of(flat.begin(), flat.end(), [&](const std::string& x) { return x == flat[0]; });
        std::string body;
        if (splat) {
          body = flat[0];
        } else if (!flat.empty()) {
          body = "[";
          for (std::size_t r = 0; r < rows; ++r) {
            if (r) body += ", ";
            body += "[" + flat[2 * r] + ", " + flat[2 * r + 1] + "]";
          }
          body += "]";
        }
        value = "dense<" + body + "> : tensor<" + std::to_string(rows) + "x2xi64>";
      } else if (k < e.args.size()) {
        value = read_list_as(s.attributes[arg_index(e, k)]);
      } else {
        value = read_i64_array();
      }
      if (k < e.args.size()) set_inherent(s, arg_index(e, k), p, std::move(value), at);
      if (!take_comma()) return;
    }
  }

  /// `tensor<2xcomplex<f32>>` → `tensor<2xf32>`; nullopt when the element type is no complex.
  static std::optional<std::string> real_type_of(const std::string& t) {
    const auto at = t.find("complex<");
    if (at == std::string::npos) return std::nullopt;
    std::size_t depth = 0, i = at + 8;
    for (; i < t.size(); ++i) {
      if (t[i] == '<') ++depth;
      else if (t[i] == '>') {
        if (depth == 0) break;
        --depth;
      }
    }
    if (i >= t.size()) return std::nullopt;
    return t.substr(0, at) + t.substr(at + 8, i - at - 8) + t.substr(i + 1);
  }
  /// Splits `A, B<x, y>, C` at top-level commas into interned types.
  void split_type_list(const std::string& inner, std::vector<type_ref>& out) {
    std::size_t depth = 0, b = 0;
    auto push = [&](std::size_t e) {
      std::string x = inner.substr(b, e - b);
      while (!x.empty() && x.front() == ' ') x.erase(x.begin());
      while (!x.empty() && x.back() == ' ') x.pop_back();
      if (!x.empty()) out.push_back(m_.intern_type(x));
    };
    for (std::size_t i = 0; i < inner.size(); ++i) {
      const char c = inner[i];
      if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
      else if ((c == '>' && !(i > 0 && inner[i - 1] == '-')) || c == ')' || c == ']' || c == '}') --depth;
      else if (c == ',' && depth == 0) {
        push(i);
        b = i + 1;
      }
    }
    push(inner.size());
  }

  void read_slice_ranges(const op_syntax& s, const syntax_detail::element& e, custom_parts& p) {
    skip_ws();
    const std::size_t at = pos_;
    std::vector<std::string> start, limit, stride;
    if (peek() != '[') fail(pos_, "expected '['");
    ++pos_;
    skip_ws();
    if (peek() != ']') {
      for (;;) {
        start.push_back(read_integer_text());
        expect(':', "expected ':'");
        limit.push_back(read_integer_text());
        skip_ws();
        if (peek() == ':') {
          ++pos_;
          stride.push_back(read_integer_text());
        } else {
          stride.push_back("1");
        }
        skip_ws();
        if (peek() == ']') break;
        expect(',', "expected ',' or ']'");
      }
    }
    ++pos_;
    set_inherent(s, arg_index(e, 0), p, array_text("i64", start), at);
    set_inherent(s, arg_index(e, 1), p, array_text("i64", limit), at);
    set_inherent(s, arg_index(e, 2), p, array_text("i64", stride), at);
  }

  /// `[batching_dims = [..] x [..], ] contracting_dims = [..] x [..]` →
  /// `#D.dot<lhs_batching_dimensions = [..], rhs_batching_dimensions = [..], lhs_contracting_dimensions = [..], rhs_contracting_dimensions = [..]>`
  /// (empty lists left out, as the attribute prints itself).
  void read_dot_dimension_numbers(const op_syntax& s, const syntax_detail::element& e, custom_parts& p) {
    skip_ws();
    const std::size_t at = pos_;
    auto dims = [&] { return read_square_list([&] { return read_integer_text(); }); };
    auto pair = [&](std::vector<std::string>& l, std::vector<std::string>& r) {
      expect('=', "expected '='");
      l = dims();
      skip_ws();
      if (!at_word("x")) fail(pos_, "expected 'x'");
      ++pos_;
      r = dims();
    };
    std::vector<std::string> lb, rb, lc, rc;
    if (at_word("batching_dims")) {
      pos_ += 13;
      pair(lb, rb);
      expect(',', "expected ','");
      skip_ws();
    }
    if (!at_word("contracting_dims")) fail(pos_, "expected 'contracting_dims'");
    pos_ += 16;
    pair(lc, rc);
    std::string t = "#" + dialect_of(s) + ".dot<";
    bool first = true;
    auto field = [&](const char* name, const std::vector<std::string>& xs) {
      if (xs.empty()) return;
      if (!first) t += ", ";
      first = false;
      t += name;
      t += " = [" + join(xs) + "]";
    };
    field("lhs_batching_dimensions", lb);
    field("rhs_batching_dimensions", rb);
    field("lhs_contracting_dimensions", lc);
    field("rhs_contracting_dimensions", rc);
    set_inherent(s, arg_index(e, 0), p, t + ">", at);
  }
  static std::string dialect_of(const op_syntax& s) { return s.name.substr(0, s.name.find('.')); }

  /// `[, precision = [DEFAULT, ...]] [, algorithm = <...>]`.
  void read_precision_and_algorithm(const op_syntax& s, const syntax_detail::element& e, custom_parts& p, bool algorithm) {
    if (!take_comma()) return;
    skip_ws();
    const std::string d = dialect_of(s);
    auto read_algorithm = [&] {
      const std::size_t at = pos_;
      pos_ += 9;
      expect('=', "expected '='");
      skip_ws();
      if (peek() != '<') fail(pos_, "expected '<'");
      const std::size_t b = pos_;
      scan_balanced({}, true);
      set_inherent(s, arg_index(e, 1), p, "#" + d + ".dot_algorithm" + clean(b, pos_), at);
    };
    if (algorithm && at_word("algorithm")) {
      read_algorithm();
      return;
    }
    if (!at_word("precision")) fail(pos_, "expected 'precision'");
    const std::size_t at = pos_;
    pos_ += 9;
    expect('=', "expected '='");
    auto xs = read_square_list([&] {
      skip_ws();
      if (!mlir_is_bare_id_start(peek())) fail(pos_, "expected precision keyword");
      return "#" + d + "<precision " + std::string(lex_bare_id()) + ">";
    });
    set_inherent(s, arg_index(e, 0), p, "[" + join(xs) + "]", at);
    if (!algorithm) return;
    if (!take_comma()) return;
    skip_ws();
    if (!at_word("algorithm")) fail(pos_, "expected 'algorithm'");
    read_algorithm();
  }

  // ------------------------------------------------------------------ hand-written forms
  void read_special(const op_syntax& s, custom_parts& p, std::size_t name_at) {
    if (s.special == "constant") {
      read_constant(s, p);
      return;
    }
    if (s.special == "while") {
      read_while(s, p);
      return;
    }
    if (s.special == "reduce") {
      read_reduce(s, p);
      return;
    }
    fail(name_at, "'" + s.name + "': no reader for the custom form '" + s.special + "'");
  }
  /// `[{attrs}] VALUE : TYPE` — the value attribute with its type; the result has that type.
  /// Or, as StableHLO prints a constant whose result type is not its value's (a quantized
  /// tensor of integers): `() [<{value = V}>] [{attrs}] : () -> TYPE`, the value a property or
  /// an entry of the dictionary.
  void read_constant(const op_syntax& s, custom_parts& p) {
    skip_ws();
    if (peek() == '(') {
      const std::size_t at = pos_;
      ++pos_;
      expect(')', "expected ')'");
      skip_ws();
      std::vector<dict_entry> props, attrs;
      if (peek() == '<') {
        ++pos_;
        skip_ws();
        if (peek() != '{') fail(pos_, "expected '{' to begin the properties");
        props = parse_dict();
        expect('>', "expected '>' to close the properties");
        skip_ws();
      }
      if (peek() == '{') attrs = parse_dict();
      bool has_value = false;
      for (auto& e : merge_inherent(std::move(props), std::move(attrs), {"value"})) {
        if (e.name == "value" && !e.value.empty()) {
          set_inherent(s, 0, p, std::move(e.value), e.value_at);
          has_value = true;
        } else {
          p.dictionary.push_back(std::move(e));
        }
      }
      if (!has_value) fail(at, "'" + s.name + "' op requires attribute 'value'");
      expect(':', "expected ':'");
      expect('(', "expected '('");
      expect(')', "expected ')'");
      skip_ws();
      if (!at_arrow()) fail(pos_, "expected '->'");
      pos_ += 2;
      set_result_types(p, 0, {parse_type()});
      return;
    }
    if (peek() == '{') {
      read_attr_dict(p);
      skip_ws();
    }
    const std::size_t b = pos_;
    if (eof() || peek() == ':' || peek() == '}' || peek() == ')' || peek() == ']' || peek() == '>')
      fail(pos_, "expected attribute value");
    // dense<...>, sparse<...>, #d.x<...>, a number: balanced text up to ':' at the top level
    // (a ',' there ends an attribute: the value would not be one).
    scan_balanced(":,", false);
    const std::size_t value_end = pos_;
    if (peek() != ':' || eof()) fail(pos_, "expected ':' and the type of the constant");
    ++pos_;
    const auto t = parse_type();
    set_inherent(s, 0, p, clean(b, value_end) + " : " + std::string(m_.type_text(t)), b);
    set_result_types(p, 0, {t});
  }
  /// `(%iterArg = %x, ...) : T, ... [attributes {...}] cond {...} do {...}`.
  void read_while(const op_syntax& s, custom_parts& p) {
    expect('(', "expected '('");
    std::vector<region_arg> args;
    skip_ws();
    if (peek() != ')') {
      for (;;) {
        region_arg a = read_region_arg_name("expected SSA operand");
        expect('=', "expected '='");
        skip_ws();
        if (peek() != '%') fail(pos_, "expected SSA operand");
        p.operands[0].push_back(parse_ssa_use());
        args.push_back(std::move(a));
        skip_ws();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        break;
      }
    }
    expect(')', "expected ')'");
    if (!args.empty()) {
      expect(':', "expected ':'");
      skip_ws();
      const std::size_t at = pos_;
      auto ts = read_type_list();
      if (ts.size() != args.size())
        fail(at, std::to_string(args.size()) + " operands present, but expected " + std::to_string(ts.size()));
      for (std::size_t i = 0; i < ts.size(); ++i) args[i].type = ts[i];
      set_operand_types(p, 0, ts);
      set_result_types(p, 0, std::move(ts));
    } else {
      set_operand_types(p, 0, {});
      set_result_types(p, 0, {});
    }
    read_attr_dict_with_keyword(p);
    skip_ws();
    if (!at_word("cond")) fail(pos_, "expected 'cond'");
    // `cond` one column right of the op's own line: StableHLO's printer before July 2025.
    p.alternative = column_of(pos_) == indentation_of_line(op_start_) + 1;
    pos_ += 4;
    skip_ws();
    if (peek() != '{') fail(pos_, "expected '{' to begin a region");
    read_custom_region(p, args);
    skip_ws();
    if (!at_word("do")) fail(pos_, "expected 'do'");
    pos_ += 2;
    skip_ws();
    if (peek() != '{') fail(pos_, "expected '{' to begin a region");
    read_custom_region(p, args);
    (void)s;
  }

  /// `(%x init: %i), ... [applies OP] across dimensions = [..] [{attrs}] : TYPE
  ///  [reducer(%a: T, %b: T) ... {...}]`.
  void read_reduce(const op_syntax& s, custom_parts& p) {
    const std::size_t start = pos_;
    for (;;) {
      skip_ws();
      if (peek() != '(') break;
      ++pos_;
      skip_ws();
      if (peek() != '%') fail(pos_, "expected SSA operand");
      p.operands[0].push_back(parse_ssa_use());
      skip_ws();
      if (!at_word("init")) fail(pos_, "expected 'init'");
      pos_ += 4;
      expect(':', "expected ':'");
      skip_ws();
      if (peek() != '%') fail(pos_, "expected SSA operand");
      p.operands[1].push_back(parse_ssa_use());
      expect(')', "expected ')'");
      skip_ws();
      if (peek() != ',') break;
      ++pos_;
    }
    if (p.operands[0].empty()) fail(start, "expected '(' and the operands of the reduce");
    skip_ws();
    std::string inner;
    std::size_t inner_at = 0;
    if (at_word("applies")) {
      pos_ += 7;
      skip_ws();
      inner_at = pos_;
      if (!mlir_is_bare_id_start(peek())) fail(pos_, "expected the name of the reducing op");
      inner = std::string(lex_bare_id());
      if (!is_commutative_binary(inner) || inner.substr(0, inner.find('.')) != dialect_of(s))
        fail(inner_at, "expected the inner-op to be a commutative binary-op from the " + dialect_of(s) +
                           " dialect, with zero region, producing single result");
      skip_ws();
    }
    if (!at_word("across")) fail(pos_, "expected 'across'");
    pos_ += 6;
    skip_ws();
    if (!at_word("dimensions")) fail(pos_, "expected 'dimensions'");
    pos_ += 10;
    expect('=', "expected '='");
    const std::size_t dims_at = pos_;
    set_inherent(s, 0, p, read_list_as(s.attributes[0]), dims_at);
    skip_ws();
    if (peek() == '{') read_attr_dict(p);
    expect(':', "expected ':'");
    skip_ws();
    const auto f = parse_function_type();
    const std::size_t n = p.operands[0].size();
    if (f.inputs.size() != 2 * n)
      fail(f.at, std::to_string(2 * n) + " operands present, but expected " + std::to_string(f.inputs.size()));
    set_operand_types(p, 0, std::vector<type_ref>(f.inputs.begin(), f.inputs.begin() + static_cast<std::ptrdiff_t>(n)));
    set_operand_types(p, 1, std::vector<type_ref>(f.inputs.begin() + static_cast<std::ptrdiff_t>(n), f.inputs.end()));
    set_result_types(p, 0, f.results);
    if (!inner.empty()) {
      const auto e = syntax_detail::tensor_element_type(m_.type_text(f.inputs[0]));
      if (e.empty()) fail(f.at, "expected a tensor type as the first input of the reduce");
      build_reducer_region(p, inner, m_.intern_type("tensor<" + e + ">"), inner_at);
      return;
    }
    skip_ws();
    if (!at_word("reducer")) fail(pos_, "expected 'reducer'");
    pos_ += 7;
    p.alternative = true;
    std::vector<region_arg> firsts, seconds;
    auto block_operand = [&](std::vector<region_arg>& into) { into.push_back(read_typed_region_arg()); };
    for (;;) {
      skip_ws();
      if (peek() != '(') break;
      ++pos_;
      block_operand(firsts);
      expect(',', "expected ','");
      block_operand(seconds);
      expect(')', "expected ')'");
    }
    for (auto& x : seconds) firsts.push_back(std::move(x));
    skip_ws();
    if (peek() != '{') fail(pos_, "expected '{' to begin a region");
    read_custom_region(p, firsts);
  }
  /// Whether `applies OP` may name `name`: a commutative binary elementwise op without regions
  /// (StableHLO's HLO_Commutative ops).
  std::size_t op_start_ = 0;

  static bool is_commutative_binary(std::string_view name) {
    const auto dot = name.find('.');
    if (dot == std::string_view::npos) return false;
    const auto k = name.substr(dot + 1);
    return k == "add" || k == "and" || k == "maximum" || k == "minimum" || k == "multiply" || k == "or" || k == "xor";
  }
};

}  // namespace neuronrw::ref::detail
