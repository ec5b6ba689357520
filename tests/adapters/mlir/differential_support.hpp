// tests/adapters/mlir/differential_support.hpp — what the MLIR adapter's differential tests
// (differential_test.cpp, random_test.cpp) share.
//
// The tests run each input twice: through the reference IR (ref::parse, the ref entry points,
// ref::print) and through the MLIR adapter (MLIR's parser, the real MLIR passes). The reference
// IR's parser throws internally, so its half cannot be compiled with LLVM's -fno-exceptions:
// it lives in differential_ref.cpp, built with the project's ordinary flags into a static
// library, and talks to the MLIR half through the plain data below (no MLIR type, no exception
// crosses). differential_ref.cpp defines DIFF_REF_HALF before including this header, which
// leaves out the MLIR half (everything after the `#ifndef DIFF_REF_HALF`).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <neuronrw/descriptors/kinds.hpp>
#include <neuronrw/passes/schedule_fusion/pattern.hpp>

namespace diff {

/// The pipelines compared. schedule_then_f2c is neuronrw-opt's `--schedule-fusion
/// --fusion-to-composite`; composites is the StableHLO flavour (plan_schedule_fusion_composites).
enum class pipeline : std::uint8_t { schedule_fusion, fusion_to_composite, schedule_then_f2c, composites };
inline constexpr std::array<pipeline, 4> all_pipelines = {pipeline::schedule_fusion, pipeline::fusion_to_composite,
                                                          pipeline::schedule_then_f2c, pipeline::composites};

inline std::string_view name(pipeline p) {
  switch (p) {
    case pipeline::schedule_fusion: return "schedule-fusion";
    case pipeline::fusion_to_composite: return "fusion-to-composite";
    case pipeline::schedule_then_f2c: return "schedule-fusion then fusion-to-composite";
    case pipeline::composites: return "schedule-fusion-composites";
  }
  return "?";
}
inline bool runs_schedule_fusion(pipeline p) { return p != pipeline::fusion_to_composite; }

/// The non-seed instance the ScheduleFusion corpus uses (`pattern=moe`), as in
/// tests/passes/schedule_fusion_test.cpp.
using moe_pattern = neuronrw::co_schedule_pattern<neuronrw::kinds::all_to_all, neuronrw::kinds::all_to_all,
                                                  neuronrw::default_boundary_set, 100, "MoEOverlap">;

/// What a ScheduleFusion run is told: the corpus's `// schedule-fusion-options:` directives
/// (budget=N|unbounded, pattern=moe; the others, emit=composites and needs-argument-block, do not
/// change a run here: every input runs every pipeline).
struct scenario {
  std::optional<std::uint64_t> budget;
  bool moe = false;
};

inline scenario read_directives(std::string_view text) {
  scenario s;
  std::istringstream in{std::string(text)};
  const std::string key = "// schedule-fusion-options:";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key, 0) != 0) continue;
    std::istringstream words(line.substr(key.size()));
    for (std::string w; words >> w;) {
      if (w == "pattern=moe")
        s.moe = true;
      else if (w == "budget=unbounded")
        s.budget = neuronrw::unbounded_budget;
      else if (w.rfind("budget=", 0) == 0)
        s.budget = std::stoull(w.substr(7));
    }
  }
  return s;
}

/// A refused ScheduleFusion candidate: the code (to_string) and the plan's message.
struct refusal {
  std::string code, message;
  friend bool operator==(const refusal&, const refusal&) = default;
};

/// A FusionToComposite problem: where (line and column of the op in the input text; 0 when the
/// op has no source position), the code (to_string) and the plan's message.
struct problem {
  std::uint32_t line = 0, col = 0;
  std::string code, message;
};

/// The reference IR's half of one run.
struct ref_outcome {
  bool parsed = false;          ///< ref::parse and ref::verify accepted the input
  std::string error;            ///< why not
  std::string input;            ///< ref::print of the parsed input, in the generic form
  bool custom_forms = false;    ///< the input used StableHLO's custom forms (MLIR reads `input`)
  bool ok = false;              ///< no pass refused (FusionToComposite problems)
  std::vector<problem> problems;  ///< FusionToComposite's refusals (the module is then unchanged)
  std::string output;           ///< ref::print after the pipeline, in the generic form
  std::string verify_errors;    ///< ref::verify of the output (empty: fine)
  // The ScheduleFusion plan (pipelines that run it).
  std::size_t candidates = 0, clusters = 0;
  std::vector<refusal> refused;
  std::vector<std::string> missing_kinds;  ///< the kinds ScheduleFusion found no op of (its remark)
};

