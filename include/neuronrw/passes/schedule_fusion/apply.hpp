// neuronrw/passes/schedule_fusion/apply.hpp — performing a ScheduleFusion plan: every move, then
// every grouping (collect-then-execute), then, for plans of plan_schedule_fusion_composites, the
// lowering to composites; and the entry points that plan and apply in one call.
//
// Customization points: none. apply_reschedule needs reschedulable_ir, apply_grouping
// groupable_ir, apply_composites outlinable_ir; the gated apply (a mutation gate, returning an
// apply_status; passes/transaction.hpp) also the IR's transaction (O5).
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
#include <neuronrw/concepts/attribute.hpp>
#include <neuronrw/passes/composite_lowering.hpp>
#include <neuronrw/passes/schedule_fusion/pattern.hpp>
#include <neuronrw/passes/schedule_fusion/plan.hpp>
#include <neuronrw/passes/schedule_fusion/planner.hpp>
#include <neuronrw/passes/transaction.hpp>

namespace neuronrw {

namespace sf_detail {

// The apply, written once over a step counter: txn_detail::unchecked_steps for the plain apply
// (every step proceeds, no cost), txn_detail::gated_steps for the gated one. Each returns early
// when a step is refused; the gated caller then rolls back.
// Each works on the clusters [lo, hi) of the plan; the parallel apply (passes/parallel.hpp) runs
// the clusters of different functions on different threads through the same code.
template <class G, class Steps>
void reschedule(G& g, const schedule_fusion_plan_t<G>& plan, Steps& steps, std::size_t lo, std::size_t hi) {
  for (std::size_t i = lo; i < hi; ++i)
    for (const auto& m : plan.clusters[i].moves) {
      if (m.where == move_position::before) {
        if (!steps.next("move_before")) return;
        ir::move_before(g, m.op, m.anchor);
      } else {
        if (!steps.next("move_after")) return;
        ir::move_after(g, m.op, m.anchor);
      }
    }
}

template <class G, class Steps>
void reschedule(G& g, const schedule_fusion_plan_t<G>& plan, Steps& steps) {
  reschedule(g, plan, steps, 0, plan.clusters.size());
}

// Groups the clusters [lo, hi), the last first, writing each grouping op to groups[i]. Returns
// false when a step was refused. The clusters of one function are one contiguous range of a plan
// (plan order is function order), and a cluster nested in another's region is in the same range.
template <class G, class Steps>
bool grouping(G& g, const schedule_fusion_plan_t<G>& plan, Steps& steps, std::size_t lo, std::size_t hi,
              std::vector<op_handle_t<G>>& groups) {
  using value = value_handle_t<G>;
  const named_attribute attrs[] = {{composite_schema::fusion_kind, attr::string{plan.fusion_kind}}};
  // Live-outs of clusters grouped already are now results of their grouping op.
  std::unordered_map<value, value, handle_hash<value>> renamed;
  std::vector<value> ins;
  for (std::size_t i = hi; i-- > lo;) {
    const auto& c = plan.clusters[i];
    ins.clear();
    for (const value& v : c.live_ins) {
      auto it = renamed.find(v);
      ins.push_back(it == renamed.end() ? v : it->second);
    }
    const group_request<op_handle_t<G>, value> req{c.ops, ins, c.live_outs, plan.group_op_name,
                                                   plan.terminator_name, attrs};
    if (!steps.next("group_ops")) return false;
    groups[i] = ir::group_ops(g, req);
    std::size_t k = 0;
    for (auto&& r : ir::results(g, groups[i])) renamed.emplace(c.live_outs[k++], r);
  }
  return true;
}

template <class G, class Steps>
std::vector<op_handle_t<G>> grouping(G& g, const schedule_fusion_plan_t<G>& plan, Steps& steps) {
  std::vector<op_handle_t<G>> groups(plan.clusters.size(), ir::null_op<G>());
  grouping(g, plan, steps, 0, plan.clusters.size(), groups);
  return groups;
}

/// The composites' records, in plan.composite_order (the grouping ops, their decompositions).
template <class G>
std::vector<composite_record<op_handle_t<G>>> lowering(const schedule_fusion_plan_t<G>& plan,
                                                       const std::vector<op_handle_t<G>>& groups) {
  std::vector<composite_record<op_handle_t<G>>> lower;
  lower.reserve(plan.composite_order.size());
  for (const std::size_t i : plan.composite_order)
    lower.push_back({groups[i], plan.clusters[i].decomposition, plan.fusion_kind});
  return lower;
}

template <class G, class Steps>
std::vector<op_handle_t<G>> composites(G& g, const schedule_fusion_plan_t<G>& plan,
                                       const std::vector<op_handle_t<G>>& groups, std::string_view composite_op_name,
                                       Steps& steps) {
  const auto made = lower_to_composites(g, lowering<G>(plan, groups), composite_op_name, steps);
  std::vector<op_handle_t<G>> out(plan.clusters.size(), ir::null_op<G>());
  for (std::size_t k = 0; k < made.size(); ++k) out[plan.composite_order[k]] = made[k].composite;
  return out;
}

template <class G, class Steps>
std::vector<op_handle_t<G>> apply_all(G& g, const schedule_fusion_plan_t<G>& plan, Steps& steps) {
  reschedule(g, plan, steps);
  auto groups = grouping(g, plan, steps);
  if constexpr (outlinable_ir<G>)
    if (plan.emit_composites) return composites(g, plan, groups, "stablehlo.composite", steps);
  return groups;
}

}  // namespace sf_detail

/// Performs every move of the plan, in order (the reschedule, without grouping). Afterwards each
/// cluster is contiguous in its block and SSA dominance holds.
/// @pre the plan was made on this IR, unchanged since.
template <class G>
void apply_reschedule(G& g, const schedule_fusion_plan_t<G>& plan) {
  static_assert(require_reschedulable_ir<G>());
  txn_detail::unchecked_steps steps;
  sf_detail::reschedule(g, plan, steps);
}

/// Groups every cluster of a rescheduled plan into its grouping op, the last planned first (a
/// cluster nested in a cluster op's region is grouped before the enclosing one). Returns the
/// grouping ops in cluster order.
/// @pre apply_reschedule(g, plan) was the only change since planning.
template <class G>
std::vector<op_handle_t<G>> apply_grouping(G& g, const schedule_fusion_plan_t<G>& plan) {
  static_assert(require_groupable_ir<G>());
  txn_detail::unchecked_steps steps;
  return sf_detail::grouping(g, plan, steps);
}

/// Lowers the grouping ops apply_grouping returned into composites + decompositions with the
/// lowering FusionToComposite uses (passes/composite_lowering.hpp, same schema), in `plan.composite_order`. Returns the composites
/// in cluster order.
template <class G>
std::vector<op_handle_t<G>> apply_composites(G& g, const schedule_fusion_plan_t<G>& plan,
                                             const std::vector<op_handle_t<G>>& groups,
                                             std::string_view composite_op_name = "stablehlo.composite") {
  static_assert(require_outlinable_ir<G>());
  txn_detail::unchecked_steps steps;
  return sf_detail::composites(g, plan, groups, composite_op_name, steps);
}

namespace sf_detail {
/// The checked apply that aborts on a mismatch (passes/schedule_fusion/checked.hpp), what apply
/// does in a build that defines NEURONRW_CHECK_REWRITES.
template <class G>
std::vector<op_handle_t<G>> apply_or_abort(G& g, const schedule_fusion_plan_t<G>& plan);
}  // namespace sf_detail

/// Applies a plan: every move, then every grouping (collect-then-execute, docs/schedule-fusion.md
/// §"Semantics"), then, for a plan of plan_schedule_fusion_composites, the lowering to composites. Returns the grouping
/// ops (or the composites) in cluster order. With NEURONRW_CHECK_REWRITES defined (the tests'
/// builds), checked as apply_checked does, aborting on a mismatch (docs/validation.md).
/// @pre the plan was made on this IR, unchanged since.
template <class G>
std::vector<op_handle_t<G>> apply(G& g, const schedule_fusion_plan_t<G>& plan) {
  static_assert(require_groupable_ir<G>());
#ifdef NEURONRW_CHECK_REWRITES
  if constexpr (block_arguments_ir<G>) return sf_detail::apply_or_abort(g, plan);
#endif
  txn_detail::unchecked_steps steps;
  return sf_detail::apply_all(g, plan, steps);
}

/// The gated apply (passes/transaction.hpp): the same steps, the gate asked before each (every
/// move, every group_ops, then the composites' outline_region / replace_op / erase_op); when it
/// refuses one, everything done is rolled back and the status names the step. `out`, when given,
/// receives what the plain apply returns (empty unless ok). Refuses with invalid_plan, before
/// any change, a composites plan whose decomposition names the IR already defines.
/// Needs the IR's transaction (O5, concepts/ir.hpp).
template <class G, mutation_gate Gate>
apply_status apply(G& g, const schedule_fusion_plan_t<G>& plan, Gate gate,
                   std::vector<op_handle_t<G>>* out = nullptr) {
  static_assert(require_groupable_ir<G>());
  static_assert(transactional_ir<G>,
                "neuronrw: the gated apply needs the IR's transaction (optional capability O5): give "
                "ir_traits<G> `static T begin_transaction(G&)`, `static void commit(G&, T)` and `static "
                "void rollback(G&, T)` (docs/concepts.md), or call the gate-less apply(g, plan).");
  if constexpr (outlinable_ir<G>)
    if (plan.emit_composites)
      if (auto why = decomposition_names_taken(
              g, sf_detail::lowering<G>(plan, std::vector<op_handle_t<G>>(plan.clusters.size(), ir::null_op<G>()))))
        return txn_detail::invalid_plan(std::move(*why));
  if constexpr (transactional_ir<G>) {  // else only the static_assert above reports
    std::vector<op_handle_t<G>> made;
    auto st = txn_detail::run_transaction<ir_traits<G>>(g, gate, [&](auto& steps) { made = sf_detail::apply_all(g, plan, steps); });
    if (out) *out = st.ok() ? std::move(made) : std::vector<op_handle_t<G>>{};
    return st;
  } else {
    return {};
  }
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

#ifdef NEURONRW_CHECK_REWRITES
#include <neuronrw/passes/schedule_fusion/checked.hpp>  // sf_detail::apply_or_abort
#endif
