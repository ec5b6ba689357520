// neuronrw/ir/host/text/printer.hpp — the printer of the host text format (ir/host/text.hpp):
// names every variable and WindowBuffer of a function in program order, then writes the
// `@pl.program` class, choosing for each call the plain form when it reads back as the same call
// and the `pl._dump.*` forms otherwise.
//
//   print_program(const program&) -> std::string       deterministic; ends with a newline
//   text_detail::printer                                what print_program runs
//
// Customization points: none.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <neuronrw/ir/host/ir.hpp>
#include <neuronrw/ir/host/text/common.hpp>

namespace neuronrw::host {

namespace text_detail {

class printer {
 public:
  std::string print(const program& p) {
    if (p.imports.empty()) {
      out_ = "import pypto.language as pl\nimport pypto.language.distributed as pld\n";
    } else {
      // As written; plus pypto's own lines when no import binds `pl` / `pld` (what the printer
      // writes itself, a pass's new calls included, names them so).
      bool pl = false, pld = false;
      for (auto& d : p.imports) {
        const std::string full = d.name.empty() ? d.module : d.module + "." + d.name;
        const std::string bound = !d.alias.empty() ? d.alias : d.name.empty() ? d.module : d.name;
        pl = pl || (full == "pypto.language" && bound == "pl");
        pld = pld || (full == "pypto.language.distributed" && bound == "pld");
      }
      for (auto& d : p.imports) {
        out_ += d.name.empty() ? "import " + d.module : "from " + d.module + " import " + d.name;
        if (!d.alias.empty()) out_ += " as " + d.alias;
        out_ += '\n';
      }
      if (!pl) out_ += "import pypto.language as pl\n";
      if (!pld) out_ += "import pypto.language.distributed as pld\n";
    }
    for (auto& c : p.constants) {
      reserved_.push_back(c.name);
      if (c.dynamic) dynamic_.push_back(c.name);
    }
    if (!p.constants.empty()) {
      out_ += '\n';
      for (auto& c : p.constants) out_ += c.name + " = " + expr_text(c.value.get()) + "\n";
    }
    out_ += "\n\n@pl.program\nclass ";
    out_ += is_ident(p.name) && !is_reserved(p.name) ? p.name : sanitize(p.name);
    out_ += ":\n";
    if (!p.doc.empty()) out_ += "    " + quote(p.doc) + "\n";
    if (p.functions.empty() && p.doc.empty()) out_ += "    pass\n";
    bool first = true;
    for (auto& f : p.functions) {
      if (!first) out_ += '\n';
      first = false;
      print_function(*f);
    }
    return std::move(out_);
  }

 private:
  std::string out_;
  int indent_ = 0;
  std::vector<std::string> reserved_;  // names a variable must not print as (module constants)
  std::vector<std::string> dynamic_;   // the module's dynamic dimensions (pl.dynamic): bare symbols
  // Per function: printed names, WindowBuffer labels, and the order things were first seen in.
  std::unordered_map<const var*, std::string> names_;
  std::vector<const var*> defs_, refs_;
  std::unordered_set<const var*> seen_vars_;
  std::unordered_set<const var*> defined_;
  std::unordered_map<const window_buffer*, std::string> labels_;
  std::vector<const window_buffer*> windows_;

  void line_start() { out_.append(static_cast<std::size_t>(indent_) * 4, ' '); }

