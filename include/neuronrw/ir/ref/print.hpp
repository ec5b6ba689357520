// neuronrw/ir/ref/print.hpp — the text printer of the reference IR: a `ref::module` as the MLIR
// text `mlir-opt --allow-unregistered-dialect` prints (func dialect in pretty form, every other op
// in generic form), which `mlir-opt --verify-each` accepts and `ref::parse` reads back; ops of the
// syntax table (StableHLO) in the form they were read, custom or generic (print_options::forms:
// every op generic, exactly as `mlir-opt --mlir-print-op-generic` prints, or every custom form).
//
// Customization points: none. The printed format is described in docs/reference-ir.md.
//
// Deterministic: the output depends only on the module's contents and order (names come from a
// walk in print order; the hash containers are only probed, never iterated). print(parse(x)) is a
// fixed point: types, attribute values and locations are stored verbatim and printed back as is.
//
// Naming (use_name_hints): the module top level is one naming scope and each function (with all
// its nested regions) another. A value prints as its hint when the hint is free where it is (a
// name given in a region is free again after it, so sibling regions share names as in MLIR); a
// repeated hint `x` becomes `x_1`, `x_2`, ...; a value without a hint gets the first free number
// (`%0, %1, ...` for results, `%arg0, ...` for block arguments) in print order, never a name some
// other value's hint asks for. Without hints, values are numbered as mlir-opt numbers them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <unordered_set>
#include <vector>

#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/syntax/op_printer.hpp>
#include <neuronrw/ir/ref/syntax/op_syntax.hpp>
#include <neuronrw/ir/ref/syntax/op_table.hpp>
#include <neuronrw/ir/ref/mlir_string.hpp>

namespace neuronrw::ref {

/// Which form each op is printed in.
enum class op_forms : std::uint8_t {
  /// Each op as it was read: custom forms stay custom, generic ones generic (ops created by a
  /// pass are generic, or custom where the pass says so).
  as_read,
  /// Every op generic, the module and func.* included, inherent attributes of the ops MLIR or
  /// the syntax table knows as properties `<{...}>`: `mlir-opt --mlir-print-op-generic`'s text.
  generic,
  /// Every op of the syntax table in its dialect's custom form where it has one.
  custom,
};

/// Printer knobs, filled with designated initializers.
struct print_options {
  /// Print values under their name hints (made unique); false numbers them like mlir-opt.
  bool use_name_hints = true;
  /// Print the stored `loc(...)` texts and `#x = loc(...)` alias definitions.
  bool print_locations = true;
  /// The form of each op (as read by default).
  op_forms forms = op_forms::as_read;
};

namespace detail {

inline constexpr bool print_is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
inline constexpr bool print_is_letter(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
inline constexpr bool print_is_suffix_id_char(char c) noexcept {
  return print_is_letter(c) || print_is_digit(c) || c == '$' || c == '.' || c == '_' || c == '-';
}
inline bool print_all_digits(std::string_view s) noexcept {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return print_is_digit(c); });
}
/// A name hint as a valid SSA suffix-id: digits, or (letter|[$._-]) (letter|digit|[$._-])*.
inline std::string print_sanitize_hint(std::string_view h) {
  if (h.empty() || print_all_digits(h)) return std::string(h);
  std::string s(h);
  for (auto& c : s)
    if (!print_is_suffix_id_char(c)) c = '_';
  if (print_is_digit(s[0])) s.insert(s.begin(), '_');
  return s;
}

/// Prints one module (or one op of it) into a string.
class printer {
 public:
  printer(const module& m, const print_options& o)
      : m_(m),
        o_(o),
        op_names_(m.op_capacity()),
        arg_names_(m.value_capacity()),
        op_scope_(m.op_capacity(), 0),
        arg_scope_(m.value_capacity(), 0) {}

  /// Alias definitions [b, e) of the module, one per line.
  void print_aliases(std::string& out, std::size_t b, std::size_t e) const {
    for (std::size_t i = b; i < e; ++i) {
      const auto& a = m_.alias_definitions[i];
      if (!o_.print_locations && is_location_alias(a)) continue;
      out += a;
      out += '\n';
    }
  }

