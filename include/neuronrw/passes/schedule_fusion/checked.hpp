// neuronrw/passes/schedule_fusion/checked.hpp — ScheduleFusion's checked apply (docs/validation.md):
// the plain apply's steps with the rewrite check of validate/schedule_fusion.hpp around the
// reschedule and grouping, and, for a composites plan, the check of validate/composites.hpp
// around each lowering.
//
//   auto r = neuronrw::apply_checked(g, plan, printer);   // r.applied: what apply returns
//   if (!r.check.ok()) ...                                 // r.check: the verdict
//
// The checked apply changes the IR exactly as the plain apply does (same steps, same order); a
// failed check does not undo anything (with the IR's transactions, the caller may).
// Customization points: the printer (describe()'s), which names ops and values in mismatches.
// Complexity: the apply's, plus the checks' (linear in the plan's blocks).
#pragma once

#include <utility>
#include <vector>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/passes/schedule_fusion/apply.hpp>
#include <neuronrw/passes/schedule_fusion/plan.hpp>
#include <neuronrw/passes/transaction.hpp>
#include <neuronrw/validate/check.hpp>
#include <neuronrw/validate/composites.hpp>
#include <neuronrw/validate/schedule_fusion.hpp>

namespace neuronrw {

/// Applies `plan` as apply(g, plan) does and checks the result (see the header comment).
/// @pre the plan was made on this IR, unchanged since.
template <class G, class Printer>
checked_result<std::vector<op_handle_t<G>>, op_handle_t<G>> apply_checked(G& g, const schedule_fusion_plan_t<G>& plan,
                                                                          Printer&& printer) {
  static_assert(require_groupable_ir<G>());
  checked_result<std::vector<op_handle_t<G>>, op_handle_t<G>> r;
  const auto snap = snapshot_schedule_fusion(std::as_const(g), plan);
  txn_detail::unchecked_steps steps;
  sf_detail::reschedule(g, plan, steps);
  auto groups = sf_detail::grouping(g, plan, steps);
  r.check = check_schedule_fusion(std::as_const(g), plan, snap, groups, printer);
  if constexpr (outlinable_ir<G>)
    if (plan.emit_composites) {
      const auto made = lower_to_composites_checked(g, sf_detail::lowering<G>(plan, groups), "stablehlo.composite", printer, r.check);
      r.applied.assign(plan.clusters.size(), ir::null_op<G>());
      for (std::size_t k = 0; k < made.size(); ++k) r.applied[plan.composite_order[k]] = made[k].composite;
      return r;
    }
  r.applied = std::move(groups);
  return r;
}

/// The same, naming ops by kind id in the mismatches.
template <class G>
checked_result<std::vector<op_handle_t<G>>, op_handle_t<G>> apply_checked(G& g, const schedule_fusion_plan_t<G>& plan) {
  return apply_checked(g, plan, validate_detail::anonymous_printer<G>{g});
}

namespace sf_detail {
template <class G>
std::vector<op_handle_t<G>> apply_or_abort(G& g, const schedule_fusion_plan_t<G>& plan) {
  auto r = apply_checked(g, plan);
  if (!r.check.ok()) validate_detail::rewrite_check_failed(r.check);
  return std::move(r.applied);
}
}  // namespace sf_detail

/// What the check of `plan` will cover, without applying it: the ops the snapshot records and
/// its size in bytes (the dry run prints these).
template <class G>
rewrite_check<op_handle_t<G>> check_scope(const G& g, const schedule_fusion_plan_t<G>& plan) {
  rewrite_check<op_handle_t<G>> r;
  const auto snap = snapshot_schedule_fusion(g, plan);
  r.ops = snap.ops();
  r.bytes = snap.bytes();
  return r;
}

}  // namespace neuronrw