  // ---- naming --------------------------------------------------------------------------
  void see_def(const var* v) {
    if (!v) return;
    if (defined_.insert(v).second) defs_.push_back(v);
    seen_vars_.insert(v);
    see_type(v->type);
  }
  void see_ref(const var* v) {
    if (!v || !seen_vars_.insert(v).second) return;
    refs_.push_back(v);
    see_type(v->type);
  }
  void see_window(const window_ptr& w) {
    if (!w || labels_.count(w.get())) return;
    labels_[w.get()];  // reserve: a size expression may mention this window again
    windows_.push_back(w.get());
    see_ref(w->base);
    if (w->size) see_expr(*w->size);
  }
  void see_type(const type& t) {
    for (auto& d : t.shape) {
      see_ref(d.sym);
      if (d.e) see_expr(*d.e);
    }
    for (auto& x : t.elements) see_type(x);
    for (auto& x : t.extras)
      if (x) see_expr(*x);
    see_window(t.window);
  }
  void see_keywords(const std::vector<keyword>& ks) {
    for (auto& k : ks)
      if (k.value) see_expr(*k.value);
  }
  void see_expr(const expr& e) {
    if (e.kind == expr_kind::var_ref) see_ref(e.ref);
    for (auto& a : e.args)
      if (a) see_expr(*a);
    if (e.call) {
      see_keywords(e.call->kwargs);
      see_keywords(e.call->attrs);
      see_type(e.call->type);
    }
  }
  void see_stmt(const stmt& s) {
    if (s.scope) {
      for (auto& w : s.scope->slots) see_window(w);
      see_keywords(s.scope->attrs);
    }
    for (const expr* e : {s.start.get(), s.stop.get(), s.step.get(), s.value.get()})
      if (e) see_expr(*e);
    for (auto& v : s.values)
      if (v) see_expr(*v);
    if (s.loop) see_keywords(s.loop->kwargs);
    if (s.target) see_def(s.target.get());
    for (auto& t : s.targets) see_def(t.get());
    if (s.loop)
      for (auto& c : s.loop->carried) see_def(c.get());
    for (auto& b : s.body) see_stmt(*b);
  }

  void name_function(const function& f) {
    names_.clear();
    defs_.clear();
    refs_.clear();
    seen_vars_.clear();
    defined_.clear();
    labels_.clear();
    windows_.clear();
    for (auto& v : f.params) see_def(v.get());
    if (f.return_type) see_type(*f.return_type);
    for (auto& s : f.body) see_stmt(*s);
    std::unordered_set<std::string> used(reserved_.begin(), reserved_.end());  // module constants
    auto assign = [&](const var* v) {
      const std::string base = sanitize(v->name);
      std::string cand = base;
      for (std::size_t n = 1; used.count(cand); ++n) cand = base + "_" + std::to_string(n);
      used.insert(cand);
      names_[v] = std::move(cand);
    };
    for (const var* v : defs_) assign(v);
    for (const var* v : refs_)
      if (!defined_.count(v)) assign(v);
    std::unordered_set<std::string> used_labels;
    for (const window_buffer* w : windows_) {
      const std::string base = w->base ? name(w->base) + "_window" : std::string("window");
      std::string cand = base;
      for (std::size_t n = 1; used_labels.count(cand); ++n) cand = base + "_" + std::to_string(n);
      used_labels.insert(cand);
      labels_[w] = std::move(cand);
    }
  }

  std::string name(const var* v) const {
    if (!v) return "None";
    auto it = names_.find(v);
    return it != names_.end() ? it->second : sanitize(v->name);
  }

  // ---- types ---------------------------------------------------------------------------
  std::string dims(const std::vector<dim>& shape) const {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
      if (i) s += ", ";
      s += shape[i].e ? expr_text(shape[i].e.get()) : shape[i].sym ? name(shape[i].sym) : std::to_string(shape[i].value);
    }
    return s + "]";
  }
  std::string window_ref(const window_buffer* w) const {
    auto it = labels_.find(w);
    return "pl._dump.window_ref(" + quote(it != labels_.end() ? it->second : std::string("window")) + ")";
  }
  /// The arguments after a tensor's or tile's dtype, as written.
  std::string extras_text(const type& t) const {
    std::string s;
    for (auto& x : t.extras) s += ", " + expr_text(x.get());
    return s;
  }
  std::string type_text(const type& t) const {
    switch (t.kind) {
      case type_kind::unknown: return "pl.UnknownType";
      case type_kind::ptr: return "pl.Ptr";
      case type_kind::comm_ctx: return "pld.CommCtx";
      case type_kind::scalar: return "pl.Scalar[pl." + t.dtype + "]";
      case type_kind::tensor: return "pl.Tensor[" + dims(t.shape) + ", pl." + t.dtype + extras_text(t) + "]";
      case type_kind::tile: return "pl.Tile[" + dims(t.shape) + ", pl." + t.dtype + extras_text(t) + "]";
      case type_kind::distributed_tensor: {
        std::string s = "pld.DistributedTensor[" + dims(t.shape) + ", pl." + t.dtype;
        if (t.window) s += ", " + window_ref(t.window.get());
        return s + "]";
      }
      case type_kind::tuple: {
        std::string s = "tuple[";
        for (std::size_t i = 0; i < t.elements.size(); ++i) s += (i ? ", " : "") + type_text(t.elements[i]);
        return s + "]";
      }
    }
    return "pl.UnknownType";
  }

