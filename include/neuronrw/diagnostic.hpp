// neuronrw/diagnostic.hpp — the one shape every parser, verifier and pass reports problems in,
// MLIR's (mlir::Diagnostic): a severity, a location, a message and notes, each note a diagnostic
// of its own. Printed `FILE:LINE:COL: SEVERITY: MESSAGE`, each note on a line of its own below.
//
//   diagnostic d{"t.mlir", {3, 18}, "expected ')'"};            // an error (the default severity)
//   d.notes.push_back({"t.mlir", {1, 1}, "opened here", severity::note});
//   d.str();   // "t.mlir:3:18: error: expected ')'\nt.mlir:1:1: note: opened here"
//
// The location type is a parameter: `diagnostic` (= basic_diagnostic<source_loc>) points into a
// text by file name, line and column, which is what the reference IRs, the host IR and the
// driver know; an adapter keeps its own location instead (the MLIR adapter: mlir::Location, so
// fused and name locations survive), with `file` left empty. Passes turn their plans' refusals
// into diagnostics with to_diagnostics (neuronrw/passes/diagnostics.hpp).
//
// Customization points: the location type `Loc` of basic_diagnostic (any copyable type; str()
// needs source_loc).
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace neuronrw {

/// A position in a source text. Lines and columns count from 1; 0 means "unknown" (an op a pass
/// created without copying a location).
struct source_loc {
  std::uint32_t line = 0;
  std::uint32_t col = 0;
  friend bool operator==(const source_loc&, const source_loc&) = default;
  bool known() const noexcept { return line != 0; }
};

/// How serious a diagnostic is (MLIR's DiagnosticSeverity): an error fails the run; a warning,
/// a remark (what a pass did or refused, on request) and a note (attached to another diagnostic,
/// explaining it) do not.
enum class severity : std::uint8_t { error, warning, remark, note };

/// "error", "warning", "remark", "note": the word printed after the location.
constexpr std::string_view to_string(severity s) noexcept {
  switch (s) {
    case severity::error: return "error";
    case severity::warning: return "warning";
    case severity::remark: return "remark";
    case severity::note: return "note";
  }
  return "error";
}

/// A located message with its severity and notes. The members are in this order so that the
/// aggregate form `diagnostic{file, loc, message}` (an error) keeps meaning what it always did;
/// add `, severity::remark` for another severity.
template <class Loc>
struct basic_diagnostic {
  /// The source `loc` points into, as given to the parser ("-" or "<stdin>" for standard input);
  /// empty for a location that names its source itself (mlir::Location).
  std::string file = {};
  Loc loc{};
  std::string message = {};
  severity sev = severity::error;
  /// Attached notes (usually severity::note), printed after the diagnostic, in order.
  std::vector<basic_diagnostic> notes = {};
  // (Every member has an initializer, so `diagnostic{file, loc, message}` and designated
  // initializers that leave members out stay clear of -Wmissing-field-initializers.)

  /// The first line: `FILE:LINE:COL: SEVERITY: MESSAGE`; `FILE: SEVERITY: MESSAGE` when the
  /// location is unknown, `<input>` for an empty file name. Notes are not included.
  std::string line() const
    requires std::same_as<Loc, source_loc>
  {
    std::string s = file.empty() ? std::string("<input>") : file;
    if (loc.known()) {
      s += ':';
      s += std::to_string(loc.line);
      s += ':';
      s += std::to_string(loc.col);
    }
    s += ": ";
    s += to_string(sev);
    s += ": ";
    s += message;
    return s;
  }

  /// line(), then each note's str() on the lines below (no trailing newline): an error without
  /// notes prints exactly `FILE:LINE:COL: error: MESSAGE`.
  std::string str() const
    requires std::same_as<Loc, source_loc>
  {
    std::string s = line();
    for (const auto& n : notes) {
      s += '\n';
      s += n.str();
    }
    return s;
  }

  friend bool operator==(const basic_diagnostic&, const basic_diagnostic&) = default;
};

/// A diagnostic located by file name, line and column: what parsers, verifiers and passes on
/// the reference IRs return.
using diagnostic = basic_diagnostic<source_loc>;
using diagnostics = std::vector<diagnostic>;

}  // namespace neuronrw
