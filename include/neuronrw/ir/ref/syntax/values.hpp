// neuronrw/ir/ref/syntax/values.hpp — the type and attribute reader of the reference IR's text
// reader: types and function types (kept as opaque balanced text, interned in the module),
// attribute dictionaries, symbol names, string values, and SSA uses and operand lists.
//
// Customization points: none.
//
// Design: one layer over `lexer`; values are opaque balanced text, so no type system is needed
// and printing the text back is a fixed point. What a value means is decided by the layer that
// reads it (the op-syntax interpreter for inherent attributes, the module reader for func.*).
// Every reader that can fail returns `bool` and writes its result to an out-parameter (see
// lexer.hpp and neuronrw/detail/try.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/string_literal.hpp>
#include <neuronrw/ir/ref/syntax/lexer.hpp>
#include <neuronrw/ir/ref/mlir_string.hpp>

namespace neuronrw::ref::detail {

/// Types, attributes and SSA uses, read into (and interned in) the module `m_`.
class value_reader : public lexer {
 public:
  value_reader(std::string_view text, std::string_view file, const parse_options& options)
      : lexer(text, file, options) {}

 protected:
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

  // ------------------------------------------------------------------ types
  [[nodiscard]] bool scan_word_type() {
    if (!parse_is_type_start(peek())) return fail(pos_, "expected type");
    while (!eof() && parse_is_type_char(src_[pos_])) ++pos_;
    if (peek() == '<') return scan_balanced({}, true);
    return true;
  }
  /// One type: `i32`, `tensor<...>`, `!d.t<...>`, `(A, B)` or a function type `(A) -> B`.
  [[nodiscard]] bool parse_type(type_ref& out) {
    skip_ws();
    const std::size_t b = pos_;
    if (peek() == '(') {
      NEURONRW_TRY(scan_balanced({}, true));
      const std::size_t after = pos_;
      skip_ws();
      if (at_arrow()) {
        pos_ += 2;
        skip_ws();
        if (peek() == '(')
          NEURONRW_TRY(scan_balanced({}, true));
        else
          NEURONRW_TRY(scan_word_type());
      } else {
        pos_ = after;
      }
    } else {
      NEURONRW_TRY(scan_word_type());
    }
    auto t = clean(b, pos_);
    if (t.find("#stablehlo.type_extensions<") != std::string::npos) t = stablehlo_bounds_spelling(std::move(t));
    out = m_.intern_type(t);
    return true;
  }
  /// `#stablehlo.type_extensions<bounds = [3, ?]>` in a type as StableHLO prints it (and so
  /// compares it): `#stablehlo.bounds<3, ?>`. Anything else is left as written.
  static std::string stablehlo_bounds_spelling(std::string t) {
    static constexpr std::string_view head = "#stablehlo.type_extensions<";
    for (std::size_t at = t.find(head); at != std::string::npos; at = t.find(head, at + 1)) {
      std::size_t i = at + head.size();
      auto skip = [&] {
        while (i < t.size() && t[i] == ' ') ++i;
      };
      skip();
      if (t.compare(i, 6, "bounds") != 0) continue;
      i += 6;
      skip();
      if (i >= t.size() || t[i] != '=') continue;
      ++i;
      skip();
      if (i >= t.size() || t[i] != '[') continue;
      const std::size_t close = t.find(']', i);
      if (close == std::string::npos) continue;
      std::size_t end = close + 1;
      while (end < t.size() && t[end] == ' ') ++end;
      if (end >= t.size() || t[end] != '>') continue;
      std::string bounds;
      bool ok = true;
      std::string_view list(t.data() + i + 1, close - i - 1);
      while (ok && !list.empty()) {
        const auto comma = list.find(',');
        auto x = list.substr(0, comma);
        while (!x.empty() && x.front() == ' ') x.remove_prefix(1);
        while (!x.empty() && x.back() == ' ') x.remove_suffix(1);
        ok = x == "?" || (!x.empty() && std::all_of(x.begin(), x.end(), [](char c) { return c >= '0' && c <= '9'; }));
        if (!bounds.empty()) bounds += ", ";
        bounds += x;
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
      }
      if (!ok) continue;
      t.replace(at, end + 1 - at, "#stablehlo.bounds<" + bounds + ">");
    }
    return t;
  }
  /// `(` [type (`,` type)*] `)`, the cursor on '('.
  [[nodiscard]] bool parse_paren_type_list(std::vector<type_ref>& ts) {
    ++pos_;
    ts.clear();
    skip_ws();
    if (peek() == ')') {
      ++pos_;
      return true;
    }
    for (;;) {
      NEURONRW_TRY(parse_type(ts.emplace_back()));
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ')') {
        ++pos_;
        return true;
      }
      return fail(pos_, "expected ',' or ')' in type list");
    }
  }
  /// `(A, B) -> R` or `(A) -> (R1, R2)`.
  [[nodiscard]] bool parse_function_type(function_type& f) {
    skip_ws();
    f = function_type{};
    f.at = pos_;
    if (peek() != '(') return fail(pos_, "expected '(' to begin a function type");
    NEURONRW_TRY(parse_paren_type_list(f.inputs));
    skip_ws();
    if (!at_arrow()) return fail(pos_, "expected '->' in function type");
    pos_ += 2;
    skip_ws();
    if (peek() == '(') return parse_paren_type_list(f.results);
    return parse_type(f.results.emplace_back());
  }

