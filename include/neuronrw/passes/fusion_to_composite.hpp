// neuronrw/passes/fusion_to_composite.hpp — FusionToComposite: lower every fusion into a
// `stablehlo.composite` plus a private decomposition function (docs/fusion-to-composite.md;
// docs/sources.md §"FusionToComposite", §"Composite attribute schema").
//
// Customization points:
//   - the IR: any model of neuronrw::outlinable_ir (ir_traits<G>, concepts/ir.hpp). Fusions are
//     the ops whose kind is kinds::fusion; functions come from `functions(g)`.
//   - Registry (template parameter, default neuronrw::fusion_op_registry): the kind registry that
//     validates FusionKind when `validate_fusion_kind` is on (e.g.
//     `fusion_op_registry::with_kinds<"RmsNorm">`).
//   - fusion_to_composite_options (aggregate, designated initializers).
//
// Protocol (passes/protocol.hpp):
//   auto p = neuronrw::plan_fusion_to_composite(g, {.validate_fusion_kind = true});  // reads only
//   if (p.ok()) neuronrw::apply(g, p);
// or `neuronrw::fusion_to_composite(g)`, which does both and returns the plan; describe(g, p,
// op_printer) prints it; to_diagnostics(g, p, locate) (passes/diagnostics.hpp) gives its
// refusals as errors.
//
// The rewrite, per fusion F in walk order (the original compiler's convertFusionToComposite):
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
// `genComposite` (the original compiler's idempotency barrier); inside a function every region is walked and
// fusions are taken in post-order (an inner fusion before the fusion containing it, siblings in
// block order). N counts from 0 per run in that order; a name the module already defines is
// skipped (the original compiler's counter would collide on a second run over new fusions). Decompositions are
// created, hence appended, in the same order. A second run finds no fusion and changes nothing.
//
// Refusals: the plan lists refusals instead of conversions going wrong half way; a plan with
// refusals applies nothing, so a refused module is left exactly as it was:
//   - unknown FusionKind (only with `validate_fusion_kind`): the registry's exact message, e.g.
//     `Unexpected FusionOp type 'X'. Supported fusion types are: ScheduleFusion, ..., DotSoftmax.`
//   - a FusionKind that is not a string attribute;
//   - a fusion without exactly one region block, or with an empty one (nothing to outline);
//   - a body that does not end with an op of kind `return` (`mhlo.return`, `stablehlo.return`)
//     with one operand per fusion result: only a return becomes the decomposition's func.return
//     (another terminator, e.g. a loop's yield, means something else);
//   - a fusion body whose ops use a value defined outside the fusion (a clone into a function
//     would be invalid): the result of an outside op, or — when the IR has the optional capability
//     `argument_block` (concepts/ir.hpp O2) — an argument of a block outside the fusion. Without
//     that capability a block argument is taken to belong to the region using it.
//
// Source: docs/fusion-to-composite.md, docs/sources.md §"FusionToComposite".
// Complexity: planning O(ops + operands x nesting depth) per nesting level of fusions (each
// fusion's body is scanned once for the capture check) plus one has_symbol query per name;
// applying is linear in the cloned bodies on the reference IR.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <neuronrw/algorithms/ancestry.hpp>
#include <neuronrw/algorithms/walk.hpp>
#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/descriptors/kind_registry.hpp>
#include <neuronrw/descriptors/kinds.hpp>
#include <neuronrw/concepts/attribute.hpp>
#include <neuronrw/passes/diagnostics.hpp>
#include <neuronrw/passes/composite_lowering.hpp>
#include <neuronrw/validate/check.hpp>
#include <neuronrw/validate/composites.hpp>
#include <neuronrw/passes/protocol.hpp>
#include <neuronrw/passes/options.hpp>
#include <neuronrw/passes/transaction.hpp>

