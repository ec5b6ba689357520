// neuronrw/ir/ref/verify.hpp — the reference IR's verifier: SSA scoping and dominance,
// terminators, function signatures, calls and symbols. Every pass output must verify: the driver
// (examples/neuronrw-opt) checks its input and the result of every pass with it.
//
// Customization points: none; this header checks the concrete reference IR.
//
//   neuronrw::diagnostics neuronrw::ref::verify(const module& m);
//
// returns every problem found (empty = valid). Each diagnostic carries `file = m.source_name`
// and `loc = the op's source_loc`; their order is deterministic: ops in module walk order
// (pre-order: an op, then the ops of its regions in order, then its next sibling), and for one op the
// rules in the order listed below.
//
// Rules and their messages (fixed text; where mlir-opt (LLVM 22) reports the same problem the
// text is mlir-opt's, without its "see current operation" note). NAME is a plain symbol name
// (`has space`); @F is a symbol as written (`@f`, `@"has space"`). Names are compared plain, so
// `@"f"` and `@f` are the same symbol.
//   1. Top-level symbol names are unique (a function's sym_name, or a top-level op's
//      `sym_name = "..."` attribute or property). Reported at the later definition:
//        redefinition of symbol named 'NAME'
//   2. Functions (`func.func`):
//        'func.func' op requires attribute 'sym_name'                (empty sym_name)
//        'func.func' op symbol declaration cannot have public visibility
//                     (a declaration whose visibility is "" or "public"; "nested" and
//                      "private" are accepted, as mlir-opt does)
//        function '@F' has an empty body            (a definition whose body has no ops)
//        function '@F' does not end with a terminator   (last op is not a terminator)
//        function '@F' does not end with 'func.return'  (last op is another terminator, other
//                     than `stablehlo.return`, `mhlo.return` and `sdy.return`: these have no
//                     parent constraint in their dialects, so StableHLO's tools and mlir-opt
//                     accept a function ending with one, and so does this verifier)
//   3. Any other op with regions: each region's block must be empty (no ops, no arguments) or
//      end with a terminator — an op without results whose kind is `return` (`func.return`,
//      `mhlo.return`, ...) or whose name ends in `.yield` or `.terminator`:
//        region of 'OP' does not end with a terminator          (an op with one region)
//        region #I of 'OP' does not end with a terminator       (an op with several)
//   4. Operands. For operand #I of op U using value V, let B be V's defining block and A be U or
//      the nearest ancestor of U (following parent_op) that lies in B:
//        operand #I is null                                 (no value)
//        operand #I uses a value defined outside its scope  (no such A: the value is inside a
//                     region U is not in, in another function, detached or erased)
//        operand #I uses a value defined outside function '@F'  (A exists, but only above
//                     U's innermost enclosing function: functions are isolated from above)
//        operand #I does not dominate this use  (V is a result of op D and D is not strictly
//                     before A in B; D == A also fails: an op's results are not visible in its
//                     own region). Block arguments of B are visible throughout B's region.
//   5. Terminators:
//        'func.return' op expects parent op 'func.func'  (func.return outside a function body)
//        'OP' op must be the last operation in the parent block   (not in the module body)
//   6. `func.return` against its function's result types (every mismatching operand is
//      reported):
//        'func.return' op has N operands, but enclosing function (@F) returns M
//        type of return operand I ('T') doesn't match function result type ('R') in function @F
//   7. `func.call` (callee from its `callee` attribute or property):
//        'func.call' op requires attribute 'callee'
//        'func.call' op attribute 'callee' failed to satisfy constraint: flat symbol reference
//                     attribute   (`@a::@b`)
//        'func.call' op 'G' does not reference a valid function
//        'func.call' op incorrect number of operands for callee
//        'func.call' op operand type mismatch: expected operand type 'T', but provided 'U' for
//                     operand number I
//        'func.call' op incorrect number of results for callee
//        'func.call' op result type mismatch at index I
//   8. The `decomposition` of a `stablehlo.composite` (attribute or property; for `@a::@b`, its
//      root `@a`) names a top-level symbol:
//        '@F' does not reference a valid symbol
//      The module's own name (`module @m`) is accepted as a root too: `@m::@f` is how a nested
//      module's symbols are named from outside, and this module may be nested by whoever reads
//      it. Symbol references are checked where MLIR checks them: a func.call's callee (rule 7)
//      and the composite's decomposition (stablehlo-opt verifies it; FusionToComposite and the
//      composite consumers resolve it). Every other `@name` inside attribute or properties text
//      (`#sdy.sharding<@mesh, ...>`, `{target = @elsewhere}`, a call's other attributes) is
//      opaque, as it is to mlir-opt for ops that declare no symbol uses.
//   9. The return ending a fusion's body (an op of kind `fusion`, `mhlo.fusion`) with one operand
//      per fusion result returns the fusion's result types:
//        type of return operand I ('T') doesn't match result type ('R') of 'OP'
//
// Where we are stricter than mlir-opt (deliberately: the reference IR has no op registry, so it
// cannot know which unknown op is exempt, and its passes rely on SSA order in every block):
// rule 3 applies to unregistered ops, which mlir-opt lets end with any op (or with no op after
// block arguments); rule 4's dominance applies in every block, while mlir-opt treats the module
// body and the regions of unregistered ops as graph regions (forward references allowed);
// rule 8 checks a `stablehlo.composite`'s decomposition, which mlir-opt (no StableHLO dialect)
// leaves unchecked while stablehlo-opt checks it; rule 9 checks an `mhlo.fusion`'s body, which
// mlir-opt (no MHLO dialect) leaves unchecked: FusionToComposite turns the body into a function
// of the fusion's signature, which would not verify;
// a function ending in an unregistered terminator (`"x.yield"`) is rejected by rule 2.
// docs/reference-ir.md ("The verifier against mlir-opt's") names a test of each. One check is
// more lenient: a func.call inside an unknown op's region resolves in the module, where mlir-opt
// looks it up in that op's region (an op with one region and no dialect may be a symbol table).
//
// Robustness: ops that were erased or detached are not walked, nor are ops in blocks that are
// not reachable from the module body; a reachable use of a value they define is reported by
// rule 4. Null operands and null types are reported or tolerated, never dereferenced. The walk
// uses an explicit stack, so deep region nesting cannot overflow the call stack.
//
// Complexity: O(ops + operands + blocks + attribute text + symbol name lengths) time, O(blocks
// + top-level symbols + nesting depth) words and one bit per op of extra space. Why it is linear: the walk keeps, for every
// block on the current root-to-op path, the path op that lies in it (`anchor`), so finding A
// for an operand is one array read instead of a walk up the parents; and "D strictly before A"
// is the IR's O(1) order query (is_before_in_block), not a scan of B. Symbol lookups are
// string-keyed hash lookups, O(name length).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <neuronrw/diagnostic.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/symbols.hpp>
#include <neuronrw/ir/ref/mlir_string.hpp>

