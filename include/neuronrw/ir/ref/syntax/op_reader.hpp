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
  [[nodiscard]] virtual bool read_custom_region(custom_parts& parts, std::span<const region_arg> args) = 0;
  /// Builds the region of a reduce written `applies OP`: one block with two `scalar` arguments,
  /// `%r = OP %a, %b` and `DIALECT.return %r`, as StableHLO's parser builds it.
  [[nodiscard]] virtual bool build_reducer_region(custom_parts& parts, std::string_view inner_op, type_ref scalar,
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
  [[nodiscard]] bool read_custom(const op_syntax& s, custom_parts& p, std::size_t name_at, std::size_t op_start) {
    start_parts(s, p);
    op_start_ = op_start;
    if (!s.special.empty()) return read_special(s, p, name_at);
    // An op of the table that its dialect prints only generic: MLIR's parser says the same.
    if (!s.has_format)
      return fail(name_at, "custom op '" + s.name + "' has no custom assembly form (write it in the generic form)");
    return read_elements(s, s.format, p);
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
  [[nodiscard]] bool read_region_arg_name(const char* what, region_arg& a) {
    skip_ws();
    if (peek() != '%') return fail(pos_, what);
    a = region_arg{};
    a.at = pos_;
    ++pos_;
    std::string_view name;
    NEURONRW_TRY(lex_suffix_id("expected SSA value name after '%'", name));
    a.name = std::string(name);
    if (peek() == '#') return fail(pos_, "expected a block argument name without a result number");
    return true;
  }
  /// `%name: T [loc]`.
  [[nodiscard]] bool read_typed_region_arg(region_arg& a) {
    NEURONRW_TRY(read_region_arg_name("expected SSA identifier", a));
    NEURONRW_TRY(expect(':', "expected ':'"));
    NEURONRW_TRY(parse_type(a.type));
    return parse_optional_loc(a.loc);
  }

  // ------------------------------------------------------------------ elements
  [[nodiscard]] bool read_elements(const op_syntax& s, const std::vector<syntax_detail::element>& es, custom_parts& p) {
    for (const auto& e : es) NEURONRW_TRY(read_element(s, e, p));
    return true;
  }

  bool at_literal(std::string_view text) {
    skip_ws();
    if (text.empty()) return true;
    if (mlir_is_bare_id_start(text.front())) return at_word(text);
    return src_.substr(pos_, text.size()) == text;
  }
  [[nodiscard]] bool expect_literal(std::string_view text) {
    if (!at_literal(text)) return fail(pos_, "expected '" + std::string(text) + "'");
    pos_ += text.size();
    return true;
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
              if (a.spelling == attr_spelling::enum_keyword) return mlir_is_bare_id_start(peek());
              if (a.spelling == attr_spelling::int_enum) {
                // Present only when the keyword is one of the cases, as ODS's
                // parseOptionalKeyword(&kw, {cases...}) decides: `arith.truncf %x fastmath<fast>`
                // has no rounding mode, and its `fastmath` belongs to the next group.
                if (!mlir_is_bare_id_start(peek())) return false;
                const std::size_t at = pos_;
                const auto w = lex_bare_id();
                pos_ = at;
                return std::find(a.cases.begin(), a.cases.end(), w) != a.cases.end();
              }
              if (a.spelling == attr_spelling::wrapped)
                return peek() == '<' || peek() == '{' || peek() == '[' || peek() == '(' || peek() == '#';
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

  [[nodiscard]] bool read_element(const op_syntax& s, const syntax_detail::element& e, custom_parts& p) {
    using syntax_detail::elem_kind;
    using syntax_detail::ref_kind;
    switch (e.kind) {
      case elem_kind::literal:
        return expect_literal(e.text);
      case elem_kind::space:
        return true;
      case elem_kind::value:
        switch (e.target.kind) {
          case ref_kind::operand:
            return read_operand_group(s, e.target.index, p);
          case ref_kind::attribute:
            return read_attribute(s, e.target.index, p);
          case ref_kind::region:
            return read_region_group(s, e.target.index, p);
          default:
            return fail(pos_, "'" + s.name + "': a result cannot be read here");
        }
      case elem_kind::operands:
        return read_all_operands(s, p);
      case elem_kind::attr_dict:
        skip_ws();
        if (peek() == '{') return read_attr_dict(p);
        return true;
      case elem_kind::attr_dict_kw:
        return read_attr_dict_with_keyword(p);
      case elem_kind::type:
        return read_type_directive(s, e.target, p);
      case elem_kind::functional_type:
        return read_functional_type(s, p);
      case elem_kind::custom:
        return read_custom_directive(s, e, p);
      case elem_kind::optional:
        if (group_present(s, e)) return read_elements(s, e.then_elems, p);
        return read_elements(s, e.else_elems, p);
    }
    return true;
  }

  [[nodiscard]] bool read_attr_dict(custom_parts& p) {
    std::vector<dict_entry> es;
    NEURONRW_TRY(parse_dict(es));
    for (auto& d : es) p.dictionary.push_back(std::move(d));
    return true;
  }
  /// `[attributes {...}]`.
  [[nodiscard]] bool read_attr_dict_with_keyword(custom_parts& p) {
    skip_ws();
    if (!at_word("attributes")) return true;
    pos_ += 10;
    skip_ws();
    if (peek() != '{') return fail(pos_, "expected '{' after 'attributes'");
    return read_attr_dict(p);
  }

  /// `%a` or, for a variadic group, `%a, %b, ...` (possibly none); a comma not followed by a
  /// value is left for the next element.
  [[nodiscard]] bool read_use_list(bool many, std::vector<ssa_use>& us) {
    us.clear();
    skip_ws();
    if (peek() != '%') {
      if (!many) return fail(pos_, "expected SSA operand");
      return true;
    }
    for (;;) {
      NEURONRW_TRY(parse_ssa_use(us.emplace_back()));
      if (!many) return true;
      const std::size_t save = pos_;  // a comma not followed by a value is the next element's
      if (!take_comma()) return true;
      skip_ws();
      if (peek() != '%') {
        pos_ = save;
        return true;
      }
    }
  }
  [[nodiscard]] bool read_operand_group(const op_syntax& s, std::uint32_t i, custom_parts& p) {
    const auto& d = s.operands[i];
    NEURONRW_TRY(read_use_list(d.variadic || d.optional, p.operands[i]));
    if (d.optional && p.operands[i].size() > 1) return fail(p.operands[i][1].at, "'" + s.name + "' takes at most one '" + d.name + "'");
    return true;
  }
  /// `operands`: every operand, distributed over the declared groups (one variadic at most).
  [[nodiscard]] bool read_all_operands(const op_syntax& s, custom_parts& p) {
    const std::size_t at = pos_;
    std::vector<ssa_use> us;
    NEURONRW_TRY(read_use_list(true, us));
    return distribute_operands(s, std::move(us), p, at);
  }
  [[nodiscard]] bool distribute_operands(const op_syntax& s, std::vector<ssa_use> us, custom_parts& p, std::size_t at) {
    std::size_t fixed = 0, variadic = 0;
    for (const auto& d : s.operands) (d.variadic || d.optional) ? ++variadic : ++fixed;
    if (us.size() < fixed || (variadic == 0 && us.size() != fixed) ||
        (variadic > 0 && (us.size() - fixed) % variadic != 0))
      return fail(at, "'" + s.name + "' expects " + std::to_string(fixed) + (variadic ? " or more" : "") + " operands, got " +
                   std::to_string(us.size()));
    std::size_t k = 0;
    for (std::size_t i = 0; i < s.operands.size(); ++i) {
      const auto& d = s.operands[i];
      std::size_t n = 1;
      if (d.variadic || d.optional) n = (us.size() - fixed) / variadic;
      if (d.optional && n > 1) return fail(at, "'" + s.name + "' takes at most one '" + d.name + "'");
      p.operands[i].assign(us.begin() + static_cast<std::ptrdiff_t>(k), us.begin() + static_cast<std::ptrdiff_t>(k + n));
      k += n;
    }
    return true;
  }

  [[nodiscard]] bool read_region_group(const op_syntax& s, std::uint32_t i, custom_parts& p) {
    const auto& d = s.regions[i];
    skip_ws();
    if (peek() != '{') return fail(pos_, "expected '{' to begin a region");
    for (;;) {
      NEURONRW_TRY(read_custom_region(p, {}));
      if (!d.variadic) return true;
      if (!take_comma()) return true;
      skip_ws();
      if (peek() != '{') return fail(pos_, "expected '{' to begin a region");
    }
  }

  // ------------------------------------------------------------------ attributes
  [[nodiscard]] bool read_integer_text(std::string& out) {
    skip_ws();
    const std::size_t b = pos_;
    if (peek() == '-') ++pos_;
    if (!parse_is_digit(peek())) return fail(pos_, "expected integer value");
    while (parse_is_digit(peek())) ++pos_;
    out = std::string(src_.substr(b, pos_ - b));
    return true;
  }
  /// `[` elements `]` where each element is read by `one` (`bool(std::string&)`, false on
  /// failure); `xs` gets the elements' texts.
  template <class One>
  [[nodiscard]] bool read_square_list(One one, std::vector<std::string>& xs) {
    skip_ws();
    if (peek() != '[') return fail(pos_, "expected '['");
    ++pos_;
    xs.clear();
    skip_ws();
    if (peek() == ']') {
      ++pos_;
      return true;
    }
    for (;;) {
      NEURONRW_TRY(one(xs.emplace_back()));
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ']') {
        ++pos_;
        return true;
      }
      return fail(pos_, "expected ',' or ']'");
    }
  }
  [[nodiscard]] bool read_bool_text(std::string& out) {
    skip_ws();
    if (at_word("true")) {
      pos_ += 4;
      out = "true";
      return true;
    }
    if (at_word("false")) {
      pos_ += 5;
      out = "false";
      return true;
    }
    return fail(pos_, "expected 'true' or 'false'");
  }
  /// `read_integer_text` / `read_bool_text` as the element reader of `read_square_list`.
  auto integer_reader() {
    return [this](std::string& x) { return read_integer_text(x); };
  }
  auto bool_reader() {
    return [this](std::string& x) { return read_bool_text(x); };
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
  [[nodiscard]] bool read_i64_array(std::string& out) {
    std::vector<std::string> xs;
    NEURONRW_TRY(read_square_list(integer_reader(), xs));
    out = array_text("i64", xs);
    return true;
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
  [[nodiscard]] bool read_list_as(const syntax_detail::attr_decl& a, std::string& out) {
    const bool boolean = a.spelling == attr_spelling::bool_array || a.spelling == attr_spelling::bool_elements;
    std::vector<std::string> xs;
    NEURONRW_TRY(read_square_list(
        [&](std::string& x) -> bool {
          skip_ws();
          if (boolean && (at_word("true") || at_word("false"))) return read_bool_text(x);
          NEURONRW_TRY(read_integer_text(x));
          if (boolean) x = x == "0" ? "false" : "true";
          return true;
        },
        xs));
    switch (a.spelling) {
      case attr_spelling::bool_array: out = array_text("i1", xs); break;
      case attr_spelling::i64_elements: out = elements_text("i64", xs); break;
      case attr_spelling::bool_elements: out = elements_text("i1", xs); break;
      default: out = array_text("i64", xs); break;
    }
    return true;
  }

  /// One attribute in its custom spelling; `out` gets its generic value.
  [[nodiscard]] bool read_attribute_value(const syntax_detail::attr_decl& a, std::string& out) {
    skip_ws();
    switch (a.spelling) {
      case attr_spelling::i64:
        NEURONRW_TRY(read_integer_text(out));
        out += " : i64";
        return true;
      case attr_spelling::i32:
        NEURONRW_TRY(read_integer_text(out));
        out += " : i32";
        return true;
      case attr_spelling::boolean:
        return read_bool_text(out);
      case attr_spelling::string: {
        if (peek() != '"') return fail(pos_, "expected string for '" + a.name + "'");
        const std::size_t b = pos_;
        NEURONRW_TRY(scan_string(pos_, pos_));
        out = std::string(src_.substr(b, pos_ - b));
        return true;
      }
      case attr_spelling::i64_array:
        return read_i64_array(out);
      case attr_spelling::bool_array: {
        std::vector<std::string> xs;
        NEURONRW_TRY(read_square_list(bool_reader(), xs));
        out = array_text("i1", xs);
        return true;
      }
      case attr_spelling::i64_elements:
      case attr_spelling::bool_elements:
        return read_list_as(a, out);
      case attr_spelling::enum_keyword: {
        if (!mlir_is_bare_id_start(peek())) return fail(pos_, "expected keyword for '" + a.name + "'");
        auto w = lex_bare_id();
        out = a.enum_prefix + std::string(w) + ">";
        return true;
      }
      case attr_spelling::int_enum: {
        const std::size_t at = pos_;
        if (mlir_is_bare_id_start(peek())) {
          const auto w = lex_bare_id();
          for (std::size_t i = 0; i < a.cases.size(); ++i)
            if (a.cases[i] == w) {
              out = std::to_string(i) + " : i32";
              return true;
            }
        }
        std::string all;
        for (const auto& c : a.cases) all += (all.empty() ? "" : ", ") + c;
        return fail(at, "expected one of [" + all + "] for '" + a.name + "'");
      }
      case attr_spelling::symbol: {
        if (peek() != '@') return fail(pos_, "expected symbol reference for '" + a.name + "'");
        const std::size_t b = pos_;
        ++pos_;
        std::string name;
        NEURONRW_TRY(parse_symbol_name(name));
        out = std::string(src_.substr(b, pos_ - b));
        return true;
      }
      case attr_spelling::symbol_name: {
        if (peek() != '@') return fail(pos_, "expected '@' and the symbol name for '" + a.name + "'");
        ++pos_;
        std::string name;
        NEURONRW_TRY(parse_symbol_name(name));
        out = mlir_string_literal(name);
        return true;
      }
      case attr_spelling::wrapped: {
        if (peek() == '#') return read_full_attribute(a, out);
        if (peek() != '<' && peek() != '{' && peek() != '[' && peek() != '(')
          return fail(pos_, "expected the value of '" + a.name + "'");
        const std::size_t b = pos_;
        NEURONRW_TRY(scan_balanced({}, true));
        out = a.enum_prefix + clean(b, pos_) + a.suffix;
        return true;
      }
      case attr_spelling::opaque:
        break;
    }
    const std::size_t b = pos_;
    NEURONRW_TRY(scan_balanced(",:{", false));
    out = clean(b, pos_);
    if (out.empty()) return fail(b, "expected attribute value for '" + a.name + "'");
    return true;
  }
  /// A dialect attribute written in full where the format prints it stripped
  /// (`sdy.mesh @m = #sdy.mesh<["x"=2]>`), as MLIR's parseCustomAttributeWithFallback reads
  /// it: kept as written when it is of the declared kind (`#sdy.mesh<...>`,
  /// `#sdy<manual_axes ...>`) or an alias (`#m`), an error for an attribute of another kind.
  [[nodiscard]] bool read_full_attribute(const syntax_detail::attr_decl& a, std::string& out) {
    const std::size_t b = pos_;
    ++pos_;
    while (!eof() && (mlir_is_bare_id_char(peek()) || peek() == '-')) ++pos_;
    if (pos_ == b + 1) return fail(b, "expected attribute name after '#'");
    const bool alias = peek() != '<';
    if (!alias) NEURONRW_TRY(scan_balanced({}, true));
    out = clean(b, pos_);
    if (alias && out.find('.') == std::string::npos) return true;
    // The kind: `#d.mnemonic`, or `#d<mnemonic` for an attribute printed inside its dialect's <>.
    auto kind = [](std::string_view t) {
      const auto open = t.find('<');
      auto head = t.substr(0, open);
      if (head.find('.') != std::string_view::npos || open == std::string_view::npos) return head;
      std::size_t e = open + 1;
      while (e < t.size() && mlir_is_bare_id_char(t[e])) ++e;
      return t.substr(0, e);
    };
    const std::string expected(kind(a.enum_prefix));
    if (kind(out) != expected || !out.ends_with(a.suffix))
      return fail(b, "invalid kind of attribute specified for '" + a.name + "' (expected " + expected +
                         (expected.find('<') != std::string::npos ? " ...>)" : "<...>)"));
    return true;
  }
  void set_inherent(const op_syntax& s, std::uint32_t i, custom_parts& p, std::string value, std::size_t at) {
    dict_entry d;
    d.name = s.attributes[i].name;
    d.value = std::move(value);
    d.name_at = d.value_at = at;
    p.inherent[i] = std::move(d);
  }
  [[nodiscard]] bool read_attribute(const op_syntax& s, std::uint32_t i, custom_parts& p) {
    skip_ws();
    const std::size_t at = pos_;
    std::string value;
    NEURONRW_TRY(read_attribute_value(s.attributes[i], value));
    set_inherent(s, i, p, std::move(value), at);
    return true;
  }

  // ------------------------------------------------------------------ types
  [[nodiscard]] bool read_type_list(std::vector<type_ref>& ts) {
    ts.clear();
    for (;;) {
      NEURONRW_TRY(parse_type(ts.emplace_back()));
      if (!take_comma()) return true;
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
  [[nodiscard]] bool read_type_directive(const op_syntax& s, syntax_detail::ref t, custom_parts& p) {
    using syntax_detail::ref_kind;
    skip_ws();
    switch (t.kind) {
      case ref_kind::operand: {
        const auto& d = s.operands[t.index];
        const bool many = d.variadic || d.optional;
        if (many && p.operands[t.index].empty()) {
          set_operand_types(p, t.index, {});
          return true;
        }
        std::vector<type_ref> ts;
        NEURONRW_TRY(many ? read_type_list(ts) : parse_type(ts.emplace_back()));
        set_operand_types(p, t.index, std::move(ts));
        return true;
      }
      case ref_kind::result: {
        const auto& d = s.results[t.index];
        std::vector<type_ref> ts;
        NEURONRW_TRY(d.variadic || d.optional ? read_type_list(ts) : parse_type(ts.emplace_back()));
        set_result_types(p, t.index, std::move(ts));
        return true;
      }
      case ref_kind::operands: {
        std::vector<type_ref> ts;
        std::size_t n = 0;
        for (auto& g : p.operands) n += g.size();
        if (n > 0) NEURONRW_TRY(read_type_list(ts));
        return assign_flat_operand_types(s, p, std::move(ts), pos_);
      }
      case ref_kind::results: {
        std::vector<type_ref> ts;
        NEURONRW_TRY(read_type_list(ts));
        return assign_flat_result_types(s, p, std::move(ts));
      }
      default:
        return fail(pos_, "'" + s.name + "': bad type directive");
    }
  }
  [[nodiscard]] bool assign_flat_operand_types(const op_syntax& s, custom_parts& p, std::vector<type_ref> ts, std::size_t at) {
    std::size_t n = 0;
    for (auto& g : p.operands) n += g.size();
    if (ts.size() != n)
      return fail(at, std::to_string(n) + " operands present, but expected " + std::to_string(ts.size()));
    std::size_t k = 0;
    for (std::uint32_t i = 0; i < s.operands.size(); ++i) {
      const auto m = p.operands[i].size();
      set_operand_types(p, i, std::vector<type_ref>(ts.begin() + static_cast<std::ptrdiff_t>(k),
                                                    ts.begin() + static_cast<std::ptrdiff_t>(k + m)));
      k += m;
    }
    return true;
  }
  [[nodiscard]] bool assign_flat_result_types(const op_syntax& s, custom_parts& p, std::vector<type_ref> ts) {
    // One variadic result group at most (as in every op of the table): it takes the rest.
    std::size_t fixed = 0;
    for (const auto& d : s.results) fixed += !(d.variadic || d.optional);
    if (ts.size() < fixed) return fail(pos_, "'" + s.name + "' expects " + std::to_string(fixed) + " result types");
    std::size_t k = 0;
    for (std::uint32_t i = 0; i < s.results.size(); ++i) {
      const auto& d = s.results[i];
      const std::size_t m = d.variadic || d.optional ? ts.size() - fixed : 1;
      set_result_types(p, i, std::vector<type_ref>(ts.begin() + static_cast<std::ptrdiff_t>(k),
                                                   ts.begin() + static_cast<std::ptrdiff_t>(k + m)));
      k += m;
    }
    return true;
  }
  [[nodiscard]] bool read_functional_type(const op_syntax& s, custom_parts& p) {
    function_type f;
    NEURONRW_TRY(parse_function_type(f));
    NEURONRW_TRY(assign_flat_operand_types(s, p, f.inputs, f.at));
    return assign_flat_result_types(s, p, f.results);
  }

  // ------------------------------------------------------------------ custom directives
  /// The argument `k` of directive `e`, an operand group's index (for type(...) args too).
  static std::uint32_t arg_index(const syntax_detail::element& e, std::size_t k) { return e.args[k].target.index; }

  /// Assigns the same-type form: `T` (every operand and the result have type T) or a function
  /// type. Operands are the directive's type($x) args but the last, which is the result.
  [[nodiscard]] bool read_same_operands_and_result_type(const syntax_detail::element& e, custom_parts& p) {
    skip_ws();
    const std::size_t at = pos_;
    type_ref t;
    NEURONRW_TRY(parse_type(t));
    const auto text = m_.type_text(t);
    std::vector<std::uint32_t> ops;
    for (std::size_t k = 0; k + 1 < e.args.size(); ++k)
      if (e.args[k].type && e.args[k].target.kind == syntax_detail::ref_kind::operand) ops.push_back(arg_index(e, k));
    const auto res = e.args.back().target.index;
    if (text.starts_with('(')) {
      // A function type: re-read it as one.
      pos_ = at;
      function_type f;
      NEURONRW_TRY(parse_function_type(f));
      std::size_t n = 0;
      for (auto i : ops) n += p.operands[i].size();
      if (f.inputs.size() != n)
        return fail(at, std::to_string(n) + " operands present, but expected " + std::to_string(f.inputs.size()));
      if (f.results.size() != 1) return fail(at, "expected single output");
      std::size_t k = 0;
      for (auto i : ops) {
        const auto m = p.operands[i].size();
        set_operand_types(p, i, std::vector<type_ref>(f.inputs.begin() + static_cast<std::ptrdiff_t>(k),
                                                      f.inputs.begin() + static_cast<std::ptrdiff_t>(k + m)));
        k += m;
      }
      set_result_types(p, res, {f.results[0]});
      return true;
    }
    for (auto i : ops) set_operand_types(p, i, std::vector<type_ref>(p.operands[i].size(), t));
    set_result_types(p, res, {t});
    return true;
  }

  [[nodiscard]] bool read_custom_directive(const op_syntax& s, const syntax_detail::element& e, custom_parts& p) {
    const std::string& n = e.text;
    if (n == "SameOperandsAndResultType" || n == "VariadicSameOperandsAndResultType")
      return read_same_operands_and_result_type(e, p);
    if (n == "VariadicOperandWithAttribute") {
      // `%a, %b, ` — every operand followed by a comma.
      const auto i = arg_index(e, 0);
      for (;;) {
        skip_ws();
        if (peek() != '%') break;
        NEURONRW_TRY(parse_ssa_use(p.operands[i].emplace_back()));
        NEURONRW_TRY(expect(',', "expected ','"));
      }
      return true;
    }
    if (n == "TupleOpType") {
      skip_ws();
      const std::size_t at = pos_;
      type_ref t;
      NEURONRW_TRY(parse_type(t));
      const auto text = syntax_detail::resolve_type_alias(m_.type_text(t), m_.alias_definitions);
      if (!text.starts_with("tuple<")) return fail(at, "expected tuple type");
      std::vector<type_ref> elems;
      const std::string inner = text.substr(6, text.size() - 7);
      split_type_list(inner, elems);
      if (elems.size() != p.operands[arg_index(e, 0)].size())
        return fail(at, std::to_string(p.operands[arg_index(e, 0)].size()) + " operands present, but the tuple type has " +
                     std::to_string(elems.size()) + " elements");
      set_operand_types(p, arg_index(e, 0), std::move(elems));
      set_result_types(p, e.args[1].target.index, {t});
      return true;
    }
    if (n == "PairwiseOpType") {
      std::vector<type_ref> ts;
      NEURONRW_TRY(read_type_list(ts));
      if (ts.size() != p.operands[arg_index(e, 0)].size())
        return fail(pos_, std::to_string(p.operands[arg_index(e, 0)].size()) + " operands present, but expected " +
                       std::to_string(ts.size()));
      set_operand_types(p, arg_index(e, 0), ts);
      set_result_types(p, e.args[1].target.index, std::move(ts));
      return true;
    }
    if (n == "SelectOpType") {
      skip_ws();
      const std::size_t at = pos_;
      std::vector<type_ref> ts;
      NEURONRW_TRY(read_type_list(ts));
      if (ts.size() == 2) {
        set_operand_types(p, arg_index(e, 0), {ts[0]});
        set_operand_types(p, arg_index(e, 1), {ts[1]});
        set_operand_types(p, arg_index(e, 2), {ts[1]});
        set_result_types(p, e.args[3].target.index, {ts[1]});
        return true;
      }
      if (ts.size() != 1 || !m_.type_text(ts[0]).starts_with('(')) return fail(at, "expected functional type or list of two types");
      pos_ = at;
      return read_functional_type(s, p);
    }
    if (n == "ComplexOpType") {
      skip_ws();
      const std::size_t at = pos_;
      type_ref t;
      NEURONRW_TRY(parse_type(t));
      const auto text = std::string(m_.type_text(t));
      if (text.starts_with('(')) {
        pos_ = at;
        return read_functional_type(s, p);
      }
      const auto real = real_type_of(text);
      if (!real) return fail(at, "expected tensor with complex element type");
      const auto r = m_.intern_type(*real);
      set_operand_types(p, arg_index(e, 0), {r});
      set_operand_types(p, arg_index(e, 1), {r});
      set_result_types(p, e.args[2].target.index, {t});
      return true;
    }
    if (n == "SliceRanges") {
      return read_slice_ranges(s, e, p);
    }
    if (n == "CustomCallTarget") {
      skip_ws();
      if (peek() != '@') return fail(pos_, "expected '@' and the custom call target");
      const std::size_t at = pos_;
      ++pos_;
      std::string target;
      NEURONRW_TRY(parse_symbol_name(target));
      set_inherent(s, arg_index(e, 0), p, mlir_string_literal(target), at);
      return true;
    }
    if (n == "ExponentMantissa") {
      skip_ws();
      const std::size_t at = pos_;
      if (!mlir_is_bare_id_start(peek())) return fail(at, "expected exponent mantissa in format e#m#");
      const auto w = lex_bare_id();
      const auto m = w.find('m');
      auto digits = [](std::string_view x) {
        return !x.empty() && x.size() < 10 && std::all_of(x.begin(), x.end(), [](char c) { return c >= '0' && c <= '9'; });
      };
      if (w.size() < 4 || w.front() != 'e' || m == std::string_view::npos || !digits(w.substr(1, m - 1)) || !digits(w.substr(m + 1)))
        return fail(at, "expected exponent mantissa in format e#m#, saw " + std::string(w));
      set_inherent(s, arg_index(e, 0), p, std::to_string(std::stoul(std::string(w.substr(1, m - 1)))) + " : i32", at);
      set_inherent(s, arg_index(e, 1), p, std::to_string(std::stoul(std::string(w.substr(m + 1)))) + " : i32", at);
      return true;
    }
    if (n == "DotDimensionNumbers") {
      return read_dot_dimension_numbers(s, e, p);
    }
    if (n == "PrecisionConfig" || n == "PrecisionConfigAndAlgorithm") {
      return read_precision_and_algorithm(s, e, p, n == "PrecisionConfigAndAlgorithm");
    }
    if (n == "StrippedTensorShardingPerValueAttr") {
      // `[<@mesh, [...]>, ...]` → `#sdy.sharding_per_value<[...]>`
      skip_ws();
      if (peek() != '[') return fail(pos_, "expected '['");
      const std::size_t b = pos_;
      NEURONRW_TRY(scan_balanced({}, true));
      set_inherent(s, arg_index(e, 0), p, "#" + dialect_of(s) + ".sharding_per_value<" + clean(b, pos_) + ">", b);
      return true;
    }
    if (n == "SingleBlockRegionNoBlockId") {
      // `(%a: T [loc], ...) { ops }`: the entry block's arguments, then its ops.
      NEURONRW_TRY(expect('(', "expected '('"));
      std::vector<region_arg> args;
      skip_ws();
      if (peek() != ')') {
        do NEURONRW_TRY(read_typed_region_arg(args.emplace_back()));
        while (take_comma());
      }
      NEURONRW_TRY(expect(')', "expected ')'"));
      skip_ws();
      if (peek() != '{') return fail(pos_, "expected '{' to begin a region");
      return read_custom_region(p, args);
    }
    if (n == "ConvolutionDimensions") return read_convolution_dimensions(s, e, p);
    if (n == "WindowAttributes") return read_window_attributes(s, e, p);
    return fail(pos_, "'" + s.name + "': custom directive '" + n + "' is not supported by the reference IR");
  }

  /// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` → `#D.conv<...>` (each list re-spaced as printed).
  [[nodiscard]] bool read_convolution_dimensions(const op_syntax& s, const syntax_detail::element& e, custom_parts& p) {
    skip_ws();
    const std::size_t at = pos_;
    auto dim_list = [&](std::vector<std::string>& xs) -> bool {
      skip_ws();
      if (peek() != '[') return fail(pos_, "expected '['");
      return read_square_list(
          [&](std::string& x) -> bool {
            skip_ws();
            const std::size_t b = pos_;
            while (!eof() && (mlir_is_bare_id_char(peek()))) ++pos_;
            if (b == pos_) return fail(pos_, "expected a dimension ('b', 'f', 'i', 'o' or a number)");
            x = std::string(src_.substr(b, pos_ - b));
            return true;
          },
          xs);
    };
    std::vector<std::string> lhs, rhs, out;
    NEURONRW_TRY(dim_list(lhs));
    skip_ws();
    if (peek() != 'x') return fail(pos_, "expected 'x'");
    ++pos_;
    NEURONRW_TRY(dim_list(rhs));
    skip_ws();
    if (!at_arrow()) return fail(pos_, "expected '->'");
    pos_ += 2;
    NEURONRW_TRY(dim_list(out));
    set_inherent(s, arg_index(e, 0), p,
                 "#" + dialect_of(s) + ".conv<[" + join(lhs) + "]x[" + join(rhs) + "]->[" + join(out) + "]>", at);
    return true;
  }

  /// `stride = [..], pad = [[l, h], ...], lhs_dilate = [..], rhs_dilate = [..], reverse = [..]`,
  /// each at most once, in any order.
  [[nodiscard]] bool read_window_attributes(const op_syntax& s, const syntax_detail::element& e, custom_parts& p) {
    static constexpr std::string_view names[] = {"stride", "pad", "lhs_dilate", "rhs_dilate", "reverse"};
    bool seen[5] = {false, false, false, false, false};
    for (;;) {
      skip_ws();
      if (!mlir_is_bare_id_start(peek())) return true;
      const std::size_t at = pos_;
      const auto w = lex_bare_id();
      std::size_t k = 0;
      while (k < 5 && names[k] != w) ++k;
      if (k == 5 || seen[k]) return fail(at, "Unexpected keyword " + std::string(w));
      seen[k] = true;
      NEURONRW_TRY(expect('=', "expected '='"));
      std::string value;
      if (k == 1) {
        std::vector<std::string> flat;
        std::size_t rows = 0;
        std::vector<std::string> none;  // the rows' texts: the pairs go to `flat`
        NEURONRW_TRY(read_square_list(
            [&](std::string&) -> bool {
              std::vector<std::string> pair;
              NEURONRW_TRY(read_square_list(integer_reader(), pair));
              if (pair.size() != 2)
                return fail(pos_, "Expected array with 2 elements, got " + std::to_string(pair.size()) +
                                      " elements instead");
              flat.push_back(pair[0]);
              flat.push_back(pair[1]);
              ++rows;
              return true;
            },
            none));
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
        NEURONRW_TRY(read_list_as(s.attributes[arg_index(e, k)], value));
      } else {
        NEURONRW_TRY(read_i64_array(value));
      }
      if (k < e.args.size()) set_inherent(s, arg_index(e, k), p, std::move(value), at);
      if (!take_comma()) return true;
    }
    return true;
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

  [[nodiscard]] bool read_slice_ranges(const op_syntax& s, const syntax_detail::element& e, custom_parts& p) {
    skip_ws();
    const std::size_t at = pos_;
    std::vector<std::string> start, limit, stride;
    if (peek() != '[') return fail(pos_, "expected '['");
    ++pos_;
    skip_ws();
    if (peek() != ']') {
      for (;;) {
        NEURONRW_TRY(read_integer_text(start.emplace_back()));
        NEURONRW_TRY(expect(':', "expected ':'"));
        NEURONRW_TRY(read_integer_text(limit.emplace_back()));
        skip_ws();
        if (peek() == ':') {
          ++pos_;
          NEURONRW_TRY(read_integer_text(stride.emplace_back()));
        } else {
          stride.push_back("1");
        }
        skip_ws();
        if (peek() == ']') break;
        NEURONRW_TRY(expect(',', "expected ',' or ']'"));
      }
    }
    ++pos_;
    set_inherent(s, arg_index(e, 0), p, array_text("i64", start), at);
    set_inherent(s, arg_index(e, 1), p, array_text("i64", limit), at);
    set_inherent(s, arg_index(e, 2), p, array_text("i64", stride), at);
    return true;
  }

  /// `[batching_dims = [..] x [..], ] contracting_dims = [..] x [..]` →
  /// `#D.dot<lhs_batching_dimensions = [..], rhs_batching_dimensions = [..], lhs_contracting_dimensions = [..], rhs_contracting_dimensions = [..]>`
  /// (empty lists left out, as the attribute prints itself).
  [[nodiscard]] bool read_dot_dimension_numbers(const op_syntax& s, const syntax_detail::element& e, custom_parts& p) {
    skip_ws();
    const std::size_t at = pos_;
    auto pair = [&](std::vector<std::string>& l, std::vector<std::string>& r) -> bool {
      NEURONRW_TRY(expect('=', "expected '='"));
      NEURONRW_TRY(read_square_list(integer_reader(), l));
      skip_ws();
      if (!at_word("x")) return fail(pos_, "expected 'x'");
      ++pos_;
      return read_square_list(integer_reader(), r);
    };
    std::vector<std::string> lb, rb, lc, rc;
    if (at_word("batching_dims")) {
      pos_ += 13;
      NEURONRW_TRY(pair(lb, rb));
      NEURONRW_TRY(expect(',', "expected ','"));
      skip_ws();
    }
    if (!at_word("contracting_dims")) return fail(pos_, "expected 'contracting_dims'");
    pos_ += 16;
    NEURONRW_TRY(pair(lc, rc));
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
    return true;
  }
  static std::string dialect_of(const op_syntax& s) { return s.name.substr(0, s.name.find('.')); }

  /// `[, precision = [DEFAULT, ...]] [, algorithm = <...>]`.
  [[nodiscard]] bool read_precision_and_algorithm(const op_syntax& s, const syntax_detail::element& e, custom_parts& p, bool algorithm) {
    if (!take_comma()) return true;
    skip_ws();
    const std::string d = dialect_of(s);
    auto read_algorithm = [&]() -> bool {
      const std::size_t at = pos_;
      pos_ += 9;
      NEURONRW_TRY(expect('=', "expected '='"));
      skip_ws();
      if (peek() != '<') return fail(pos_, "expected '<'");
      const std::size_t b = pos_;
      NEURONRW_TRY(scan_balanced({}, true));
      set_inherent(s, arg_index(e, 1), p, "#" + d + ".dot_algorithm" + clean(b, pos_), at);
      return true;
    };
    if (algorithm && at_word("algorithm")) return read_algorithm();
    if (!at_word("precision")) return fail(pos_, "expected 'precision'");
    const std::size_t at = pos_;
    pos_ += 9;
    NEURONRW_TRY(expect('=', "expected '='"));
    std::vector<std::string> xs;
    NEURONRW_TRY(read_square_list(
        [&](std::string& x) -> bool {
          skip_ws();
          if (!mlir_is_bare_id_start(peek())) return fail(pos_, "expected precision keyword");
          x = "#" + d + "<precision " + std::string(lex_bare_id()) + ">";
          return true;
        },
        xs));
    set_inherent(s, arg_index(e, 0), p, "[" + join(xs) + "]", at);
    if (!algorithm) return true;
    if (!take_comma()) return true;
    skip_ws();
    if (!at_word("algorithm")) return fail(pos_, "expected 'algorithm'");
    return read_algorithm();
  }

  // ------------------------------------------------------------------ hand-written forms
  [[nodiscard]] bool read_special(const op_syntax& s, custom_parts& p, std::size_t name_at) {
    if (s.special == "constant") return read_constant(s, p);
    if (s.special == "while") return read_while(s, p);
    if (s.special == "reduce") return read_reduce(s, p);
    if (s.special == "scan") return read_scan(s, p, name_at);
    return fail(name_at, "'" + s.name + "': no reader for the custom form '" + s.special + "'");
  }
  /// `[{attrs}] VALUE : TYPE` — the value attribute with its type; the result has that type (a
  /// bare `true` or `false` is of type i1).
  /// Or, as StableHLO prints a constant whose result type is not its value's (a quantized
  /// tensor of integers): `() [<{value = V}>] [{attrs}] : () -> TYPE`, the value a property or
  /// an entry of the dictionary.
  [[nodiscard]] bool read_constant(const op_syntax& s, custom_parts& p) {
    skip_ws();
    if (peek() == '(') {
      const std::size_t at = pos_;
      ++pos_;
      NEURONRW_TRY(expect(')', "expected ')'"));
      skip_ws();
      std::vector<dict_entry> props, attrs;
      if (peek() == '<') {
        ++pos_;
        skip_ws();
        if (peek() != '{') return fail(pos_, "expected '{' to begin the properties");
        NEURONRW_TRY(parse_dict(props));
        NEURONRW_TRY(expect('>', "expected '>' to close the properties"));
        skip_ws();
      }
      if (peek() == '{') NEURONRW_TRY(parse_dict(attrs));
      bool has_value = false;
      for (auto& e : merge_inherent(std::move(props), std::move(attrs), {"value"})) {
        if (e.name == "value" && !e.value.empty()) {
          set_inherent(s, 0, p, std::move(e.value), e.value_at);
          has_value = true;
        } else {
          p.dictionary.push_back(std::move(e));
        }
      }
      if (!has_value) return fail(at, "'" + s.name + "' op requires attribute 'value'");
      NEURONRW_TRY(expect(':', "expected ':'"));
      NEURONRW_TRY(expect('(', "expected '('"));
      NEURONRW_TRY(expect(')', "expected ')'"));
      skip_ws();
      if (!at_arrow()) return fail(pos_, "expected '->'");
      pos_ += 2;
      type_ref t;
      NEURONRW_TRY(parse_type(t));
      set_result_types(p, 0, {t});
      return true;
    }
    if (peek() == '{') {
      NEURONRW_TRY(read_attr_dict(p));
      skip_ws();
    }
    const std::size_t b = pos_;
    // `true` / `false` without a type: MLIR's boolean attribute, of type i1 (`arith.constant true`).
    if (at_word("true") || at_word("false")) {
      const bool t = at_word("true");
      const std::size_t end = b + (t ? 4 : 5);
      pos_ = end;
      skip_ws();
      const bool typed = !eof() && peek() == ':';
      pos_ = typed ? b : end;
      if (!typed) {
        set_inherent(s, 0, p, t ? "true" : "false", b);
        set_result_types(p, 0, {m_.intern_type("i1")});
        return true;
      }
    }
    if (eof() || peek() == ':' || peek() == '}' || peek() == ')' || peek() == ']' || peek() == '>')
      return fail(pos_, "expected attribute value");
    // dense<...>, sparse<...>, #d.x<...>, a number: balanced text up to ':' at the top level
    // (a ',' there ends an attribute: the value would not be one).
    NEURONRW_TRY(scan_balanced(":,", false));
    const std::size_t value_end = pos_;
    if (peek() != ':' || eof()) return fail(pos_, "expected ':' and the type of the constant");
    ++pos_;
    type_ref t;
    NEURONRW_TRY(parse_type(t));
    set_inherent(s, 0, p, clean(b, value_end) + " : " + std::string(m_.type_text(t)), b);
    set_result_types(p, 0, {t});
    return true;
  }
  /// `(%iterArg = %x, ...) : T, ... [attributes {...}] cond {...} do {...}`.
  [[nodiscard]] bool read_while(const op_syntax& s, custom_parts& p) {
    NEURONRW_TRY(expect('(', "expected '('"));
    std::vector<region_arg> args;
    skip_ws();
    if (peek() != ')') {
      for (;;) {
        region_arg a;
        NEURONRW_TRY(read_region_arg_name("expected SSA operand", a));
        NEURONRW_TRY(expect('=', "expected '='"));
        skip_ws();
        if (peek() != '%') return fail(pos_, "expected SSA operand");
        NEURONRW_TRY(parse_ssa_use(p.operands[0].emplace_back()));
        args.push_back(std::move(a));
        skip_ws();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        break;
      }
    }
    NEURONRW_TRY(expect(')', "expected ')'"));
    if (!args.empty()) {
      NEURONRW_TRY(expect(':', "expected ':'"));
      skip_ws();
      const std::size_t at = pos_;
      std::vector<type_ref> ts;
      NEURONRW_TRY(read_type_list(ts));
      if (ts.size() != args.size())
        return fail(at, std::to_string(args.size()) + " operands present, but expected " + std::to_string(ts.size()));
      for (std::size_t i = 0; i < ts.size(); ++i) args[i].type = ts[i];
      set_operand_types(p, 0, ts);
      set_result_types(p, 0, std::move(ts));
    } else {
      set_operand_types(p, 0, {});
      set_result_types(p, 0, {});
    }
    NEURONRW_TRY(read_attr_dict_with_keyword(p));
    skip_ws();
    if (!at_word("cond")) return fail(pos_, "expected 'cond'");
    // `cond` one column right of the op's own line: StableHLO's printer before July 2025.
    p.alternative = column_of(pos_) == indentation_of_line(op_start_) + 1;
    pos_ += 4;
    skip_ws();
    if (peek() != '{') return fail(pos_, "expected '{' to begin a region");
    NEURONRW_TRY(read_custom_region(p, args));
    skip_ws();
    if (!at_word("do")) return fail(pos_, "expected 'do'");
    pos_ += 2;
    skip_ws();
    if (peek() != '{') return fail(pos_, "expected '{' to begin a region");
    NEURONRW_TRY(read_custom_region(p, args));
    (void)s;
    return true;
  }

  /// `(%x init: %i), ... [applies OP] across dimensions = [..] [{attrs}] : TYPE
  ///  [reducer(%a: T, %b: T) ... {...}]`.
  [[nodiscard]] bool read_reduce(const op_syntax& s, custom_parts& p) {
    const std::size_t start = pos_;
    for (;;) {
      skip_ws();
      if (peek() != '(') break;
      ++pos_;
      skip_ws();
      if (peek() != '%') return fail(pos_, "expected SSA operand");
      NEURONRW_TRY(parse_ssa_use(p.operands[0].emplace_back()));
      skip_ws();
      if (!at_word("init")) return fail(pos_, "expected 'init'");
      pos_ += 4;
      NEURONRW_TRY(expect(':', "expected ':'"));
      skip_ws();
      if (peek() != '%') return fail(pos_, "expected SSA operand");
      NEURONRW_TRY(parse_ssa_use(p.operands[1].emplace_back()));
      NEURONRW_TRY(expect(')', "expected ')'"));
      skip_ws();
      if (peek() != ',') break;
      ++pos_;
    }
    if (p.operands[0].empty()) return fail(start, "expected '(' and the operands of the reduce");
    skip_ws();
    std::string inner;
    std::size_t inner_at = 0;
    if (at_word("applies")) {
      pos_ += 7;
      skip_ws();
      inner_at = pos_;
      if (!mlir_is_bare_id_start(peek())) return fail(pos_, "expected the name of the reducing op");
      inner = std::string(lex_bare_id());
      if (!is_commutative_binary(inner) || inner.substr(0, inner.find('.')) != dialect_of(s))
        return fail(inner_at, "expected the inner-op to be a commutative binary-op from the " + dialect_of(s) +
                           " dialect, with zero region, producing single result");
      skip_ws();
    }
    if (!at_word("across")) return fail(pos_, "expected 'across'");
    pos_ += 6;
    skip_ws();
    if (!at_word("dimensions")) return fail(pos_, "expected 'dimensions'");
    pos_ += 10;
    NEURONRW_TRY(expect('=', "expected '='"));
    const std::size_t dims_at = pos_;
    std::string dims;
    NEURONRW_TRY(read_list_as(s.attributes[0], dims));
    set_inherent(s, 0, p, std::move(dims), dims_at);
    skip_ws();
    if (peek() == '{') NEURONRW_TRY(read_attr_dict(p));
    NEURONRW_TRY(expect(':', "expected ':'"));
    skip_ws();
    function_type f;
    NEURONRW_TRY(parse_function_type(f));
    const std::size_t n = p.operands[0].size();
    if (f.inputs.size() != 2 * n)
      return fail(f.at, std::to_string(2 * n) + " operands present, but expected " + std::to_string(f.inputs.size()));
    set_operand_types(p, 0, std::vector<type_ref>(f.inputs.begin(), f.inputs.begin() + static_cast<std::ptrdiff_t>(n)));
    set_operand_types(p, 1, std::vector<type_ref>(f.inputs.begin() + static_cast<std::ptrdiff_t>(n), f.inputs.end()));
    set_result_types(p, 0, f.results);
    if (!inner.empty()) {
      const auto e = syntax_detail::tensor_element_type(m_.type_text(f.inputs[0]));
      if (e.empty()) return fail(f.at, "expected a tensor type as the first input of the reduce");
      return build_reducer_region(p, inner, m_.intern_type("tensor<" + e + ">"), inner_at);
    }
    skip_ws();
    if (!at_word("reducer")) return fail(pos_, "expected 'reducer'");
    pos_ += 7;
    p.alternative = true;
    std::vector<region_arg> firsts, seconds;
    for (;;) {
      skip_ws();
      if (peek() != '(') break;
      ++pos_;
      NEURONRW_TRY(read_typed_region_arg(firsts.emplace_back()));
      NEURONRW_TRY(expect(',', "expected ','"));
      NEURONRW_TRY(read_typed_region_arg(seconds.emplace_back()));
      NEURONRW_TRY(expect(')', "expected ')'"));
    }
    for (auto& x : seconds) firsts.push_back(std::move(x));
    skip_ws();
    if (peek() != '{') return fail(pos_, "expected '{' to begin a region");
    return read_custom_region(p, firsts);
  }
  /// CHLO's scan: `(INPUTS) inits (INITS) dimension = N [attributes {...}] {REGION} : FNTYPE`,
  /// the function type's inputs the inputs' then the inits' types, its results the outputs'
  /// then one per init (the carries). Stored as the generic op: `dimension = N : i64` and the
  /// two segment sizes StableHLO's parser adds (`operandSegmentSizes`, `resultSegmentSizes`).
  [[nodiscard]] bool read_scan(const op_syntax& s, custom_parts& p, std::size_t name_at) {
    auto index_of = [&](std::string_view n) {
      std::uint32_t i = 0;
      while (i < s.attributes.size() && s.attributes[i].name != n) ++i;
      return i;
    };
    const std::uint32_t dimension = index_of("dimension"), operand_segments = index_of("operandSegmentSizes"),
                        result_segments = index_of("resultSegmentSizes");
    if (s.operands.size() != 2 || s.results.size() != 2 || result_segments >= s.attributes.size() ||
        operand_segments >= s.attributes.size() || dimension >= s.attributes.size())
      return fail(name_at, "'" + s.name + "': the table's entry does not fit the scan form");
    auto operand_list = [&](std::vector<ssa_use>& us) -> bool {
      NEURONRW_TRY(expect('(', "expected '('"));
      NEURONRW_TRY(read_use_list(true, us));
      return expect(')', "expected ')'");
    };
    NEURONRW_TRY(operand_list(p.operands[0]));
    skip_ws();
    if (!at_word("inits")) return fail(pos_, "expected 'inits'");
    pos_ += 5;
    NEURONRW_TRY(operand_list(p.operands[1]));
    skip_ws();
    if (!at_word("dimension")) return fail(pos_, "expected 'dimension'");
    pos_ += 9;
    NEURONRW_TRY(expect('=', "expected '='"));
    NEURONRW_TRY(read_attribute(s, dimension, p));
    NEURONRW_TRY(read_attr_dict_with_keyword(p));
    skip_ws();
    if (peek() != '{') return fail(pos_, "expected '{' to begin a region");
    NEURONRW_TRY(read_custom_region(p, {}));
    NEURONRW_TRY(expect(':', "expected ':'"));
    skip_ws();
    function_type f;
    NEURONRW_TRY(parse_function_type(f));
    const std::size_t inputs = p.operands[0].size(), inits = p.operands[1].size();
    if (f.inputs.size() != inputs + inits)
      return fail(name_at, "operand types must match the number of inputs and inits");
    if (f.results.size() < inits) return fail(name_at, "not enough result types to cover the required carries");
    const auto at = [](const std::vector<type_ref>& ts, std::size_t b, std::size_t e) {
      return std::vector<type_ref>(ts.begin() + static_cast<std::ptrdiff_t>(b), ts.begin() + static_cast<std::ptrdiff_t>(e));
    };
    const std::size_t outputs = f.results.size() - inits;
    set_operand_types(p, 0, at(f.inputs, 0, inputs));
    set_operand_types(p, 1, at(f.inputs, inputs, inputs + inits));
    set_result_types(p, 0, at(f.results, 0, outputs));
    set_result_types(p, 1, at(f.results, outputs, outputs + inits));
    auto segments = [](std::size_t a, std::size_t b) {
      return "array<i32: " + std::to_string(a) + ", " + std::to_string(b) + ">";
    };
    set_inherent(s, operand_segments, p, segments(inputs, inits), name_at);
    set_inherent(s, result_segments, p, segments(outputs, inits), name_at);
    return true;
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
