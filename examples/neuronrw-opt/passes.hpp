// passes.hpp — what each registered pass does to the reference IR or to a host program: it fills
// its options struct from the pass_instance through the struct's schema, reports through the
// driver's diagnostics (errors fail the pass; remarks and notes do not) and counts its statistics. The library's entry points do the
// work; on a refusal they leave the input exactly as it was.
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

/// One counter of a pass (mlir-opt's Pass::Statistic).
struct statistic {
  std::string name;
  std::string description;
  std::uint64_t value = 0;
};

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

inline constexpr nr::schedule_refusal all_schedule_refusals[] = {
    nr::schedule_refusal::no_producer_operand, nr::schedule_refusal::already_fused,
    nr::schedule_refusal::producer_claimed,    nr::schedule_refusal::different_block,
    nr::schedule_refusal::budget_exceeded,     nr::schedule_refusal::non_convex,
    nr::schedule_refusal::splits_cluster,      nr::schedule_refusal::reschedule_refused};

/// Emits every diagnostic of `ds` (to_diagnostics' result) through `cx`.
inline void emit_all(pass_context& cx, nr::diagnostics ds) {
  for (auto& d : ds) cx.emit(std::move(d));
}

/// The options struct of `p`, filled by its schema (neuronrw/passes/options.hpp) from the
/// pipeline's checked values; its strings view `p`'s values.
template <class Options>
Options options_of(const pass_instance& p) {
  Options o;
  nr::set_options(o, nr::option_schema_v<Options>, p.values);
  return o;
}

inline std::string loc_text(const nr::ref::module& m, nr::ref::op_ref op) {
  const auto l = m.loc(op);
  return m.source_name + ":" + std::to_string(l.line) + ":" + std::to_string(l.col);
}

/// ScheduleFusion and its composites flavour.
inline bool schedule_fusion(nr::ref::module& m, const pass_instance& p, pass_context& cx) {
  const bool composites = p.spec->id == pass_id::schedule_fusion_composites;
  const auto o = options_of<nr::schedule_fusion_options>(p);
  const auto& cm = std::as_const(m);
  auto plan = composites ? nr::plan_schedule_fusion_composites(cm, o) : nr::plan_schedule_fusion(cm, o);
  const std::string name(p.spec->name);
  const bool dry = p.flag("dry-run");
  if (p.flag("remarks")) {
    if (dry)
      for (std::size_t i = 0; i < plan.clusters.size(); ++i) {
        const auto& c = plan.clusters[i];
        cx.emit(diagnostic{m.source_name, m.loc(c.consumer()),
                           name + ": cluster " + std::to_string(i) + " with the producer at " +
                               loc_text(m, c.producer()) + ": " + std::to_string(c.ops.size()) + " ops, " +
                               std::to_string(c.carried.size()) + " carried, " + std::to_string(c.moves.size()) +
                               " moves",
                           severity::remark});
      }
    emit_all(cx, nr::to_diagnostics(cm, plan, nr::ref::op_locator{m}, {.pass = name}));
  }
  std::uint64_t moves = 0;
  if (!dry)
    for (const auto& c : plan.clusters) moves += c.moves.size();
  cx.stats = {{"candidates", "Candidate consumers examined", plan.candidates()},
              {"clusters", "Clusters formed", plan.clusters.size()},
              {"composites", "Composites created (composites flavour)", !dry && composites ? plan.clusters.size() : 0},
              {"moves", "Ops moved by the reschedule", moves}};
  static constexpr std::string_view descriptions[] = {
      "Refused: no producer operand",       "Refused: already inside a fusion", "Refused: producer in an earlier cluster",
      "Refused: producer in another block", "Refused: walk budget exceeded",    "Refused: cluster not convex",
      "Refused: would split an earlier cluster", "Refused: dominance repair refused"};
  for (auto code : all_schedule_refusals) {
    std::uint64_t n = 0;
    for (const auto& r : plan.refused) n += r.code == code;
    cx.stats.push_back({"refused-" + std::string(nr::to_string(code)),
                        std::string(descriptions[static_cast<std::size_t>(code)]), n});
  }
  if (dry) {
    cx.plan = render_plan(m, plan, cx.format);
  } else {
    cx.changed = plan.has_changes();
    nr::apply(m, plan);
  }
  // The plan's handles stay valid after a plain apply (ScheduleFusion moves ops and never erases
  // them); the composites flavour erases its fusions, so its plan is not kept.
  if (cx.dot_plan && (dry || !composites)) *cx.dot_plan = std::move(plan);
  return true;
}

inline bool fusion_to_composite(nr::ref::module& m, const pass_instance& p, pass_context& cx) {
  const auto o = options_of<nr::fusion_to_composite_options>(p);
  const auto plan = nr::plan_fusion_to_composite(std::as_const(m), o);
  const std::string name(p.spec->name);
  emit_all(cx, nr::to_diagnostics(std::as_const(m), plan, nr::ref::op_locator{m}, {.pass = name}));
  const bool dry = p.flag("dry-run");
  cx.stats = {{"composites", "Composites created", plan.ok() && !dry ? plan.conversions.size() : 0},
              {"refused", "Fusions refused (the module is then unchanged)", plan.refused.size()}};
  if (!plan.ok()) return false;
  if (dry) {
    cx.plan = render_plan(m, plan, cx.format);
    return true;
  }
  cx.changed = plan.has_changes();
  nr::apply(m, plan);
  return true;
}

