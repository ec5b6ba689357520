// neuronrw/ir/ref/python_emitter.hpp — the consumer of FusionToComposite on the reference IR: it
// prints a lowered module as Python-like emitter text, dispatching composites on CompositeKind
// through composite_op_registry (docs/sources.md §"The fusion-name registry"; docs/descriptors.md).
// docs/fusion-to-composite.md shows the text format with examples.
//
// Customization points: none; this header is for the concrete reference IR (`ref::module`).
//
//   diagnostics emit_python(const ref::module&, std::string& out);
//
// Every diagnostic carries `file = m.source_name` and the op's location. Empty = success.
//
// The consumer's dispatch (composite_op_registry + composite_routes):
//   ScheduleFusion             bespoke, transparent: the decomposition's body ops are printed as
//                              ordinary ops, in body order, between a `# begin` comment and the
//                              line binding the composite's results (the original's defScalars)
//   MulRedSqrt, DotLogistic    bespoke: `r = bespoke.<Kind>(operands, decomposition='<sym>')`
//   Expm1, Log1p, Elementwise  arbitrary emitter, kind 'Elementwise'; DotSoftmax: arbitrary
//                              emitter, kind 'DotSoftmax'. The body is printed as a nested `def`
//                              and passed to `arbitrary('<kind>', <def>, operands,
//                              composite_kind='<CompositeKind>')`
//   anything else              fatal (the original's NCC_ISPP054), no output at all:
//     FILE:LINE:COL: error: NCC_ISPP054: 'stablehlo.composite' op (decomposition @SYM):
//     Unexpected CompositeOp kind 'KIND'. Supported kinds are: ScheduleFusion, MulRedSqrt,
//     DotLogistic, Expm1, Log1p, Elementwise, and DotSoftmax.
//   (one line; the op name is the composite's own, `(decomposition @SYM)` is left out when the
//   composite has no decomposition attribute).
//
// No exceptions (this builds with -fno-exceptions): the first fatal diagnostic is recorded by
// `fail`, which returns false, and every emitting step returns `bool` and passes a failure on
// (NEURONRW_TRY, neuronrw/detail/try.hpp) up to `emit_python`.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <neuronrw/descriptors/kind_registry.hpp>
#include <neuronrw/detail/string_literal.hpp>
#include <neuronrw/detail/try.hpp>
#include <neuronrw/descriptors/kinds.hpp>
#include <neuronrw/diagnostic.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/rewrite.hpp>
#include <neuronrw/ir/ref/symbols.hpp>
#include <neuronrw/ir/ref/fusion_to_composite.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>

namespace neuronrw {

namespace python_emitter_detail {

using namespace ref_f2c_detail;

inline bool is_python_keyword(std::string_view s) {
  static constexpr std::array<std::string_view, 35> kw{
      "False", "None",   "True",    "and",      "as",     "assert", "async",  "await", "break",
      "class", "continue", "def",   "del",      "elif",   "else",   "except", "finally", "for",
      "from",  "global", "if",      "import",   "in",     "is",     "lambda", "nonlocal", "not",
      "or",    "pass",   "raise",   "return",   "try",    "while",  "with",   "yield"};
  return std::find(kw.begin(), kw.end(), s) != kw.end();
}

inline bool is_identifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return !is_python_keyword(s);
}

/// A Python identifier made from an IR name hint: other characters become '_', a leading digit
/// or an empty hint gets `fallback` in front, a keyword gets a trailing '_'.
inline std::string sanitize(std::string_view hint, std::string_view fallback) {
  std::string s;
  for (char c : hint)
    s += ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_') ? c : '_';
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) s = std::string(fallback) + s;
  if (is_python_keyword(s)) s += '_';
  return s;
}

/// Python string literal (single quotes) of `s`.
inline std::string py_str(std::string_view s) { return detail::python_string_literal(s); }

