// neuronrw/passes/schedule_fusion/apply.hpp — performing a ScheduleFusion plan: every move, then
// every grouping (collect-then-execute), then, for plans of plan_schedule_fusion_composites, the
// lowering to composites; and the entry points that plan and apply in one call.
//
// Customization points: none. apply_reschedule needs reschedulable_ir, apply_grouping
// groupable_ir, apply_composites outlinable_ir.
// Complexity: O(moves + cluster ops + uses of live values) on IRs with O(1) moves and rewiring.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <neuronrw/algorithms/dominance_repair.hpp>
#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/mlir_string.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/schedule_fusion/pattern.hpp>
#include <neuronrw/passes/schedule_fusion/plan.hpp>
#include <neuronrw/passes/schedule_fusion/planner.hpp>

namespace neuronrw {

/// Performs every move of the plan, in order (the reschedule, without grouping). Afterwards each
/// cluster is contiguous in its block and SSA dominance holds.
/// @pre the plan was made on this IR, unchanged since.
template <class G>
void apply_reschedule(G& g, const schedule_fusion_plan_t<G>& plan) {
  static_assert(require_reschedulable_ir<G>());
  for (const auto& c : plan.clusters) apply_moves(g, std::span<const op_move<op_handle_t<G>>>(c.moves));
}

/// Groups every cluster of a rescheduled plan into its grouping op, the last planned first (a
/// cluster nested in a cluster op's region is grouped before the enclosing one). Returns the
/// grouping ops in cluster order.
/// @pre apply_reschedule(g, plan) was the only change since planning.
template <class G>
std::vector<op_handle_t<G>> apply_grouping(G& g, const schedule_fusion_plan_t<G>& plan) {
  static_assert(require_groupable_ir<G>());
  using value = value_handle_t<G>;
  std::vector<op_handle_t<G>> groups(plan.clusters.size(), ir::null_op<G>());
  const std::string kind_text = mlir_string_literal(plan.fusion_kind);
  const named_attribute attrs[] = {{composite_schema::fusion_kind, kind_text}};
  // Live-outs of clusters grouped already are now results of their grouping op.
  std::unordered_map<value, value, handle_hash<value>> renamed;
  std::vector<value> ins;
  for (std::size_t i = plan.clusters.size(); i-- > 0;) {
    const auto& c = plan.clusters[i];
    ins.clear();
    for (const value& v : c.live_ins) {
      auto it = renamed.find(v);
      ins.push_back(it == renamed.end() ? v : it->second);
    }
    const group_request<op_handle_t<G>, value> req{c.ops, ins, c.live_outs, plan.group_op_name,
                                                   plan.terminator_name, attrs};
    groups[i] = ir::group_ops(g, req);
    std::size_t k = 0;
    for (auto&& r : ir::results(g, groups[i])) renamed.emplace(c.live_outs[k++], r);
  }
  return groups;
}

/// Lowers the grouping ops apply_grouping returned into composites + decompositions with
/// FusionToComposite's own apply (same schema), in `plan.composite_order`. Returns the composites
/// in cluster order.
template <class G>
std::vector<op_handle_t<G>> apply_composites(G& g, const schedule_fusion_plan_t<G>& plan,
                                             const std::vector<op_handle_t<G>>& groups,
                                             std::string_view composite_op_name = "stablehlo.composite") {
  static_assert(require_outlinable_ir<G>());
  fusion_to_composite_plan<op_handle_t<G>> lower;
  lower.composite_op_name = std::string(composite_op_name);
  for (const std::size_t i : plan.composite_order) {
    const auto& c = plan.clusters[i];
    lower.conversions.push_back({groups[i], ir::null_op<G>(), c.decomposition, plan.fusion_kind, false});
  }
  const auto made = neuronrw::apply(g, lower);
  std::vector<op_handle_t<G>> composites(plan.clusters.size(), ir::null_op<G>());
  for (std::size_t k = 0; k < made.size(); ++k) composites[plan.composite_order[k]] = made[k].composite;
  return composites;
}

/// Applies a plan: every move, then every grouping (collect-then-execute, docs/schedule-fusion.md
/// §"Semantics"), then, for a plan of plan_schedule_fusion_composites, the lowering to composites. Returns the grouping
/// ops (or the composites) in cluster order.
/// @pre the plan was made on this IR, unchanged since.
template <class G>
std::vector<op_handle_t<G>> apply(G& g, const schedule_fusion_plan_t<G>& plan) {
  apply_reschedule(g, plan);
  auto groups = apply_grouping(g, plan);
  if constexpr (outlinable_ir<G>)
    if (plan.emit_composites) return apply_composites(g, plan, groups);
  return groups;
}

/// Plans and applies over `roots`; returns the plan.
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G, class Roots>
  requires std::ranges::input_range<Roots> &&
           std::convertible_to<std::ranges::range_value_t<Roots>, block_handle_t<G>>
schedule_fusion_plan_t<G> schedule_fusion(G& g, Roots&& roots, const schedule_fusion_options& opt = {}) {
  auto plan = plan_schedule_fusion<Pattern>(std::as_const(g), std::forward<Roots>(roots), opt);
  neuronrw::apply(g, plan);
  return plan;
}

/// Plans and applies over every function; returns the plan.
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G>
schedule_fusion_plan_t<G> schedule_fusion(G& g, const schedule_fusion_options& opt = {}) {
  auto plan = plan_schedule_fusion<Pattern>(std::as_const(g), opt);
  neuronrw::apply(g, plan);
  return plan;
}

/// Plans and applies ScheduleFusion followed by composite outlining over every function
/// (plan_schedule_fusion_composites); returns the plan.
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G>
schedule_fusion_plan_t<G> schedule_fusion_composites(G& g, const schedule_fusion_options& opt = {}) {
  auto plan = plan_schedule_fusion_composites<Pattern>(std::as_const(g), opt);
  neuronrw::apply(g, plan);
  return plan;
}

}  // namespace neuronrw