  void print_module(std::string& out) {
    const auto n = m_.alias_definitions.size();
    const auto leading = n - std::min(m_.trailing_aliases, n);
    print_aliases(out, 0, leading);
    name_top_level();
    if (generic_) {
      out += "\"builtin.module\"()";
      if (!m_.sym_name.empty()) {
        out += " <{sym_name = ";
        out += mlir_string_literal(m_.sym_name);
        out += "}>";
      }
      out += " ({\n";
      if (m_.empty(m_.body())) out += "^bb0:\n";  // the module's one block, empty: as mlir-opt prints it
      for (auto op : m_.ops(m_.body())) print_op(out, op, 2, false);
      out += "})";
      if (!m_.attributes_text.empty()) {
        out += ' ';
        out += m_.attributes_text;
      }
      out += " : () -> ()";
      append_loc(out, m_.module_loc_text);
    } else {
      out += "module";
      if (!m_.sym_name.empty()) {
        out += " @";
        append_symbol(out, m_.sym_name);
      }
      if (!m_.attributes_text.empty()) {
        out += " attributes ";
        out += m_.attributes_text;
      }
      out += " {\n";
      for (auto op : m_.ops(m_.body())) print_op(out, op, 2, false);
      out += '}';
      append_loc(out, m_.module_loc_text);
    }
    out += '\n';
    print_aliases(out, leading, n);  // those read after the module, where MLIR prints them
    if (!m_.file_metadata.empty()) {  // after the module, as mlir-opt prints it
      out += "{-#\n  ";
      out += m_.file_metadata;
      out += "\n#-}\n";
    }
  }

  /// One op (with its region) at indentation 0, named as in the whole module; no final newline.
  void print_single(std::string& out, op_ref op) {
    name_top_level();
    op_ref root = op;
    for (auto p = m_.parent_op(root); p.valid(); p = m_.parent_op(root)) root = p;
    if (root != op && m_.is_function(root)) name_function(root);
    const auto parent = m_.parent_op(op);
    print_op(out, op, 0, parent.valid() && m_.is_function(parent));
    if (!out.empty() && out.back() == '\n') out.pop_back();
  }

 private:
  static bool is_location_alias(std::string_view a) {
    auto eq = a.find(" = ");
    return !a.empty() && a[0] == '#' && eq != std::string_view::npos &&
           a.substr(eq + 3).starts_with("loc(");
  }
  static void append_symbol(std::string& out, std::string_view sym) {
    // Names are stored as plain values (see parse.hpp); only non-identifiers need quotes.
    append_mlir_symbol_name(out, sym);
  }
  /// ` loc` when locations are printed; an op or argument without one inside a compact-form
  /// reduce's body prints the reduce's (`inherited_loc_`, see body_inherits_location).
  void append_loc(std::string& out, std::string_view loc) const {
    const std::string_view l = loc.empty() ? std::string_view(inherited_loc_) : loc;
    if (o_.print_locations && !l.empty()) {
      out += ' ';
      out += l;
    }
  }

  // ------------------------------------------------------------------ naming
  struct name_item {
    op_ref op;        // a result group (number `group` of the op's), or
    value_ref value;  // a block argument, or (neither)
    int mark = 0;     // the start (+1) or the end (-1) of a region: its names are free again
    std::uint32_t group = 0;
  };
  /// The named result groups of `op` to print (`%state, %out = ...`): its group hints when they
  /// cover its results and names come from hints; empty otherwise (one group).
  std::span<const result_group_hint> split_groups(op_ref op) const {
    if (!o_.use_name_hints) return {};
    const auto g = m_.result_group_hints(op);
    std::size_t n = 0;
    for (const auto& x : g) n += x.count;
    return n == m_.num_results(op) ? g : std::span<const result_group_hint>{};
  }
  void collect(op_ref op, std::vector<name_item>& items) const {
    if (m_.num_results(op) > 0) {
      const auto groups = split_groups(op);
      if (groups.empty()) items.push_back(name_item{op, value_ref{}});
      for (std::uint32_t g = 0; g < groups.size(); ++g) items.push_back(name_item{op, value_ref{}, 0, g});
    }
    if (m_.is_function(op)) return;
    for (const auto b : m_.region_blocks(op)) {
      items.push_back(name_item{op_ref{}, value_ref{}, +1});
      for (auto a : m_.arguments(b)) items.push_back(name_item{op_ref{}, a});
      for (auto o : m_.ops(b)) collect(o, items);
      items.push_back(name_item{op_ref{}, value_ref{}, -1});
    }
  }

  void name_top_level() {
    if (top_named_) {
      scope_ = top_scope_;
      return;
    }
    top_named_ = true;
    top_scope_ = scope_ = ++scope_counter_;
    for (auto op : m_.ops(m_.body()))
      if (m_.num_results(op) > 0 && !m_.is_function(op)) ++top_values_;
    if (o_.use_name_hints) {
      std::vector<name_item> items;
      for (auto op : m_.ops(m_.body())) collect(op, items);
      assign_hints(items);
    } else if (generic_) {
      number_unique();
    } else {
      number_region(m_.body(), 0, 0);
    }
  }