namespace neuronrw::ref {

namespace verify_detail {

// Symbol texts are read with ir/ref/symbols.hpp, string literals with ir/ref/mlir_string.hpp.
using symbols_detail::find_dict_symbol;
using symbols_detail::leading_symbol;

inline std::string_view type_text_or_null(const module& m, type_ref t) {
  return t.valid() ? m.type_text(t) : std::string_view("<<NULL TYPE>>");
}

/// How a plain symbol name is written after '@' in a diagnostic: bare when it can be, else a
/// string literal with control bytes as `\XX`, as mlir-opt spells it.
inline std::string symbol_ref_text(std::string_view name) { return mlir_symbol_reference(name, mlir_escapes::hex); }

class verifier {
 public:
  explicit verifier(const module& m) : m_(m), anchor_(m.block_count(), npos),
                                       depth_(m.block_count(), 0),
                                       redefined_(m.op_capacity(), false) {}

  diagnostics run() {
    collect_symbols();
    walk();
    return std::move(out_);
  }

 private:
  struct frame {
    block_ref block;
    op_ref next;       // next op of `block` to visit
    op_ref function;   // innermost function whose body encloses this block (or invalid)
    std::uint32_t function_depth;  // depth of that function's body block (0 = none)
  };

  void error(op_ref op, std::string message) {
    out_.push_back(diagnostic{m_.source_name, m_.loc(op), std::move(message)});
  }