namespace neuronrw {

// composite_schema, applied_conversion: passes/composite_lowering.hpp (shared with ScheduleFusion).

/// Options of FusionToComposite; fill with designated initializers.
struct fusion_to_composite_options {
  /// Decomposition functions are named <symbol_prefix><N>. Default: the original compiler's prefix.
  std::string_view symbol_prefix = "hilo.FusedComposite.";
  /// The op that replaces a fusion.
  std::string_view composite_op_name = "stablehlo.composite";
  /// Check every present FusionKind against the registry; an unknown one refuses the whole run
  /// with the registry's message. A missing FusionKind is never an error: it takes the default
  /// "FusedComposite" (the original compiler's defensive branch) and is caught by the consumer.
  bool validate_fusion_kind = false;
};

/// The options neuronrw-opt and the MLIR pass offer, declared once (passes/options.hpp).
template <>
inline constexpr auto option_schema_v<fusion_to_composite_options> = std::array{
    option_field<fusion_to_composite_options>{
        .name = "composite-op", .type = option_type::string, .default_text = "stablehlo.composite",
        .help = "The op each fusion becomes", .check = option_check::op_name,
        .member = option_member<&fusion_to_composite_options::composite_op_name>},
    option_field<fusion_to_composite_options>{
        .name = "dry-run", .type = option_type::boolean, .default_text = "false",
        .help = "Print the plan (conversions, refusals) instead of the program; change nothing",
        .mlir_help = "Emit the plan as remarks (conversions and refusals); change nothing"},
    option_field<fusion_to_composite_options>{
        .name = "symbol-prefix", .type = option_type::string, .default_text = "hilo.FusedComposite.",
        .help = "Decompositions are named <symbol-prefix><N>", .check = option_check::non_empty,
        .member = option_member<&fusion_to_composite_options::symbol_prefix>},
    option_field<fusion_to_composite_options>{
        .name = "validate-fusion-kind", .type = option_type::boolean, .default_text = "false",
        .help = "Refuse a FusionKind outside the fusion-kind registry",
        .member = option_member<&fusion_to_composite_options::validate_fusion_kind>},
};
static_assert(check_option_defaults(option_schema_v<fusion_to_composite_options>));

/// Why a function was not scanned.
enum class f2c_skip_reason : std::uint8_t {
  gen_composite,  ///< carries `genComposite` (a decomposition of this or an earlier run)
};

/// Why the plan refuses the run (refusal::op names the fusion, its body's last op, or the body op
/// using a captured value).
enum class f2c_problem_code : std::uint8_t {
  unknown_fusion_kind,  ///< FusionKind not in the registry (validate_fusion_kind only)
  non_string_kind,      ///< FusionKind present but not a string attribute
  no_body,              ///< the fusion has no single non-empty region block
  bad_terminator,       ///< the body does not end with a return of the fusion's result count
  region_arguments,     ///< the body takes another number of arguments than the fusion has
                        ///< operands (IRs answering block_arguments only)
  captured_value,       ///< the body uses a value defined outside the fusion
};

constexpr std::string_view to_string(f2c_problem_code c) noexcept {
  switch (c) {
    case f2c_problem_code::unknown_fusion_kind: return "unknown_fusion_kind";
    case f2c_problem_code::non_string_kind: return "non_string_kind";
    case f2c_problem_code::no_body: return "no_body";
    case f2c_problem_code::bad_terminator: return "bad_terminator";
    case f2c_problem_code::region_arguments: return "region_arguments";
    case f2c_problem_code::captured_value: return "captured_value";
  }
  return "unknown";
}

/// The plan of one run: plain data, in walk order. Handles refer to the IR as it was planned:
/// apply it to that IR, unchanged. Models pass_plan (passes/protocol.hpp).
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
  using refusal_record = refusal<f2c_problem_code, Op>;
  using problem [[deprecated("use fusion_to_composite_plan::refusal_record")]] = refusal_record;

  std::string composite_op_name;               ///< copied from the options
  std::vector<conversion> conversions;         ///< numbering and apply order
  std::vector<skipped_function> skipped_functions;
  std::vector<std::string> skipped_names;      ///< names skipped because the module defines them
  std::vector<refusal_record> refused;         ///< non-empty: the run is refused (was `problems`)

  bool ok() const noexcept { return refused.empty(); }
  /// True when applying the plan changes the IR.
  bool has_changes() const noexcept { return ok() && !conversions.empty(); }
  std::span<const conversion> changes() const noexcept { return conversions; }
  std::span<const refusal_record> refusals() const noexcept { return refused; }
};