inline bool validate_kinds(nr::ref::module& m, const pass_instance& p, pass_context& cx) {
  const std::string name(p.spec->name);
  std::uint64_t fusions = 0, composites = 0, unknown = 0;
  nr::walk<nr::walk_order::pre>(m, m.body(), [&](nr::ref::op_ref op) {
    fusions += m.kind(op) == nr::kind_id_v<nr::kinds::fusion>;
    composites += m.kind(op) == nr::kind_id_v<nr::kinds::composite>;
  });
  auto report = [&](const nr::diagnostics& ds, std::string_view code) {
    for (const auto& d : ds) {
      ++unknown;
      cx.emit(diagnostic{d.file, d.loc, name + ": " + std::string(code) + ": " + d.message});
    }
  };
  report(nr::validate_fusion_kinds(m), "unknown_fusion_kind");
  report(nr::validate_composite_kinds(m), "unknown_composite_kind");
  cx.stats = {{"composites", "Composites checked (CompositeKind)", composites},
              {"fusions", "Fusions checked (FusionKind)", fusions},
              {"unknown-kinds", "Kinds outside the registries", unknown}};
  return unknown == 0;
}

inline bool comm_domain_scopes(nr::host::program& prog, const pass_instance& p, pass_context& cx) {
  auto plan = nr::plan_comm_domain_scopes(std::as_const(prog), options_of<nr::comm_domain_options>(p));
  emit_all(cx, nr::to_diagnostics(std::as_const(prog), plan));  // pypto's text, then the code
  std::uint64_t scopes = 0, buffers = 0, views = 0, dispatches = 0, collectives = 0, functions = 0;
  for (const auto& f : plan.functions) {
    if (f.state != decltype(plan)::status::materialize) continue;
    ++functions;
    scopes += f.scopes.size();
    buffers += f.allocs.size();
    views += f.views.size();
    dispatches += f.dispatches.size();
    collectives += f.collectives.size();
  }
  const bool dry = p.flag("dry-run");
  cx.stats = {{"buffers", "Window buffers materialized", plan.ok() && !dry ? buffers : 0},
              {"collectives", "Collectives whose buffers share a domain", collectives},
              {"dispatches", "Device-tagged chip dispatches", dispatches},
              {"functions", "Host orchestrators materialized", plan.ok() && !dry ? functions : 0},
              {"refused", "Refusals (the program is then unchanged)", plan.refused.size()},
              {"scopes", "Comm-domain scopes created", plan.ok() && !dry ? scopes : 0},
              {"views", "Window views re-typed", plan.ok() && !dry ? views : 0}};
  if (!plan.ok()) return false;
  if (dry) {
    cx.plan = render_plan(prog, plan, cx.format);
    return true;
  }
  cx.changed = plan.has_changes();
  nr::apply_comm_domain_scopes(prog, plan);
  return true;
}

inline bool allreduce_signals(nr::host::program& prog, const pass_instance& p, pass_context& cx) {
  auto plan = nr::plan_allreduce_signals(std::as_const(prog), options_of<nr::allreduce_signal_options>(p));
  emit_all(cx, nr::to_diagnostics(std::as_const(prog), plan));  // pypto's text, then the code
  std::uint64_t synthesized = 0, lifted = 0;
  for (const auto& r : plan.rewrites) {
    synthesized += r.synthesize;
    lifted += r.where == decltype(plan)::form::ret;
  }
  const bool dry = p.flag("dry-run");
  const bool applied = plan.ok() && !dry;
  cx.stats = {{"lifted", "Returned allreduces bound to a result variable", applied ? lifted : 0},
              {"refused", "Refusals (the program is then unchanged)", plan.refused.size()},
              {"signals", "Signal buffers synthesized", applied ? synthesized : 0}};
  if (!plan.ok()) return false;
  if (dry) {
    cx.plan = render_plan(prog, plan, cx.format);
    return true;
  }
  cx.changed = plan.has_changes();
  nr::apply_allreduce_signals(prog, plan, plan.options);
  return true;
}

}  // namespace pass_detail

/// Runs `p` on the reference IR. False: the pass failed (its errors were emitted), `m` unchanged.
inline bool run_pass(nr::ref::module& m, const pass_instance& p, pass_context& cx) {
  switch (p.spec->id) {
    case pass_id::schedule_fusion:
    case pass_id::schedule_fusion_composites: return pass_detail::schedule_fusion(m, p, cx);
    case pass_id::fusion_to_composite: return pass_detail::fusion_to_composite(m, p, cx);
    case pass_id::validate_kinds: return pass_detail::validate_kinds(m, p, cx);
    case pass_id::materialize_comm_domain_scopes:
    case pass_id::synthesize_allreduce_signals: break;
  }
  return false;
}

/// Runs `p` on a host program.
inline bool run_pass(nr::host::program& prog, const pass_instance& p, pass_context& cx) {
  if (p.spec->id == pass_id::materialize_comm_domain_scopes) return pass_detail::comm_domain_scopes(prog, p, cx);
  if (p.spec->id == pass_id::synthesize_allreduce_signals) return pass_detail::allreduce_signals(prog, p, cx);
  return false;
}

}  // namespace neuronrw_opt