  static std::string quote(std::string_view s) { return "'" + std::string(s) + "'"; }
  /// `@f` / `@"has space"`: a function as diagnostics name it.
  std::string function_ref(op_ref fn) const {
    return symbol_ref_text(m_.function(fn).sym_name);
  }

  // Pass 1 over the top-level ops: the symbol table, so references may point forward.
  void collect_symbols() {
    module_symbol_ = m_.sym_name;
    for (auto op : m_.ops(m_.body())) {
      if (m_.erased(op)) continue;
      auto name = defined_symbol(m_, op);
      if (!name || name->empty()) continue;
      if (!symbols_.emplace(*name, op).second) redefined_[op.id] = true;
    }
  }

  // Pre-order walk with an explicit stack; see the header comment for `anchor_`.
  void walk() {
    std::vector<frame> stack;
    auto body = m_.body();
    depth_[body.id] = 1;
    stack.push_back(frame{body, m_.front(body), op_ref{}, 0});
    while (!stack.empty()) {
      frame& f = stack.back();
      if (!f.next.valid()) {
        anchor_[f.block.id] = npos;
        stack.pop_back();
        continue;
      }
      const op_ref op = f.next;
      f.next = m_.next_op(op);
      anchor_[f.block.id] = op.id;
      const frame cur = f;  // `f` dangles once a frame is pushed
      if (m_.erased(op)) continue;
      check_op(op, cur);
      // The op's regions, pushed last first so they are walked in order; all of them are one
      // level below the op (op stays the anchor of its block until the last one is done).
      const auto rbs = m_.region_blocks(op);
      const auto depth = static_cast<std::uint32_t>(stack.size() + 1);
      const bool is_fn = m_.is_function(op);
      for (auto r = rbs.rbegin(); r != rbs.rend(); ++r) {
        const auto rb = *r;
        if (!rb.valid() || rb.id >= anchor_.size()) continue;
        depth_[rb.id] = depth;
        stack.push_back(frame{rb, m_.front(rb), is_fn ? op : cur.function, is_fn ? depth : cur.function_depth});
      }
    }
  }

  void check_op(op_ref op, const frame& f) {
    const bool top = f.block == m_.body();
    if (top && redefined_[op.id])
      error(op, "redefinition of symbol named " + quote(*defined_symbol(m_, op)));
    if (m_.is_function(op))
      check_function(op);
    else
      check_region_terminator(op);
    check_operands(op, f);
    check_terminator_position(op, f, top);
    if (m_.name(op) == "func.call") check_call(op);
    check_symbol_refs(op);
  }

  void check_function(op_ref op) {
    const auto& fi = m_.function(op);
    if (fi.sym_name.empty()) error(op, "'func.func' op requires attribute 'sym_name'");
    if (fi.declaration) {
      if (fi.visibility.empty() || fi.visibility == "public")
        error(op, "'func.func' op symbol declaration cannot have public visibility");
      return;
    }
    auto rb = m_.region_block(op);
    const std::string fname = "function '" + function_ref(op) + "'";
    if (!rb.valid() || m_.empty(rb)) {
      error(op, fname + " has an empty body");
      return;
    }
    auto last = m_.back(rb);
    if (!is_terminator(m_, last))
      error(op, fname + " does not end with a terminator");
    else if (const auto n = m_.name(last); n != "func.return" && n != "stablehlo.return" && n != "mhlo.return" &&
                                           n != "sdy.return")
      error(op, fname + " does not end with 'func.return'");
  }

  void check_region_terminator(op_ref op) {
    const auto rbs = m_.region_blocks(op);
    for (std::size_t i = 0; i < rbs.size(); ++i) {
      const auto rb = rbs[i];
      if (m_.empty(rb) ? m_.arguments(rb).empty() : is_terminator(m_, m_.back(rb))) continue;
      error(op, rbs.size() == 1 ? "region of " + quote(m_.name(op)) + " does not end with a terminator"
                                : "region #" + std::to_string(i) + " of " + quote(m_.name(op)) +
                                      " does not end with a terminator");
    }
  }