/// Names unique within one scope (a top-level function and everything printed inside it).
/// String-keyed, looked up only: the output never depends on hash order.
class namer {
 public:
  explicit namer(std::unordered_set<std::string> reserved = {}) : used_(std::move(reserved)) {}
  std::string fresh(std::string_view hint, std::string_view fallback) {
    std::string base = sanitize(hint, fallback);
    std::string s = base;
    for (std::size_t n = 1; used_.count(s) != 0; ++n) s = base + "_" + std::to_string(n);
    used_.insert(s);
    return s;
  }
  const std::unordered_set<std::string>& used() const noexcept { return used_; }

 private:
  std::unordered_set<std::string> used_;
};

inline constexpr std::size_t max_emit_depth = 512;

class python_emitter {
 public:
  explicit python_emitter(const ref::module& m) : m_(m) {
    // Names the text uses as callees: a value must not shadow them.
    std::unordered_set<std::string> reserved{"op", "bespoke", "arbitrary"};
    for_each_op(m, [&](ref::op_ref o) {
      auto n = m.name(o);
      reserved.insert(std::string(n.substr(0, n.find('.'))));
    });
    module_names_ = namer(std::move(reserved));
    // Function names first, so no value of an earlier function takes a later function's name.
    for (auto op : m.ops(m.body()))
      if (m.is_function(op) && !m.find_attribute(op, composite_schema::gen_composite))
        def_names_[op.id] = module_names_.fresh(m.function(op).sym_name, "f");
  }

  /// The whole text, or the first fatal diagnostic.
  std::optional<diagnostic> run(std::string& text) {
    if (!emit_module(text)) return std::move(error_);
    return std::nullopt;
  }

 private:
  using op_ref = ref::op_ref;
  using value_ref = ref::value_ref;

  [[nodiscard]] bool emit_module(std::string& text) {
    bool first = true;
    for (auto op : m_.ops(m_.body())) {
      if (m_.is_function(op)) {
        if (m_.find_attribute(op, composite_schema::gen_composite)) continue;
        if (!first) text += '\n';
        first = false;
        NEURONRW_TRY(emit_function(op, text));
      } else {
        scope_ = &module_names_;
        NEURONRW_TRY(emit_op(op, 0, text));
      }
    }
    return true;
  }

  /// Records the first fatal diagnostic (at `op`) and returns false, for `return fail(...)`.
  bool fail(op_ref op, std::string message) {
    if (!error_) error_ = located(m_, op, std::move(message));
    return false;
  }

  static void indent(std::string& out, std::size_t depth) { out.append(4 * depth, ' '); }

  std::string type_list(std::span<const ref::type_ref> ts, bool parens_for_one) const {
    std::string s;
    const bool parens = parens_for_one || ts.size() != 1;
    if (parens) s += '(';
    for (std::size_t i = 0; i < ts.size(); ++i) {
      if (i) s += ", ";
      s += m_.type_text(ts[i]);
    }
    if (parens) s += ')';
    return s;
  }

  /// The name of operand `i` (`v`) of `user`; null (the error recorded) when it has none.
  const std::string* name_of(op_ref user, std::size_t i, value_ref v) {
    auto it = names_.find(v.id);
    if (!v.valid() || it == names_.end()) {
      fail(user, "operand #" + std::to_string(i) + " of '" + std::string(m_.name(user)) +
                     "' has no definition visible to the emitter");
      return nullptr;
    }
    return &it->second;
  }

  [[nodiscard]] bool operand_list(op_ref op, std::string& s) {
    s.clear();
    std::size_t i = 0;
    for (auto v : m_.operands(op)) {
      if (i) s += ", ";
      const std::string* n = name_of(op, i, v);
      NEURONRW_TRY(n);
      s += *n;
      ++i;
    }
    return true;
  }