/// One wrong rewrite (tests/validate/fault_injector.hpp: fault number `fault`, its choices drawn
/// from std::mt19937(rng_seed)) made on `text` through the reference IR and checked: the check's
/// codes, one per line; nullopt when no fault was made (no cluster or conversion, or nothing for
/// the fault to act on).
std::optional<std::string> ref_fault_codes(std::string_view text, int fault, std::uint32_t rng_seed);

/// Runs `p` on `text` (named `file` in diagnostics) through the reference IR.
ref_outcome run_ref(std::string_view text, std::string_view file, pipeline p, const scenario& s);

/// Runs `p` on the random function of `seed` (tests/passes/schedule_fusion_random_function.hpp);
/// `input` is then the generated module, printed.
ref_outcome run_ref_random(std::uint32_t seed, pipeline p, const scenario& s);

/// The source tree's root (the build passes it).
std::string source_dir();

}  // namespace diff

#ifndef DIFF_REF_HALF
// =============================================================================== the MLIR half

#include <mlir/IR/Dominance.h>
#include <mlir/IR/Location.h>
#include <mlir/IR/Verifier.h>

#include <neuronrw/adapters/mlir/passes.hpp>
#include <neuronrw/adapters/mlir/traits.hpp>

#include "adapters/mlir/support.hpp"