namespace f2c_detail {

/// The refusal text for a body op whose operand #i is defined outside the fusion.
inline std::string captured_message(std::size_t i) {
  return "operand #" + std::to_string(i) +
         " uses a value defined outside the enclosing fusion, so the fusion cannot be outlined "
         "into a decomposition function";
}

/// True when `v`, used inside `fusion`, is defined outside it: the result of an outside op, or
/// an argument of a block outside it (when the IR tells the block of an argument).
template <class G>
bool captured(const G& g, op_handle_t<G> fusion, value_handle_t<G> v) {
  const auto d = ir::defining_op(g, v);
  if (!ir::is_null<G>(d)) return !is_ancestor_or_self(g, fusion, d);
  const auto b = ir::argument_block(g, v);
  if (!b) return false;  // taken to belong to the region using it (see the header comment)
  auto&& ops = ir::ops(g, *b);
  auto it = std::ranges::begin(ops);
  if (it == std::ranges::end(ops)) return false;  // an empty block: no use can come from it
  const auto owner = ir::parent_op(g, *it);
  return ir::is_null<G>(owner) || !is_ancestor_or_self(g, fusion, owner);
}

}  // namespace f2c_detail

namespace f2c_detail {

/// Plans one function's fusions into `plan` (conversions, refusals and the skipped function), in
/// walk order, leaving the decomposition names empty (name_conversions gives them, module-wide).
/// Reads only `fn` and the ops nested in it.
template <class Registry, class G>
void plan_function(const G& g, op_handle_t<G> fn, const fusion_to_composite_options& opt,
                   fusion_to_composite_plan<op_handle_t<G>>& plan) {
  using op = op_handle_t<G>;
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
    op last = ir::null_op<G>();
    for (auto b : ir::regions(g, fusion)) {
      ++blocks;
      for (auto o : ir::ops(g, b)) last = o;
    }
    if (blocks != 1 || ir::is_null<G>(last)) {
      plan.refused.push_back({f2c_problem_code::no_body, fusion,
                               "fusion has no body to outline (it needs exactly one region block, "
                               "ending with its return)"});
      return;
    }
    // The region's arguments become the decomposition's parameters, one per fusion operand.
    const std::size_t operands = count(ir::operands(g, fusion));
    for (auto b : ir::regions(g, fusion))
      if (auto args = ir::num_block_arguments(g, b); args && *args != operands)
        plan.refused.push_back({f2c_problem_code::region_arguments, fusion,
                                 "the fusion's region takes " + std::to_string(*args) +
                                     " argument(s) but the fusion has " + std::to_string(operands) +
                                     " operand(s): each operand must be passed as one region argument"});
    const std::size_t results = count(ir::results(g, fusion));
    if (ir::kind(g, last) != kind_id_v<kinds::return_> || count(ir::operands(g, last)) != results)
      plan.refused.push_back({f2c_problem_code::bad_terminator, last,
                               "a fusion body must end with a return of its " + std::to_string(results) +
                                   " result(s), e.g. \"mhlo.return\", to become the decomposition's "
                                   "func.return"});
    // Each op is checked against its innermost enclosing fusion only (a value captured from
    // outside an outer fusion is also captured by the inner one), so a capture is reported once.
    walk_inside<walk_order::post>(
        g, fusion,
        [&](op user) {
          std::size_t i = 0;
          for (auto v : ir::operands(g, user)) {
            if (f2c_detail::captured(g, fusion, v))
              plan.refused.push_back({f2c_problem_code::captured_value, user, f2c_detail::captured_message(i)});
            ++i;
          }
        },
        [&](op o) { return ir::kind(g, o) != kind_id_v<kinds::fusion>; });
  };

  if (ir::has_attribute(g, fn, composite_schema::gen_composite)) {
    plan.skipped_functions.push_back({fn, f2c_skip_reason::gen_composite});
    return;
  }
  walk_inside<walk_order::post>(g, fn, [&](op o) {
    if (ir::kind(g, o) != kind_id_v<kinds::fusion>) return;
    typename fusion_to_composite_plan<op>::conversion c{o, fn, {}, {}, false};
    if (auto k = ir::string_attribute(g, o, composite_schema::fusion_kind)) {
      c.composite_kind = std::move(*k);
      if (opt.validate_fusion_kind)
        if (auto msg = Registry::validate(c.composite_kind))
          plan.refused.push_back({f2c_problem_code::unknown_fusion_kind, o, std::move(*msg)});
    } else if (ir::has_attribute(g, o, composite_schema::fusion_kind)) {
      plan.refused.push_back({f2c_problem_code::non_string_kind, o,
                               "fusion attribute 'FusionKind' must be a string, e.g. "
                               "FusionKind = \"ScheduleFusion\""});
    } else {
      c.composite_kind = std::string(composite_schema::default_kind);
      c.kind_defaulted = true;
    }
    check_body(o);
    plan.conversions.push_back(std::move(c));
  });
}

