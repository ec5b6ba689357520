// neuronrw-mlir-opt — mlir-opt with the neuronrw passes (docs/mlir.md):
//   neuronrw-mlir-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(
//     neuronrw-schedule-fusion,neuronrw-fusion-to-composite)' in.mlir
// Everything mlir-opt does works the same (it is mlir::MlirOptMain): --split-input-file,
// --verify-diagnostics, --mlir-print-ir-after-all, --mlir-timing, --mlir-pass-statistics,
// bytecode in and out. Registered dialects: builtin, func, arith, scf; mhlo and stablehlo ops
// stay unregistered (generic form), hence --allow-unregistered-dialect.
// Extra flag: --neuronrw-remarks, which turns on every neuronrw pass's `remarks` option.
#include <mlir/Dialect/Arith/IR/Arith.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/Dialect/SCF/IR/SCF.h>
#include <mlir/IR/DialectRegistry.h>
#include <mlir/Tools/mlir-opt/MlirOptMain.h>

#include <llvm/Support/CommandLine.h>

#include <neuronrw/adapters/mlir/passes.hpp>

namespace {

/// --neuronrw-remarks: parsed by MlirOptMain with every other flag; read when passes are created
/// (after parsing), through the factory below.
llvm::cl::opt<bool> remarks_flag("neuronrw-remarks",
                                 llvm::cl::desc("Every neuronrw pass emits a remark per refused candidate"),
                                 llvm::cl::init(false));

template <class Pass>
void register_with_flag() {
  mlir::PassRegistration<Pass>([] {
    neuronrw::mlir_adapter::set_remarks_default(remarks_flag);
    return std::make_unique<Pass>();
  });
}

}  // namespace

int main(int argc, char** argv) {
  namespace na = neuronrw::mlir_adapter;
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect, mlir::scf::SCFDialect>();
  register_with_flag<na::schedule_fusion_pass<>>();
  register_with_flag<na::schedule_fusion_pass<neuronrw::schedule_fusion_pattern, na::schedule_flavour::composites>>();
  mlir::PassRegistration<na::fusion_to_composite_pass<>>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "neuronrw-mlir-opt: mlir-opt with the neuronrw passes\n", registry));
}