namespace diff {

/// Registers the passes the tests run: the three default ones, and the MoE instance in both
/// flavours (`neuronrw-test-moe`, `neuronrw-test-moe-composites`). Idempotent.
inline void register_all() {
  static const bool once = [] {
    neuronrw::mlir_adapter::register_passes();
    neuronrw::mlir_adapter::register_schedule_fusion_pass<moe_pattern>("neuronrw-test-moe", "MoE overlap (tests)");
    neuronrw::mlir_adapter::register_schedule_fusion_pass<moe_pattern, neuronrw::mlir_adapter::schedule_flavour::composites>(
        "neuronrw-test-moe-composites", "MoE overlap, composites flavour (tests)");
    return true;
  }();
  (void)once;
}

/// The textual pass pipeline of `p` for scenario `s`; `sf_extra` goes into the ScheduleFusion
/// pass's options (`remarks=true`, `dry-run=true`); `verify` turns on every pass's rewrite check
/// (`verify-rewrites=true`, docs/validation.md).
inline std::string pipeline_text(pipeline p, const scenario& s, std::string_view sf_extra = {}, bool verify = false) {
  std::string opts;
  if (s.budget) opts += "budget=" + std::to_string(*s.budget);
  if (!sf_extra.empty()) opts += (opts.empty() ? "" : " ") + std::string(sf_extra);
  if (verify) opts += (opts.empty() ? "" : " ") + std::string("verify-rewrites=true");
  if (!opts.empty()) opts = "{" + opts + "}";
  const std::string sf = std::string(s.moe ? "neuronrw-test-moe" : "neuronrw-schedule-fusion");
  const std::string f2c = std::string("neuronrw-fusion-to-composite") + (verify ? "{verify-rewrites=true}" : "");
  switch (p) {
    case pipeline::schedule_fusion: return "builtin.module(" + sf + opts + ")";
    case pipeline::fusion_to_composite: return "builtin.module(" + f2c + ")";
    case pipeline::schedule_then_f2c: return "builtin.module(" + sf + opts + "," + f2c + ")";
    case pipeline::composites: return "builtin.module(" + sf + "-composites" + opts + ")";
  }
  return {};
}

/// One diagnostic a pipeline emitted, its location reduced to line:col of the input text when
/// it is one (else empty).
struct diag {
  mlir::DiagnosticSeverity severity;
  std::string file;  ///< the location's file name ("-" for text parsed from a string)
  std::uint32_t line = 0, col = 0;
  std::string message;
  std::vector<std::string> notes;
};

inline std::string str(const diag& d) {
  std::string s = std::to_string(d.line) + ":" + std::to_string(d.col) + ": ";
  switch (d.severity) {
    case mlir::DiagnosticSeverity::Error: s += "error: "; break;
    case mlir::DiagnosticSeverity::Remark: s += "remark: "; break;
    case mlir::DiagnosticSeverity::Warning: s += "warning: "; break;
    case mlir::DiagnosticSeverity::Note: s += "note: "; break;
  }
  return s + d.message;
}
inline std::string str(const std::vector<diag>& ds) {
  std::string s;
  for (const auto& d : ds) s += str(d) + "\n";
  return s;
}

/// Runs `pipeline` on `m`, collecting every diagnostic. False when the pipeline does not parse
/// or a pass fails.
inline bool run(mlir::ModuleOp m, const std::string& pipeline, std::vector<diag>& out) {
  mlir::ScopedDiagnosticHandler handler(m.getContext(), [&](mlir::Diagnostic& d) {
    diag x{d.getSeverity(), "?", 0, 0, d.str(), {}};
    if (auto l = mlir::dyn_cast<mlir::FileLineColLoc>(d.getLocation())) {
      x.file = l.getFilename().str();
      x.line = l.getLine();
      x.col = l.getColumn();
    }
    for (auto& n : d.getNotes()) x.notes.push_back(n.str());
    out.push_back(std::move(x));
    return mlir::success();
  });
  std::string errors;
  llvm::raw_string_ostream os(errors);
  // The pipeline text names its anchor (`builtin.module(...)`): parsed into a pass manager of that
  // anchor, not into an `any` one, where it would nest and run on the module's nested modules.
  auto parsed = mlir::parsePassPipeline(pipeline, os);
  if (mlir::failed(parsed)) {
    out.push_back({mlir::DiagnosticSeverity::Error, "?", 0, 0, "bad pipeline '" + pipeline + "': " + errors, {}});
    return false;
  }
  mlir::PassManager pm(m.getContext(), parsed->getOpAnchorName());
  static_cast<mlir::OpPassManager&>(pm) = std::move(*parsed);
  return mlir::succeeded(pm.run(m));
}

/// What mlir::verify says about `op` (empty: it verifies).
inline std::string verify_errors(mlir::Operation* op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  mlir::ScopedDiagnosticHandler handler(op->getContext(), [&](mlir::Diagnostic& d) {
    os << d.getLocation() << ": " << d.str() << "\n";
    return mlir::success();
  });
  if (mlir::failed(mlir::verify(op)) && s.empty()) s = "mlir::verify failed";
  return s;
}

/// Every use of every value in `root`, checked twice: MLIR's DominanceInfo must say the value
/// properly dominates its user, and the library's view must agree — through the adapter's traits,
/// the def (an op result, or a block argument's block) sits in a block enclosing the user, and,
/// for a result, before the user's ancestor in that block (ir_traits::is_before_in_block).
/// Returns one line per use where either answer is no, or where they disagree (empty: fine).
inline std::string dominance_report(mlir::Operation* root) {
  using traits = neuronrw::ir_traits<neuronrw::mlir_adapter::ir>;
  const neuronrw::mlir_adapter::ir g(root);
  mlir::DominanceInfo dom(root);
  std::string out;
  root->walk([&](mlir::Operation* user) {
    for (auto& use : user->getOpOperands()) {
      mlir::Value v = use.get();
      const bool mlir_says = dom.properlyDominates(v, user);
      // The library's view: walk up from the user to the block holding the definition.
      mlir::Block* def_block = v.getParentBlock();
      mlir::Operation* def = traits::defining_op(g, v);
      mlir::Operation* at = user;
      while (at && traits::block_of(g, at) != def_block) at = at->getParentOp();
      bool lib_says = at != nullptr;
      if (lib_says && def) lib_says = def != at && traits::is_before_in_block(g, def, at);
      if (!mlir_says || !lib_says) {
        std::string s;
        llvm::raw_string_ostream os(s);
        os << "operand #" << use.getOperandNumber() << " of '" << user->getName() << "' at " << user->getLoc()
           << ": DominanceInfo " << (mlir_says ? "yes" : "no") << ", library " << (lib_says ? "yes" : "no") << "\n";
        out += s;
      }
    }
  });
  return out;
}

}  // namespace diff
#endif  // DIFF_REF_HALF