  // ---- expressions -----------------------------------------------------------------------
  std::string dict(const std::vector<keyword>& ks) const {
    std::string s = "{";
    for (std::size_t i = 0; i < ks.size(); ++i) {
      if (i) s += ", ";
      s += quote(ks[i].name) + ": " + expr_text(ks[i].value.get());
    }
    return s + "}";
  }
  static bool unique_names(const std::vector<keyword>& ks) {
    for (std::size_t i = 0; i < ks.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (ks[i].name == ks[j].name) return false;
    return true;
  }
  /// The plain form re-creates exactly this call (callee, keyword split, recorded type)?
  static bool plain_form(const expr& c) {
    if (!unique_names(c.call->kwargs) || !unique_names(c.call->attrs)) return false;
    for (auto& k : c.call->kwargs)
      if (!is_ident(k.name) || k.name == "attrs" ||
          (c.callee == callee_kind::function && k.name == "device"))
        return false;
    if (c.callee == callee_kind::op) {
      if (!is_dotted(c.text) || starts_with(c.text, "pl._dump.") || starts_with(c.text, "self.")) return false;
      // An allocation in pypto's shape form (or with dtype=), which only the recorded form keeps:
      // the plain form reads back as the byte form (or pypto's error).
      if (c.text == ops::alloc_window_buffer) {
        if (!c.args.empty() && c.args[0] && (c.args[0]->kind == expr_kind::list || c.args[0]->kind == expr_kind::tuple))
          return false;
        for (auto& k : c.call->kwargs)
          if (k.name == "dtype") return false;
      }
    } else if (!is_ident(c.text)) {
      return false;
    }
    return same_type(infer_call_type(c), c.call->type);
  }
  std::string args_text(const expr& c, bool& any) const {
    std::string s;
    for (auto& a : c.args) {
      s += any ? ", " : "";
      any = true;
      s += expr_text(a.get());
    }
    return s;
  }
  /// An op call's callee as the program spells it (pld.window or pld.tensor.window).
  static const std::string& op_text(const expr& c) { return c.call->spelling.empty() ? c.text : c.call->spelling; }
  std::string call_text(const expr& c, bool show_implicit = false, bool force_dump = false) const {
    bool any = false;
    std::string s;
    if (force_dump || !plain_form(c)) {
      s = "pl._dump.call(" + (c.callee == callee_kind::op ? quote(op_text(c)) : "self." + c.text) + ", [";
      s += args_text(c, any) + "], " + type_text(c.call->type);
      if (!c.call->kwargs.empty()) s += ", kwargs=" + dict(c.call->kwargs);
      if (!c.call->attrs.empty()) s += ", attrs=" + dict(c.call->attrs);
      return s + ")";
    }
    s = (c.callee == callee_kind::op ? op_text(c) : "self." + c.text) + "(" + args_text(c, any);
    for (auto& k : c.call->kwargs) {
      if (!show_implicit && k.value && (k.value->flags & expr_flags::implicit)) continue;  // derived: not written
      s += any ? ", " : "";
      any = true;
      s += k.name + "=" + expr_text(k.value.get());
    }
    std::size_t first_attr = 0;
    if (c.callee == callee_kind::function && !c.call->attrs.empty() && c.call->attrs[0].name == "device") {
      s += any ? ", " : "";
      any = true;
      s += "device=" + expr_text(c.call->attrs[0].value.get());
      first_attr = 1;
    }
    if (first_attr < c.call->attrs.size()) {
      s += any ? ", attrs={" : "attrs={";
      for (std::size_t i = first_attr; i < c.call->attrs.size(); ++i) {
        if (i > first_attr) s += ", ";
        s += quote(c.call->attrs[i].name) + ": " + expr_text(c.call->attrs[i].value.get());
      }
      s += "}";
    }
    return s + ")";
  }
  /// Python's binding strength of an expression: atoms 9, `**` 8, unary `- + ~` 7, `* / // %`
  /// 6, `+ -` 5, shifts 4, `&` 3, `^` 2, `|` 1, comparisons 0, `not` -1, `and` -2, `or` -3.
  static int precedence(const expr& e) {
    if (e.kind == expr_kind::int_const && e.text.empty() && e.value < 0) return 7;  // `-5` reads as unary
    if (e.kind == expr_kind::boolean) {
      switch (bool_op_of(e)) {
        case bool_op::not_: return -1;
        case bool_op::and_: return -2;
        case bool_op::or_: return -3;
        default: return 0;
      }
    }
    if (e.kind != expr_kind::arith) return 9;
    switch (op_of(e)) {
      case arith_op::bitor_: return 1;
      case arith_op::bitxor: return 2;
      case arith_op::bitand_: return 3;
      case arith_op::lshift:
      case arith_op::rshift: return 4;
      case arith_op::add:
      case arith_op::sub: return 5;
      case arith_op::mul:
      case arith_op::truediv:
      case arith_op::floordiv:
      case arith_op::mod: return 6;
      case arith_op::neg:
      case arith_op::pos:
      case arith_op::invert: return 7;
      case arith_op::pow: return 8;
    }
    return 9;
  }
  std::string operand_text(const expr* e, int need) const {
    if (e && !(e->flags & expr_flags::parenthesized) && precedence(*e) < need) return "(" + expr_text(e) + ")";
    return expr_text(e);
  }
  std::string arith_text(const expr& e) const {
    const arith_op op = op_of(e);
    const int p = precedence(e);
    if (is_unary(op)) {
      const expr* x = e.args.empty() ? nullptr : e.args[0].get();
      // `-3` would read back as the literal -3: the negation of a literal is written `-(3)`.
      if (op == arith_op::neg && x && x->kind == expr_kind::int_const && x->text.empty() && x->value >= 0 &&
          !(x->flags & expr_flags::parenthesized))
        return "-(" + expr_text(x) + ")";
      return std::string(spelling(op)) + operand_text(x, p);
    }
    if (e.args.size() != 2) return "None";
    // `**` groups to the right and its left operand is a primary: `(a ** b) ** c`, `(-a) ** b`,
    // `a ** -b`; the other operators group to the left.
    const int left = op == arith_op::pow ? p + 1 : p, right = op == arith_op::pow ? 7 : p + 1;
    return operand_text(e.args[0].get(), left) + " " + std::string(spelling(op)) + " " + operand_text(e.args[1].get(), right);
  }
  std::string bool_text(const expr& e) const {
    static constexpr const char* ops_text[] = {" == ", " != ", " < ", " <= ", " > ", " >= ", " and ", " or ", "not "};
    const bool_op op = bool_op_of(e);
    const int p = precedence(e);
    if (op == bool_op::not_) return std::string("not ") + operand_text(e.args.empty() ? nullptr : e.args[0].get(), p);
    if (e.args.size() != 2) return "None";
    // A comparison's operands bind tighter than any comparison (`(a < b) == c` keeps its
    // parentheses: Python would chain `a < b == c`); `and` and `or` group to the left.
    const int left = p == 0 ? 1 : p;
    return operand_text(e.args[0].get(), left) + ops_text[static_cast<int>(op)] + operand_text(e.args[1].get(), p + 1);
  }
  std::string expr_text(const expr* e) const {
    if (!e) return "None";
    if (e->flags & expr_flags::parenthesized) return "(" + bare_text(e) + ")";
    return bare_text(e);
  }
  std::string bare_text(const expr* e) const {
    switch (e->kind) {
      case expr_kind::var_ref: return name(e->ref);
      case expr_kind::int_const: return e->text.empty() ? std::to_string(e->value) : e->text;
      case expr_kind::arith: return arith_text(*e);
      case expr_kind::boolean: return bool_text(*e);
      case expr_kind::float_const: return e->text.empty() ? std::string("0.0") : e->text;
      case expr_kind::tuple: {
        std::string s = "(";
        for (std::size_t i = 0; i < e->args.size(); ++i) s += (i ? ", " : "") + expr_text(e->args[i].get());
        return s + (e->args.size() == 1 ? ",)" : ")");
      }
      case expr_kind::bool_const: return e->value ? "True" : "False";
      case expr_kind::str_const: return quote(e->text);
      case expr_kind::symbol:
        if (std::find(dynamic_.begin(), dynamic_.end(), e->text) != dynamic_.end()) return e->text;
        if (is_dotted(e->text) && !starts_with(e->text, "pl._dump.") && !starts_with(e->text, "self."))
          return e->text;
        return "pl._dump.symbol(" + quote(e->text) + ")";
      case expr_kind::none: return "None";
      case expr_kind::list: {
        std::string s = "[";
        for (std::size_t i = 0; i < e->args.size(); ++i) s += (i ? ", " : "") + expr_text(e->args[i].get());
        return s + "]";
      }
      case expr_kind::call: return call_text(*e);
      case expr_kind::slice: {
        std::string s;
        std::size_t k = 0;
        const auto part = [&](std::int64_t bit) {
          if ((e->value & bit) && k < e->args.size()) s += expr_text(e->args[k++].get());
        };
        part(slice_parts::lower);
        s += ':';
        part(slice_parts::upper);
        if ((e->value & slice_parts::step) || (e->flags & expr_flags::step_colon)) {
          s += ':';
          part(slice_parts::step);
        }
        return s;
      }
      case expr_kind::subscript:
        if (e->args.size() != 2) return "None";
        if (const expr* i = e->args[1].get(); i && i->kind == expr_kind::tuple && !(i->flags & expr_flags::parenthesized)) {
          std::string s = operand_text(e->args[0].get(), 9) + "[";
          for (std::size_t k = 0; k < i->args.size(); ++k) s += (k ? ", " : "") + expr_text(i->args[k].get());
          return s + (i->args.size() == 1 ? ",]" : "]");
        }
        return operand_text(e->args[0].get(), 9) + "[" + expr_text(e->args[1].get()) + "]";
    }
    return "None";
  }

  // ---- statements ------------------------------------------------------------------------
  /// `buf = pld.tensor.alloc_window_buffer(size, name="n")` keeps its logical name apart from the
  /// variable: when the two differ (a renamed variable, a user's choice) the assignment says so
  /// with the pl._dump.alloc_window_buffer form.
  std::string assign_value(const stmt& s) const {
    const expr* v = s.value.get();
    // A name taken from the assignment target is left out, as pypto's printer does, while the
    // target still prints under it; else it is written out.
    bool implicit = false;
    if (v && v->kind == expr_kind::call && v->call && v->callee == callee_kind::op && v->text == ops::alloc_window_buffer) {
      // An allocation without any name: the plain form would read back named after its target,
      // the pl._dump.call form reads back as it is.
      bool named = false;
      for (auto& k : v->call->kwargs) named = named || k.name == "name";
      if (!named) return call_text(*v, false, true);
    }
    if (v && v->kind == expr_kind::call && v->call && v->callee == callee_kind::op && v->text == ops::alloc_window_buffer)
      for (auto& k : v->call->kwargs)
        if (k.name == "name" && k.value && (k.value->flags & expr_flags::implicit) && k.value->kind == expr_kind::str_const &&
            plain_form(*v)) {
          if (k.value->text == name(s.target.get())) return call_text(*v);
          implicit = true;  // the variable prints under another name: the name is written out below
        }
    if (v && v->kind == expr_kind::call && v->callee == callee_kind::op && v->text == ops::alloc_window_buffer &&
        v->call->spelling.empty() &&
        v->args.size() == 1 && v->call->kwargs.size() == 1 && v->call->kwargs[0].name == "name" && v->call->kwargs[0].value &&
        v->call->kwargs[0].value->kind == expr_kind::str_const && v->call->attrs.empty() && same_type(v->call->type, type::ptr()) &&
        v->call->kwargs[0].value->text != name(s.target.get()))
      return "pl._dump.alloc_window_buffer(" + expr_text(v->args[0].get()) + ", name=" +
             quote(v->call->kwargs[0].value->text) + ")";
    return implicit ? call_text(*v, true) : expr_text(v);
  }

  void print_block(const std::vector<stmt_ptr>& body) {
    ++indent_;
    if (body.empty()) {
      line_start();
      out_ += "pass\n";
    }
    for (auto& s : body) print_stmt(*s);
    --indent_;
  }

  void print_stmt(const stmt& s) {
    line_start();
    switch (s.kind) {
      case stmt_kind::assign:
        if (!s.target) {
          out_ += expr_text(s.value.get()) + "\n";
          return;
        }
        out_ += name(s.target.get());
        if (!s.value || !same_type(s.target->type, type_of(*s.value))) out_ += ": " + type_text(s.target->type);
        out_ += " = " + assign_value(s) + "\n";
        return;
      case stmt_kind::for_range: {
        if (s.loop && s.loop->iterator == "pl.while_" && !s.target && !s.loop->carried.empty()) {
          // Carried variables alone, in parentheses as written: `for (x,) in pl.while_(...)`.
          const bool parens = (s.flags & stmt_flags::parenthesized) != 0;
          out_ += parens ? "for (" : "for ";
          for (std::size_t i = 0; i < s.loop->carried.size(); ++i) out_ += (i ? ", " : "") + name(s.loop->carried[i].get());
          if (parens) out_ += s.loop->carried.size() == 1 ? ",)" : ")";
          out_ += " in pl.while_(";
          for (std::size_t i = 0; i < s.loop->kwargs.size(); ++i)
            out_ += (i ? ", " : "") + s.loop->kwargs[i].name + "=" + expr_text(s.loop->kwargs[i].value.get());
          out_ += "):\n";
          print_block(s.body);
          return;
        }
        out_ += "for " + (s.target ? name(s.target.get()) : std::string("_"));
        if (s.loop && !s.loop->carried.empty()) {
          out_ += ", (";
          for (std::size_t i = 0; i < s.loop->carried.size(); ++i) out_ += (i ? ", " : "") + name(s.loop->carried[i].get());
          out_ += s.loop->carried.size() == 1 ? ",)" : ")";
        }
        out_ += " in " + (s.loop && !s.loop->iterator.empty() ? s.loop->iterator : std::string("pl.range")) + "(";
        const bool unit_step = s.step && s.step->kind == expr_kind::int_const && s.step->value == 1;
        const bool zero_start = s.start && s.start->kind == expr_kind::int_const && s.start->value == 0;
        if (!(unit_step && zero_start)) out_ += expr_text(s.start.get()) + ", ";
        out_ += expr_text(s.stop.get());
        if (!unit_step) out_ += ", " + expr_text(s.step.get());
        if (s.loop)
          for (auto& k : s.loop->kwargs) out_ += ", " + k.name + "=" + expr_text(k.value.get());
        if (s.target && !same_type(s.target->type, type::scalar("INDEX")))
          out_ += ", var_type=" + type_text(s.target->type);
        out_ += "):\n";
        print_block(s.body);
        return;
      }
      case stmt_kind::while_loop:
        out_ += "while " + expr_text(s.value.get()) + ":\n";
        print_block(s.body);
        return;
      case stmt_kind::expr_stmt: out_ += expr_text(s.value.get()) + "\n"; return;
      case stmt_kind::ret:
        out_ += "return";
        for (std::size_t i = 0; i < s.values.size(); ++i) out_ += (i ? ", " : " ") + expr_text(s.values[i].get());
        out_ += "\n";
        return;
      case stmt_kind::comm_domain_scope: {
        out_ += "with pl._dump.comm_domain(name=" + quote(s.scope->name) + ", devices=[";
        for (std::size_t i = 0; i < s.scope->devices.size(); ++i) out_ += (i ? ", " : "") + std::to_string(s.scope->devices[i]);
        out_ += "], slots=[";
        for (std::size_t i = 0; i < s.scope->slots.size(); ++i)
          out_ += (i ? ", " : "") + (s.scope->slots[i] ? window_ref(s.scope->slots[i].get()) : std::string("None"));
        out_ += "], attrs=" + dict(s.scope->attrs) + "):\n";
        print_block(s.body);
        return;
      }
      case stmt_kind::with_scope:
        out_ += "with " + expr_text(s.value.get());
        if (s.target) out_ += " as " + name(s.target.get());
        out_ += ":\n";
        print_block(s.body);
        return;
      case stmt_kind::if_stmt: print_if(s); return;
      case stmt_kind::block:  // a branch outside its if (a program built by hand): as `if True:`
        out_ += "if True:\n";
        print_block(s.body);
        return;
      case stmt_kind::break_stmt: out_ += "break\n"; return;
      case stmt_kind::continue_stmt: out_ += "continue\n"; return;
      case stmt_kind::subscript_assign:
        out_ += (s.values.empty() ? std::string("None") : expr_text(s.values[0].get())) + " = " + expr_text(s.value.get()) + "\n";
        return;
      case stmt_kind::tuple_assign: {
        const bool parens = (s.flags & stmt_flags::parenthesized) != 0;
        if (parens) out_ += "(";
        for (std::size_t i = 0; i < s.targets.size(); ++i) out_ += (i ? ", " : "") + name(s.targets[i].get());
        if (s.targets.size() == 1) out_ += ",";
        out_ += std::string(parens ? ")" : "") + " = " + expr_text(s.value.get()) + "\n";
        return;
      }
    }
  }
  /// `if c:` (the line started), its branches, `elif` for an else branch that is one if written so.
  void print_if(const stmt& s) {
    out_ += "if " + expr_text(s.value.get()) + ":\n";
    print_block(branch(s, 0));
    if (s.body.size() < 2 || !s.body[1]) return;
    const std::vector<stmt_ptr>& orelse = branch(s, 1);
    line_start();
    if (orelse.size() == 1 && orelse[0]->kind == stmt_kind::if_stmt && (orelse[0]->flags & stmt_flags::elif)) {
      out_ += "el";
      print_if(*orelse[0]);
      return;
    }
    out_ += "else:\n";
    print_block(orelse);
  }
  static const std::vector<stmt_ptr>& branch(const stmt& s, std::size_t i) {
    static const std::vector<stmt_ptr> none;
    return i < s.body.size() && s.body[i] ? s.body[i]->body : none;
  }

  void print_function(const function& f) {
    if (!f.verbatim.empty()) {  // a kernel kept as written
      for (std::size_t b = 0; b <= f.verbatim.size();) {
        const std::size_t e = std::min(f.verbatim.find('\n', b), f.verbatim.size());
        if (e > b) out_.append("    ").append(f.verbatim, b, e - b);
        out_ += '\n';
        b = e + 1;
      }
      return;
    }
    name_function(f);
    indent_ = 1;
    line_start();
    out_ += "@pl.function";
    if (!f.type.empty() || !f.level.empty() || !f.role.empty() || !f.options.empty() || !f.attrs.empty()) {
      std::string kw;
      if (!f.type.empty()) kw += "type=pl.FunctionType." + f.type;
      if (!f.level.empty()) kw += (kw.empty() ? "" : ", ") + std::string("level=pl.Level.") + f.level;
      if (!f.role.empty()) kw += (kw.empty() ? "" : ", ") + std::string("role=pl.Role.") + f.role;
      for (auto& o : f.options) kw += (kw.empty() ? "" : ", ") + o.name + "=" + expr_text(o.value.get());
      if (!f.attrs.empty()) kw += (kw.empty() ? "" : ", ") + std::string("attrs=") + dict(f.attrs);
      out_ += "(" + kw + ")";
    }
    out_ += "\n";
    line_start();
    out_ += "def " + f.name + "(self";
    for (std::size_t i = 0; i < f.params.size(); ++i) {
      const var* p = f.params[i].get();
      out_ += ", " + name(p);
      const param_direction dir = i < f.directions.size() ? f.directions[i] : param_direction::in;
      if (dir != param_direction::in)
        out_ += std::string(dir == param_direction::out ? ": pl.Out[" : ": pl.InOut[") + type_text(p->type) + "]";
      else if (p->type.kind != type_kind::unknown)
        out_ += ": " + type_text(p->type);
    }
    out_ += ")";
    if (f.return_type) out_ += " -> " + type_text(*f.return_type);
    out_ += ":\n";
    indent_ = 2;
    if (!f.doc.empty()) {
      line_start();
      out_ += quote(f.doc) + "\n";
    }
    // WindowBuffers first: the parser registers them, then binds base and size to the body.
    for (const window_buffer* w : windows_) {
      line_start();
      out_ += "pl._dump.window_buffer(" + quote(labels_[w]) + ", base=" +
              (w->base ? quote(name(w->base)) : std::string("None")) + ", size=" + expr_text(w->size.get()) +
              ", load_from_host=" + (w->load_from_host ? "True" : "False") +
              ", store_to_host=" + (w->store_to_host ? "True" : "False") + ")\n";
    }
    if (f.body.empty() && windows_.empty() && f.doc.empty()) {
      line_start();
      out_ += "pass\n";
    }
    for (auto& s : f.body) print_stmt(*s);
    indent_ = 0;
  }
};

}  // namespace text_detail

/// `print_program(p)`: the text of `p`. Deterministic: the same program prints byte-identically,
/// whatever its pointer values (names, labels and order all come from a walk in program order).
/// O(size of p).
inline std::string print_program(const program& p) { return text_detail::printer{}.print(p); }

}  // namespace neuronrw::host
