// neuronrw/ir/ref/syntax/op_printer.hpp — the printing half of the op-syntax interpreter: an op
// of the syntax table printed in its dialect's custom form from its generic data (operands,
// result types, attributes in generic spelling), or generic with its inherent attributes as
// properties `<{...}>` as MLIR 22 prints registered ops.
//
// Customization points: none.
//
// Design: the format is run backwards over the op's data into a scratch string; an attribute
// whose generic value has no custom spelling (or a shape the form cannot express) makes the
// whole custom print fail, and the caller prints the op generic instead: nothing is lost.
// Spacing was decided when the format was compiled (op_syntax.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/syntax/lexer.hpp>
#include <neuronrw/ir/ref/syntax/op_syntax.hpp>
#include <neuronrw/ir/ref/mlir_string.hpp>

namespace neuronrw::ref::syntax_detail {

inline bool is_integer_text(std::string_view s) {
  if (s.starts_with('-')) s.remove_prefix(1);
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}
/// `array<ELEM: a, b>` → {a, b}; `array<ELEM>` → {}; nullopt otherwise.
inline std::optional<std::vector<std::string_view>> array_elements(std::string_view v, std::string_view elem) {
  const std::string head = "array<" + std::string(elem);
  if (!v.starts_with(head) || !v.ends_with('>')) return std::nullopt;
  auto rest = v.substr(head.size(), v.size() - head.size() - 1);
  std::vector<std::string_view> xs;
  if (rest.empty()) return xs;
  if (!rest.starts_with(": ")) return std::nullopt;
  rest.remove_prefix(2);
  for (;;) {
    const auto c = rest.find(", ");
    xs.push_back(rest.substr(0, c));
    if (c == std::string_view::npos) break;
    rest.remove_prefix(c + 2);
  }
  return xs;
}
inline std::string join_views(const std::vector<std::string_view>& xs) {
  std::string t;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (i) t += ", ";
    t += xs[i];
  }
  return t;
}

/// Whether `t` is exactly one string literal.
inline bool is_one_string(std::string_view t) {
  if (!t.starts_with('"')) return false;
  const auto scan = scan_mlir_string_literal(t, 0);
  return scan.terminated && scan.bad_escape == mlir_string_scan::npos && scan.end == t.size();
}
/// Whether `t` is exactly one bracketed group (`<...>`, `[...]`, `{...}`, `(...)`): its first
/// bracket closes at its last character (string literals skipped, `->` no bracket).
inline bool is_one_group(std::string_view t) {
  if (t.empty() || std::string_view("<[{(").find(t.front()) == std::string_view::npos) return false;
  std::size_t depth = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '"') {
      const auto scan = scan_mlir_string_literal(t, i);
      if (!scan.terminated) return false;
      i = scan.end - 1;
      continue;
    }
    if (c == '-' && i + 1 < t.size() && t[i + 1] == '>') {
      ++i;
      continue;
    }
    if (c == '<' || c == '[' || c == '{' || c == '(') ++depth;
    else if (c == '>' || c == ']' || c == '}' || c == ')') {
      if (depth == 0) return false;
      if (--depth == 0) return i + 1 == t.size();
    }
  }
  return false;
}
/// Whether `t` is `[` integers separated by `, ` `]` (possibly empty).
inline bool is_int_list(std::string_view t) {
  if (t.size() < 2 || t.front() != '[' || t.back() != ']') return false;
  auto rest = t.substr(1, t.size() - 2);
  if (rest.empty()) return true;
  for (;;) {
    const auto c = rest.find(", ");
    if (!is_integer_text(rest.substr(0, c))) return false;
    if (c == std::string_view::npos) return true;
    rest.remove_prefix(c + 2);
  }
}

