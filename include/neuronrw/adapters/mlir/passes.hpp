// neuronrw/adapters/mlir/passes.hpp — the library's passes as real MLIR passes (docs/mlir.md):
//
//   neuronrw-schedule-fusion             ScheduleFusion (all_gather → reduce_scatter into fusions)
//   neuronrw-schedule-fusion-composites  ScheduleFusion, each cluster lowered to a composite (the
//                                        StableHLO flavour: StableHLO has no fusion op)
//   neuronrw-fusion-to-composite         FusionToComposite
//
// Each is an OperationPass<ModuleOp> built from the generic templates over the MLIR adapter
// (traits.hpp), with its options the MLIR way (`--pass-pipeline=
// 'builtin.module(neuronrw-schedule-fusion{budget=64 remarks=true})'`), made from the pass's options
// schema (neuronrw/passes/options.hpp, schema_options below), Statistic counters
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
#include <optional>
#include <type_traits>
#include <vector>
#include <string>
#include <string_view>
#include <utility>

#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/Diagnostics.h>
#include <mlir/Pass/Pass.h>
#include <mlir/Pass/PassRegistry.h>
#include <llvm/Support/ErrorHandling.h>

#include <neuronrw/adapters/mlir/diagnostics.hpp>
#include <neuronrw/adapters/mlir/traits.hpp>
#include <neuronrw/passes/diagnostics.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/options.hpp>
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

/// The MLIR Option<>s of a pass, made from its options schema (neuronrw/passes/options.hpp) when
/// the pass is constructed, one per field the MLIR passes offer, in schema order (MLIR prints and
/// lists them sorted by name): `Option<std::uint64_t>`, `Option<std::string>` or `Option<bool>`,
/// with the field's name, MLIR help line and default (the descriptor's, when it gives one: a
/// pattern's budget). values() fills the options struct from them; problems() checks the
/// schema's constraints.
template <class Options>
class schema_options {
 public:
  template <class Descriptor>
  schema_options(mlir::Pass& pass, std::type_identity<Descriptor>) {
    for (const auto& f : option_schema_v<Options>) {
      if (!offers(f.tools, option_tools::mlir)) continue;
      const std::string def = descriptor_option_default<Descriptor>(f);
      const llvm::StringRef name(f.name.data(), f.name.size());
      const auto help = f.mlir_help.empty() ? f.help : f.mlir_help;
      const auto desc = llvm::cl::desc(llvm::StringRef(help.data(), help.size()));
      slot s{&f, nullptr, nullptr, nullptr};
      switch (f.type) {
        case option_type::uint64: {
          std::uint64_t v = 0;
          options_detail::parse_uint64(def, v);
          s.u64 = std::make_unique<mlir::Pass::Option<std::uint64_t>>(pass, name, desc, llvm::cl::init(v));
          break;
        }
        case option_type::string:
          s.str = std::make_unique<mlir::Pass::Option<std::string>>(pass, name, desc, llvm::cl::init(def));
          break;
        case option_type::boolean:
          s.flag = std::make_unique<mlir::Pass::Option<bool>>(pass, name, desc, llvm::cl::init(def == "true"));
          break;
      }
      slots_.push_back(std::move(s));
    }
  }

  /// The bool option `name` (a run-level one: `remarks`, `dry-run`); aborts when there is none.
  mlir::Pass::Option<bool>& flag(std::string_view name) {
    for (auto& s : slots_)
      if (s.field->name == name && s.flag) return *s.flag;
    llvm::report_fatal_error("neuronrw::mlir_adapter::schema_options: no bool option of that name");
  }

  /// The options struct; its strings view the options' values (valid while the pass lives and its
  /// options are not changed).
  Options values() const {
    Options o;
    for (const auto& s : slots_) {
      if (!s.field->member) continue;
      if (s.str) s.field->member.set(o, s.str->getValue());
      else if (s.u64) s.field->member.set(o, std::to_string(s.u64->getValue()));
      else s.field->member.set(o, s.flag->getValue() ? "true" : "false");
    }
    return o;
  }

  /// What is wrong with the options' values, as one sentence naming the constrained options and
  /// their values (`invalid options: group-op and terminator must be op names `dialect.op`, ...
  /// (group-op='x' ...)`); nothing when all hold.
  std::optional<std::string> problems() const {
    std::vector<std::string_view> ops, non_empty;
    std::string values;
    bool bad = false;
    for (auto check : {option_check::op_name, option_check::non_empty})
      for (const auto& s : slots_) {
        if (s.field->check != check || !s.str) continue;
        const std::string& v = s.str->getValue();
        (check == option_check::op_name ? ops : non_empty).push_back(s.field->name);
        bad |= check == option_check::op_name ? !is_op_name(v) : v.empty();
        values += (values.empty() ? "" : " ") + std::string(s.field->name) + "='" + v + "'";
      }
    if (!bad) return std::nullopt;
    auto names = [](const std::vector<std::string_view>& ns) {
      std::string out;
      for (std::size_t i = 0; i < ns.size(); ++i) out += (i ? " and " : "") + std::string(ns[i]);
      return out;
    };
    std::vector<std::string> clauses;
    if (!ops.empty())
      clauses.push_back(names(ops) + (ops.size() == 1 ? " must be an op name `dialect.op`" : " must be op names `dialect.op`"));
    if (!non_empty.empty()) clauses.push_back(names(non_empty) + " must not be empty");
    const bool several = ops.size() > 1 || non_empty.size() > 1;
    std::string msg = "invalid options: ";
    for (std::size_t i = 0; i < clauses.size(); ++i) msg += (i ? (several ? ", " : " and ") : "") + clauses[i];
    return msg + " (" + values + ")";
  }

 private:
  struct slot {
    const option_field<Options>* field;
    std::unique_ptr<mlir::Pass::Option<std::string>> str;
    std::unique_ptr<mlir::Pass::Option<std::uint64_t>> u64;
    std::unique_ptr<mlir::Pass::Option<bool>> flag;
  };
  std::vector<slot> slots_;
};

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
    if (auto problem = options_.problems()) {
      this->getOperation()->emitError() << this->getArgument() << ": " << *problem;
      return this->signalPassFailure();
    }
    const schedule_fusion_options opt = options_.values();
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

  // Options, as `neuronrw-schedule-fusion{budget=64 group-op=mhlo.fusion}`: made from the options
  // schema (passes/schedule_fusion/plan.hpp), the budget and kind defaulting to the pattern's.
  schema_options<schedule_fusion_options> options_{*this,
                                                   std::type_identity<passes::basic_schedule_fusion<Pattern, composites>>{}};
  typename base::template Option<bool>& remarks = options_.flag("remarks");
  typename base::template Option<bool>& dryRun = options_.flag("dry-run");

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
    if (auto problem = options_.problems()) {
      this->getOperation()->emitError() << this->getArgument() << ": " << *problem;
      return this->signalPassFailure();
    }
    const fusion_to_composite_options opt = options_.values();
    auto plan = plan_fusion_to_composite<Registry>(std::as_const(g), opt);
    refused += plan.refused.size();
    pass_detail::emit_refusals(std::as_const(g), plan, this->getArgument());
    if (!plan.ok()) return this->signalPassFailure();
    if (!plan.has_changes()) return this->markAllAnalysesPreserved();
    composites += plan.conversions.size();
    neuronrw::apply(g, plan);
  }

  // Options, made from the options schema (passes/fusion_to_composite.hpp).
  schema_options<fusion_to_composite_options> options_{*this,
                                                       std::type_identity<passes::basic_fusion_to_composite<Registry>>{}};

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
