// neuronrw/adapters/mlir/passes.hpp — the library's passes as real MLIR passes (docs/mlir.md):
//
//   neuronrw-schedule-fusion             ScheduleFusion (all_gather → reduce_scatter into fusions)
//   neuronrw-schedule-fusion-composites  ScheduleFusion, each cluster lowered to a composite (the
//                                        StableHLO flavour: StableHLO has no fusion op)
//   neuronrw-fusion-to-composite         FusionToComposite
//
// Each is an OperationPass<ModuleOp> built from the generic templates over the MLIR adapter
// (traits.hpp), with its options declared the MLIR way (`--pass-pipeline=
// 'builtin.module(neuronrw-schedule-fusion{budget=64 remarks=true})'`), Statistic counters
// (`--mlir-pass-statistics`) and, with `remarks=true`, one remark per refused candidate naming
// the reason. Refusals become diagnostics through the library's to_diagnostics
// (neuronrw/passes/diagnostics.hpp), with the pass's argument as the pass name, emitted at their
// ops (adapters/mlir/diagnostics.hpp). Mutations go through an IRRewriter.
//
// Customization points:
//   - `schedule_fusion_pass<Pattern, Flavour>`: any co_schedule_pattern (e.g. an all_to_all
//     pair), registered under your own argument with `register_schedule_fusion_pass<P>(...)`;
//   - the kind table each pass reads op kinds from (constructor argument; default
//     kind_table::defaults());
//   - `set_remarks_default(bool)`: what `remarks` defaults to (neuronrw-mlir-opt's
//     `--neuronrw-remarks` sets it).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/Diagnostics.h>
#include <mlir/Pass/Pass.h>
#include <mlir/Pass/PassRegistry.h>

#include <neuronrw/adapters/mlir/diagnostics.hpp>
#include <neuronrw/adapters/mlir/traits.hpp>
#include <neuronrw/passes/diagnostics.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

namespace neuronrw::mlir_adapter {

/// The default of every neuronrw pass's `remarks` option (a process-wide setting, read when a
/// pass is created: set it before the pass pipeline is built).
inline bool& remarks_default() {
  static bool on = false;
  return on;
}
inline void set_remarks_default(bool on) { remarks_default() = on; }

enum class schedule_flavour : std::uint8_t {
  fusion,      ///< clusters become grouping ops (mhlo.fusion)
  composites,  ///< clusters become stablehlo.composite + decomposition functions
};

namespace pass_detail {

/// An op name the pass may create: `dialect.op` (MLIR needs the dialect prefix).
inline bool valid_op_name(std::string_view n) {
  const auto dot = n.find('.');
  return dot != std::string_view::npos && dot > 0 && dot + 1 < n.size();
}

/// Emits every refusal of `plan` (made on `g`) as a diagnostic at its op, worded with the running
/// pass's argument: ScheduleFusion's remarks with their notes, FusionToComposite's errors.
template <class Plan>
void emit_refusals(const ir& g, const Plan& plan, llvm::StringRef argument) {
  for (const auto& d : to_diagnostics(g, plan, op_locator{}, {.pass = std::string_view(argument)})) mlir_adapter::emit(d);
}

inline constexpr std::array all_schedule_refusals = {
    schedule_refusal::no_producer_operand, schedule_refusal::already_fused, schedule_refusal::producer_claimed,
    schedule_refusal::different_block,     schedule_refusal::budget_exceeded, schedule_refusal::non_convex,
    schedule_refusal::splits_cluster,      schedule_refusal::reschedule_refused};

}  // namespace pass_detail

/// What every neuronrw MLIR pass has: its argument and description (given at construction, so one
/// pass class can be registered under several names) and the kind table it reads ops through.
template <class Derived>
class module_pass : public mlir::PassWrapper<Derived, mlir::OperationPass<mlir::ModuleOp>> {
 public:
  module_pass(std::string argument, std::string description, kind_table kinds)
      : argument_(std::move(argument)), description_(std::move(description)), kinds_(std::move(kinds)) {}
  module_pass(const module_pass& o)
      : mlir::PassWrapper<Derived, mlir::OperationPass<mlir::ModuleOp>>(o),
        argument_(o.argument_),
        description_(o.description_),
        kinds_(o.kinds_) {}

