// tests/adapters/mlir/support.hpp — what the MLIR adapter's tests share: a context with the
// dialects neuronrw-mlir-opt registers (func, arith, scf; the rest unregistered), parsing text
// into a module, printing a module the way mlir-opt does, and running a pass pipeline.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <mlir/Dialect/Arith/IR/Arith.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/Dialect/SCF/IR/SCF.h>
#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/DialectRegistry.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/IR/OwningOpRef.h>
#include <mlir/IR/Verifier.h>
#include <mlir/Parser/Parser.h>
#include <mlir/Pass/PassManager.h>
#include <mlir/Pass/PassRegistry.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/SourceMgr.h>

namespace mlir_test {

/// A context like neuronrw-mlir-opt's: func, arith and scf registered, unregistered ops allowed.
inline std::unique_ptr<mlir::MLIRContext> make_context() {
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect, mlir::scf::SCFDialect>();
  auto ctx = std::make_unique<mlir::MLIRContext>(registry);
  ctx->allowUnregisteredDialects();
  ctx->loadAllAvailableDialects();
  return ctx;
}

/// Parses `text` (diagnostics go to `errors` when given, else are dropped). Null on failure.
inline mlir::OwningOpRef<mlir::ModuleOp> parse(mlir::MLIRContext& ctx, std::string_view text,
                                               std::string* errors = nullptr) {
  std::string sink;
  llvm::raw_string_ostream os(errors ? *errors : sink);
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic& d) {
    os << d.getLocation() << ": " << d.str() << "\n";
    return mlir::success();
  });
  return mlir::parseSourceString<mlir::ModuleOp>(llvm::StringRef(text.data(), text.size()), &ctx);
}

/// The module as mlir-opt prints it by default (custom forms, no locations).
inline std::string print(mlir::Operation* op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os);  // a module prints its own trailing newline, as mlir-opt's output ends
  return s;
}

/// Parses and reprints: the canonical text mlir-opt would produce for `text`.
inline std::string canonical(mlir::MLIRContext& ctx, std::string_view text, std::string* errors = nullptr) {
  auto m = parse(ctx, text, errors);
  return m ? print(m->getOperation()) : std::string();
}

/// Runs a textual pipeline (`builtin.module(neuronrw-schedule-fusion)`) on `m`. The passes must be
/// registered (neuronrw::mlir_adapter::register_passes()). Diagnostics go to `diags` when given.
inline bool run_pipeline(mlir::ModuleOp m, std::string_view pipeline, std::string* diags = nullptr) {
  std::string sink;
  llvm::raw_string_ostream os(diags ? *diags : sink);
  mlir::ScopedDiagnosticHandler handler(m.getContext(), [&](mlir::Diagnostic& d) {
    os << d.getLocation() << ": " << d.str() << "\n";
    for (auto& n : d.getNotes()) os << n.getLocation() << ": note: " << n.str() << "\n";
    return mlir::success();
  });
  // Parsed on its own, then moved into a pass manager of the anchor it names: parsed into an
  // `any` pass manager, `builtin.module(...)` would nest and run on nested modules only.
  auto parsed = mlir::parsePassPipeline(llvm::StringRef(pipeline.data(), pipeline.size()), os);
  if (mlir::failed(parsed)) return false;
  mlir::PassManager pm(m.getContext(), parsed->getOpAnchorName());
  static_cast<mlir::OpPassManager&>(pm) = std::move(*parsed);
  return mlir::succeeded(pm.run(m));
}

}  // namespace mlir_test