/// The decomposition names of a plan whose conversions are in walk order: <prefix><N>, N from 0,
/// skipping (and recording in skipped_names) the names the module defines.
template <class G>
void name_conversions(const G& g, std::string_view prefix, fusion_to_composite_plan<op_handle_t<G>>& plan) {
  std::size_t counter = 0;
  for (auto& c : plan.conversions)
    for (;;) {
      std::string name = std::string(prefix) + std::to_string(counter++);
      if (!ir::has_symbol(g, name)) {
        c.decomposition = std::move(name);
        break;
      }
      plan.skipped_names.push_back(std::move(name));
    }
}

}  // namespace f2c_detail

/// Plans FusionToComposite over `g` (nothing is changed).
/// @pre the fusion regions reference no value defined outside them (docs/schedule-fusion.md), else the plan
///      reports the captures it can see (see the header comment).
/// Complexity: see the header comment.
template <class Registry = fusion_op_registry, class G>
fusion_to_composite_plan<op_handle_t<G>> plan_fusion_to_composite(const G& g,
                                                                  const fusion_to_composite_options& opt = {}) {
  static_assert(require_outlinable_ir<G>());
  fusion_to_composite_plan<op_handle_t<G>> plan;
  plan.composite_op_name = std::string(opt.composite_op_name);
  for (auto fn : ir::functions(g)) f2c_detail::plan_function<Registry>(g, fn, opt, plan);
  f2c_detail::name_conversions(g, opt.symbol_prefix, plan);
  return plan;
}

/// Applies a plan made by plan_fusion_to_composite on this very IR (unchanged since). A plan
/// with refusals applies nothing and returns an empty vector. Returns what was created, in plan
/// order. Source: docs/fusion-to-composite.md §"The rewrite".
template <class G>
std::vector<applied_conversion<op_handle_t<G>>> apply(G& g, const fusion_to_composite_plan<op_handle_t<G>>& plan) {
  static_assert(require_outlinable_ir<G>());
  if (!plan.ok()) return {};
#ifdef NEURONRW_CHECK_REWRITES  // the tests' builds: checked, aborting on a mismatch (docs/validation.md)
  if constexpr (block_arguments_ir<G>) {
    rewrite_check<op_handle_t<G>> check;
    auto made = lower_to_composites_checked(g, plan.conversions, plan.composite_op_name,
                                            validate_detail::anonymous_printer<G>{g}, check);
    if (!check.ok()) validate_detail::rewrite_check_failed(check);
    return made;
  }
#endif
  txn_detail::unchecked_steps steps;
  return lower_to_composites(g, plan.conversions, plan.composite_op_name, steps);
}

/// The checked apply (docs/validation.md): the same steps, each conversion checked right after
/// its lowering against a snapshot taken right before it (validate/composites.hpp). A plan with
/// refusals applies nothing and checks nothing. `printer` (describe()'s) names ops and values in
/// the mismatches.
template <class G, class Printer>
checked_result<std::vector<applied_conversion<op_handle_t<G>>>, op_handle_t<G>> apply_checked(
    G& g, const fusion_to_composite_plan<op_handle_t<G>>& plan, Printer&& printer) {
  static_assert(require_outlinable_ir<G>());
  checked_result<std::vector<applied_conversion<op_handle_t<G>>>, op_handle_t<G>> r;
  if (!plan.ok()) return r;
  r.applied = lower_to_composites_checked(g, plan.conversions, plan.composite_op_name, printer, r.check);
  return r;
}

/// The same, naming ops by kind id in the mismatches.
template <class G>
checked_result<std::vector<applied_conversion<op_handle_t<G>>>, op_handle_t<G>> apply_checked(
    G& g, const fusion_to_composite_plan<op_handle_t<G>>& plan) {
  return apply_checked(g, plan, validate_detail::anonymous_printer<G>{g});
}

/// What the check of `plan` will cover, without applying it: the fusions' ops (each body and the
/// fusion) and the largest snapshot it holds at once, in bytes.
template <class G>
rewrite_check<op_handle_t<G>> check_scope(const G& g, const fusion_to_composite_plan<op_handle_t<G>>& plan) {
  rewrite_check<op_handle_t<G>> r;
  if (!plan.ok()) return r;
  for (const auto& c : plan.conversions) {
    const auto snap = snapshot_composite(g, c);
    r.ops += snap.ops();
    r.bytes = std::max(r.bytes, snap.bytes());
  }
  return r;
}