  /// mlir-opt's numbering of the generic form (OpPrintingFlags::shouldPrintUniqueSSAIDs): one
  /// counter for the whole module; a region's arguments and results are numbered, then the
  /// regions of its ops are pushed on a stack and numbered last-pushed first.
  void number_unique() {
    std::vector<block_ref> stack{m_.body()};
    std::uint32_t v = 0, a = 0;
    while (!stack.empty()) {
      const auto b = stack.back();
      stack.pop_back();
      for (auto arg : m_.arguments(b)) {
        arg_names_[arg.id] = "arg" + std::to_string(a++);
        arg_scope_[arg.id] = scope_;
      }
      for (auto op : m_.ops(b))
        if (m_.num_results(op) > 0) {
          op_names_[op.id] = std::to_string(v++);
          op_scope_[op.id] = scope_;
        }
      for (auto op : m_.ops(b)) {
        if (m_.is_function(op)) {
          if (m_.has_region(op) && !m_.function(op).declaration) stack.push_back(m_.region_block(op));
          continue;
        }
        for (const auto r : m_.region_blocks(op)) stack.push_back(r);
      }
    }
  }

  /// Names the values of a defined function; makes it the current scope.
  void name_function(op_ref f) {
    if (generic_ && !o_.use_name_hints) {  // numbered with the module (number_unique)
      scope_ = top_scope_;
      return;
    }
    scope_ = ++scope_counter_;
    const auto b = m_.region_block(f);
    if (o_.use_name_hints) {
      std::vector<name_item> items;
      for (auto a : m_.arguments(b)) items.push_back(name_item{op_ref{}, a});
      for (auto o : m_.ops(b)) collect(o, items);
      assign_hints(items);
    } else {
      // A function's region is nested in the module's: mlir-opt continues the module's counters.
      number_region(b, top_values_, 0);
    }
  }

  /// Hint-based names of the current scope (see the header comment). A name given inside a
  /// region is free again after it, so sibling regions (a while's condition and body) may use the
  /// same names, as in MLIR; numbers stay unique in the whole scope.
  void assign_hints(const std::vector<name_item>& items) {
    std::vector<std::string> hints(items.size());
    std::unordered_set<std::string> reserved, taken;
    for (std::size_t i = 0; i < items.size(); ++i) {
      const auto& it = items[i];
      if (it.mark != 0) continue;
      const auto groups = it.op.valid() ? split_groups(it.op) : std::span<const result_group_hint>{};
      hints[i] = print_sanitize_hint(!groups.empty()   ? std::string_view(groups[it.group].name)
                                     : it.op.valid() ? std::string_view(m_.name_hint(it.op))
                                                     : std::string_view(m_.arg_name_hint(it.value)));
      if (!hints[i].empty()) reserved.insert(hints[i]);
    }
    std::unordered_map<std::string, std::uint32_t> next_suffix;
    std::uint32_t next_value = 0, next_arg = 0;
    std::vector<std::string> given;         // names taken, in order
    std::vector<std::size_t> region_marks;  // given.size() at each open region
    auto is_free = [&](const std::string& n) { return !reserved.contains(n) && !taken.contains(n); };
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (items[i].mark > 0) {
        region_marks.push_back(given.size());
        continue;
      }
      if (items[i].mark < 0) {
        for (std::size_t k = region_marks.back(); k < given.size(); ++k) taken.erase(given[k]);
        given.resize(region_marks.back());
        region_marks.pop_back();
        continue;
      }
      const auto& h = hints[i];
      std::string name;
      if (!h.empty() && !taken.contains(h)) {
        name = h;
      } else if (!h.empty() && !print_all_digits(h)) {
        auto& k = next_suffix[h];
        do name = h + "_" + std::to_string(++k);
        while (!is_free(name));
      } else if (items[i].op.valid()) {
        do name = std::to_string(next_value++);
        while (!is_free(name));
      } else {
        do name = "arg" + std::to_string(next_arg++);
        while (!is_free(name));
      }
      taken.insert(name);
      given.push_back(name);
      const auto& it = items[i];
      if (it.op.valid()) {
        if (const auto groups = split_groups(it.op); !groups.empty()) {
          auto& names = split_names_[it.op.id];
          names.resize(groups.size());
          names[it.group] = name;
          if (it.group != 0) continue;
        }
        op_names_[it.op.id] = std::move(name);
        op_scope_[it.op.id] = scope_;
      } else {
        arg_names_[it.value.id] = std::move(name);
        arg_scope_[it.value.id] = scope_;
      }
    }
  }

