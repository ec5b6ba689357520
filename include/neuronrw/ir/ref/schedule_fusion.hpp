// neuronrw/ir/ref/schedule_fusion.hpp — ScheduleFusion on the reference IR: the dry-run text and
// the driver's entry point (`neuronrw-opt --schedule-fusion`, `--schedule-fusion-dry-run`).
//
// Customization points: none; the generic pass is neuronrw/passes/schedule_fusion.hpp.
#pragma once

#include <string>
#include <utility>

#include <neuronrw/diagnostic.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/plan_printer.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

namespace neuronrw {

using ref_schedule_fusion_plan = schedule_fusion_plan<ref::op_ref, ref::value_ref>;


/// The dry run's text on the reference IR (format: passes/schedule_fusion/describe.hpp).
inline std::string print_schedule_fusion_plan(const ref::module& m, const ref_schedule_fusion_plan& p) {
  return describe(m, p, ref::plan_printer{m});
}

/// The driver's entry point: plans the pattern over every function of `m`; with `dry_run_plan`
/// non-null, writes the printed plan there and changes nothing, else applies it. Refusals are
/// not errors (the plan lists them); the result is always empty today and kept for symmetry with
/// the other passes' entry points, whose problems are errors.
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern>
diagnostics run_schedule_fusion(ref::module& m, std::string* dry_run_plan = nullptr,
                                const schedule_fusion_options& opt = {}) {
  auto plan = plan_schedule_fusion<Pattern>(std::as_const(m), opt);
  if (dry_run_plan) {
    *dry_run_plan = print_schedule_fusion_plan(m, plan);
    return {};
  }
  neuronrw::apply(m, plan);
  return {};
}

}  // namespace neuronrw
