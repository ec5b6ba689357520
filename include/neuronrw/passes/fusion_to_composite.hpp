// neuronrw/passes/fusion_to_composite.hpp — FusionToComposite: lower every fusion into a
// `stablehlo.composite` plus a private decomposition function (SPEC §5; seed 000
// §"FusionToComposite — wrapping a fusion as an MLIR composite", §"Composite attribute schema").
//
// Customization points:
//   - the IR: any model of neuronrw::outlinable_ir (ir_traits<G>, concepts/ir.hpp). Fusions are
//     the ops whose kind is kinds::fusion; functions come from `functions(g)`.
//   - Registry (template parameter, default neuronrw::fusion_op_registry): the kind registry that
//     validates FusionKind when `validate_fusion_kind` is on (e.g.
//     `fusion_op_registry::with_kinds<"RmsNorm">`).
//   - fusion_to_composite_options (aggregate, designated initializers).
//
// Plan + apply (STYLE 5):
//   auto p = neuronrw::plan_fusion_to_composite(g, {.validate_fusion_kind = true});  // reads only
//   if (p.ok()) neuronrw::apply(g, p);
// or `neuronrw::fusion_to_composite(g)`, which does both and returns the plan.
//
// The rewrite, per fusion F in walk order (seed's convertFusionToComposite, SPEC §5):
//   1. outline_region: a private function @<prefix><N> at the module's end, signature
//      (F's operand types) -> (F's result types), body cloned from F's region with its `*.return`
//      terminator turned into `func.return`, attributes {genComposite = true, noDelete = true};
//   2. replace_op: a composite just before F with F's operands verbatim and result types, and the
//      attributes, in this order (ASCII order of the names, which is the order MLIR's
//      DictionaryAttr keeps, so mlir-opt prints them back identically):
//        CompositeKind = "<F's FusionKind, or FusedComposite>", composite_attributes = {},
//        decomposition = @<prefix><N>, name = "composite.Fused", version = 0 : i32
//      and every use of F's results rewired to the composite's results;
//   3. erase_op(F).
//
// Walk order and numbering: functions in module order, skipping functions that carry
// `genComposite` (the seed's idempotency barrier); inside a function every region is walked and
// fusions are taken in post-order (an inner fusion before the fusion containing it, siblings in
// block order). N counts from 0 per run in that order; a name the module already defines is
// skipped (the seed's counter would collide on a second run over new fusions). Decompositions are
// created, hence appended, in the same order. A second run finds no fusion and changes nothing.
//
// Refusals: the plan lists problems instead of conversions going wrong half way; a plan with
// problems applies nothing, so a refused module is left exactly as it was:
//   - unknown FusionKind (only with `validate_fusion_kind`): the registry's exact message, e.g.
//     `Unexpected FusionOp type 'X'. Supported fusion types are: ScheduleFusion, ..., DotSoftmax.`
//   - a FusionKind that is not a string attribute;
//   - a fusion without exactly one region block, or with an empty one (nothing to outline);
//   - a body that does not end with an op of kind `return` with one operand per fusion result
//     (it could not become the decomposition's func.return);
//   - a fusion body whose ops use the result of an op outside the fusion (a clone into a function
//     would be invalid). Block arguments cannot be told apart through the concept (it has no
//     "block of an argument" query); IR-specific entry points add that check (the reference IR's
//     does, see passes/composite_emitter.hpp).
//
// Complexity: planning O(ops + operands x nesting depth) per nesting level of fusions (each
// fusion's body is scanned once for the capture check) plus one has_symbol query per name;
// applying is linear in the cloned bodies on the reference IR.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <neuronrw/algorithms/ancestry.hpp>
#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/descriptors/kind_registry.hpp>
#include <neuronrw/descriptors/kinds.hpp>
#include <neuronrw/mlir_string.hpp>