  /// mlir-opt's numbering: a region numbers its arguments and its ops' results, then each nested
  /// region continues from the counters as they stand after its parent region (the regions of
  /// one op each start from the same counters, so siblings reuse numbers, as in mlir-opt).
  void number_region(block_ref b, std::uint32_t v, std::uint32_t a) {
    for (auto arg : m_.arguments(b)) {
      arg_names_[arg.id] = "arg" + std::to_string(a++);
      arg_scope_[arg.id] = scope_;
    }
    for (auto op : m_.ops(b))
      if (m_.num_results(op) > 0 && !m_.is_function(op)) {
        op_names_[op.id] = std::to_string(v++);
        op_scope_[op.id] = scope_;
      }
    for (auto op : m_.ops(b))
      if (!m_.is_function(op))
        for (const auto r : m_.region_blocks(op)) number_region(r, v, a);
  }

  void append_value_impl(std::string& out, value_ref v) const {
    if (!v.valid() || v.id >= arg_names_.size()) {
      out += "%<<NULL VALUE>>";
      return;
    }
    const auto d = m_.defining_op(v);
    const bool known = d.valid() ? (d.id < op_names_.size() && op_scope_[d.id] == scope_ &&
                                    !op_names_[d.id].empty())
                                 : (arg_scope_[v.id] == scope_ && !arg_names_[v.id].empty());
    if (!known) {
      out += "%<<UNKNOWN SSA VALUE>>";
      return;
    }
    out += '%';
    if (d.valid()) {
      if (auto it = split_names_.find(d.id); it != split_names_.end()) {
        const auto groups = m_.result_group_hints(d);
        std::uint32_t index = m_.value_index(v), g = 0;
        while (g + 1 < groups.size() && index >= groups[g].count) index -= groups[g++].count;
        out += it->second[g];
        if (groups[g].count > 1) {
          out += '#';
          out += std::to_string(index);
        }
        return;
      }
      out += op_names_[d.id];
      if (m_.num_results(d) > 1) {
        out += '#';
        out += std::to_string(m_.value_index(v));
      }
    } else {
      out += arg_names_[v.id];
    }
  }
  std::string_view type_of(value_ref v) const {
    return v.valid() && v.id < m_.value_capacity() ? m_.type_text(v) : std::string_view("<<NULL TYPE>>");
  }

  // ------------------------------------------------------------------ ops
  void print_op(std::string& out, op_ref op, std::size_t indent, bool function_body) {
    if (m_.is_function(op)) {
      if (generic_)
        print_function_generic(out, op, indent);
      else
        print_function(out, op, indent);
      return;
    }
    const auto name = m_.name(op);
    const op_syntax* syn = find_op_syntax(name);
    if (syn != nullptr && syn->special == "reduce" && inherited_loc_.empty() &&
        syntax_detail::op_form_printer<printer>(*this, m_, *syn, op, indent).body_inherits_location()) {
      inherited_loc_ = m_.loc_text(op);
      print_op_as_read(out, op, syn, indent, function_body);
      inherited_loc_.clear();
      return;
    }
    print_op_as_read(out, op, syn, indent, function_body);
  }
  void print_op_as_read(std::string& out, op_ref op, const op_syntax* syn, std::size_t indent, bool function_body) {
    const auto name = m_.name(op);
    if (syn != nullptr && m_.properties_text(op).empty()) {
      const auto form = form_of(m_.syntax_form(op));
      const bool want_custom = o_.forms == op_forms::custom || (o_.forms == op_forms::as_read && form == syntax_form::custom);
      if (want_custom && print_custom_form(out, op, *syn, indent)) return;
      // Read custom or with properties, or printed as the dialect prints it (op_forms::custom):
      // generic with properties. Read (or created) generic with its attributes in the
      // dictionary: as read, as mlir-opt, which does not know the op, keeps it.
      if (form != syntax_form::generic || o_.forms == op_forms::custom) {
        print_generic_with_properties(out, op, *syn, indent);
        return;
      }
    }
    if (generic_) {
      if (name == "func.call")
        print_generic_call(out, op, indent);
      else
        print_generic(out, op, indent);
      return;
    }
    const bool plain = !m_.has_region(op) && m_.properties_text(op).empty();
    if (plain && name == "func.return" && m_.num_results(op) == 0) {
      print_return(out, op, indent, function_body);
      return;
    }
    if (plain && name == "func.call") {
      const auto* callee = m_.find_attribute(op, "callee");
      if (callee != nullptr && callee->value.starts_with('@')) {
        print_call(out, op, indent, function_body, callee->value);
        return;
      }
    }
    print_generic(out, op, indent);
  }