  void check_operands(op_ref op, const frame& f) {
    auto vs = m_.operands(op);
    for (std::size_t i = 0; i < vs.size(); ++i) {
      const value_ref v = vs[i];
      // Built only on error: valid operands must not pay for a string.
      auto which = [i] { return "operand #" + std::to_string(i); };
      if (!v.valid() || v.id >= m_.value_capacity()) {
        error(op, which() + " is null");
        continue;
      }
      const block_ref b = m_.defining_block(v);
      const std::uint32_t a = b.valid() && b.id < anchor_.size() ? anchor_[b.id] : npos;
      if (a == npos) {
        error(op, which() + " uses a value defined outside its scope");
        continue;
      }
      if (f.function.valid() && depth_[b.id] < f.function_depth) {
        error(op, which() + " uses a value defined outside function '" +
                      function_ref(f.function) + "'");
        continue;
      }
      const op_ref d = m_.defining_op(v);
      if (!d.valid()) continue;  // a block argument of B: visible in all of B's region
      // d's block is B (that is how B was found); the order query needs d to be in B's list,
      // which a badly spliced op might not be, so check that first (O(1)).
      const auto& ord = m_.order();
      if (!ord.attached(d.id) || ord.list_of(d.id) != b.id ||
          !m_.is_before_in_block(d, op_ref{a}))
        error(op, which() + " does not dominate this use");
    }
  }

  void check_terminator_position(op_ref op, const frame& f, bool top) {
    if (m_.name(op) == "func.return") {
      op_ref parent = m_.parent_op_of_block(f.block);
      if (!parent.valid() || !m_.is_function(parent)) {
        error(op, "'func.return' op expects parent op 'func.func'");
        return;
      }
    }
    if (!top && is_terminator(m_, op) && m_.next_op(op).valid())
      error(op, quote(m_.name(op)) + " op must be the last operation in the parent block");
    if (m_.name(op) == "func.return") check_return(op, m_.parent_op_of_block(f.block));
    else if (m_.kind(op) == kind_id_v<kinds::return_>) check_fusion_return(op, m_.parent_op_of_block(f.block));
  }

  /// Rule 9: a fusion's results are what its body returns. FusionToComposite makes the body a
  /// function of the fusion's signature, so a body returning other types would make a
  /// decomposition that does not verify. Another number of operands is FusionToComposite's
  /// refusal (bad_terminator), not an error here.
  void check_fusion_return(op_ref op, op_ref parent) {
    if (!parent.valid() || m_.kind(parent) != kind_id_v<kinds::fusion>) return;
    auto vs = m_.operands(op);
    if (vs.size() != m_.num_results(parent)) return;
    for (std::size_t i = 0; i < vs.size(); ++i) {
      if (!vs[i].valid() || vs[i].id >= m_.value_capacity()) continue;  // reported by rule 4
      auto got = type_text_or_null(m_, m_.type(vs[i]));
      auto want = type_text_or_null(m_, m_.type(m_.result(parent, i)));
      if (got != want)
        error(op, "type of return operand " + std::to_string(i) + " (" + quote(got) + ") doesn't match result type (" +
                      quote(want) + ") of " + quote(m_.name(parent)));
    }
  }

  void check_return(op_ref op, op_ref fn) {
    const auto& fi = m_.function(fn);
    auto vs = m_.operands(op);
    if (vs.size() != fi.result_types.size()) {
      error(op, "'func.return' op has " + std::to_string(vs.size()) +
                    " operands, but enclosing function (" + function_ref(fn) + ") returns " +
                    std::to_string(fi.result_types.size()));
      return;
    }
    for (std::size_t i = 0; i < vs.size(); ++i) {
      if (!vs[i].valid() || vs[i].id >= m_.value_capacity()) continue;  // reported by rule 4
      auto got = type_text_or_null(m_, m_.type(vs[i]));
      auto want = type_text_or_null(m_, fi.result_types[i]);
      if (got != want)
        error(op, "type of return operand " + std::to_string(i) + " (" + quote(got) +
                      ") doesn't match function result type (" + quote(want) +
                      ") in function " + function_ref(fn));
    }
  }