  /// Names the results of `op` in the current scope; returns "a, b = " (or "" without results).
  std::string bind_results(op_ref op) {
    std::string s;
    const auto n = m_.num_results(op);
    for (std::size_t i = 0; i < n; ++i) {
      std::string hint(m_.name_hint(op));
      if (n > 1) hint += "_" + std::to_string(i);
      auto name = scope_->fresh(hint, "v");
      if (i) s += ", ";
      s += name;
      names_[m_.result(op, i).id] = std::move(name);
    }
    if (n) s += " = ";
    return s;
  }

  std::string result_types_comment(op_ref op) const {
    if (m_.num_results(op) == 0) return {};
    std::string s = "  # ";
    for (std::size_t i = 0; i < m_.num_results(op); ++i) {
      if (i) s += ", ";
      s += m_.type_text(m_.result(op, i));
    }
    return s;
  }

  /// True when the op name reads as a Python attribute chain (`mhlo.all_gather`); other names
  /// (`test.if`: a keyword, `x.a-b`) are printed as `op('name', ...)`.
  static bool dotted_callee(std::string_view name) {
    if (name.empty()) return false;
    std::size_t start = 0;
    for (;;) {
      auto dot = name.find('.', start);
      auto part = name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
      if (!is_identifier(part)) return false;
      if (dot == std::string_view::npos) return true;
      start = dot + 1;
    }
  }

  /// `key='text', ..., **{'odd.key': 'text'}`: attribute values as their MLIR text; a unit
  /// attribute (no value) is True; the generic-form properties `<{...}>` come first as
  /// `properties=`.
  std::string keyword_args(op_ref op) const {
    std::vector<std::string> kw;
    std::string extra;
    std::unordered_set<std::string> seen;
    auto add = [&](std::string_view key, std::string value) {
      if (is_identifier(key) && seen.insert(std::string(key)).second) {
        kw.push_back(std::string(key) + "=" + value);
      } else {
        if (!extra.empty()) extra += ", ";
        extra += py_str(key) + ": " + value;
      }
    };
    if (!m_.properties_text(op).empty()) add("properties", py_str(m_.properties_text(op)));
    for (auto& a : m_.attributes(op)) add(a.name, a.value.empty() ? std::string("True") : py_str(a.value));
    std::string s;
    for (auto& k : kw) {
      if (!s.empty()) s += ", ";
      s += k;
    }
    if (!extra.empty()) {
      if (!s.empty()) s += ", ";
      s += "**{" + extra + "}";
    }
    return s;
  }

  static std::string join_args(std::initializer_list<std::string_view> parts) {
    std::string s;
    for (auto p : parts) {
      if (p.empty()) continue;
      if (!s.empty()) s += ", ";
      s += p;
    }
    return s;
  }

  [[nodiscard]] bool emit_function(op_ref f, std::string& out) {
    const auto& fi = m_.function(f);
    namer local(module_names_.used());
    scope_ = &local;
    NEURONRW_TRY(emit_function_in_scope(f, fi, local, out));
    scope_ = &module_names_;
    return true;
  }

  [[nodiscard]] bool emit_function_in_scope(op_ref f, const ref::func_info& fi, namer& local, std::string& out) {
    const std::string& def_name = def_names_.at(f.id);
    std::string params;
    std::vector<ref::type_ref> arg_types;
    if (fi.declaration) {
      arg_types = fi.decl_arg_types;
      for (std::size_t i = 0; i < arg_types.size(); ++i) {
        if (i) params += ", ";
        params += local.fresh("arg" + std::to_string(i), "a");
      }
    } else if (m_.has_region(f)) {
      std::size_t i = 0;
      for (auto a : m_.arguments(m_.region_block(f))) {
        arg_types.push_back(m_.type(a));
        auto n = local.fresh(m_.arg_name_hint(a), "a");
        if (i++) params += ", ";
        params += n;
        names_[a.id] = std::move(n);
      }
    }
    std::string sig = type_list(arg_types, true) + " -> " + type_list(fi.result_types, false);
    std::string vis = fi.visibility.empty() ? std::string() : fi.visibility + " ";
    out += "def " + def_name + "(" + params + "):";
    if (fi.declaration || !m_.has_region(f) || m_.empty(m_.region_block(f))) {
      out += " ...  # " + vis + "declaration " + sig + "\n";
      return true;
    }
    out += "  # " + vis + sig + "\n";
    return emit_block(m_.region_block(f), 1, out);
  }