  /// `[%r = ] D.OP <custom form> [loc]`; false (nothing printed) when the op's data has no
  /// custom spelling.
  bool print_custom_form(std::string& out, op_ref op, const op_syntax& syn, std::size_t indent) {
    std::string body;
    syntax_detail::op_form_printer<printer> fp(*this, m_, syn, op, indent, o_.forms == op_forms::custom);
    if (!fp.print_custom(body)) return false;
    out.append(indent, ' ');
    print_results(out, op);
    out += m_.name(op);
    out += body;
    append_loc(out, m_.loc_text(op));
    out += '\n';
    return true;
  }
  /// `"D.OP"(operands) <{inherent}> (regions) {discardable} : type`, as MLIR 22 prints a
  /// registered op generically.
  void print_generic_with_properties(std::string& out, op_ref op, const op_syntax& syn, std::size_t indent) {
    syntax_detail::op_form_printer<printer> fp(*this, m_, syn, op, indent);
    out.append(indent, ' ');
    print_results(out, op);
    out += '"';
    out += m_.name(op);
    out += "\"(";
    print_operands(out, op);
    out += ')';
    if (auto props = fp.properties_text(); !props.empty()) {
      out += " <";
      out += props;
      out += '>';
    }
    print_generic_regions(out, op, indent);
    if (auto attrs = fp.discardable_text(); !attrs.empty()) {
      out += ' ';
      out += attrs;
    }
    out += " : ";
    print_function_type(out, op);
    append_loc(out, m_.loc_text(op));
    out += '\n';
  }
  void print_generic_regions(std::string& out, op_ref op, std::size_t indent) {
    if (!m_.has_region(op)) return;
    out += " (";
    bool first = true;
    for (const auto b : m_.region_blocks(op)) {
      if (!first) out += ", ";
      first = false;
      print_region(out, b, indent);
    }
    out += ')';
  }

 public:
  // For the op-syntax printer (syntax/op_printer.hpp).
  void append_value(std::string& out, value_ref v) const { append_value_impl(out, v); }
  /// `%x: T [loc]` of a block argument printed outside its region's header.
  void append_region_argument(std::string& out, value_ref v) const {
    append_value_impl(out, v);
    out += ": ";
    out += m_.type_text(v);
    append_loc(out, m_.arg_loc_text(v));
  }
  /// `{ ops }` without the entry block's header (its arguments were printed by the op).
  void print_region_body(std::string& out, block_ref b, std::size_t indent) {
    out += "{\n";
    for (auto o : m_.ops(b)) print_op(out, o, indent + 2, false);
    out.append(indent, ' ');
    out += '}';
  }
  void print_region(std::string& out, block_ref b, std::size_t indent) { print_region_impl(out, b, indent); }
  /// Names `from`'s entry-block arguments as `to`'s (a custom form that declares the arguments
  /// of sibling regions once); false, naming nothing, when another value printed in `from`
  /// already has one of those names.
  bool share_argument_names(block_ref from, block_ref to) {
    const auto fa = m_.arguments(from), ta = m_.arguments(to);
    if (fa.size() != ta.size()) return false;
    bool same = true;
    for (std::size_t k = 0; k < fa.size(); ++k) same = same && arg_names_[fa[k].id] == arg_names_[ta[k].id];
    if (same) return true;
    std::unordered_set<std::string> wanted;
    for (auto a : ta) wanted.insert(arg_names_[a.id]);
    bool clash = false;
    auto visit = [&](auto&& self, block_ref b, bool entry) -> void {
      if (!entry)
        for (auto a : m_.arguments(b)) clash = clash || wanted.contains(arg_names_[a.id]);
      for (auto o : m_.ops(b)) {
        if (m_.num_results(o) > 0) clash = clash || wanted.contains(op_names_[o.id]);
        if (auto it = split_names_.find(o.id); it != split_names_.end())
          for (const auto& n : it->second) clash = clash || wanted.contains(n);
        for (const auto r : m_.region_blocks(o)) self(self, r, false);
      }
    };
    visit(visit, from, true);
    if (clash) return false;
    for (std::size_t k = 0; k < fa.size(); ++k) arg_names_[fa[k].id] = arg_names_[ta[k].id];
    return true;
  }