namespace neuronrw {

/// The attribute names and fixed values of the schema (seed §"Composite attribute schema").
namespace composite_schema {
inline constexpr std::string_view fusion_kind = "FusionKind";          ///< on the fusion
inline constexpr std::string_view composite_kind = "CompositeKind";    ///< on the composite
inline constexpr std::string_view default_kind = "FusedComposite";     ///< no FusionKind
inline constexpr std::string_view composite_name = "composite.Fused";  ///< for every kind
inline constexpr std::string_view gen_composite = "genComposite";      ///< on decompositions
inline constexpr std::string_view no_delete = "noDelete";              ///< on decompositions
}  // namespace composite_schema

/// MLIR symbol reference to `name`: `@name` when name is a bare identifier
/// ((letter|_)(letter|digit|[_$.])*), else `@"..."` with string-literal escaping.
inline std::string mlir_symbol_ref(std::string_view name) {
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  bool bare = !name.empty() && (letter(name[0]) || name[0] == '_');
  for (char c : name)
    if (!(letter(c) || digit(c) || c == '_' || c == '$' || c == '.')) bare = false;
  return "@" + (bare ? std::string(name) : mlir_string_literal(name));
}

/// Options of FusionToComposite; fill with designated initializers.
struct fusion_to_composite_options {
  /// Decomposition functions are named <symbol_prefix><N>. Default: the seed's prefix.
  std::string_view symbol_prefix = "hilo.FusedComposite.";
  /// The op that replaces a fusion.
  std::string_view composite_op_name = "stablehlo.composite";
  /// Check every present FusionKind against the registry; an unknown one refuses the whole run
  /// with the registry's message. A missing FusionKind is never an error: it takes the default
  /// "FusedComposite" (the seed's defensive branch) and is caught by the consumer.
  bool validate_fusion_kind = false;
};

/// Why a function was not scanned.
enum class f2c_skip_reason : std::uint8_t {
  gen_composite,  ///< carries `genComposite` (a decomposition of this or an earlier run)
};

/// Why the plan refuses the run.
enum class f2c_problem_code : std::uint8_t {
  unknown_fusion_kind,  ///< FusionKind not in the registry (validate_fusion_kind only)
  non_string_kind,      ///< FusionKind present but not a string attribute
  no_body,              ///< the fusion has no single non-empty region block
  bad_terminator,       ///< the body does not end with a return of the fusion's result count
  captured_value,       ///< the body uses a value defined outside the fusion
};

/// The plan of one run: plain data, in walk order. Handles refer to the IR as it was planned:
/// apply it to that IR, unchanged.
template <class Op>
struct fusion_to_composite_plan {
  struct conversion {
    Op fusion;                   ///< the fusion op to lower
    Op function;                 ///< the function it sits in (at any depth)
    std::string decomposition;   ///< symbol of the decomposition, without '@'
    std::string composite_kind;  ///< CompositeKind, unquoted
    bool kind_defaulted = false; ///< true when the fusion had no FusionKind
  };
  struct skipped_function {
    Op function;
    f2c_skip_reason reason;
  };
  struct problem {
    Op op;  ///< where to report it: the fusion, its body's last op, or a body op using a captured value
    f2c_problem_code code;
    std::string message;
  };

  std::string composite_op_name;               ///< copied from the options
  std::vector<conversion> conversions;         ///< numbering and apply order
  std::vector<skipped_function> skipped_functions;
  std::vector<std::string> skipped_names;      ///< names skipped because the module defines them
  std::vector<problem> problems;               ///< non-empty: the run is refused