/// `dense<...> : tensor<N x ELEM>` (1-D; a splat, a list, or empty) → its N elements.
inline std::optional<std::vector<std::string>> dense_elements(std::string_view v, std::string_view elem) {
  const std::string tail = "x" + std::string(elem) + ">";
  const auto colon = v.rfind("> : tensor<");
  if (!v.starts_with("dense<") || colon == std::string_view::npos || !v.ends_with(tail)) return std::nullopt;
  const auto body = v.substr(6, colon - 6);
  const auto count = v.substr(colon + 11, v.size() - colon - 11 - tail.size());
  if (count.empty() || count.size() > 4 || !std::all_of(count.begin(), count.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  const auto n = static_cast<std::size_t>(std::stoul(std::string(count)));
  std::vector<std::string> xs;
  if (body.empty()) {
    if (n != 0) return std::nullopt;
    return xs;
  }
  if (body.starts_with('[')) {
    if (!body.ends_with(']')) return std::nullopt;
    auto rest = body.substr(1, body.size() - 2);
    for (;;) {
      const auto c = rest.find(", ");
      xs.emplace_back(rest.substr(0, c));
      if (c == std::string_view::npos) break;
      rest.remove_prefix(c + 2);
    }
    if (xs.size() != n) return std::nullopt;
    return xs;
  }
  xs.assign(n, std::string(body));
  return xs;
}

/// The custom spelling of attribute `a`'s generic value `v`; nullopt when it has none.
inline std::optional<std::string> custom_spelling(const attr_decl& a, std::string_view v) {
  auto typed_int = [&](std::string_view suffix) -> std::optional<std::string> {
    if (!v.ends_with(suffix)) return std::nullopt;
    auto n = v.substr(0, v.size() - suffix.size());
    if (!is_integer_text(n)) return std::nullopt;
    return std::string(n);
  };
  switch (a.spelling) {
    case attr_spelling::i64:
      return typed_int(" : i64");
    case attr_spelling::i32:
      return typed_int(" : i32");
    case attr_spelling::boolean:
      if (v == "true" || v == "false") return std::string(v);
      return std::nullopt;
    case attr_spelling::string:
      if (is_one_string(v)) return std::string(v);
      return std::nullopt;
    case attr_spelling::i64_array: {
      auto xs = array_elements(v, "i64");
      if (!xs || !std::all_of(xs->begin(), xs->end(), is_integer_text)) return std::nullopt;
      return "[" + join_views(*xs) + "]";
    }
    case attr_spelling::bool_array: {
      auto xs = array_elements(v, "i1");
      if (!xs || !std::all_of(xs->begin(), xs->end(), [](std::string_view x) { return x == "true" || x == "false"; }))
        return std::nullopt;
      return "[" + join_views(*xs) + "]";
    }
    case attr_spelling::i64_elements: {
      auto xs = dense_elements(v, "i64");
      if (!xs || !std::all_of(xs->begin(), xs->end(), [](const std::string& x) { return is_integer_text(x); }))
        return std::nullopt;
      std::vector<std::string_view> views(xs->begin(), xs->end());
      return "[" + join_views(views) + "]";
    }
    case attr_spelling::bool_elements: {
      auto xs = dense_elements(v, "i1");
      if (!xs || !std::all_of(xs->begin(), xs->end(), [](const std::string& x) { return x == "true" || x == "false"; }))
        return std::nullopt;
      std::vector<std::string_view> views(xs->begin(), xs->end());
      return "[" + join_views(views) + "]";
    }
    case attr_spelling::enum_keyword: {
      if (!v.starts_with(a.enum_prefix) || !v.ends_with('>')) return std::nullopt;
      auto w = v.substr(a.enum_prefix.size(), v.size() - a.enum_prefix.size() - 1);
      if (!mlir_is_bare_id(w)) return std::nullopt;
      return std::string(w);
    }
    case attr_spelling::int_enum: {
      auto n = typed_int(" : i32");
      if (!n || n->front() == '-') return std::nullopt;
      for (std::size_t i = 0; i < a.cases.size(); ++i)
        if (*n == std::to_string(i)) return a.cases[i];
      return std::nullopt;
    }
    case attr_spelling::symbol: {
      // `@name` or `@"name"`, nothing more (a nested reference is not one symbol).
      if (!v.starts_with('@')) return std::nullopt;
      const auto name = v.substr(1);
      if (mlir_is_bare_id(name) || is_one_string(name)) return std::string(v);
      return std::nullopt;
    }
    case attr_spelling::symbol_name: {
      if (v.size() < 2 || v.front() != '"') return std::nullopt;
      auto plain = mlir_string_value(v);
      if (!plain) return std::nullopt;
      std::string t = "@";
      append_mlir_symbol_name(t, *plain);
      return t;
    }
    case attr_spelling::wrapped: {
      if (v.size() <= a.enum_prefix.size() + a.suffix.size() || !v.starts_with(a.enum_prefix) || !v.ends_with(a.suffix))
        return std::nullopt;
      auto inner = v.substr(a.enum_prefix.size(), v.size() - a.enum_prefix.size() - a.suffix.size());
      if (!is_one_group(inner)) return std::nullopt;
      return std::string(inner);
    }
    case attr_spelling::opaque:
      return std::string(v);
  }
  return std::nullopt;
}

/// Splits `[a, b], [c, d]`-like text at top-level `, `.
inline std::vector<std::string_view> split_top_level(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t depth = 0, b = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '[' || c == '<' || c == '(' || c == '{') ++depth;
    else if (c == ']' || c == '>' || c == ')' || c == '}') --depth;
    else if (c == ',' && depth == 0) {
      auto x = s.substr(b, i - b);
      while (!x.empty() && x.front() == ' ') x.remove_prefix(1);
      out.push_back(x);
      b = i + 1;
    }
  }
  auto x = s.substr(b);
  while (!x.empty() && x.front() == ' ') x.remove_prefix(1);
  if (!x.empty()) out.push_back(x);
  return out;
}

/// Prints ops of the syntax table. `P` is the module printer: it provides
/// `append_value(out, value)`, `print_region(out, block, indent)` (with the entry block's
/// arguments) and `print_region_body(out, block, indent)` (without them).
template <class P>
class op_form_printer {
 public:
  /// `all_custom`: every op of the table prints in its custom form (op_forms::custom), so a
  /// reduce body may print compact whatever form its ops were read in.
  op_form_printer(P& p, const module& m, const op_syntax& s, op_ref op, std::size_t indent, bool all_custom = false)
      : p_(p), m_(m), s_(s), op_(op), indent_(indent), all_custom_(all_custom) {}

  /// The custom form after the op name (with its leading space); false when the op's data has
  /// no custom spelling (the caller prints it generic).
  bool print_custom(std::string& out) {
    if (!s_.has_format) return false;
    if (s_.special == "scan") return print_scan(out);  // its groups are sized by its segment sizes
    if (!split_operands() || !split_results()) return false;
    if (!s_.special.empty()) return print_special(out);
    if (!untyped_groups_match()) return false;
    return elements(out, s_.format);
  }