  [[nodiscard]] bool emit_block(ref::block_ref b, std::size_t depth, std::string& out) {
    for (auto o : m_.ops(b)) NEURONRW_TRY(emit_op(o, depth, out));
    return true;
  }

  [[nodiscard]] bool enter(op_ref op) {
    if (++depth_ > max_emit_depth)
      return fail(op, "nesting deeper than " + std::to_string(max_emit_depth) + " regions and decompositions");
    return true;
  }

  [[nodiscard]] bool emit_op(op_ref op, std::size_t depth, std::string& out) {
    NEURONRW_TRY(enter(op));
    if (m_.kind(op) == kind_id_v<kinds::composite>) {
      NEURONRW_TRY(emit_composite(op, depth, out));
    } else if (m_.kind(op) == kind_id_v<kinds::return_> && m_.num_results(op) == 0 && m_.parent_op(op).valid() &&
               !m_.next_op(op).valid()) {
      indent(out, depth);
      out += "return";
      if (m_.num_operands(op)) {
        std::string args;
        NEURONRW_TRY(operand_list(op, args));
        out += " " + args;
      }
      out += "\n";
    } else {
      // One nested `def` per region: `region=r` for one, `regions=(r, r_1, ...)` for several.
      std::vector<std::string> region_defs;
      const auto regions = m_.region_blocks(op);
      for (std::size_t i = 0; i < regions.size(); ++i) {
        const auto b = regions[i];
        region_defs.push_back(scope_->fresh("region", "r"));
        indent(out, depth);
        out += "def " + region_defs.back() + "(" + bind_arguments(b) + "):  # region " +
               (regions.size() == 1 ? std::string() : "#" + std::to_string(i) + " ") + "of " + py_str(m_.name(op)) + "\n";
        if (m_.empty(b)) {
          indent(out, depth + 1);
          out += "pass\n";
        }
        NEURONRW_TRY(emit_block(b, depth + 1, out));
      }
      std::string args;
      NEURONRW_TRY(operand_list(op, args));
      const std::string kws = keyword_args(op);
      std::string region_kw;
      if (region_defs.size() == 1) {
        region_kw = "region=" + region_defs[0];
      } else if (!region_defs.empty()) {
        region_kw = "regions=(";
        for (std::size_t i = 0; i < region_defs.size(); ++i) region_kw += (i ? ", " : "") + region_defs[i];
        region_kw += ")";
      }
      const bool dotted = dotted_callee(m_.name(op));
      const std::string name_arg = dotted ? std::string() : py_str(m_.name(op));
      indent(out, depth);
      out += bind_results(op) + (dotted ? std::string(m_.name(op)) : std::string("op")) + "(" +
             join_args({name_arg, args, kws, region_kw}) + ")" + result_types_comment(op) + "\n";
    }
    --depth_;
    return true;
  }

  std::string bind_arguments(ref::block_ref b) {
    std::string s;
    std::size_t i = 0;
    for (auto a : m_.arguments(b)) {
      auto n = scope_->fresh(m_.arg_name_hint(a), "a");
      if (i++) s += ", ";
      s += n;
      names_[a.id] = std::move(n);
    }
    return s;
  }

  // ------------------------------------------------------------------------ composites
  struct composite_info {
    op_ref op;
    std::string kind;
    std::string symbol;         // decomposition symbol without '@', "" when absent
    op_ref decomposition;       // invalid when it does not resolve
    std::size_t depth;
    std::string* out;
  };