  bool ok() const noexcept { return problems.empty(); }
};

/// What apply created for one conversion.
template <class Op>
struct applied_conversion {
  Op composite;
  Op decomposition;
};

namespace f2c_detail {

// Post-order over the ops nested in `root`'s regions (not root itself), with an explicit stack
// so deep nesting cannot exhaust the call stack. `visit(op)` runs after the op's regions; the
// regions of an op are entered only when `descend(op)` is true.
template <class G, class Visit, class Descend>
void walk_post_order(const G& g, op_handle_t<G> root, Visit&& visit, Descend&& descend) {
  using op = op_handle_t<G>;
  using block = block_handle_t<G>;
  struct frame {
    op owner;
    std::vector<block> blocks;
    std::size_t next_block = 0;
    std::vector<op> ops;
    std::size_t next_op = 0;
  };
  auto make_frame = [&](op o) {
    frame f{o, {}, 0, {}, 0};
    if (o == root || descend(o))
      for (auto b : ir::regions(g, o)) f.blocks.push_back(b);
    return f;
  };
  std::vector<frame> stack;
  stack.push_back(make_frame(root));
  while (!stack.empty()) {
    auto& top = stack.back();
    if (top.next_op < top.ops.size()) {
      op child = top.ops[top.next_op++];
      stack.push_back(make_frame(child));  // invalidates `top`
      continue;
    }
    if (top.next_block < top.blocks.size()) {
      top.ops.clear();
      top.next_op = 0;
      for (auto o : ir::ops(g, top.blocks[top.next_block])) top.ops.push_back(o);
      ++top.next_block;
      continue;
    }
    op done = top.owner;
    stack.pop_back();
    if (!(done == root)) visit(done);
  }
}

/// The refusal text for a body op whose operand #i is defined outside the fusion.
inline std::string captured_message(std::size_t i) {
  return "operand #" + std::to_string(i) +
         " uses a value defined outside the enclosing fusion, so the fusion cannot be outlined "
         "into a decomposition function";
}

}  // namespace f2c_detail

/// Plans FusionToComposite over `g` (nothing is changed).
/// @pre the fusion regions reference no value defined outside them (SPEC §4.7), else the plan
///      reports the captures it can see (see the header comment).
/// Complexity: see the header comment. Source: seed 000 §"Algorithm — the driver".
template <class Registry = fusion_op_registry, class G>
fusion_to_composite_plan<op_handle_t<G>> plan_fusion_to_composite(const G& g,
                                                                  const fusion_to_composite_options& opt = {}) {
  static_assert(require_outlinable_ir<G>());
  using traits = ir::traits<G>;
  using op = op_handle_t<G>;
  fusion_to_composite_plan<op> plan;
  plan.composite_op_name = std::string(opt.composite_op_name);
  std::size_t counter = 0;

  auto next_name = [&] {
    for (;;) {
      std::string name = std::string(opt.symbol_prefix) + std::to_string(counter++);
      if (!traits::has_symbol(g, name)) return name;
      plan.skipped_names.push_back(std::move(name));
    }
  };

  auto count = [](auto&& range) {
    std::size_t n = 0;
    for (auto&& x : range) {
      (void)x;
      ++n;
    }
    return n;
  };
  auto check_body = [&](op fusion) {
    std::size_t blocks = 0;
    op last = traits::null_op();
    for (auto b : ir::regions(g, fusion)) {
      ++blocks;
      for (auto o : ir::ops(g, b)) last = o;
    }
    if (blocks != 1 || ir::is_null<G>(last)) {
      plan.problems.push_back({fusion, f2c_problem_code::no_body,
                               "fusion has no body to outline (it needs exactly one region block, "
                               "ending with its return)"});
      return;
    }
    const std::size_t results = count(ir::results(g, fusion));
    if (ir::kind(g, last) != kind_id_v<kinds::return_> || count(ir::operands(g, last)) != results)
      plan.problems.push_back({last, f2c_problem_code::bad_terminator,
                               "a fusion body must end with a return of its " + std::to_string(results) +
                                   " result(s), e.g. \"mhlo.return\", to become the decomposition's "
                                   "func.return"});
    // Each op is checked against its innermost enclosing fusion only (a value captured from
    // outside an outer fusion is also captured by the inner one), so a capture is reported once.
    f2c_detail::walk_post_order(
        g, fusion,
        [&](op user) {
          std::size_t i = 0;
          for (auto v : ir::operands(g, user)) {
            auto d = ir::defining_op(g, v);
            if (!ir::is_null<G>(d) && !is_ancestor_or_self(g, fusion, d))
              plan.problems.push_back({user, f2c_problem_code::captured_value, f2c_detail::captured_message(i)});
            ++i;
          }
        },
        [&](op o) { return ir::kind(g, o) != kind_id_v<kinds::fusion>; });
  };

  for (auto fn : traits::functions(g)) {
    if (traits::has_attribute(g, fn, composite_schema::gen_composite)) {
      plan.skipped_functions.push_back({fn, f2c_skip_reason::gen_composite});
      continue;
    }
    f2c_detail::walk_post_order(g, fn, [&](op o) {
      if (ir::kind(g, o) != kind_id_v<kinds::fusion>) return;
      typename fusion_to_composite_plan<op>::conversion c{o, fn, next_name(), {}, false};
      if (auto k = traits::string_attribute(g, o, composite_schema::fusion_kind)) {
        c.composite_kind = std::move(*k);
        if (opt.validate_fusion_kind)
          if (auto msg = Registry::validate(c.composite_kind))
            plan.problems.push_back({o, f2c_problem_code::unknown_fusion_kind, std::move(*msg)});
      } else if (traits::has_attribute(g, o, composite_schema::fusion_kind)) {
        plan.problems.push_back({o, f2c_problem_code::non_string_kind,
                                 "fusion attribute 'FusionKind' must be a string, e.g. "
                                 "FusionKind = \"ScheduleFusion\""});
      } else {
        c.composite_kind = std::string(composite_schema::default_kind);
        c.kind_defaulted = true;
      }
      check_body(o);
      plan.conversions.push_back(std::move(c));
    }, [](op) { return true; });
  }
  return plan;
}

/// Applies a plan made by plan_fusion_to_composite on this very IR (unchanged since). A plan
/// with problems applies nothing and returns an empty vector. Returns what was created, in plan
/// order. Source: seed 000 §"Algorithm — the converter", steps (c)-(j).
template <class G>
std::vector<applied_conversion<op_handle_t<G>>> apply(G& g, const fusion_to_composite_plan<op_handle_t<G>>& plan) {
  static_assert(require_outlinable_ir<G>());
  using traits = ir::traits<G>;
  std::vector<applied_conversion<op_handle_t<G>>> out;
  if (!plan.ok()) return out;
  out.reserve(plan.conversions.size());
  const std::string name_text = mlir_string_literal(composite_schema::composite_name);
  const named_attribute fn_attrs[] = {{composite_schema::gen_composite, "true"},
                                      {composite_schema::no_delete, "true"}};
  for (auto& c : plan.conversions) {
    // Outline first: the clone reads the fusion's region, which erase_op destroys.
    auto fn = traits::outline_region(g, outline_request<op_handle_t<G>>{c.fusion, c.decomposition, fn_attrs});
    const std::string kind_text = mlir_string_literal(c.composite_kind);
    const std::string sym_text = mlir_symbol_ref(c.decomposition);
    const named_attribute attrs[] = {{composite_schema::composite_kind, kind_text},
                                     {"composite_attributes", "{}"},
                                     {"decomposition", sym_text},
                                     {"name", name_text},
                                     {"version", "0 : i32"}};
    auto comp = traits::replace_op(g, replace_request<op_handle_t<G>>{c.fusion, plan.composite_op_name, attrs});
    traits::erase_op(g, c.fusion);
    out.push_back({comp, fn});
  }
  return out;
}

/// Plans and, when the plan has no problems, applies FusionToComposite. Returns the plan (its
/// `problems` say why nothing was changed).
template <class Registry = fusion_op_registry, class G>
fusion_to_composite_plan<op_handle_t<G>> fusion_to_composite(G& g, const fusion_to_composite_options& opt = {}) {
  static_assert(require_outlinable_ir<G>());
  auto plan = plan_fusion_to_composite<Registry>(std::as_const(g), opt);
  neuronrw::apply(g, plan);
  return plan;
}

}  // namespace neuronrw