  /// `<{inherent}>` of the generic form with properties: the table's inherent attributes,
  /// sorted by name as MLIR's dictionary prints them; "" when there are none.
  std::string properties_text() const {
    std::vector<const attribute*> xs;
    for (const auto& a : m_.attributes(op_))
      if (s_.is_inherent(a.name)) xs.push_back(&a);
    if (xs.empty()) return {};
    std::stable_sort(xs.begin(), xs.end(), [](const attribute* a, const attribute* b) { return a->name < b->name; });
    std::string t = "{";
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if (i) t += ", ";
      append_attr(t, *xs[i]);
    }
    return t + "}";
  }
  /// The discardable attributes (not inherent ones) as `{...}`; "" when there are none.
  std::string discardable_text() const {
    std::string t;
    for (const auto* a : sorted_attributes()) {
      if (s_.is_inherent(a->name)) continue;
      t += t.empty() ? "{" : ", ";
      append_attr(t, *a);
    }
    return t.empty() ? t : t + "}";
  }

 private:
  /// The op's attributes sorted by name: MLIR's attribute dictionaries are sorted, so a
  /// dialect's printer prints them so (stable: a name given twice keeps its order).
  std::vector<const attribute*> sorted_attributes() const {
    std::vector<const attribute*> xs;
    for (const auto& a : m_.attributes(op_)) xs.push_back(&a);
    std::stable_sort(xs.begin(), xs.end(), [](const attribute* a, const attribute* b) { return a->name < b->name; });
    return xs;
  }
  static void append_attr(std::string& t, const attribute& a) {
    t += a.name;
    if (!a.value.empty()) {
      t += " = ";
      t += a.value;
    }
  }
  const attribute* attr(std::uint32_t i) const { return m_.find_attribute(op_, s_.attributes[i].name); }
  /// Present and not equal to its declared default (ODS elides a default value).
  bool attr_present(std::uint32_t i) const {
    const auto* a = attr(i);
    return a != nullptr && (s_.attributes[i].default_value.empty() || a->value != s_.attributes[i].default_value);
  }

  // Operand and result groups of this op: one variadic (or optional) group takes the rest.
  bool split_operands() {
    return split(s_.operands, m_.num_operands(op_), operand_begin_);
  }
  bool split_results() {
    return split(s_.results, m_.num_results(op_), result_begin_);
  }
  /// Group boundaries of `n` values: variadic groups share what the fixed ones leave equally.
  static bool split(const std::vector<value_decl>& ds, std::size_t n, std::vector<std::size_t>& begin) {
    std::size_t fixed = 0, variadic = 0;
    for (const auto& d : ds) (d.variadic || d.optional) ? ++variadic : ++fixed;
    if (n < fixed || (variadic == 0 && n != fixed) || (variadic > 0 && (n - fixed) % variadic != 0)) return false;
    begin.assign(ds.size() + 1, 0);
    std::size_t k = 0;
    for (std::size_t i = 0; i < ds.size(); ++i) {
      begin[i] = k;
      const std::size_t m = ds[i].variadic || ds[i].optional ? (n - fixed) / variadic : 1;
      if (ds[i].optional && m > 1) return false;
      k += m;
    }
    begin[ds.size()] = k;
    return true;
  }
  std::size_t group_size(const std::vector<std::size_t>& b, std::uint32_t i) const { return b[i + 1] - b[i]; }
  /// A group whose types the format does not spell must have the types the reader will give it
  /// (op_syntax::operand_typed): the first result group's, or the first operand's.
  bool untyped_groups_match() const {
    for (std::uint32_t i = 0; i < s_.operands.size(); ++i) {
      if (s_.operand_typed[i] || group_size(operand_begin_, i) == 0) continue;
      bool ok = false;
      for (std::uint32_t r = 0; r < s_.results.size() && !ok; ++r) {
        if (group_size(result_begin_, r) != group_size(operand_begin_, i)) continue;
        ok = true;
        for (std::size_t k = 0; k < group_size(operand_begin_, i); ++k)
          ok = ok && operand_type(operand_begin_[i] + k) == result_type(result_begin_[r] + k);
      }
      if (!ok) return false;
    }
    for (std::uint32_t r = 0; r < s_.results.size(); ++r) {
      if (s_.result_typed[r] || group_size(result_begin_, r) == 0) continue;
      if (group_size(result_begin_, r) != 1 || m_.num_operands(op_) == 0) return false;
      if (result_type(result_begin_[r]) != operand_type(0)) return false;
    }
    return true;
  }

  void operands_of(std::string& out, std::uint32_t i) const {
    for (std::size_t k = operand_begin_[i]; k < operand_begin_[i + 1]; ++k) {
      if (k != operand_begin_[i]) out += ", ";
      p_.append_value(out, m_.operand(op_, k));
    }
  }
  void all_operands(std::string& out) const {
    for (std::size_t k = 0; k < m_.num_operands(op_); ++k) {
      if (k) out += ", ";
      p_.append_value(out, m_.operand(op_, k));
    }
  }
  std::string_view operand_type(std::size_t k) const { return m_.type_text(m_.operand(op_, k)); }
  std::string_view result_type(std::size_t k) const { return m_.type_text(m_.result(op_, k)); }
  void operand_types_of(std::string& out, std::uint32_t i) const {
    for (std::size_t k = operand_begin_[i]; k < operand_begin_[i + 1]; ++k) {
      if (k != operand_begin_[i]) out += ", ";
      out += operand_type(k);
    }
  }
  void result_types_of(std::string& out, std::uint32_t i) const {
    for (std::size_t k = result_begin_[i]; k < result_begin_[i + 1]; ++k) {
      if (k != result_begin_[i]) out += ", ";
      out += result_type(k);
    }
  }
  /// `(A, B) -> R` / `(A) -> (R1, R2)`: MLIR's printFunctionalType.
  void functional_type(std::string& out) const {
    out += '(';
    for (std::size_t k = 0; k < m_.num_operands(op_); ++k) {
      if (k) out += ", ";
      out += operand_type(k);
    }
    out += ") -> ";
    const auto n = m_.num_results(op_);
    const bool wrap = n != 1 || result_type(0).starts_with('(');
    if (wrap) out += '(';
    for (std::size_t k = 0; k < n; ++k) {
      if (k) out += ", ";
      out += result_type(k);
    }
    if (wrap) out += ')';
  }

  /// Names the format binds (ODS elides them from attr-dict, present or not).
  bool bound_by_format(std::string_view name) const {
    if (!s_.special.empty()) return special_bound(name);
    return bound_in(s_.format, name);
  }
  bool bound_in(const std::vector<element>& es, std::string_view name) const {
    for (const auto& e : es) {
      if (e.kind == elem_kind::value && e.target.kind == ref_kind::attribute && s_.attributes[e.target.index].name == name)
        return true;
      if (e.kind == elem_kind::custom)
        for (const auto& a : e.args)
          if (!a.type && a.target.kind == ref_kind::attribute && s_.attributes[a.target.index].name == name) return true;
      if (e.kind == elem_kind::optional && (bound_in(e.then_elems, name) || bound_in(e.else_elems, name))) return true;
    }
    return false;
  }
  bool special_bound(std::string_view name) const {
    if (s_.special == "constant") return name == "value";
    if (s_.special == "reduce") return name == "dimensions";
    if (s_.special == "scan") return name == "dimension" || name == "operandSegmentSizes" || name == "resultSegmentSizes";
    return false;
  }
  /// ` {a = 1, b}` of the attributes not bound by the format (a default-valued one equal to its
  /// default is left out, as ODS leaves it out).
  void attr_dict(std::string& out, bool keyword) const {
    std::string t;
    for (const auto* a : sorted_attributes()) {
      if (bound_by_format(a->name)) continue;
      if (const auto* d = s_.find_attribute(a->name); d != nullptr && !d->default_value.empty() && a->value == d->default_value)
        continue;
      t += t.empty() ? "{" : ", ";
      append_attr(t, *a);
    }
    if (t.empty()) return;
    out += keyword ? " attributes " : " ";
    out += t;
    out += '}';
  }

  /// Whether what `r` names holds something: a non-empty operand or result group, an attribute
  /// present (and not at its default), a region, any operand or result.
  bool holds(const ref& r) const {
    switch (r.kind) {
      case ref_kind::operand:
        return group_size(operand_begin_, r.index) > 0;
      case ref_kind::result:
        return group_size(result_begin_, r.index) > 0;
      case ref_kind::attribute:
        return attr_present(r.index);
      case ref_kind::region:
        return m_.num_regions(op_) > 0;
      case ref_kind::operands:
        return m_.num_operands(op_) > 0;
      case ref_kind::results:
        return m_.num_results(op_) > 0;
      default:
        return false;
    }
  }
  bool present(const element& g) const {
    const auto& a = g.then_elems[static_cast<std::size_t>(g.anchor)];
    switch (a.kind) {
      case elem_kind::value:
      case elem_kind::type:
        return holds(a.target);
      case elem_kind::custom:
        return !a.args.empty() && a.args[0].target.kind == ref_kind::attribute && attr_present(a.args[0].target.index);
      default:
        return false;
    }
  }
  /// Whether nothing `es` binds holds anything (holds), in nested groups too: a group left out
  /// must bind nothing, or the reader would not give the op back.
  bool nothing_bound_in(const std::vector<element>& es) const {
    for (const auto& e : es) {
      switch (e.kind) {
        case elem_kind::value:
        case elem_kind::type:
          if (holds(e.target)) return false;
          break;
        case elem_kind::operands:
          if (m_.num_operands(op_) != 0) return false;
          break;
        case elem_kind::functional_type:
          if (m_.num_operands(op_) != 0 || m_.num_results(op_) != 0) return false;
          break;
        case elem_kind::custom:
          for (const auto& a : e.args)
            if (holds(a.target)) return false;
          break;
        case elem_kind::optional:
          if (!nothing_bound_in(e.then_elems) || !nothing_bound_in(e.else_elems)) return false;
          break;
        default:
          break;
      }
    }
    return true;
  }

  bool elements(std::string& out, const std::vector<element>& es) {
    for (const auto& e : es)
      if (!one(out, e)) return false;
    return true;
  }
  bool one(std::string& out, const element& e) {
    if (e.space_before) out += ' ';
    switch (e.kind) {
      case elem_kind::literal:
        out += e.text;
        return true;
      case elem_kind::space:
        if (e.text == " ") out += ' ';
        return true;
      case elem_kind::value:
        switch (e.target.kind) {
          case ref_kind::operand:
            operands_of(out, e.target.index);
            return true;
          case ref_kind::attribute: {
            const auto* a = attr(e.target.index);
            if (a == nullptr) return false;
            const auto& d = s_.attributes[e.target.index];
            auto v = custom_spelling(d, a->value);
            if (!v) return false;
            // A dialect enum prints itself with a leading space (`compare  EQ, ...`), as
            // StableHLO's printers do.
            if (d.spelling == attr_spelling::enum_keyword) out += ' ';
            out += *v;
            return true;
          }
          case ref_kind::region: {
            // `$r` of a non-variadic region: that one; of a variadic one: all, comma-separated.
            const auto blocks = m_.region_blocks(op_);
            if (s_.regions.size() != 1 && !s_.regions[e.target.index].variadic) {
              if (e.target.index >= blocks.size()) return false;
              p_.print_region(out, blocks[e.target.index], indent_);
              return true;
            }
            for (std::size_t k = 0; k < blocks.size(); ++k) {
              if (k) out += ", ";
              p_.print_region(out, blocks[k], indent_);
            }
            return true;
          }
          default:
            return false;
        }
      case elem_kind::operands:
        all_operands(out);
        return true;
      case elem_kind::attr_dict:
      case elem_kind::attr_dict_kw:
        attr_dict(out, e.kind == elem_kind::attr_dict_kw);
        return true;
      case elem_kind::type:
        switch (e.target.kind) {
          case ref_kind::operand:
            operand_types_of(out, e.target.index);
            return true;
          case ref_kind::result:
            result_types_of(out, e.target.index);
            return true;
          case ref_kind::operands:
            for (std::size_t k = 0; k < m_.num_operands(op_); ++k) {
              if (k) out += ", ";
              out += operand_type(k);
            }
            return true;
          case ref_kind::results:
            for (std::size_t k = 0; k < m_.num_results(op_); ++k) {
              if (k) out += ", ";
              out += result_type(k);
            }
            return true;
          default:
            return false;
        }
      case elem_kind::functional_type:
        functional_type(out);
        return true;
      case elem_kind::custom:
        return custom(out, e);
      case elem_kind::optional:
        if (present(e)) return elements(out, e.then_elems);
        // Left out (as StableHLO's optimization_barrier with no operands, whose results would
        // then be lost): only when it binds nothing.
        return nothing_bound_in(e.then_elems) && elements(out, e.else_elems);
    }
    return false;
  }
  // ------------------------------------------------------------------ custom directives
  std::uint32_t arg(const element& e, std::size_t k) const { return e.args[k].target.index; }
  /// The types of the directive's `type($operand)` args, flattened.
  std::vector<std::string_view> operand_types_of_args(const element& e, std::size_t count) const {
    std::vector<std::string_view> ts;
    for (std::size_t k = 0; k < count; ++k)
      for (std::size_t j = operand_begin_[arg(e, k)]; j < operand_begin_[arg(e, k) + 1]; ++j) ts.push_back(operand_type(j));
    return ts;
  }

  bool custom(std::string& out, const element& e) {
    const std::string& n = e.text;
    if (n == "SameOperandsAndResultType" || n == "VariadicSameOperandsAndResultType") {
      const std::size_t first_type = n == "VariadicSameOperandsAndResultType" ? 1 : 0;  // ref($inputs) first
      std::vector<std::string_view> ts;
      for (std::size_t k = first_type; k + 1 < e.args.size(); ++k)
        for (std::size_t j = operand_begin_[arg(e, k)]; j < operand_begin_[arg(e, k) + 1]; ++j) ts.push_back(operand_type(j));
      if (m_.num_results(op_) != 1) return false;
      const auto r = result_type(0);
      // A single type that is itself a function type would read as the functional form.
      if (!r.starts_with('(') && std::all_of(ts.begin(), ts.end(), [&](std::string_view t) { return t == r; })) {
        out += r;
      } else {
        functional_type(out);
      }
      return true;
    }
    if (n == "VariadicOperandWithAttribute") {
      // StableHLO prints no operands as a lone ',', which its parser (and the reader) do not read.
      if (group_size(operand_begin_, arg(e, 0)) == 0) return false;
      for (std::size_t k = operand_begin_[arg(e, 0)]; k < operand_begin_[arg(e, 0) + 1]; ++k) {
        if (k != operand_begin_[arg(e, 0)]) out += ", ";
        p_.append_value(out, m_.operand(op_, k));
      }
      out += ',';
      return true;
    }
    if (n == "TupleOpType") {
      if (m_.num_results(op_) != 1) return false;
      const auto r = result_type(0);
      std::string expect = "tuple<";
      for (std::size_t k = 0; k < m_.num_operands(op_); ++k) {
        if (k) expect += ", ";
        expect += operand_type(k);
      }
      if (resolve_type_alias(r, m_.alias_definitions) != expect + ">") return false;
      out += r;
      return true;
    }
    if (n == "PairwiseOpType") {
      if (m_.num_operands(op_) != m_.num_results(op_)) return false;
      for (std::size_t k = 0; k < m_.num_operands(op_); ++k)
        if (operand_type(k) != result_type(k)) return false;
      for (std::size_t k = 0; k < m_.num_operands(op_); ++k) {
        if (k) out += ", ";
        out += operand_type(k);
      }
      return true;
    }
    if (n == "SelectOpType") {
      if (m_.num_operands(op_) != 3 || m_.num_results(op_) != 1) return false;
      if (operand_type(1) == result_type(0) && operand_type(2) == result_type(0)) {
        out += operand_type(0);
        out += ", ";
        out += result_type(0);
      } else {
        functional_type(out);
      }
      return true;
    }
    if (n == "ComplexOpType") {
      if (m_.num_operands(op_) != 2 || m_.num_results(op_) != 1) return false;
      const std::string r(result_type(0));
      const auto c = r.find("complex<");
      bool short_form = false;
      if (c != std::string::npos && r.ends_with(">>")) {
        // tensor<...xcomplex<E>> with operands tensor<...xE>
        const std::string real = r.substr(0, c) + r.substr(c + 8, r.size() - c - 9);
        short_form = operand_type(0) == real && operand_type(1) == real;
      }
      if (short_form)
        out += r;
      else
        functional_type(out);
      return true;
    }
    if (n == "SliceRanges") {
      const auto *a = attr(arg(e, 0)), *b = attr(arg(e, 1)), *c = attr(arg(e, 2));
      if (!a || !b || !c) return false;
      auto xs = array_elements(a->value, "i64"), ys = array_elements(b->value, "i64"), zs = array_elements(c->value, "i64");
      if (!xs || !ys || !zs || xs->size() != ys->size() || xs->size() != zs->size()) return false;
      for (const auto* l : {&*xs, &*ys, &*zs})
        if (!std::all_of(l->begin(), l->end(), is_integer_text)) return false;
      out += '[';
      for (std::size_t k = 0; k < xs->size(); ++k) {
        if (k) out += ", ";
        out += (*xs)[k];
        out += ':';
        out += (*ys)[k];
        if ((*zs)[k] != "1") {
          out += ':';
          out += (*zs)[k];
        }
      }
      out += ']';
      return true;
    }
    if (n == "CustomCallTarget") {
      const auto* a = attr(arg(e, 0));
      if (!a || a->value.size() < 2 || a->value.front() != '"') return false;
      auto plain = mlir_string_value(a->value);
      if (!plain) return false;
      out += '@';
      append_mlir_symbol_name(out, *plain);
      return true;
    }
    if (n == "ExponentMantissa") {
      const auto *x = attr(arg(e, 0)), *y = attr(arg(e, 1));
      if (!x || !y) return false;
      auto ex = custom_spelling(s_.attributes[arg(e, 0)], x->value), my = custom_spelling(s_.attributes[arg(e, 1)], y->value);
      if (!ex || !my || ex->starts_with('-') || my->starts_with('-')) return false;
      // The reader reads each count as a number (`e5m05` is mantissa_bits = 5 : i32, as StableHLO's
      // parser reads it) of at most 9 digits; print the number, or the generic form when it has
      // more digits, so that what is printed reads back to the same text.
      auto canonical = [](std::string_view d) -> std::optional<std::string> {
        while (d.size() > 1 && d.front() == '0') d.remove_prefix(1);
        if (d.size() > 9) return std::nullopt;
        return std::string(d);
      };
      ex = canonical(*ex);
      my = canonical(*my);
      if (!ex || !my) return false;
      out += 'e' + *ex + 'm' + *my;
      return true;
    }
    if (n == "DotDimensionNumbers") return dot_dimension_numbers(out, e);
    if (n == "PrecisionConfig" || n == "PrecisionConfigAndAlgorithm") return precision_and_algorithm(out, e, n.size() > 15);
    if (n == "ConvolutionDimensions") {
      const auto* a = attr(arg(e, 0));
      const std::string head = "#" + dialect() + ".conv<";
      if (!a || !a->value.starts_with(head) || !a->value.ends_with('>')) return false;
      const auto body = std::string_view(a->value).substr(head.size(), a->value.size() - head.size() - 1);
      if (!is_conv_dims(body)) return false;
      out += body;
      return true;
    }
    if (n == "WindowAttributes") return window_attributes(out, e);
    if (n == "StrippedTensorShardingPerValueAttr") {
      const auto* a = attr(arg(e, 0));
      const std::string head = "#" + dialect() + ".sharding_per_value<";
      if (!a || !a->value.starts_with(head + "[") || !a->value.ends_with("]>")) return false;
      const auto body = std::string_view(a->value).substr(head.size(), a->value.size() - head.size() - 1);
      if (!is_one_group(body)) return false;
      out += body;
      return true;
    }
    if (n == "SingleBlockRegionNoBlockId") {
      const auto blocks = m_.region_blocks(op_);
      if (blocks.size() != 1) return false;
      out += '(';
      const auto args = m_.arguments(blocks[0]);
      for (std::size_t k = 0; k < args.size(); ++k) {
        if (k) out += ", ";
        p_.append_region_argument(out, args[k]);
      }
      out += ") ";
      p_.print_region_body(out, blocks[0], indent_);
      return true;
    }
    return false;
  }

  std::string dialect() const { return s_.name.substr(0, s_.name.find('.')); }
  /// One pass over `t` at bracket depth 0 (string literals skipped, `->` no bracket): `at`, the
  /// first character of `stops` outside brackets (npos when none); `bad_string`, an
  /// unterminated literal; `unbalanced`, a bracket that closes without opening or stays open.
  /// The scan ends at `at` or at a bad string.
  struct top_level_scan {
    std::size_t at = std::string_view::npos;
    bool bad_string = false;
    bool unbalanced = false;
  };
  static top_level_scan scan_top_level(std::string_view t, std::string_view stops) {
    top_level_scan r;
    std::size_t depth = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      const char c = t[i];
      if (c == '"') {
        const auto scan = scan_mlir_string_literal(t, i);
        if (!scan.terminated) {
          r.bad_string = true;
          return r;
        }
        i = scan.end - 1;
      } else if (c == '-' && i + 1 < t.size() && t[i + 1] == '>') {
        ++i;
      } else if (c == '<' || c == '[' || c == '{' || c == '(') {
        ++depth;
      } else if (c == '>' || c == ']' || c == '}' || c == ')') {
        if (depth == 0) r.unbalanced = true;
        else --depth;
      } else if (depth == 0 && stops.find(c) != std::string_view::npos) {
        r.at = i;
        return r;
      }
    }
    r.unbalanced = r.unbalanced || depth != 0;
    return r;
  }
  /// Whether `t` reads back as the value of one dictionary entry: brackets balanced, no ','
  /// outside them.
  static bool is_dict_value(std::string_view t) {
    const auto r = scan_top_level(t, ",");
    return !t.empty() && r.at == std::string_view::npos && !r.bad_string && !r.unbalanced;
  }
  /// `[d, ...]x[d, ...]->[d, ...]` with each d a dimension letter or number, as the reader reads.
  static bool is_conv_dims(std::string_view t) {
    auto list = [&](std::string_view& r) {
      if (!r.starts_with('[')) return false;
      const auto close = r.find(']');
      if (close == std::string_view::npos) return false;
      auto inner = r.substr(1, close - 1);
      r.remove_prefix(close + 1);
      if (inner.empty()) return true;
      for (;;) {
        const auto c = inner.find(", ");
        const auto d = inner.substr(0, c);
        if (d.empty() || !std::all_of(d.begin(), d.end(), [](char ch) { return mlir_is_bare_id_char(ch); })) return false;
        if (c == std::string_view::npos) return true;
        inner.remove_prefix(c + 2);
      }
    };
    if (!list(t) || !t.starts_with('x')) return false;
    t.remove_prefix(1);
    if (!list(t) || !t.starts_with("->")) return false;
    t.remove_prefix(2);
    return list(t) && t.empty();
  }

  bool dot_dimension_numbers(std::string& out, const element& e) const {
    const auto* a = attr(arg(e, 0));
    const std::string head = "#" + dialect() + ".dot<";
    if (!a || !a->value.starts_with(head) || !a->value.ends_with('>')) return false;
    const auto body = std::string_view(a->value).substr(head.size(), a->value.size() - head.size() - 1);
    std::string lb = "[]", rb = "[]", lc = "[]", rc = "[]";
    for (auto f : split_top_level(body)) {
      const auto eq = f.find(" = ");
      if (eq == std::string_view::npos) return false;
      const auto k = f.substr(0, eq);
      const std::string v(f.substr(eq + 3));
      if (!is_int_list(v)) return false;
      if (k == "lhs_batching_dimensions") lb = v;
      else if (k == "rhs_batching_dimensions") rb = v;
      else if (k == "lhs_contracting_dimensions") lc = v;
      else if (k == "rhs_contracting_dimensions") rc = v;
      else return false;
    }
    if (lb != "[]" || rb != "[]") out += "batching_dims = " + lb + " x " + rb + ", ";
    out += "contracting_dims = " + lc + " x " + rc;
    return true;
  }
  bool precision_and_algorithm(std::string& out, const element& e, bool with_algorithm) const {
    // The directive follows an empty literal: it prints its own ", ".
    if (const auto* a = attr(arg(e, 0))) {
      const auto& v = a->value;
      if (!v.starts_with('[') || !v.ends_with(']')) return false;
      const std::string prefix = "#" + dialect() + "<precision ";
      out += ", precision = [";
      bool first = true;
      for (auto x : split_top_level(std::string_view(v).substr(1, v.size() - 2))) {
        if (!x.starts_with(prefix) || !x.ends_with('>')) return false;
        const auto w = x.substr(prefix.size(), x.size() - prefix.size() - 1);
        if (!mlir_is_bare_id(w)) return false;
        if (!first) out += ", ";
        first = false;
        out += w;
      }
      out += ']';
    }
    if (with_algorithm)
      if (const auto* a = attr(arg(e, 1))) {
        const std::string head = "#" + dialect() + ".dot_algorithm<";
        if (!a->value.starts_with(head) || !is_one_group(std::string_view(a->value).substr(head.size() - 1))) return false;
        out += ", algorithm = ";
        out += std::string_view(a->value).substr(head.size() - 1);
      }
    return true;
  }
  /// `stride = [..], pad = [[l, h], ...], lhs_dilate = [..], rhs_dilate = [..], reverse = [..]`.
  bool window_attributes(std::string& out, const element& e) const {
    static constexpr std::string_view names[] = {"stride", "pad", "lhs_dilate", "rhs_dilate", "reverse"};
    bool first = true;
    for (std::size_t k = 0; k < 5 && k < e.args.size(); ++k) {
      const auto* a = attr(arg(e, k));
      if (!a) continue;
      std::string v;
      if (k == 1) {
        auto p = padding_pairs(a->value);
        if (!p) return false;
        v = *p;
      } else {
        auto s = custom_spelling(s_.attributes[arg(e, k)], a->value);
        if (!s) return false;
        v = *s;
      }
      if (!first) out += ", ";
      first = false;
      out += names[k];
      out += " = ";
      out += v;
    }
    return true;
  }
  /// `dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>` or `dense<1> : tensor<2x2xi64>` → `[[0, 0], [1, 1]]`.
  static std::optional<std::string> padding_pairs(std::string_view v) {
    const auto colon = v.rfind("> : tensor<");
    if (!v.starts_with("dense<") || colon == std::string_view::npos || !v.ends_with("x2xi64>")) return std::nullopt;
    const auto body = v.substr(6, colon - 6);
    const auto shape = v.substr(colon + 11, v.size() - colon - 11 - 7);
    // A splat is written out row by row: a shape past a few thousand rows prints generic.
    if (!is_integer_text(shape) || shape.starts_with('-') || shape.size() > 4) return std::nullopt;
    const auto rows = std::stoull(std::string(shape));
    if (is_integer_text(body)) {
      std::string t = "[";
      for (std::size_t r = 0; r < rows; ++r) {
        if (r) t += ", ";
        t += "[" + std::string(body) + ", " + std::string(body) + "]";
      }
      return t + "]";
    }
    // `[[a, b], [c, d]]`: rows of two integers, as the reader reads them.
    if (body.size() < 2 || body.front() != '[' || body.back() != ']') return std::nullopt;
    auto rest = body.substr(1, body.size() - 2);
    std::size_t n = 0;
    while (!rest.empty()) {
      const auto close = rest.find(']');
      if (close == std::string_view::npos || !is_int_list(rest.substr(0, close + 1))) return std::nullopt;
      if (std::count(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(close), ',') != 1) return std::nullopt;
      ++n;
      rest.remove_prefix(close + 1);
      if (rest.starts_with(", ")) rest.remove_prefix(2);
      else if (!rest.empty()) return std::nullopt;
    }
    if (n != rows) return std::nullopt;
    return std::string(body);
  }

  // ------------------------------------------------------------------ hand-written forms
  bool print_special(std::string& out) {
    if (s_.special == "constant") {
      const auto* v = m_.find_attribute(op_, "value");
      if (v == nullptr || m_.num_results(op_) != 1 || m_.num_operands(op_) != 0 || m_.num_regions(op_) != 0) return false;
      const auto r = result_type(0);
      if ((v->value == "true" || v->value == "false") && r == "i1") {  // MLIR's boolean attribute: no type
        attr_dict(out, false);
        out += ' ';
        out += v->value;
        return true;
      }
      const std::string suffix = " : " + std::string(r);
      if (!v->value.ends_with(suffix) || v->value.size() == suffix.size()) {
        // Another type than the value's (a quantized result): the op's generic form after its
        // custom name, as StableHLO prints it. The value is one typed attribute.
        if (!is_dict_value(v->value)) return false;
        out += "() <{value = ";
        out += v->value;
        out += "}>";
        attr_dict(out, false);
        out += " : () -> ";
        out += r;
        return true;
      }
      // The reader takes the value up to the first ':' or ',' outside brackets and trims the
      // space around it; a leading '{' is the attribute dictionary, a leading '(' the form above.
      // A value the reader would not give back as it is (as `dense<1> x  : T` read from a
      // dictionary) prints generic.
      const auto value = std::string_view(v->value).substr(0, v->value.size() - suffix.size());
      const auto scan = scan_top_level(value, ":,");
      if (value.starts_with('{') || value.starts_with('(') || neuronrw::ref::detail::parse_is_space(value.front()) ||
          neuronrw::ref::detail::parse_is_space(value.back()) || scan.at != std::string_view::npos || scan.bad_string ||
          scan.unbalanced)
        return false;
      attr_dict(out, false);
      out += ' ';
      out += value;
      out += " : ";
      out += r;
      return true;
    }
    if (s_.special == "while") {
      const auto blocks = m_.region_blocks(op_);
      const auto n = m_.num_operands(op_);
      if (blocks.size() != 2 || m_.num_results(op_) != n) return false;
      for (const auto b : blocks) {
        const auto args = m_.arguments(b);
        if (args.size() != n) return false;
        for (std::size_t k = 0; k < n; ++k)
          if (m_.type(args[k]) != m_.type(m_.operand(op_, k)) || m_.type(m_.result(op_, k)) != m_.type(args[k])) return false;
      }
      // The iteration arguments are declared once, in the header, for both regions: the
      // condition's arguments print under the body's names (false when a value of the
      // condition already has one of them: the op prints generic then).
      if (!p_.share_argument_names(blocks[0], blocks[1])) return false;
      out += '(';
      const auto body_args = m_.arguments(blocks[1]);
      for (std::size_t k = 0; k < n; ++k) {
        if (k) out += ", ";
        p_.append_value(out, body_args[k]);
        out += " = ";
        p_.append_value(out, m_.operand(op_, k));
      }
      out += ')';
      if (n > 0) {
        out += " : ";
        for (std::size_t k = 0; k < n; ++k) {
          if (k) out += ", ";
          out += operand_type(k);
        }
      }
      attr_dict(out, true);
      out += '\n';
      out.append(indent_, ' ');
      if (alternative_spelling(m_.syntax_form(op_))) out += ' ';
      out += "cond ";
      p_.print_region_body(out, blocks[0], indent_);
      out += " do ";
      p_.print_region_body(out, blocks[1], indent_);
      return true;
    }
    if (s_.special == "reduce") return print_reduce(out);
    return false;
  }

  /// StableHLO's compact reduce: the body is `%r = D.OP %a, %b : tensor<E>` and `D.return %r`
  /// on the block's two arguments, OP commutative, E the first input's element type, and
  /// nothing else that the compact form would lose (attributes, names; locations other than
  /// the reduce's own, which StableHLO's parser gives the body it builds).
  std::optional<std::string> compact_reducer(block_ref b) const {
    auto shape = compact_shape(b);
    if (!shape) return std::nullopt;
    op_ref inner, ret;
    for (auto o : m_.ops(b)) (inner.valid() ? ret : inner) = o;
    if (!all_custom_ && (form_of(m_.syntax_form(inner)) != syntax_form::custom ||
                         form_of(m_.syntax_form(ret)) != syntax_form::custom))
      return std::nullopt;
    const auto own = m_.loc_text(op_);
    auto inherited = [&](std::string_view l) { return l.empty() || l == own; };
    const auto args = m_.arguments(b);
    if (!inherited(m_.loc_text(inner)) || !inherited(m_.loc_text(ret)) || !inherited(m_.arg_loc_text(args[0])) ||
        !inherited(m_.arg_loc_text(args[1])))
      return std::nullopt;
    return shape;
  }

 public:
  /// Whether the op is a reduce in the compact form's shape whose body has no locations of its
  /// own, not read in the reducer form: StableHLO's parser gives the body it builds for the
  /// compact form the reduce's location, and so does printing it in another form
  /// (`--mlir-print-op-generic`).
  bool body_inherits_location() const {
    if (s_.special != "reduce" || m_.loc_text(op_).empty() || m_.num_regions(op_) != 1 ||
        alternative_spelling(m_.syntax_form(op_)))
      return false;
    const auto b = m_.region_blocks(op_)[0];
    if (!compact_shape(b)) return false;
    for (auto o : m_.ops(b))
      if (!m_.loc_text(o).empty()) return false;
    const auto args = m_.arguments(b);
    return m_.arg_loc_text(args[0]).empty() && m_.arg_loc_text(args[1]).empty();
  }

 private:
  /// The inner op's name when block `b` has the compact reduce's shape (see compact_reducer).
  std::optional<std::string> compact_shape(block_ref b) const {
    const auto args = m_.arguments(b);
    if (args.size() != 2 || m_.num_operands(op_) != 2) return std::nullopt;
    std::vector<op_ref> ops;
    for (auto o : m_.ops(b)) ops.push_back(o);
    if (ops.size() != 2) return std::nullopt;
    const auto inner = ops[0], ret = ops[1];
    const auto d = dialect();
    const auto name = m_.name(inner);
    const auto dot = name.find('.');
    if (dot == std::string_view::npos || name.substr(0, dot) != d) return std::nullopt;
    const auto k = name.substr(dot + 1);
    if (!(k == "add" || k == "and" || k == "maximum" || k == "minimum" || k == "multiply" || k == "or" || k == "xor"))
      return std::nullopt;
    if (m_.name(ret) != d + ".return") return std::nullopt;
    if (m_.num_operands(inner) != 2 || m_.num_results(inner) != 1 || m_.num_regions(inner) != 0) return std::nullopt;
    if (m_.operand(inner, 0) != args[0] || m_.operand(inner, 1) != args[1]) return std::nullopt;
    if (m_.num_operands(ret) != 1 || m_.operand(ret, 0) != m_.result(inner, 0) || m_.num_results(ret) != 0) return std::nullopt;
    if (!m_.attributes(inner).empty() || !m_.attributes(ret).empty() || !m_.properties_text(inner).empty() ||
        !m_.properties_text(ret).empty())
      return std::nullopt;
    const auto t = m_.type_text(args[0]);
    if (m_.type(args[1]) != m_.type(args[0]) || m_.type(m_.result(inner, 0)) != m_.type(args[0])) return std::nullopt;
    const auto e = tensor_element_type(operand_type(0));
    if (e.empty() || t != "tensor<" + e + ">") return std::nullopt;
    return std::string(name);
  }
  bool print_reduce(std::string& out) {
    const auto blocks = m_.region_blocks(op_);
    const auto total = m_.num_operands(op_);
    if (blocks.size() != 1 || total == 0 || total % 2 != 0) return false;
    const auto n = total / 2;
    const auto* dims = m_.find_attribute(op_, "dimensions");
    if (dims == nullptr) return false;
    auto ds = custom_spelling(s_.attributes[0], dims->value);
    if (!ds) return false;
    const auto args = m_.arguments(blocks[0]);
    // The compact form where StableHLO prints it, unless the reduce was read in the reducer form.
    const auto compact = alternative_spelling(m_.syntax_form(op_)) ? std::nullopt : compact_reducer(blocks[0]);
    if (!compact && args.size() != total) return false;
    for (std::size_t k = 0; k < n; ++k) {
      if (k) out += ", ";
      out += '(';
      p_.append_value(out, m_.operand(op_, k));
      out += " init: ";
      p_.append_value(out, m_.operand(op_, k + n));
      out += ')';
    }
    if (compact) {
      out += " applies ";
      out += *compact;
    }
    out += " across dimensions = ";
    out += *ds;
    attr_dict(out, false);
    out += " : ";
    functional_type(out);
    if (!compact) {
      out += '\n';
      out.append(indent_, ' ');
      out += " reducer";
      for (std::size_t k = 0; k < n; ++k) {
        out += '(';
        p_.append_region_argument(out, args[k]);
        out += ", ";
        p_.append_region_argument(out, args[k + n]);
        out += ") ";
      }
      out += ' ';
      p_.print_region_body(out, blocks[0], indent_);
    }
    return true;
  }

  /// `A, B` of a segment-size attribute exactly as the reader writes it (`array<i32: A, B>`).
  static std::optional<std::pair<std::size_t, std::size_t>> segment_pair(const attribute* a) {
    if (a == nullptr || !a->value.starts_with("array<i32: ") || !a->value.ends_with('>')) return std::nullopt;
    const auto body = std::string_view(a->value).substr(11, a->value.size() - 12);
    const auto comma = body.find(", ");
    if (comma == std::string_view::npos) return std::nullopt;
    const auto x = body.substr(0, comma), y = body.substr(comma + 2);
    auto digits = [](std::string_view t) {
      return !t.empty() && t.size() <= 9 && (t == "0" || t.front() != '0') &&
             std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (!digits(x) || !digits(y)) return std::nullopt;
    return std::pair<std::size_t, std::size_t>{std::stoul(std::string(x)), std::stoul(std::string(y))};
  }
  /// CHLO's scan as StableHLO prints it: `(INPUTS) inits (INITS) dimension=N  [attributes
  /// {...}] {REGION} : FNTYPE` (the second space is the one its printer leaves before the
  /// attribute dictionary). Generic when the segment sizes do not split the op's operands and
  /// results into inputs, inits, outputs and as many carries as inits.
  bool print_scan(std::string& out) {
    const auto ins = segment_pair(m_.find_attribute(op_, "operandSegmentSizes"));
    const auto outs = segment_pair(m_.find_attribute(op_, "resultSegmentSizes"));
    const auto* dimension = m_.find_attribute(op_, "dimension");
    const auto* decl = s_.find_attribute("dimension");
    if (!ins || !outs || dimension == nullptr || decl == nullptr || m_.num_regions(op_) != 1) return false;
    const auto [inputs, inits] = *ins;
    if (inputs + inits != m_.num_operands(op_) || outs->second != inits || outs->first + inits != m_.num_results(op_))
      return false;
    const auto dim = custom_spelling(*decl, dimension->value);
    if (!dim) return false;
    auto operands = [&](std::size_t b, std::size_t e) {
      out += '(';
      for (std::size_t k = b; k < e; ++k) {
        if (k > b) out += ", ";
        p_.append_value(out, m_.operand(op_, k));
      }
      out += ')';
    };
    operands(0, inputs);
    out += " inits ";
    operands(inputs, inputs + inits);
    out += " dimension=";
    out += *dim;
    out += ' ';
    attr_dict(out, true);
    out += ' ';
    p_.print_region(out, m_.region_blocks(op_)[0], indent_);
    out += " : ";
    functional_type(out);
    return true;
  }

  P& p_;
  const module& m_;
  const op_syntax& s_;
  op_ref op_;
  std::size_t indent_;
  bool all_custom_ = false;
  std::vector<std::size_t> operand_begin_, result_begin_;
};

}  // namespace neuronrw::ref::syntax_detail