  llvm::StringRef getArgument() const override { return argument_; }
  llvm::StringRef getDescription() const override { return description_; }
  /// The name --mlir-timing, --mlir-pass-statistics and "IR Dump After" print: the argument (the
  /// default, the C++ type name, differs between compilers and runs to hundreds of characters).
  llvm::StringRef getName() const override { return argument_; }

 protected:
  /// The adapter over the module this run works on, mutating through `rewriter`.
  ir adapter(mlir::RewriterBase& rewriter) { return ir(this->getOperation(), kinds_, &rewriter); }

 private:
  std::string argument_, description_;
  kind_table kinds_;
};

/// ScheduleFusion as an MLIR pass over a module. Pattern: passes/schedule_fusion/pattern.hpp.
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, schedule_flavour Flavour = schedule_flavour::fusion>
class schedule_fusion_pass : public module_pass<schedule_fusion_pass<Pattern, Flavour>> {
  using base = module_pass<schedule_fusion_pass<Pattern, Flavour>>;

 public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(schedule_fusion_pass)

  static constexpr bool composites = Flavour == schedule_flavour::composites;

  explicit schedule_fusion_pass(std::string argument = composites ? "neuronrw-schedule-fusion-composites"
                                                                  : "neuronrw-schedule-fusion",
                                std::string description = composites
                                    ? "Co-schedule collective pairs (all_gather -> reduce_scatter) and lower "
                                      "each cluster to a stablehlo.composite with a private decomposition"
                                    : "Co-schedule collective pairs (all_gather -> reduce_scatter) into "
                                      "fusions tagged FusionKind",
                                kind_table kinds = kind_table::defaults())
      : base(std::move(argument), std::move(description), std::move(kinds)) {
    remarks = remarks_default();
  }
  schedule_fusion_pass(const schedule_fusion_pass& o) : base(o) {}

  void runOnOperation() override {
    mlir::IRRewriter rewriter(&this->getContext());
    ir g = this->adapter(rewriter);
    schedule_fusion_options opt;
    opt.group_op_name = groupOp.getValue();
    opt.terminator_name = terminator.getValue();
    opt.budget = static_cast<std::size_t>(budget.getValue());
    opt.skip_functions_with = skipFunctionsWith.getValue();
    opt.composite_prefix = symbolPrefix.getValue();
    opt.fusion_kind = fusionKind.getValue();
    if (!pass_detail::valid_op_name(opt.group_op_name) || !pass_detail::valid_op_name(opt.terminator_name) ||
        opt.composite_prefix.empty() || opt.fusion_kind.empty()) {
      this->getOperation()->emitError()
          << this->getArgument()
          << ": invalid options: group-op and terminator must be op names `dialect.op`, symbol-prefix "
             "and fusion-kind must not be empty (group-op='"
          << opt.group_op_name << "' terminator='" << opt.terminator_name << "' symbol-prefix='"
          << opt.composite_prefix << "' fusion-kind='" << opt.fusion_kind << "')";
      return this->signalPassFailure();
    }
    const auto& cg = std::as_const(g);
    auto plan = composites ? plan_schedule_fusion_composites<Pattern>(cg, opt) : plan_schedule_fusion<Pattern>(cg, opt);

    candidates += plan.candidates();
    clusters += plan.clusters.size();
    for (const auto& r : plan.refused) ++refused[static_cast<std::size_t>(r.code)];
    if (remarks || dryRun) emit_remarks(cg, plan);
    if (dryRun || !plan.has_changes()) return this->markAllAnalysesPreserved();
    for (const auto& c : plan.clusters) moves += c.moves.size();
    neuronrw::apply(g, plan);
    if constexpr (composites) composites_made += plan.clusters.size();
  }