 private:
  void print_results(std::string& out, op_ref op) const {
    const auto n = m_.num_results(op);
    if (n == 0) return;
    if (auto it = split_names_.find(op.id); it != split_names_.end() && op_scope_[op.id] == scope_) {
      const auto groups = m_.result_group_hints(op);
      for (std::size_t g = 0; g < groups.size(); ++g) {
        if (g != 0) out += ", ";
        out += '%';
        out += it->second[g];
        if (groups[g].count > 1) {
          out += ':';
          out += std::to_string(groups[g].count);
        }
      }
      out += " = ";
      return;
    }
    if (op_scope_[op.id] == scope_ && !op_names_[op.id].empty()) {
      out += '%';
      out += op_names_[op.id];
    } else {
      out += "%<<UNKNOWN SSA VALUE>>";
    }
    if (n > 1) {
      out += ':';
      out += std::to_string(n);
    }
    out += " = ";
  }
  void print_operands(std::string& out, op_ref op) const {
    bool first = true;
    for (auto v : m_.operands(op)) {
      if (!first) out += ", ";
      first = false;
      append_value(out, v);
    }
  }
  void print_operand_types(std::string& out, op_ref op) const {
    bool first = true;
    for (auto v : m_.operands(op)) {
      if (!first) out += ", ";
      first = false;
      out += type_of(v);
    }
  }
  void print_attr_list(std::string& out, op_ref op, std::string_view skip = {}) const {
    bool first = true;
    for (auto& a : m_.attributes(op)) {
      if (!skip.empty() && a.name == skip) continue;
      if (!first) out += ", ";
      first = false;
      out += a.name;
      if (!a.value.empty()) {
        out += " = ";
        out += a.value;
      }
    }
  }
  bool has_attrs(op_ref op, std::string_view skip = {}) const {
    for (auto& a : m_.attributes(op))
      if (skip.empty() || a.name != skip) return true;
    return false;
  }
  /// `(A, B) -> R`: results bare when there is one (parenthesised if it starts with '(').
  void print_function_type(std::string& out, op_ref op) const {
    out += '(';
    print_operand_types(out, op);
    out += ") -> ";
    const auto n = m_.num_results(op);
    if (n == 1) {
      const auto t = m_.type_text(m_.result(op, 0));
      const bool paren = t.starts_with('(');
      if (paren) out += '(';
      out += t;
      if (paren) out += ')';
      return;
    }
    out += '(';
    for (std::size_t i = 0; i < n; ++i) {
      if (i) out += ", ";
      out += m_.type_text(m_.result(op, i));
    }
    out += ')';
  }

  void print_generic(std::string& out, op_ref op, std::size_t indent) {
    out.append(indent, ' ');
    print_results(out, op);
    out += '"';
    out += m_.name(op);
    out += "\"(";
    print_operands(out, op);
    out += ')';
    if (!m_.properties_text(op).empty()) {
      const auto& props = m_.properties_text(op);
      out += " <";
      out += props;
      if (props.ends_with('-')) out += ' ';  // not an arrow "->"
      out += '>';
    }
    print_generic_regions(out, op, indent);
    if (has_attrs(op)) {
      out += " {";
      print_attr_list(out, op);
      out += '}';
    }
    out += " : ";
    print_function_type(out, op);
    append_loc(out, m_.loc_text(op));
    out += '\n';
  }

  void print_region_impl(std::string& out, block_ref b, std::size_t indent) {
    out += "{\n";
    const auto args = m_.arguments(b);
    if (!args.empty()) {
      out.append(indent, ' ');
      out += "^bb0(";
      for (std::size_t i = 0; i < args.size(); ++i) {
        if (i) out += ", ";
        append_value(out, args[i]);
        out += ": ";
        out += m_.type_text(args[i]);
        append_loc(out, m_.arg_loc_text(args[i]));
      }
      out += "):\n";
    } else if (m_.explicit_block(b) && m_.empty(b)) {
      out.append(indent, ' ');  // a region holding one empty block, as mlir-opt prints it
      out += "^bb0:\n";
    }
    for (auto o : m_.ops(b)) print_op(out, o, indent + 2, false);
    out.append(indent, ' ');
    out += '}';
  }

  void print_return(std::string& out, op_ref op, std::size_t indent, bool function_body) {
    out.append(indent, ' ');
    out += function_body ? "return" : "func.return";
    if (has_attrs(op)) {
      out += " {";
      print_attr_list(out, op);
      out += '}';
    }
    if (m_.num_operands(op) > 0) {
      out += ' ';
      print_operands(out, op);
      out += " : ";
      print_operand_types(out, op);
    }
    append_loc(out, m_.loc_text(op));
    out += '\n';
  }