/// The gated apply (passes/transaction.hpp): the same steps (outline_region, replace_op, erase_op
/// per conversion), the gate asked before each; when it refuses one, everything done is rolled
/// back and the status names the step. Refuses with invalid_plan, before any change, a plan with
/// refusals or whose decomposition names the IR already defines. `out`, when given, receives
/// what the plain apply returns (empty unless ok). Needs the IR's transaction (O5).
template <class G, mutation_gate Gate>
apply_status apply(G& g, const fusion_to_composite_plan<op_handle_t<G>>& plan, Gate gate,
                   std::vector<applied_conversion<op_handle_t<G>>>* out = nullptr) {
  static_assert(require_outlinable_ir<G>());
  static_assert(transactional_ir<G>,
                "neuronrw: the gated apply needs the IR's transaction (optional capability O5): give "
                "ir_traits<G> `static T begin_transaction(G&)`, `static void commit(G&, T)` and `static "
                "void rollback(G&, T)` (docs/concepts.md), or call the gate-less apply(g, plan).");
  if (out) out->clear();
  if (!plan.ok())
    return txn_detail::invalid_plan("the plan has " + std::to_string(plan.refused.size()) +
                                    " refusal(s): nothing is applied");
  if (auto why = decomposition_names_taken(g, plan.conversions)) return txn_detail::invalid_plan(std::move(*why));
  if constexpr (transactional_ir<G>) {  // else only the static_assert above reports
    std::vector<applied_conversion<op_handle_t<G>>> made;
    auto st = txn_detail::run_transaction<ir_traits<G>>(g, gate, [&](auto& steps) { made = lower_to_composites(g, plan.conversions, plan.composite_op_name, steps); });
    if (out && st.ok()) *out = std::move(made);
    return st;
  } else {
    return {};
  }
}

/// Plans and, when the plan has no refusals, applies FusionToComposite. Returns the plan (its
/// `refused` says why nothing was changed).
template <class Registry = fusion_op_registry, class G>
fusion_to_composite_plan<op_handle_t<G>> fusion_to_composite(G& g, const fusion_to_composite_options& opt = {}) {
  static_assert(require_outlinable_ir<G>());
  auto plan = plan_fusion_to_composite<Registry>(std::as_const(g), opt);
  neuronrw::apply(g, plan);
  return plan;
}

/// The dry run's text, for any IR (ops, functions as the printer names them; passes/protocol.hpp):
///   fusion-to-composite plan: 2 conversions, 0 refused
///   skipped @hilo.FusedComposite.0: carries genComposite
///   name @hilo.FusedComposite.0 taken: skipped
///   convert "mhlo.fusion" (4:8) in @main -> @hilo.FusedComposite.1, CompositeKind "ScheduleFusion"
///   refused "mhlo.fusion" (9:8): unknown_fusion_kind: Unexpected FusionOp type 'X'. ...
template <class G, class Printer>
std::string describe(const G& g, const fusion_to_composite_plan<op_handle_t<G>>& p, Printer&& printer) {
  static_assert(require_read_ir<G>());
  namespace d = describe_detail;
  std::string s = "fusion-to-composite plan: " + d::plural(p.conversions.size(), "conversion", "conversions") + ", " +
                  std::to_string(p.refused.size()) + " refused" + (p.ok() ? "" : " (nothing is applied)") + "\n";
  for (const auto& f : p.skipped_functions)
    s += "skipped " + d::function_text(g, printer, f.function) + ": carries " +
         std::string(composite_schema::gen_composite) + "\n";
  for (const auto& n : p.skipped_names) s += "name " + mlir_symbol_reference(n) + " taken: skipped\n";
  for (const auto& c : p.conversions)
    s += "convert " + d::op_text(g, printer, c.fusion) + " in " + d::function_text(g, printer, c.function) + " -> " +
         mlir_symbol_reference(c.decomposition) + ", " + std::string(composite_schema::composite_kind) + " " +
         mlir_string_literal(c.composite_kind) + (c.kind_defaulted ? " (no FusionKind)" : "") + "\n";
  for (const auto& r : p.refused)
    s += "refused " + d::op_text(g, printer, r.op) + ": " + std::string(to_string(r.code)) + ": " + r.message + "\n";
  return s;
}