  // Options, as `neuronrw-schedule-fusion{budget=64 group-op=mhlo.fusion}`.
  typename base::template Option<std::uint64_t> budget{
      *this, "budget",
      llvm::cl::desc("Most ops the dependence walk may visit per candidate (default: the pattern's)"),
      llvm::cl::init(Pattern::budget)};
  typename base::template Option<std::string> groupOp{*this, "group-op",
                                                      llvm::cl::desc("The grouping op each cluster becomes"),
                                                      llvm::cl::init("mhlo.fusion")};
  typename base::template Option<std::string> terminator{
      *this, "terminator", llvm::cl::desc("The terminator of the grouping op's region"), llvm::cl::init("mhlo.return")};
  typename base::template Option<std::string> fusionKind{
      *this, "fusion-kind",
      llvm::cl::desc("The FusionKind (CompositeKind) clusters carry (default: the pattern's)"),
      llvm::cl::init(std::string(Pattern::fusion_kind))};
  typename base::template Option<std::string> skipFunctionsWith{
      *this, "skip-functions-with",
      llvm::cl::desc("Skip functions carrying this attribute (empty: skip none)"), llvm::cl::init("genComposite")};
  typename base::template Option<std::string> symbolPrefix{
      *this, "symbol-prefix",
      llvm::cl::desc("Composites flavour: decompositions are named <symbol-prefix><N>"),
      llvm::cl::init("hilo.FusedComposite.")};
  typename base::template Option<bool> remarks{
      *this, "remarks", llvm::cl::desc("Emit a remark for every refused candidate, naming the reason"),
      llvm::cl::init(false)};
  typename base::template Option<bool> dryRun{
      *this, "dry-run", llvm::cl::desc("Emit the plan as remarks (clusters and refusals); change nothing"),
      llvm::cl::init(false)};

  // Statistics (`--mlir-pass-statistics`).
  typename base::Statistic candidates{this, "candidates", "Candidate consumers examined"};
  typename base::Statistic clusters{this, "clusters", "Clusters formed"};
  typename base::Statistic moves{this, "moves", "Ops moved by the reschedule"};
  typename base::Statistic composites_made{this, "composites", "Composites created (composites flavour)"};
  std::array<typename base::Statistic, 8> refused{
      typename base::Statistic{this, "refused-no_producer_operand", "Refused: no producer operand"},
      typename base::Statistic{this, "refused-already_fused", "Refused: already inside a fusion"},
      typename base::Statistic{this, "refused-producer_claimed", "Refused: producer in an earlier cluster"},
      typename base::Statistic{this, "refused-different_block", "Refused: producer in another block"},
      typename base::Statistic{this, "refused-budget_exceeded", "Refused: walk budget exceeded"},
      typename base::Statistic{this, "refused-non_convex", "Refused: cluster not convex"},
      typename base::Statistic{this, "refused-splits_cluster", "Refused: would split an earlier cluster"},
      typename base::Statistic{this, "refused-reschedule_refused", "Refused: dominance repair refused"}};

 private:
  void emit_remarks(const ir& g, const schedule_fusion_plan_t<ir>& plan) {
    if (dryRun)
      for (std::size_t i = 0; i < plan.clusters.size(); ++i) {
        const auto& c = plan.clusters[i];
        c.consumer()->emitRemark() << this->getArgument() << ": cluster " << i << " with the producer at "
                                   << c.producer()->getLoc() << ": " << c.ops.size() << " ops, "
                                   << c.carried.size() << " carried, " << c.moves.size() << " moves";
      }
    pass_detail::emit_refusals(g, plan, this->getArgument());
  }
};

/// FusionToComposite as an MLIR pass over a module. A module with a refused fusion is left
/// unchanged: every problem is an error at its op, and the pass fails.
template <class Registry = fusion_op_registry>
class fusion_to_composite_pass : public module_pass<fusion_to_composite_pass<Registry>> {
  using base = module_pass<fusion_to_composite_pass<Registry>>;

