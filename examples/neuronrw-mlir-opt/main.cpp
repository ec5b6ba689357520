// neuronrw-mlir-opt — mlir-opt with the neuronrw passes (docs/mlir.md):
//   neuronrw-mlir-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(
//     neuronrw-schedule-fusion,neuronrw-fusion-to-composite)' in.mlir
// Everything mlir-opt does works the same (it is mlir::MlirOptMain): --split-input-file,
// --verify-diagnostics, --mlir-print-ir-after-all, --mlir-timing, --mlir-pass-statistics,
// bytecode in and out. Registered dialects: builtin, func, arith, scf; mhlo and stablehlo ops
// stay unregistered (generic form), hence --allow-unregistered-dialect.
// Extra flags: --neuronrw-remarks, which turns on every neuronrw pass's `remarks` option, and
// --kinds=FILE (docs/kinds.md), which every neuronrw pass reads. The passes are registered under
// neuronrw-opt's names too (`schedule-fusion`, `schedule-fusion-composites`, `fusion-to-composite`).
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

/// --kinds=FILE: which op names are which kinds, for every neuronrw pass (docs/kinds.md).
llvm::cl::opt<std::string> kinds_flag("kinds",
                                      llvm::cl::desc("A kinds file (one 'OP-NAME KIND' line per op name, "
                                                     "docs/kinds.md) every neuronrw pass reads"),
                                      llvm::cl::value_desc("file"), llvm::cl::init(""));

/// Registers Pass under its own argument and, when `short_name` is given, under neuronrw-opt's name
/// too, so one pipeline string means the same to both tools.
template <class Pass>
void register_with_flags(std::string short_name = {}) {
  mlir::PassRegistration<Pass>([] {
    neuronrw::mlir_adapter::set_remarks_default(remarks_flag);
    neuronrw::mlir_adapter::set_kinds_file_default(kinds_flag);
    return std::make_unique<Pass>();
  });
  if (!short_name.empty())
    mlir::PassRegistration<Pass>([short_name] {
      neuronrw::mlir_adapter::set_remarks_default(remarks_flag);
      neuronrw::mlir_adapter::set_kinds_file_default(kinds_flag);
      auto p = std::make_unique<Pass>(short_name, std::string(neuronrw::descriptor_mlir_summary<typename Pass::descriptor>()));
      return p;
    });
}

}  // namespace

int main(int argc, char** argv) {
  namespace na = neuronrw::mlir_adapter;
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect, mlir::scf::SCFDialect>();
  namespace np = neuronrw::passes;
  register_with_flags<na::schedule_fusion_pass<>>(std::string(np::schedule_fusion::name));
  register_with_flags<na::schedule_fusion_pass<neuronrw::schedule_fusion_pattern, na::schedule_flavour::composites>>(
      std::string(np::schedule_fusion_composites::name));
  register_with_flags<na::fusion_to_composite_pass<>>(std::string(np::fusion_to_composite::name));
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "neuronrw-mlir-opt: mlir-opt with the neuronrw passes\n", registry));
}
