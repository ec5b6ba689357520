// neuronrw/adapters/mlir/diagnostics.hpp — the library's diagnostics (neuronrw/diagnostic.hpp)
// through MLIR's diagnostic engine: what the neuronrw MLIR passes report their plans' refusals
// with (to_diagnostics, neuronrw/passes/diagnostics.hpp), and what a pass of your own can use.
//
//   for (const auto& d : to_diagnostics(g, plan, op_locator{}, {.pass = getArgument()}))
//     emit(d);
//
// A diagnostic located at an op (basic_diagnostic<mlir::Operation*>) is emitted the way
// Operation::emitError / emitWarning / emitRemark emit it, so --mlir-print-op-on-diagnostic adds
// the op as it does for any pass; one located at an mlir::Location is emitted there. Notes are
// attached at their own locations, in order (a note's notes too, flattened: MLIR's notes have
// none).
//
// Customization points: none.
#pragma once

#include <string>

#include <llvm/ADT/Twine.h>
#include <llvm/Support/raw_ostream.h>
#include <mlir/IR/BuiltinAttributes.h>
#include <mlir/IR/Diagnostics.h>
#include <mlir/IR/Location.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/IR/Operation.h>
#include <mlir/IR/OperationSupport.h>
#include <mlir/IR/Value.h>

#include <neuronrw/diagnostic.hpp>

namespace neuronrw::mlir_adapter {

/// to_diagnostics' `locate` on the MLIR adapter: an op is its own location (the diagnostics are
/// basic_diagnostic<mlir::Operation*>, emitted at the op).
struct op_locator {
  mlir::Operation* operator()(mlir::Operation* op) const noexcept { return op; }
};

/// describe()'s printer (passes/protocol.hpp) on the MLIR adapter, which the rewrite checks name
/// ops and values with: an op as `'NAME' (LINE:COL)` (its name alone without a file location), a
/// value as its function prints it (`%0`, `%arg1`).
struct op_printer {
  std::string operator()(mlir::Operation* op) const {
    if (!op) return "<none>";
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "'" << op->getName() << "'";
    if (auto l = mlir::dyn_cast<mlir::FileLineColLoc>(op->getLoc())) os << " (" << l.getLine() << ":" << l.getColumn() << ")";
    return s;
  }
  std::string value(mlir::Value v) const {
    std::string s;
    llvm::raw_string_ostream os(s);
    v.printAsOperand(os, mlir::OpPrintingFlags().useLocalScope());
    return s;
  }
};

namespace emit_detail {

inline mlir::DiagnosticSeverity to_mlir(severity s) noexcept {
  switch (s) {
    case severity::error: return mlir::DiagnosticSeverity::Error;
    case severity::warning: return mlir::DiagnosticSeverity::Warning;
    case severity::remark: return mlir::DiagnosticSeverity::Remark;
    case severity::note: return mlir::DiagnosticSeverity::Note;
  }
  return mlir::DiagnosticSeverity::Error;
}

inline mlir::Location location(mlir::Location l) { return l; }
inline mlir::Location location(mlir::Operation* op) { return op->getLoc(); }

inline mlir::InFlightDiagnostic start(mlir::Location l, severity s) {
  return l->getContext()->getDiagEngine().emit(l, to_mlir(s));
}
inline mlir::InFlightDiagnostic start(mlir::Operation* op, severity s) {
  switch (s) {
    case severity::error: return op->emitError();
    case severity::warning: return op->emitWarning();
    case severity::remark: return op->emitRemark();
    case severity::note: break;
  }
  return start(op->getLoc(), s);
}

template <class Loc>
void attach(mlir::InFlightDiagnostic& in, const basic_diagnostic<Loc>& n) {
  in.attachNote(location(n.loc)) << llvm::Twine(n.message);
  for (const auto& nn : n.notes) attach(in, nn);
}

}  // namespace emit_detail

/// Emits `d` through MLIR's diagnostic engine at its location (an op or an mlir::Location), its
/// severity and message, with its notes attached; reported when the call returns.
template <class Loc>
void emit(const basic_diagnostic<Loc>& d) {
  mlir::InFlightDiagnostic in = emit_detail::start(d.loc, d.sev);
  in << llvm::Twine(d.message);
  for (const auto& n : d.notes) emit_detail::attach(in, n);
}

}  // namespace neuronrw::mlir_adapter
