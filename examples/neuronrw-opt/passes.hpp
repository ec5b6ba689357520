// passes.hpp — what a registered pass does to the reference IR or to a host program, the same for
// every pass descriptor (run_descriptor): it fills its options struct from the pass_instance
// through the struct's schema, plans, reports the plan's refusals through the driver's
// diagnostics (errors fail the pass; remarks and notes do not), counts its statistics
// (D::statistics), and prints the plan (a dry run) or applies it. What a pass adds to that is a
// driver_extension specialization (ScheduleFusion: its dry run's cluster remarks and the plan
// --emit-dot draws). On a refusal the input stays exactly as it was.
//
// Diagnostic texts are those of the MLIR passes (neuronrw/adapters/mlir/passes.hpp) with the
// driver's pass names, so the same expectations hold in both tools' tests; both make the
// refusals' texts with the library's to_diagnostics (neuronrw/passes/diagnostics.hpp):
//   remark  schedule-fusion refused this candidate: CODE: MESSAGE    at the candidate
//   note    (what the op the refusal names is)                      at that op, when not the candidate
//   error   fusion-to-composite: CODE: MESSAGE                      at the op concerned
//   error   MaterializeCommDomainScopes: PYPTO MESSAGE [CODE]        at the expression concerned
//   error   PYPTO MESSAGE [CODE]                                     SynthesizeAllReduceSignals, at the allreduce
//   (the host passes carry pypto's own texts, so a pypto user finds them; the code trails)
//   error   validate-kinds: unknown_fusion_kind|unknown_composite_kind: REGISTRY MESSAGE
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <neuronrw/ir/host/comm_domain_scopes.hpp>
#include <neuronrw/ir/host/ir.hpp>
#include <neuronrw/ir/ref/diagnostics.hpp>
#include <neuronrw/ir/ref/fusion_to_composite.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/schedule_fusion.hpp>
#include <neuronrw/passes/allreduce_signals.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/passes/diagnostics.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "diagnostics_render.hpp"
#include "pass_registry.hpp"
#include "plan_output.hpp"

