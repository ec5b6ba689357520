// my-compiler-opt — an MLIR-based compiler's opt tool with neuronrw's passes registered its own
// way (docs/mlir.md §"Your own tool"): its collectives are `my.*` ops, so it extends the kind
// table; it declares its own co-scheduling pattern (mixture-of-experts dispatch → combine) and
// registers it under its own pass name; it runs the library from a pass of its own; and it keeps
// the library's passes under their names.
//
//   my-compiler-opt --allow-unregistered-dialect
//     --pass-pipeline='builtin.module(my-moe-overlap,my-schedule-fusion)' moe_layer.mlir
//   my-compiler-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(my-overlap)' moe_layer.mlir
//
// Built by CMakeLists.txt next to this file; README.md walks through it.
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/IR/DialectRegistry.h>
#include <mlir/IR/PatternMatch.h>
#include <mlir/Pass/Pass.h>
#include <mlir/Tools/mlir-opt/MlirOptMain.h>

#include <neuronrw/adapters/mlir/passes.hpp>

namespace {

namespace na = neuronrw::mlir_adapter;
namespace nk = neuronrw::kinds;

// [mlir-consumer-kinds]
/// The op names the passes recognise: the defaults (mhlo.*, stablehlo.*, func.*) plus this
/// compiler's own collectives. Any other op is ordinary compute to the passes.
na::kind_table my_kinds() {
  auto table = na::kind_table::defaults();
  table.add<nk::all_gather>("my.all_gather");
  table.add<nk::reduce_scatter>("my.reduce_scatter");
  table.add<nk::all_to_all>("my.all_to_all");
  return table;
}
// [/mlir-consumer-kinds]

// [mlir-consumer-pattern]
/// Mixture-of-experts dispatch → combine: an all_to_all feeding an all_to_all, co-scheduled and
/// grouped into a fusion tagged FusionKind = "MoEOverlap"; the dependence walk visits at most 64
/// ops per candidate.
using moe_overlap = neuronrw::co_schedule_pattern<nk::all_to_all, nk::all_to_all, neuronrw::default_boundary_set,
                                                  64, "MoEOverlap">;
// [/mlir-consumer-pattern]

// [mlir-consumer-own-pass]
/// A pass of this compiler's own that calls the library directly, as any existing pass can: the
/// IR object holds the module, the kind table and the pass's rewriter (every mutation goes through
/// it); each schedule_fusion call plans, reading only, then applies the plan.
class my_overlap_pass : public mlir::PassWrapper<my_overlap_pass, mlir::OperationPass<mlir::ModuleOp>> {
 public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(my_overlap_pass)
  llvm::StringRef getArgument() const override { return "my-overlap"; }
  llvm::StringRef getDescription() const override { return "my-moe-overlap then my-schedule-fusion, as one pass"; }

  void runOnOperation() override {
    mlir::IRRewriter rewriter(&getContext());
    na::ir g(getOperation(), kinds_, &rewriter);
    const auto moe = neuronrw::schedule_fusion<moe_overlap>(g);
    const auto fsdp = neuronrw::schedule_fusion(g);  // the library's pattern: all_gather -> reduce_scatter
    if (!moe.has_changes() && !fsdp.has_changes()) markAllAnalysesPreserved();
  }

 private:
  na::kind_table kinds_ = my_kinds();
};
// [/mlir-consumer-own-pass]

// [mlir-consumer-register]
/// Registers this compiler's passes, the library's among them, for the command line and for
/// textual pipelines (`--pass-pipeline`, mlir::parsePassPipeline).
void register_my_passes() {
  // The library's passes under their own names, with the default kind table.
  na::register_passes();
  // This compiler's passes: its pattern, and the library's pattern over its `my.*` ops. Each has
  // the options of neuronrw-schedule-fusion (budget, group-op, remarks, dry-run, ...).
  na::register_schedule_fusion_pass<moe_overlap>(
      "my-moe-overlap", "Overlap MoE dispatch and combine (all_to_all -> all_to_all)", my_kinds());
  na::register_schedule_fusion_pass<neuronrw::schedule_fusion_pattern>(
      "my-schedule-fusion", "ScheduleFusion over my.all_gather -> my.reduce_scatter", my_kinds());
  // A pass written here, calling the library itself.
  mlir::PassRegistration<my_overlap_pass>();
}
// [/mlir-consumer-register]

}  // namespace

// [mlir-consumer-main]
int main(int argc, char** argv) {
  register_my_passes();
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect>();
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "my-compiler-opt\n", registry));
}
// [/mlir-consumer-main]