  void print_call(std::string& out, op_ref op, std::size_t indent, bool function_body,
                  std::string_view callee) {
    out.append(indent, ' ');
    print_results(out, op);
    out += function_body ? "call " : "func.call ";
    out += callee;
    out += '(';
    print_operands(out, op);
    out += ')';
    if (has_attrs(op, "callee")) {
      out += " {";
      print_attr_list(out, op, "callee");
      out += '}';
    }
    out += " : ";
    print_function_type(out, op);
    append_loc(out, m_.loc_text(op));
    out += '\n';
  }

  void print_function(std::string& out, op_ref op, std::size_t indent) {
    const auto& f = m_.function(op);
    const bool definition = m_.has_region(op) && !f.declaration;
    const auto saved_scope = scope_;
    if (definition) name_function(op);
    out.append(indent, ' ');
    out += "func.func ";
    if (!f.visibility.empty()) {
      out += f.visibility;
      out += ' ';
    }
    out += '@';
    append_symbol(out, f.sym_name);
    out += '(';
    auto arg_attr = [&](std::size_t i) {
      if (i < f.arg_attrs.size() && !f.arg_attrs[i].empty()) {
        out += ' ';
        out += f.arg_attrs[i];
      }
    };
    if (definition) {
      const auto args = m_.arguments(m_.region_block(op));
      for (std::size_t i = 0; i < args.size(); ++i) {
        if (i) out += ", ";
        append_value(out, args[i]);
        out += ": ";
        out += m_.type_text(args[i]);
        arg_attr(i);
        append_loc(out, m_.arg_loc_text(args[i]));
      }
    } else {
      for (std::size_t i = 0; i < f.decl_arg_types.size(); ++i) {
        if (i) out += ", ";
        out += m_.type_text(f.decl_arg_types[i]);
        arg_attr(i);
      }
    }
    out += ')';
    const auto& rs = f.result_types;
    if (!rs.empty()) {
      const bool any_attr = std::any_of(f.result_attrs.begin(), f.result_attrs.end(),
                                        [](const std::string& a) { return !a.empty(); });
      out += " -> ";
      if (rs.size() == 1 && !any_attr && !m_.type_text(rs[0]).starts_with('(')) {
        out += m_.type_text(rs[0]);
      } else {
        out += '(';
        for (std::size_t i = 0; i < rs.size(); ++i) {
          if (i) out += ", ";
          out += m_.type_text(rs[i]);
          if (i < f.result_attrs.size() && !f.result_attrs[i].empty()) {
            out += ' ';
            out += f.result_attrs[i];
          }
        }
        out += ')';
      }
    }
    if (has_attrs(op)) {
      out += " attributes {";
      print_attr_list(out, op);
      out += '}';
    }
    if (definition) {
      out += " {\n";
      for (auto o : m_.ops(m_.region_block(op))) print_op(out, o, indent + 2, true);
      out.append(indent, ' ');
      out += '}';
    }
    append_loc(out, m_.loc_text(op));
    out += '\n';
    scope_ = saved_scope;
  }