  // ------------------------------------------------------------------ attributes and symbols
  /// `{` [entry (`,` entry)*] `}`, the cursor on '{'. Entry: name [`=` value].
  [[nodiscard]] bool parse_dict(std::vector<dict_entry>& es) {
    es.clear();
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
      return true;
    }
    for (;;) {
      skip_ws();
      dict_entry e;
      e.name_at = pos_;
      if (peek() == '"') {
        std::size_t end = 0;
        NEURONRW_TRY(scan_string(pos_, end));
        const auto raw = src_.substr(pos_, end - pos_);
        const auto inner = raw.substr(1, raw.size() - 2);
        e.name = std::string(mlir_is_bare_id(inner) ? inner : raw);
        pos_ = end;
      } else if (mlir_is_bare_id_start(peek())) {
        e.name = std::string(lex_bare_id());
      } else {
        return fail(pos_, "expected attribute name");
      }
      if (duplicate(e.name))
        return fail(e.name_at, "duplicate key '" + e.name + "' in dictionary attribute");
      skip_ws();
      if (peek() == '=') {
        ++pos_;
        skip_ws();
        e.value_at = pos_;
        NEURONRW_TRY(scan_balanced(",}", false));
        e.value_end = pos_;
        e.value = clean(e.value_at, pos_);
        if (e.value.empty()) return fail(e.value_at, "expected attribute value");
      }
      es.push_back(std::move(e));
      if (peek() == ',' && !eof()) {
        ++pos_;
        continue;
      }
      if (peek() == '}' && !eof()) {
        ++pos_;
        return true;
      }
      return fail(pos_, "expected ',' or '}' in attribute dictionary");
    }
  }
  static std::vector<attribute> to_attributes(std::vector<dict_entry>&& es) {
    std::vector<attribute> as;
    as.reserve(es.size());
    for (auto& e : es) as.push_back(attribute{std::move(e.name), std::move(e.value)});
    return as;
  }

  /// After `@`: a bare-id, or a string literal (stored as its plain value).
  [[nodiscard]] bool parse_symbol_name(std::string& out) {
    if (peek() == '"') {
      std::size_t end = 0;
      NEURONRW_TRY(scan_string(pos_, end, "symbol name"));
      const auto raw = src_.substr(pos_, end - pos_);
      auto value = unquote(raw);  // symbol names are stored as their plain value
      if (!value) return fail(pos_, "invalid escape in symbol name");
      pos_ = end;
      out = std::move(*value);
      return true;
    }
    if (!mlir_is_bare_id_start(peek())) return fail(pos_, "expected valid '@'-identifier for symbol name");
    out = std::string(lex_bare_id());
    return true;
  }
  /// The value of `e` (re-read from the source) is exactly one flat symbol reference (`@f`, not
  /// `@f::@g`), as a func.call's callee must be.
  [[nodiscard]] bool check_flat_symbol_ref_value(const dict_entry& e) {
    const std::size_t save = pos_;
    pos_ = e.value_at;
    if (peek() != '@') return fail(pos_, "expected a symbol reference for '" + e.name + "'");
    std::string callee;
    NEURONRW_TRY(parse_flat_callee(callee));
    skip_ws();
    if (pos_ < e.value_end) return fail(pos_, "unexpected text after the symbol reference");
    pos_ = save;
    return true;
  }
  /// `@f`, the cursor on '@'; `out` is its text. A nested reference (`@f::@g`) is an error: a
  /// func.call's callee is a flat symbol reference.
  [[nodiscard]] bool parse_flat_callee(std::string& out) {
    const std::size_t at = pos_;
    ++pos_;
    std::string name;
    NEURONRW_TRY(parse_symbol_name(name));
    if (peek() == ':' && peek(1) == ':' && peek(2) == '@')
      return fail(at, "'func.call' op attribute 'callee' failed to satisfy constraint: flat symbol reference attribute");
    out = std::string(src_.substr(at, pos_ - at));
    return true;
  }
  /// mlir-opt's message for an `arg_attrs` / `res_attrs` array (`what`: "argument" / "result")
  /// of the wrong length; returns false.
  bool fail_attr_array_size(std::size_t at, std::string_view what, std::size_t got, std::size_t expected) {
    const std::string w(what);
    return fail(at, "'func.func' op expects " + w + " attribute array to have the same number of elements as the "
                    "number of function " + w + "s, got " + std::to_string(got) + ", but expected " +
                    std::to_string(expected));
  }
  /// `no_inline` of func.func and func.call is a unit attribute: bare, `= unit`, or an alias.
  [[nodiscard]] bool check_unit_value(const dict_entry& e, std::string_view op_name) {
    if (!is_unit_value(e))
      return fail(e.value_at, "'" + std::string(op_name) + "' op attribute '" + e.name +
                                  "' failed to satisfy constraint: unit attribute");
    return true;
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
  [[nodiscard]] bool string_value(const dict_entry& e, std::string& out) {
    const std::size_t save = pos_;
    pos_ = e.value_at;
    if (peek() != '"') return fail(pos_, "expected a string for '" + e.name + "'");
    NEURONRW_TRY(scan_string(pos_, pos_));
    std::string raw(src_.substr(e.value_at, pos_ - e.value_at));
    skip_ws();
    if (pos_ < e.value_end) return fail(pos_, "unexpected text after the string");
    pos_ = save;
    out = std::move(raw);
    return true;
  }
  /// A symbol name given as a string, stored as its plain value, as in `parse_symbol_name`.
  [[nodiscard]] bool symbol_from_string(const dict_entry& e, std::string& out) {
    std::string raw;
    NEURONRW_TRY(string_value(e, raw));
    auto value = unquote(raw);
    if (!value) return fail(e.name_at, "invalid escape in symbol name");
    out = std::move(*value);
    return true;
  }

  // ------------------------------------------------------------------ SSA names
  [[nodiscard]] bool parse_ssa_use(ssa_use& u) {
    u = ssa_use{};
    u.at = pos_;
    ++pos_;
    std::string_view name;
    NEURONRW_TRY(lex_suffix_id("expected SSA value name after '%'", name));
    u.name = std::string(name);
    if (peek() == '#') {
      ++pos_;
      NEURONRW_TRY(lex_number("expected result number after '#'", u.index));
    }
    u.spelled = std::string(src_.substr(u.at, pos_ - u.at));
    return true;
  }
  /// `(` [use (`,` use)*] `)`, the cursor on '('.
  [[nodiscard]] bool parse_operand_list(std::vector<ssa_use>& us) {
    us.clear();
    ++pos_;
    skip_ws();
    if (peek() == ')') {
      ++pos_;
      return true;
    }
    for (;;) {
      skip_ws();
      if (peek() != '%') return fail(pos_, "expected SSA operand");
      NEURONRW_TRY(parse_ssa_use(us.emplace_back()));
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ')') {
        ++pos_;
        return true;
      }
      return fail(pos_, "expected ',' or ')' in operand list");
    }
  }

  type_ref placeholder_type_;
  module m_;
};

}  // namespace neuronrw::ref::detail
