// neuronrw/passes/schedule_fusion/describe.hpp — ScheduleFusion's dry run: a plan as text, for any
// IR (docs/schedule-fusion.md §"Dry run" has the format); and how its refusals read as
// diagnostics (refusal_words, the hook of to_diagnostics in passes/diagnostics.hpp).
//
// Customization point: the op printer (passes/protocol.hpp): a callable naming an op, with
// optional `value(v)` and `function(f)` members. Deterministic: plan order throughout.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/passes/diagnostics.hpp>
#include <neuronrw/passes/protocol.hpp>
#include <neuronrw/passes/schedule_fusion/pattern.hpp>
#include <neuronrw/passes/schedule_fusion/plan.hpp>

namespace neuronrw {

/// The dry run's text. Format:
///   schedule-fusion plan: FusionKind "ScheduleFusion", all_gather -> reduce_scatter, budget 100
///   3 candidates: 1 cluster, 2 refused
///   @layer
///     cluster 0: "mhlo.all_gather" (4:8) + "mhlo.reduce_scatter" (6:8)
///       move "mhlo.all_gather" (4:8) before "mhlo.reduce_scatter" (6:8)
///       move "mhlo.add" (5:8) after "mhlo.reduce_scatter" (6:8)
///       live-ins: %w
///       live-outs: %r, %g
///     refused "mhlo.reduce_scatter" (8:8): producer_claimed: "mhlo.all_gather" (4:8) belongs to cluster 0
/// (ops, values and functions as the printer names them; here the reference IR's).
template <class G, class Printer>
std::string describe(const G& g, const schedule_fusion_plan_t<G>& p, Printer&& printer) {
  static_assert(require_read_ir<G>());
  namespace d = describe_detail;
  using op = op_handle_t<G>;
  using plan_t = schedule_fusion_plan_t<G>;
  auto op_text = [&](op o) { return d::op_text(g, printer, o); };
  auto unit_text = [&](op o) { return d::function_text(g, printer, o); };
  auto join_values = [&](const std::vector<value_handle_t<G>>& vs) {
    if (vs.empty()) return std::string("(none)");
    std::string r;
    for (std::size_t i = 0; i < vs.size(); ++i) r += (i ? ", " : "") + d::value_text(g, printer, vs[i]);
    return r;
  };

  std::string s = "schedule-fusion plan: FusionKind \"" + p.fusion_kind + "\", " + std::string(p.producer_kind) +
                  " -> " + std::string(p.consumer_kind) + ", budget " +
                  (p.budget == unbounded_budget ? std::string("unbounded") : std::to_string(p.budget)) + "\n";
  s += d::plural(p.candidates(), "candidate", "candidates") + ": " + d::plural(p.clusters.size(), "cluster", "clusters") +
       ", " + std::to_string(p.refused.size()) + " refused\n";
  for (auto f : p.skipped_functions) s += "skipped " + unit_text(f) + ": carries " + p.skip_attribute + "\n";

  std::size_t ci = 0, ri = 0, unit = plan_t::none;
  auto header = [&](std::size_t u) {
    if (u == unit) return;
    unit = u;
    s += unit_text(u < p.units.size() ? p.units[u] : ir::null_op<G>()) + "\n";
  };
  // Clusters and refusals merged back into candidate (walk) order.
  while (ci < p.clusters.size() || ri < p.refused.size()) {
    const bool take_cluster = ri == p.refused.size() ||
                              (ci < p.clusters.size() && p.clusters[ci].candidate < p.refused[ri].candidate);
    if (take_cluster) {
      const auto& c = p.clusters[ci];
      header(c.unit);
      s += "  cluster " + std::to_string(ci) + ":";
      for (std::size_t i = 0; i < c.ops.size(); ++i) s += (i ? " + " : " ") + op_text(c.ops[i]);
      s += "\n";
      for (const auto& mv : c.moves)
        s += "    move " + op_text(mv.op) + (mv.where == move_position::before ? " before " : " after ") +
             op_text(mv.anchor) + "\n";
      if (c.moves.empty()) s += "    no move\n";
      if (p.emit_composites) s += "    lowered to a composite, decomposition @" + c.decomposition + "\n";
      s += "    live-ins: " + join_values(c.live_ins) + "\n";
      s += "    live-outs: " + join_values(c.live_outs) + "\n";
      ++ci;
      continue;
    }
    const auto& r = p.refused[ri++];
    header(r.unit);
    s += "  refused " + op_text(r.consumer) + ": " + std::string(to_string(r.code)) + ": ";
    switch (r.code) {
      case schedule_refusal::no_producer_operand:
      case schedule_refusal::budget_exceeded:
        s += r.message;  // names no op
        break;
      case schedule_refusal::already_fused:
        s += "already inside " + op_text(r.op);
        break;
      case schedule_refusal::producer_claimed:
        s += op_text(r.op) + " belongs to cluster " + std::to_string(r.cluster);
        break;
      case schedule_refusal::different_block:
        s += op_text(r.op) + " is in another block";
        break;
      case schedule_refusal::non_convex:
        s += op_text(r.op) + " depends on " + op_text(r.path_from) + " and feeds " + op_text(r.path_to);
        break;
      case schedule_refusal::splits_cluster:
        s += "cluster " + std::to_string(r.cluster) + " uses the " + std::string(p.producer_kind) + " and feeds the " +
             std::string(p.consumer_kind) + " through " + op_text(r.op);
        break;
      case schedule_refusal::reschedule_refused:
        s += std::string(to_string(r.repair)) + " at " + op_text(r.op);
        break;
    }
    s += "\n";
  }
  return s;
}

/// A refusal as a diagnostic (to_diagnostics, passes/diagnostics.hpp): a remark at the candidate,
/// `PASS refused this candidate: CODE: MESSAGE` (the message alone with refusal_style::message),
/// PASS by default `schedule-fusion` (`schedule-fusion-composites` for the composites flavour's
/// plan); with a note at the op the refusal names, saying note_text(CODE), when that op is not
/// the candidate.
template <class G, class Op, class Value>
worded_refusal<Op> refusal_words(const G&, const schedule_fusion_plan<Op, Value>& plan,
                                 const typename schedule_fusion_plan<Op, Value>::refusal_record& r,
                                 const refusal_wording& w) {
  worded_refusal<Op> out;
  out.sev = severity::remark;
  out.at = r.consumer;
  if (w.style == refusal_style::tool) {
    const std::string_view pass =
        !w.pass.empty() ? w.pass : plan.emit_composites ? "schedule-fusion-composites" : "schedule-fusion";
    out.message = std::string(pass) + " refused this candidate: " + std::string(to_string(r.code)) + ": ";
  }
  out.message += r.message;
  if (!ir::is_null<G>(r.op) && !(r.op == r.consumer)) out.notes.push_back({r.op, std::string(note_text(r.code))});
  return out;
}

}  // namespace neuronrw