/// A refusal as a diagnostic (to_diagnostics, passes/diagnostics.hpp): an error at the op
/// concerned, `PASS: CODE: MESSAGE` (the message alone with refusal_style::message), PASS by
/// default `fusion-to-composite`.
template <class G, class Op>
worded_refusal<Op> refusal_words(const G&, const fusion_to_composite_plan<Op>&,
                                 const typename fusion_to_composite_plan<Op>::refusal_record& r,
                                 const refusal_wording& w) {
  worded_refusal<Op> out;
  out.at = r.op;
  if (w.style == refusal_style::tool)
    out.message = std::string(w.pass.empty() ? std::string_view("fusion-to-composite") : w.pass) + ": " +
                  std::string(to_string(r.code)) + ": ";
  out.message += r.message;
  return out;
}

}  // namespace neuronrw

namespace neuronrw::passes {

/// FusionToComposite's descriptor (passes/protocol.hpp). Parts: one per function (its
/// conversions and refusals, names left empty); merge concatenates them in function order and
/// names the decompositions module-wide. Its apply is sequential: every conversion creates a
/// module-level function.
template <class Registry = fusion_op_registry>
struct basic_fusion_to_composite {
  static constexpr std::string_view name = "fusion-to-composite";
  static constexpr std::string_view display = "FusionToComposite";
  static constexpr std::string_view summary =
      "Lower every fusion to a stablehlo.composite and a private decomposition function";
  static constexpr pass_input input = pass_input::ops;
  using registry = Registry;
  using options = fusion_to_composite_options;
  template <class G>
  using traits = ir_traits<std::remove_cvref_t<G>>;
  template <class G>
  using plan_type = fusion_to_composite_plan<op_handle_t<G>>;
  static constexpr std::string_view dry_run_help = "print the plan (conversions, refusals); change nothing";
  /// The kinds it found no op of (the tools' "no op of kind fusion" remark): fusion, when the
  /// plan has neither a conversion nor a refusal.
  template <class G>
  static std::vector<std::string> missing_kinds(const G&, const plan_type<G>& p) {
    if (!p.conversions.empty() || !p.refused.empty()) return {};
    return {std::string(kinds::fusion::name)};
  }

  /// Its counters: the composites created and the fusions refused.
  template <class G>
  static std::vector<pass_statistic> statistics(const G&, const plan_type<G>& p, bool applied) {
    return {{"composites", "Composites created", p.ok() && applied ? p.conversions.size() : 0},
            {"refused", "Fusions refused (the module is then unchanged)", p.refused.size()}};
  }

  template <class G>
  static plan_type<G> plan(const G& g, const options& o = {}) {
    return plan_fusion_to_composite<Registry>(g, o);
  }
  template <class G>
  static std::vector<applied_conversion<op_handle_t<G>>> apply(G& g, const plan_type<G>& p) {
    return neuronrw::apply(g, p);
  }
  template <class G, class Printer>
  static std::string describe(const G& g, const plan_type<G>& p, Printer&& printer) {
    return neuronrw::describe(g, p, std::forward<Printer>(printer));
  }
  /// The checked apply and what its check covers (above).
  template <class G, class Printer>
  static auto apply_checked(G& g, const plan_type<G>& p, Printer&& printer) {
    return neuronrw::apply_checked(g, p, std::forward<Printer>(printer));
  }
  template <class G>
  static auto check_scope(const G& g, const plan_type<G>& p) {
    return neuronrw::check_scope(g, p);
  }

  template <class G>
  static std::vector<op_handle_t<G>> units(const G& g) {
    std::vector<op_handle_t<G>> fs;
    for (auto&& f : ir::functions(g)) fs.push_back(f);
    return fs;
  }
  /// A worker's scratch: only the options (plan_part reads them).
  struct scratch_type {
    const options* opt;
  };
  template <class G>
  static scratch_type scratch(const G&, const options& o) {
    return {&o};
  }
  template <class G>
  static plan_type<G> plan_part(const G& g, op_handle_t<G> f, scratch_type& s) {
    plan_type<G> part;
    f2c_detail::plan_function<Registry>(g, f, *s.opt, part);
    return part;
  }
  template <class G>
  static plan_type<G> merge(const G& g, const options& o, std::vector<plan_type<G>>&& parts) {
    plan_type<G> out;
    out.composite_op_name = std::string(o.composite_op_name);
    for (auto& part : parts) {
      for (auto& c : part.conversions) out.conversions.push_back(std::move(c));
      for (auto& f : part.skipped_functions) out.skipped_functions.push_back(f);
      for (auto& r : part.refused) out.refused.push_back(std::move(r));
    }
    f2c_detail::name_conversions(g, o.symbol_prefix, out);
    return out;
  }
};


using fusion_to_composite = basic_fusion_to_composite<>;

}  // namespace neuronrw::passes