  std::string where(const composite_info& c) const {
    std::string s = "'" + std::string(m_.name(c.op)) + "' op";
    if (!c.symbol.empty()) s += " (decomposition " + mlir_symbol_reference(c.symbol) + ")";
    return s;
  }

  [[nodiscard]] bool emit_composite(op_ref op, std::size_t depth, std::string& out) {
    composite_info c{op, {}, {}, op_ref{}, depth, &out};
    if (auto* d = m_.find_attribute(op, "decomposition"))
      if (auto s = ref::referenced_symbol(d->value)) {
        c.symbol = std::move(*s);
        c.decomposition = ref::lookup_function(m_, c.symbol);
      }
    auto* k = m_.find_attribute(op, composite_schema::composite_kind);
    std::optional<std::string> kind = k ? ref::unquote(k->value) : std::nullopt;
    if (!kind) return fail(op, "NCC_ISPP054: " + where(c) + " has no string attribute 'CompositeKind'");
    c.kind = std::move(*kind);
    bool ok = true;  // what the handler that ran returned
    composite_op_registry::dispatch(
        c.kind,
        handlers(on<"ScheduleFusion">([this, &ok](auto, composite_info& ci) { ok = emit_transparent(ci); }),
                 on<"MulRedSqrt", "DotLogistic">([this, &ok](auto kind, composite_info& ci) {
                   ok = emit_bespoke(decltype(kind)::name, ci);
                 }),
                 on_arbitrary_composite([this, &ok](std::string_view emitted, composite_info& ci) {
                   ok = emit_arbitrary(emitted, ci);
                 })),
        [this, &ok](std::string_view unknown, composite_info& ci) {
          ok = fail(ci.op, "NCC_ISPP054: " + where(ci) + ": " + composite_op_registry::diagnostic(unknown));
        },
        c);
    return ok;
  }

  /// The decomposition's body block, checked for what a body emitter relies on.
  [[nodiscard]] bool decomposition_body(const composite_info& c, ref::block_ref& b) {
    if (!c.decomposition.valid() || !m_.has_region(c.decomposition) || m_.empty(m_.region_block(c.decomposition)))
      return fail(c.op, where(c) + ": CompositeKind '" + c.kind + "' needs the decomposition body, but " +
                     (c.symbol.empty() ? std::string("the op has no decomposition attribute")
                                       : mlir_symbol_reference(c.symbol) + " is not a function with a body"));
    b = m_.region_block(c.decomposition);
    if (m_.arguments(b).size() != m_.num_operands(c.op))
      return fail(c.op, where(c) + ": the decomposition takes " + std::to_string(m_.arguments(b).size()) +
                     " arguments but the composite has " + std::to_string(m_.num_operands(c.op)) + " operands");
    if (std::find(active_.begin(), active_.end(), c.decomposition) != active_.end())
      return fail(c.op, where(c) + ": the decomposition uses itself, directly or through other composites");
    return true;
  }

  /// The return at the end of a decomposition body, and its operand count checked.
  [[nodiscard]] bool decomposition_return(const composite_info& c, ref::block_ref b, op_ref& ret) {
    ret = m_.back(b);
    if (m_.kind(ret) != kind_id_v<kinds::return_> || m_.num_operands(ret) != m_.num_results(c.op))
      return fail(c.op, where(c) + ": the decomposition must end with a return of " +
                     std::to_string(m_.num_results(c.op)) + " values");
    return true;
  }