namespace neuronrw_opt {

namespace nr = neuronrw;

static_assert(nr::schedule_fusion_pattern::budget == 100, "the options schema's budget default is the pattern's");

/// One counter of a pass (mlir-opt's Pass::Statistic): the library's, D::statistics.
using statistic = nr::pass_statistic;

/// What a pass run reports back to the pipeline.
struct pass_context {
  std::function<void(diagnostic)> emit;  ///< every diagnostic the pass reports
  std::vector<statistic> stats;    ///< filled by the pass
  std::optional<std::string> plan; ///< a dry run's printed plan (replaces the output)
  plan_format format = plan_format::text;  ///< how a dry run prints its plan (--plan-format)
  bool changed = false;            ///< the pass changed the IR
  /// The plan of a ScheduleFusion run (for --emit-dot), when its handles stay valid.
  std::optional<nr::ref_schedule_fusion_plan>* dot_plan = nullptr;
};

namespace pass_detail {

/// `FILE:LINE:COL` of an op of `m`.
inline std::string loc_text(const nr::ref::module& m, nr::ref::op_ref op) {
  const auto l = m.loc(op);
  return m.source_name + ":" + std::to_string(l.line) + ":" + std::to_string(l.col);
}

}  // namespace pass_detail

/// What neuronrw-opt does beyond the protocol for a pass: none by default. A specialization for
/// a descriptor type may give (each optional)
///   dry_run_remarks(m, plan, name, cx)   remarks a dry run adds under remarks=true, before the
///                                        refusals' diagnostics
///   after(m, plan, dry, cx)              after the run (the plan moved from: its last use)
///   plan_for_dot(m, options)             the plan --emit-dot=before draws
template <class D>
struct driver_extension {};

/// ScheduleFusion (not its composites flavour, whose plan --emit-dot does not draw): the dry
/// run's cluster remarks, and the plan --emit-dot draws.
template <class Pattern, bool Composites>
struct driver_extension<nr::passes::basic_schedule_fusion<Pattern, Composites>> {
  static void dry_run_remarks(const nr::ref::module& m, const nr::ref_schedule_fusion_plan& plan, const std::string& name,
                              pass_context& cx) {
    for (std::size_t i = 0; i < plan.clusters.size(); ++i) {
      const auto& c = plan.clusters[i];
      cx.emit(diagnostic{m.source_name, m.loc(c.consumer()),
                         name + ": cluster " + std::to_string(i) + " with the producer at " + pass_detail::loc_text(m, c.producer()) +
                             ": " + std::to_string(c.ops.size()) + " ops, " + std::to_string(c.carried.size()) +
                             " carried, " + std::to_string(c.moves.size()) + " moves",
                         severity::remark});
    }
  }
  /// The plan's handles stay valid after a plain apply (ScheduleFusion moves ops and never erases
  /// them); the composites flavour erases its fusions, so its plan is not kept.
  static void after(const nr::ref::module&, nr::ref_schedule_fusion_plan& plan, bool dry, pass_context& cx) {
    if (cx.dot_plan && (dry || !Composites)) *cx.dot_plan = std::move(plan);
  }
  static constexpr bool draws_dot = !Composites && std::is_same_v<Pattern, nr::schedule_fusion_pattern>;
  static nr::ref_schedule_fusion_plan plan_for_dot(const nr::ref::module& m,
                                                   const typename nr::passes::basic_schedule_fusion<Pattern, Composites>::options& o) {
    return nr::passes::basic_schedule_fusion<Pattern, Composites>::plan(m, o);
  }
};

namespace pass_detail {

/// The options struct of `p`, filled by its schema (neuronrw/passes/options.hpp) from the
/// pipeline's checked values; its strings view `p`'s values.
template <class Options>
Options options_of(const pass_instance& p) {
  Options o;
  nr::set_options(o, nr::option_schema_v<Options>, p.values);
  return o;
}

/// The refusals of `plan` as the driver reports them (neuronrw/passes/diagnostics.hpp): located
/// at their ops and worded with the pass's name on the reference IR; located already, in the
/// pass's own words, on host programs.
template <class Plan>
nr::diagnostics refusal_diagnostics(const nr::ref::module& m, const Plan& plan, const std::string& name) {
  return nr::to_diagnostics(m, plan, nr::ref::op_locator{m}, {.pass = name});
}
template <class Plan>
nr::diagnostics refusal_diagnostics(const nr::host::program& prog, const Plan& plan, const std::string&) {
  return nr::to_diagnostics(prog, plan);  // pypto's text, then the code
}

/// Any registered pass D on its input `doc`: plan; under remarks=true (or always, for a pass
/// without a `remarks` option) its refusals as diagnostics; its counters; then, unless it failed
/// (a plan that is not ok(), or an error), the dry run's printed plan or the apply. False: the
/// pass failed (its errors were emitted), `doc` unchanged.
template <class D, class Doc>
bool run_descriptor(Doc& doc, const pass_instance& p, pass_context& cx) {
  using ext = driver_extension<D>;
  const Doc& cdoc = doc;
  const auto o = options_of<typename D::options>(p);
  auto plan = D::plan(cdoc, o);
  const std::string name(p.spec->name);
  const bool dry = p.dry_run();
  bool failed = false;
  if (!p.has("remarks") || p.flag("remarks")) {
    if constexpr (requires { ext::dry_run_remarks(cdoc, plan, name, cx); })
      if (dry) ext::dry_run_remarks(cdoc, plan, name, cx);
    for (auto& d : refusal_diagnostics(cdoc, plan, name)) {
      failed |= d.sev == severity::error;
      cx.emit(std::move(d));
    }
  }
  cx.stats = nr::descriptor_statistics<D>(cdoc, plan, !dry);
  if constexpr (requires { plan.ok(); }) failed = !plan.ok();
  if (failed) return false;
  if (dry) {
    cx.plan = render_plan<D>(doc, plan, cx.format);
  } else {
    cx.changed = plan.has_changes();
    D::apply(doc, plan);
  }
  if constexpr (requires { ext::after(cdoc, plan, dry, cx); }) ext::after(cdoc, plan, dry, cx);
  return true;
}

/// The plan --emit-dot=before draws for the instance `p` of D.
template <class D>
std::optional<nr::ref_schedule_fusion_plan> plan_for_dot(const nr::ref::module& m, const pass_instance& p) {
  return driver_extension<D>::plan_for_dot(m, options_of<typename D::options>(p));
}

}  // namespace pass_detail

/// Runs `p` on the reference IR. False: the pass failed (its errors were emitted), `m` unchanged.
inline bool run_pass(nr::ref::module& m, const pass_instance& p, pass_context& cx) {
  return p.spec->run_mlir != nullptr && p.spec->run_mlir(m, p, cx);
}

/// Runs `p` on a host program.
inline bool run_pass(nr::host::program& prog, const pass_instance& p, pass_context& cx) {
  return p.spec->run_host != nullptr && p.spec->run_host(prog, p, cx);
}

}  // namespace neuronrw_opt
