// neuronrw/adapters/mlir/passes.hpp — the library's passes as real MLIR passes (docs/mlir.md):
//
//   neuronrw-schedule-fusion             ScheduleFusion (all_gather → reduce_scatter into fusions)
//   neuronrw-schedule-fusion-composites  ScheduleFusion, each cluster lowered to a composite (the
//                                        StableHLO flavour: StableHLO has no fusion op)
//   neuronrw-fusion-to-composite         FusionToComposite
//
// Each is a descriptor_pass (descriptor_pass.hpp) of the pass's descriptor: an
// OperationPass<ModuleOp> over the MLIR adapter (traits.hpp) with its options the MLIR way
// (`--pass-pipeline='builtin.module(neuronrw-schedule-fusion{budget=64 remarks=true})'`), made
// from the pass's options schema (neuronrw/passes/options.hpp), Statistic counters
// (`--mlir-pass-statistics`, D::statistics) and, with `remarks=true`, one remark per refused
// candidate naming the reason. Refusals become diagnostics through the library's to_diagnostics
// (neuronrw/passes/diagnostics.hpp), with the pass's argument as the pass name, emitted at their
// ops (adapters/mlir/diagnostics.hpp). Mutations go through an IRRewriter.
//
// Customization points:
//   - `schedule_fusion_pass<Pattern, Flavour>`: any co_schedule_pattern (e.g. an all_to_all
//     pair), registered under your own argument with `register_schedule_fusion_pass<P>(...)`;
//   - any other pass descriptor: `descriptor_pass<D>`, `register_descriptor_pass<D>()`;
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

#include <neuronrw/adapters/mlir/descriptor_pass.hpp>
#include <neuronrw/adapters/mlir/diagnostics.hpp>
#include <neuronrw/adapters/mlir/traits.hpp>
#include <neuronrw/passes/diagnostics.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/options.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

namespace neuronrw::mlir_adapter {

enum class schedule_flavour : std::uint8_t {
  fusion,      ///< clusters become grouping ops (mhlo.fusion)
  composites,  ///< clusters become stablehlo.composite + decomposition functions
};

/// ScheduleFusion's dry run also remarks on each cluster it would form, at the consumer.
template <class Pattern, bool Composites>
struct mlir_extension<passes::basic_schedule_fusion<Pattern, Composites>> {
  static void dry_run_remarks(mlir::Operation*, const ir&, const schedule_fusion_plan_t<ir>& plan, llvm::StringRef argument) {
    for (std::size_t i = 0; i < plan.clusters.size(); ++i) {
      const auto& c = plan.clusters[i];
      c.consumer()->emitRemark() << argument << ": cluster " << i << " with the producer at " << c.producer()->getLoc()
                                 << ": " << c.ops.size() << " ops, " << c.carried.size() << " carried, "
                                 << c.moves.size() << " moves";
    }
  }
};

/// FusionToComposite's dry run remarks on each conversion it would make, at the fusion.
template <class Registry>
struct mlir_extension<passes::basic_fusion_to_composite<Registry>> {
  static void dry_run_remarks(mlir::Operation*, const ir&, const fusion_to_composite_plan<mlir::Operation*>& plan,
                              llvm::StringRef argument) {
    for (std::size_t i = 0; i < plan.conversions.size(); ++i) {
      const auto& c = plan.conversions[i];
      c.fusion->emitRemark() << argument << ": conversion " << i << ": " << plan.composite_op_name
                             << " with CompositeKind \"" << c.composite_kind << "\" and decomposition @"
                             << c.decomposition;
    }
  }
};

/// ScheduleFusion as an MLIR pass over a module. Pattern: passes/schedule_fusion/pattern.hpp.
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, schedule_flavour Flavour = schedule_flavour::fusion>
using schedule_fusion_pass =
    descriptor_pass<passes::basic_schedule_fusion<Pattern, Flavour == schedule_flavour::composites>>;

/// FusionToComposite as an MLIR pass over a module. A module with a refused fusion is left
/// unchanged: every problem is an error at its op, and the pass fails.
template <class Registry = fusion_op_registry>
using fusion_to_composite_pass = descriptor_pass<passes::basic_fusion_to_composite<Registry>>;

/// Registers a ScheduleFusion pass for `Pattern` under `argument` (e.g. "my-moe-overlap").
template <co_schedule_pattern_like Pattern, schedule_flavour Flavour = schedule_flavour::fusion>
void register_schedule_fusion_pass(std::string argument, std::string description, kind_table kinds = kind_table::defaults()) {
  mlir::PassRegistration<schedule_fusion_pass<Pattern, Flavour>>([=] {
    return std::make_unique<schedule_fusion_pass<Pattern, Flavour>>(argument, description, kinds);
  });
}

/// Registers a FusionToComposite pass under `argument` with its own kind table (e.g. one that
/// names `mycc.fusion` a fusion).
template <class Registry = fusion_op_registry>
void register_fusion_to_composite_pass(std::string argument, std::string description,
                                       kind_table kinds = kind_table::defaults()) {
  mlir::PassRegistration<fusion_to_composite_pass<Registry>>([=] {
    return std::make_unique<fusion_to_composite_pass<Registry>>(argument, description, kinds);
  });
}

/// Registers the three passes under their default names (`neuronrw-schedule-fusion`, ...) and,
/// with `short_names`, also under neuronrw-opt's (`schedule-fusion`, ...), so one pipeline string
/// means the same to both tools.
inline void register_passes(bool short_names = false) {
  register_descriptor_pass<passes::schedule_fusion>();
  register_descriptor_pass<passes::schedule_fusion_composites>();
  register_descriptor_pass<passes::fusion_to_composite>();
  if (short_names) {
    register_descriptor_pass<passes::schedule_fusion>(std::string(passes::schedule_fusion::name));
    register_descriptor_pass<passes::schedule_fusion_composites>(std::string(passes::schedule_fusion_composites::name));
    register_descriptor_pass<passes::fusion_to_composite>(std::string(passes::fusion_to_composite::name));
  }
}

inline std::unique_ptr<mlir::Pass> create_schedule_fusion_pass() { return std::make_unique<schedule_fusion_pass<>>(); }
inline std::unique_ptr<mlir::Pass> create_schedule_fusion_composites_pass() {
  return std::make_unique<schedule_fusion_pass<schedule_fusion_pattern, schedule_flavour::composites>>();
}
inline std::unique_ptr<mlir::Pass> create_fusion_to_composite_pass() {
  return std::make_unique<fusion_to_composite_pass<>>();
}

}  // namespace neuronrw::mlir_adapter