  [[nodiscard]] bool emit_transparent(composite_info& c) {
    ref::block_ref b;
    op_ref ret;
    NEURONRW_TRY(decomposition_body(c, b));
    NEURONRW_TRY(decomposition_return(c, b, ret));
    std::string& out = *c.out;
    const std::string label = "ScheduleFusion " + mlir_symbol_reference(c.symbol);
    indent(out, c.depth);
    out += "# begin " + label + " (bespoke, transparent)\n";
    auto args = m_.arguments(b);
    std::size_t i = 0;
    for (auto v : m_.operands(c.op)) {
      const std::string* n = name_of(c.op, i, v);
      NEURONRW_TRY(n);
      names_[args[i].id] = *n;
      ++i;
    }
    active_.push_back(c.decomposition);
    for (auto o : m_.ops(b))
      if (o != ret) NEURONRW_TRY(emit_op(o, c.depth, out));
    active_.pop_back();
    std::string returned;
    i = 0;
    for (auto v : m_.operands(ret)) {
      if (i) returned += ", ";
      const std::string* n = name_of(ret, i, v);
      NEURONRW_TRY(n);
      returned += *n;
      ++i;
    }
    indent(out, c.depth);
    if (m_.num_results(c.op) == 0) {
      out += "# end " + label + "\n";
    } else {
      const std::string bound = bind_results(c.op);
      out += bound + returned + "  # end " + label + "\n";
    }
    return true;
  }

  [[nodiscard]] bool emit_bespoke(std::string_view kind, composite_info& c) {
    std::string& out = *c.out;
    std::string args;
    NEURONRW_TRY(operand_list(c.op, args));
    const std::string sym = c.symbol.empty() ? std::string() : "decomposition=" + py_str(c.symbol);
    indent(out, c.depth);
    out += bind_results(c.op) + "bespoke." + std::string(kind) + "(" + join_args({args, sym}) + ")" +
           result_types_comment(c.op) + "\n";
    return true;
  }

  [[nodiscard]] bool emit_arbitrary(std::string_view kind, composite_info& c) {
    ref::block_ref b;
    op_ref ret;
    NEURONRW_TRY(decomposition_body(c, b));
    NEURONRW_TRY(decomposition_return(c, b, ret));
    std::string& out = *c.out;
    const std::string def_name = scope_->fresh(c.symbol, "fused");
    indent(out, c.depth);
    out += "def " + def_name + "(" + bind_arguments(b) + "):  # arbitrary " + py_str(kind) + " body of " + mlir_symbol_reference(c.symbol) + "\n";
    active_.push_back(c.decomposition);
    NEURONRW_TRY(emit_block(b, c.depth + 1, out));
    active_.pop_back();
    std::string args;
    NEURONRW_TRY(operand_list(c.op, args));
    const std::string ck = "composite_kind=" + py_str(c.kind);
    indent(out, c.depth);
    out += bind_results(c.op) + "arbitrary(" + join_args({py_str(kind), def_name, args, ck}) + ")" +
           result_types_comment(c.op) + "\n";
    return true;
  }

  const ref::module& m_;
  namer module_names_;
  namer* scope_ = &module_names_;
  std::unordered_map<std::uint32_t, std::string> names_;  // value id -> name (lookups only)
  std::unordered_map<std::uint32_t, std::string> def_names_;  // function op id -> def name
  std::vector<op_ref> active_;                            // decompositions being expanded
  std::size_t depth_ = 0;
  std::optional<diagnostic> error_;  // the first fatal diagnostic (fail)
};

}  // namespace python_emitter_detail

/// Prints `m` as Python-like emitter text (format: header comment, docs/fusion-to-composite.md):
/// one `def` per function in module order except decomposition functions (genComposite), which
/// are printed only through their composites; one line per op; composites dispatched on
/// CompositeKind. On success `out` receives the text and the result is empty; otherwise `out` is
/// untouched and the result holds the one fatal diagnostic (NCC_ISPP054 for an unknown kind).
/// @pre m verifies (ref::verify). Complexity: linear in the printed text.
inline diagnostics emit_python(const ref::module& m, std::string& out) {
  std::string text;
  python_emitter_detail::python_emitter e(m);
  if (auto err = e.run(text)) return {*err};
  out = std::move(text);
  return {};
}

}  // namespace neuronrw