  /// A dictionary text `{...}` of `as` entries, sorted by name (MLIR's dictionaries are).
  static std::string sorted_dict(std::vector<std::pair<std::string, std::string>> as) {
    std::stable_sort(as.begin(), as.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string t = "{";
    for (std::size_t i = 0; i < as.size(); ++i) {
      if (i) t += ", ";
      t += as[i].first;
      if (!as[i].second.empty()) {
        t += " = ";
        t += as[i].second;
      }
    }
    return t + "}";
  }
  /// func.call generic: callee (and arg_attrs, res_attrs, no_inline) as properties.
  void print_generic_call(std::string& out, op_ref op, std::size_t indent) {
    std::vector<std::pair<std::string, std::string>> props;
    std::string rest;
    for (const auto& a : m_.attributes(op)) {
      if (a.name == "callee" || a.name == "arg_attrs" || a.name == "res_attrs" || a.name == "no_inline") {
        props.emplace_back(a.name, a.value);
        continue;
      }
      rest += rest.empty() ? "{" : ", ";
      rest += a.name;
      if (!a.value.empty()) rest += " = " + a.value;
    }
    out.append(indent, ' ');
    print_results(out, op);
    out += "\"func.call\"(";
    print_operands(out, op);
    out += ')';
    if (!props.empty()) out += " <" + sorted_dict(std::move(props)) + ">";
    if (!rest.empty()) out += ' ' + rest + '}';
    out += " : ";
    print_function_type(out, op);
    append_loc(out, m_.loc_text(op));
    out += '\n';
  }
  /// `"func.func"() <{function_type = ..., sym_name = ..., ...}> ({ body }) {attrs} : () -> ()`.
  void print_function_generic(std::string& out, op_ref op, std::size_t indent) {
    const auto& f = m_.function(op);
    const bool definition = m_.has_region(op) && !f.declaration;
    const auto saved_scope = scope_;
    if (definition) name_function(op);
    std::vector<std::pair<std::string, std::string>> props;
    std::string ft = "(";
    const auto nargs = definition ? m_.arguments(m_.region_block(op)).size() : f.decl_arg_types.size();
    for (std::size_t i = 0; i < nargs; ++i) {
      if (i) ft += ", ";
      ft += definition ? m_.type_text(m_.arguments(m_.region_block(op))[i]) : m_.type_text(f.decl_arg_types[i]);
    }
    ft += ") -> ";
    const auto& rs = f.result_types;
    const bool wrap = rs.size() != 1 || m_.type_text(rs[0]).starts_with('(');
    if (wrap) ft += '(';
    for (std::size_t i = 0; i < rs.size(); ++i) {
      if (i) ft += ", ";
      ft += m_.type_text(rs[i]);
    }
    if (wrap) ft += ')';
    props.emplace_back("function_type", ft);
    props.emplace_back("sym_name", mlir_string_literal(f.sym_name));
    if (!f.visibility.empty()) props.emplace_back("sym_visibility", mlir_string_literal(f.visibility));
    auto dict_array = [](const std::vector<std::string>& ds) {
      std::string t = "[";
      for (std::size_t i = 0; i < ds.size(); ++i) {
        if (i) t += ", ";
        t += ds[i].empty() ? std::string("{}") : ds[i];
      }
      return t + "]";
    };
    auto any = [](const std::vector<std::string>& ds) {
      return std::any_of(ds.begin(), ds.end(), [](const std::string& d) { return !d.empty(); });
    };
    if (any(f.arg_attrs)) props.emplace_back("arg_attrs", dict_array(f.arg_attrs));
    if (any(f.result_attrs)) props.emplace_back("res_attrs", dict_array(f.result_attrs));
    std::string rest;
    for (const auto& a : m_.attributes(op)) {
      if (a.name == "no_inline") {
        props.emplace_back(a.name, a.value);
        continue;
      }
      rest += rest.empty() ? "{" : ", ";
      rest += a.name;
      if (!a.value.empty()) rest += " = " + a.value;
    }
    out.append(indent, ' ');
    out += "\"func.func\"() <" + sorted_dict(std::move(props)) + "> (";
    if (definition) {
      print_region_impl(out, m_.region_block(op), indent);
    } else {
      out += "{\n";
      out.append(indent, ' ');
      out += '}';
    }
    out += ')';
    if (!rest.empty()) out += ' ' + rest + '}';
    out += " : () -> ()";
    append_loc(out, m_.loc_text(op));
    out += '\n';
    scope_ = saved_scope;
  }

  const module& m_;
  print_options o_;
  bool generic_ = o_.forms == op_forms::generic;
  std::vector<std::string> op_names_, arg_names_;
  std::string inherited_loc_;  // see append_loc
  // Names of the result groups of ops printed as several (split_groups); looked up, never iterated.
  std::unordered_map<std::uint32_t, std::vector<std::string>> split_names_;
  std::vector<std::uint32_t> op_scope_, arg_scope_;
  std::uint32_t scope_counter_ = 0, scope_ = 0, top_scope_ = 0;
  std::uint32_t top_values_ = 0;
  bool top_named_ = false;
};

}  // namespace detail

/// Appends the module's text to `os`. Complexity: O(size of the module and of its texts).
inline void print(std::ostream& os, const module& m, const print_options& options = {}) {
  std::string out;
  detail::printer(m, options).print_module(out);
  os << out;
}

/// The module's text.
inline std::string print(const module& m, const print_options& options = {}) {
  std::string out;
  detail::printer(m, options).print_module(out);
  return out;
}

/// One op (with its region, if any), named as in the whole module's text; for diagnostics.
inline std::string print_op(const module& m, op_ref op, const print_options& options = {}) {
  std::string out;
  detail::printer(m, options).print_single(out, op);
  return out;
}

}  // namespace neuronrw::ref