 public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(fusion_to_composite_pass)

  explicit fusion_to_composite_pass(std::string argument = "neuronrw-fusion-to-composite",
                                    std::string description =
                                        "Lower every fusion to a stablehlo.composite and a private decomposition "
                                        "function",
                                    kind_table kinds = kind_table::defaults())
      : base(std::move(argument), std::move(description), std::move(kinds)) {}
  fusion_to_composite_pass(const fusion_to_composite_pass& o) : base(o) {}

  void runOnOperation() override {
    mlir::IRRewriter rewriter(&this->getContext());
    ir g = this->adapter(rewriter);
    fusion_to_composite_options opt;
    opt.symbol_prefix = symbolPrefix.getValue();
    opt.composite_op_name = compositeOp.getValue();
    opt.validate_fusion_kind = validateFusionKind;
    if (opt.symbol_prefix.empty() || !pass_detail::valid_op_name(opt.composite_op_name)) {
      this->getOperation()->emitError()
          << this->getArgument()
          << ": invalid options: composite-op must be an op name `dialect.op` and symbol-prefix must not be "
             "empty (composite-op='"
          << opt.composite_op_name << "' symbol-prefix='" << opt.symbol_prefix << "')";
      return this->signalPassFailure();
    }
    auto plan = plan_fusion_to_composite<Registry>(std::as_const(g), opt);
    refused += plan.refused.size();
    pass_detail::emit_refusals(std::as_const(g), plan, this->getArgument());
    if (!plan.ok()) return this->signalPassFailure();
    if (!plan.has_changes()) return this->markAllAnalysesPreserved();
    composites += plan.conversions.size();
    neuronrw::apply(g, plan);
  }

  typename base::template Option<std::string> symbolPrefix{
      *this, "symbol-prefix", llvm::cl::desc("Decompositions are named <symbol-prefix><N>"),
      llvm::cl::init("hilo.FusedComposite.")};
  typename base::template Option<std::string> compositeOp{
      *this, "composite-op", llvm::cl::desc("The op each fusion becomes"), llvm::cl::init("stablehlo.composite")};
  typename base::template Option<bool> validateFusionKind{
      *this, "validate-fusion-kind", llvm::cl::desc("Refuse a FusionKind outside the fusion-kind registry"),
      llvm::cl::init(false)};

  typename base::Statistic composites{this, "composites", "Composites created"};
  typename base::Statistic refused{this, "refused", "Fusions refused (the module is then unchanged)"};
};

/// Registers a ScheduleFusion pass for `Pattern` under `argument` (e.g. "my-moe-overlap").
template <co_schedule_pattern_like Pattern, schedule_flavour Flavour = schedule_flavour::fusion>
void register_schedule_fusion_pass(std::string argument, std::string description, kind_table kinds = kind_table::defaults()) {
  mlir::PassRegistration<schedule_fusion_pass<Pattern, Flavour>>([=] {
    return std::make_unique<schedule_fusion_pass<Pattern, Flavour>>(argument, description, kinds);
  });
}

/// Registers the three passes under their default names.
inline void register_passes() {
  mlir::PassRegistration<schedule_fusion_pass<>>();
  mlir::PassRegistration<schedule_fusion_pass<schedule_fusion_pattern, schedule_flavour::composites>>();
  mlir::PassRegistration<fusion_to_composite_pass<>>();
}

inline std::unique_ptr<mlir::Pass> create_schedule_fusion_pass() { return std::make_unique<schedule_fusion_pass<>>(); }
inline std::unique_ptr<mlir::Pass> create_schedule_fusion_composites_pass() {
  return std::make_unique<schedule_fusion_pass<schedule_fusion_pattern, schedule_flavour::composites>>();
}
inline std::unique_ptr<mlir::Pass> create_fusion_to_composite_pass() {
  return std::make_unique<fusion_to_composite_pass<>>();
}

}  // namespace neuronrw::mlir_adapter