  /// The text a call's callee starts (its attribute's value, else its property's), or none.
  std::optional<std::string_view> callee_text(op_ref op) const {
    if (auto* a = m_.find_attribute(op, "callee")) return std::string_view(a->value);
    const std::string_view props = m_.properties_text(op);
    const auto j = symbols_detail::find_dict_value(props, "callee");
    if (j >= props.size()) return std::nullopt;
    return props.substr(j);
  }

  void check_call(op_ref op) {
    const auto text = callee_text(op);
    auto callee = text ? leading_symbol(*text) : std::nullopt;
    if (!callee) {
      error(op, "'func.call' op requires attribute 'callee'");
      return;
    }
    if (symbols_detail::leading_symbol_is_nested(*text)) {
      error(op, "'func.call' op attribute 'callee' failed to satisfy constraint: flat symbol reference attribute");
      return;
    }
    auto it = symbols_.find(*callee);
    if (it == symbols_.end() || !m_.is_function(it->second)) {
      error(op, "'func.call' op " + quote(*callee) + " does not reference a valid function");
      return;
    }
    const op_ref fn = it->second;
    const auto& fi = m_.function(fn);
    // The signature is read in place (no copy): a call costs O(its own operands and results)
    // even when the callee has many more arguments.
    const bool has_body = !fi.declaration && m_.has_region(fn);
    const auto body_args =
        has_body ? m_.arguments(m_.region_block(fn)) : std::span<const value_ref>{};
    const std::size_t num_args = has_body ? body_args.size() : fi.decl_arg_types.size();
    auto arg_type = [&](std::size_t i) {
      return has_body ? m_.type(body_args[i]) : fi.decl_arg_types[i];
    };
    auto vs = m_.operands(op);
    if (vs.size() != num_args) {
      error(op, "'func.call' op incorrect number of operands for callee");
    } else {
      for (std::size_t i = 0; i < vs.size(); ++i) {
        if (!vs[i].valid() || vs[i].id >= m_.value_capacity()) continue;
        auto got = type_text_or_null(m_, m_.type(vs[i]));
        auto want = type_text_or_null(m_, arg_type(i));
        if (got != want)
          error(op, "'func.call' op operand type mismatch: expected operand type " + quote(want) +
                        ", but provided " + quote(got) + " for operand number " +
                        std::to_string(i));
      }
    }
    if (m_.num_results(op) != fi.result_types.size()) {
      error(op, "'func.call' op incorrect number of results for callee");
      return;
    }
    for (std::size_t i = 0; i < fi.result_types.size(); ++i) {
      if (type_text_or_null(m_, m_.type(m_.result(op, i))) !=
          type_text_or_null(m_, fi.result_types[i]))
        error(op, "'func.call' op result type mismatch at index " + std::to_string(i));
    }
  }

  /// Rule 8: the `decomposition` of a `stablehlo.composite` (attribute or property) names a
  /// top-level symbol. Every other `@name` in attribute or properties text is opaque.
  void check_symbol_refs(op_ref op) {
    if (m_.name(op) != "stablehlo.composite") return;
    std::optional<std::string> name;
    if (auto* a = m_.find_attribute(op, "decomposition")) name = leading_symbol(a->value);
    else name = find_dict_symbol(m_.properties_text(op), "decomposition");
    if (name && !symbols_.contains(*name) && (module_symbol_.empty() || *name != module_symbol_))
      error(op, quote(symbol_ref_text(*name)) + " does not reference a valid symbol");
  }

  const module& m_;
  diagnostics out_;
  // For each block on the current walk path: the path op lying in it (npos off the path).
  std::vector<std::uint32_t> anchor_;
  // For each block on the current walk path: its depth (module body = 1).
  std::vector<std::uint32_t> depth_;
  std::unordered_map<std::string, op_ref> symbols_;  // looked up only, never iterated
  std::string module_symbol_;  // `module @name`: a valid root for `@name::@f`
  std::vector<bool> redefined_;  // by op id: a later definition of an existing symbol
};

}  // namespace verify_detail

/// Checks `m` against the rules in this header's comment and returns every violation, in walk
/// order (empty = valid). Never modifies `m`. O(size of m); see the header comment.
inline diagnostics verify(const module& m) { return verify_detail::verifier(m).run(); }

}  // namespace neuronrw::ref
