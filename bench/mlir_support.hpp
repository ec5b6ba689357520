// bench/mlir_support.hpp — what the benchmarks that parse the reference IR's text into MLIR share:
// one context (unregistered dialects allowed, func loaded) and printing an op to a string.
#pragma once

#include <llvm/Support/raw_ostream.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/IR/Operation.h>

#include <string>

namespace bench_support {

/// The benchmarks' MLIR context. Never destroyed: modules held in function-local statics are
/// destroyed at exit, and must not outlive their context.
inline mlir::MLIRContext& mlir_context() {
  static mlir::MLIRContext* ctx = [] {
    auto* c = new mlir::MLIRContext();
    c->allowUnregisteredDialects();
    c->getOrLoadDialect<mlir::func::FuncDialect>();
    return c;
  }();
  return *ctx;
}

/// `op` in MLIR's generic-or-custom printed form, as op->print writes it.
inline std::string mlir_print(mlir::Operation* op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os);
  return s;
}

}  // namespace bench_support
