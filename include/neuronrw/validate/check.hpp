// neuronrw/validate/check.hpp — what a rewrite check reports (docs/validation.md): the verdict
// of comparing the output of an applied plan with a snapshot of its input, as plain data, and
// its translation into diagnostics.
//
//   auto r = neuronrw::apply_checked(g, plan);       // validate/schedule_fusion.hpp, ...
//   if (!r.check.ok())
//     for (auto& d : neuronrw::to_diagnostics(g, r.check, locate)) print(d);
//
// A check proves that the rewrite preserved the program's dataflow (each pass's header says what
// exactly); it proves nothing about the cost model. Each mismatch names the op concerned in the
// output, what the input had and what the output has. Nothing here throws or needs RTTI.
//
// Customization points: `locate(op)` of to_diagnostics, as for plans (passes/diagnostics.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <neuronrw/diagnostic.hpp>
#include <neuronrw/passes/diagnostics.hpp>

namespace neuronrw {

/// What a check found wrong with a rewrite.
enum class rewrite_fault : std::uint8_t {
  op_missing,          ///< an op of the input is gone (op: where it was, or the block's owner)
  op_added,            ///< an op the input did not have and the plan does not create
  op_changed,          ///< an op's kind, digest (O8) or region count differs from the input's
  operand_changed,     ///< an operand stands for another value than in the input
  moved_unplanned,     ///< an op the plan does not move changed its place
  use_before_def,      ///< an operand is not defined before its use (or not visible there)
  plan_not_realized,   ///< a change of the plan is not in the output as planned
  composite_mismatch,  ///< a composite's operands, results or attributes are not the fusion's
  body_mismatch,       ///< a decomposition's body is not the fusion's body
  symbol_mismatch,     ///< a decomposition's name is missing, taken twice or does not resolve
  statement_changed,   ///< host: the statements without the scopes are not the input's
  scope_mismatch,      ///< host: a window, view or device set is not where its scope says
};

constexpr std::string_view to_string(rewrite_fault f) noexcept {
  switch (f) {
    case rewrite_fault::op_missing: return "op_missing";
    case rewrite_fault::op_added: return "op_added";
    case rewrite_fault::op_changed: return "op_changed";
    case rewrite_fault::operand_changed: return "operand_changed";
    case rewrite_fault::moved_unplanned: return "moved_unplanned";
    case rewrite_fault::use_before_def: return "use_before_def";
    case rewrite_fault::plan_not_realized: return "plan_not_realized";
    case rewrite_fault::composite_mismatch: return "composite_mismatch";
    case rewrite_fault::body_mismatch: return "body_mismatch";
    case rewrite_fault::symbol_mismatch: return "symbol_mismatch";
    case rewrite_fault::statement_changed: return "statement_changed";
    case rewrite_fault::scope_mismatch: return "scope_mismatch";
  }
  return "unknown";
}

/// One thing the output got wrong. `op` is an op of the output (never one the rewrite erased).
template <class Op>
struct rewrite_mismatch {
  rewrite_fault code{};
  Op op{};
  std::string message;     ///< what is wrong, in words
  std::string input_had;   ///< what the input had there (empty when nothing)
  std::string output_has;  ///< what the output has instead (empty when nothing)
};

/// The verdict of one check. `ops` and `bytes` say what it covered: the ops its snapshot
/// recorded and the snapshot's size (what a dry run reports before the check runs).
template <class Op>
struct rewrite_check {
  std::vector<rewrite_mismatch<Op>> mismatches;
  std::size_t ops = 0;
  std::size_t bytes = 0;
  /// At most this many mismatches are recorded; the rest are only counted.
  static constexpr std::size_t max_recorded = 64;
  std::size_t unrecorded = 0;

  bool ok() const noexcept { return mismatches.empty(); }
  void add(rewrite_fault code, Op op, std::string message, std::string input_had = {}, std::string output_has = {}) {
    if (mismatches.size() >= max_recorded) {
      ++unrecorded;
      return;
    }
    mismatches.push_back({code, op, std::move(message), std::move(input_had), std::move(output_has)});
  }
  /// Appends another check's verdict (a staged check: the reschedule, then the lowering).
  void merge(rewrite_check&& other) {
    ops += other.ops;
    bytes += other.bytes;
    unrecorded += other.unrecorded;
    for (auto& m : other.mismatches) add(m.code, m.op, std::move(m.message), std::move(m.input_had), std::move(m.output_has));
  }
};

/// What a checked apply returns: the plain apply's result and the check's verdict.
template <class Result, class Op>
struct checked_result {
  Result applied;
  rewrite_check<Op> check;
};

namespace validate_detail {

/// What the build-wide default check (NEURONRW_CHECK_REWRITES) does on a mismatch: prints every
/// mismatch to stderr (`neuronrw: rewrite check failed: CODE: MESSAGE (the input had: ...; the
/// output has: ...)`) and aborts, as NEURONRW_CHECK does: the apply has produced a wrong program.
template <class Op>
[[noreturn]] void rewrite_check_failed(const rewrite_check<Op>& check) {
  for (const auto& m : check.mismatches)
    std::fprintf(stderr, "neuronrw: rewrite check failed: %s: %s (the input had: %s; the output has: %s)\n",
                 std::string(to_string(m.code)).c_str(), m.message.c_str(), m.input_had.c_str(), m.output_has.c_str());
  std::abort();
}

}  // namespace validate_detail

/// The check's mismatches as error diagnostics, in order:
///   PASS: rewrite check failed: CODE: MESSAGE   at m.op
///     note: the input had: INPUT_HAD             (when known)
///     note: the output has: OUTPUT_HAS           (when known)
/// and, when mismatches were left unrecorded, one more error saying how many.
/// `locate(op)` as for plans (passes/diagnostics.hpp); `pass` names the running pass.
template <class G, class Op, class Locate>
  requires std::invocable<Locate&, const Op&>
auto to_diagnostics(const G&, const rewrite_check<Op>& check, Locate&& locate, std::string_view pass = {}) {
  namespace d = diagnostics_detail;
  using located = std::remove_cvref_t<std::invoke_result_t<Locate&, const Op&>>;
  using loc_t = typename d::location_of<located>::type;
  std::vector<basic_diagnostic<loc_t>> out;
  const std::string prefix = (pass.empty() ? std::string() : std::string(pass) + ": ") + "rewrite check failed: ";
  for (const auto& m : check.mismatches) {
    const auto where = std::invoke(locate, m.op);
    auto diag = d::make(where, prefix + std::string(to_string(m.code)) + ": " + m.message, severity::error);
    if (!m.input_had.empty()) diag.notes.push_back(d::make(where, "the input had: " + m.input_had, severity::note));
    if (!m.output_has.empty()) diag.notes.push_back(d::make(where, "the output has: " + m.output_has, severity::note));
    out.push_back(std::move(diag));
  }
  if (check.unrecorded != 0 && !check.mismatches.empty()) {
    const auto where = std::invoke(locate, check.mismatches.back().op);
    out.push_back(d::make(where, prefix + std::to_string(check.unrecorded) + " more mismatches not shown", severity::error));
  }
  return out;
}

}  // namespace neuronrw
