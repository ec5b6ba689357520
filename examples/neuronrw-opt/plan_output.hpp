// plan_output.hpp — the one place a dry run's plan becomes the driver's output. Every dry-run
// pass (schedule-fusion{dry-run=true}, schedule-fusion-composites{dry-run=true},
// materialize-comm-domain-scopes{dry-run=true}) hands its plan object to render_plan; a
// `--plan-format=text|json` switch adds its formats here (one more enumerator and one more case),
// and nothing else in the driver changes.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include <neuronrw/ir/host/ir.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/schedule_fusion.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>

namespace neuronrw_opt {

enum class plan_format : std::uint8_t {
  text,  ///< the library's dry-run text (describe / describe_plan)
};

/// The printed plan of a dry run: a ScheduleFusion plan over the reference IR, or a
/// MaterializeCommDomainScopes plan over a host program.
template <class Doc, class Plan>
std::string render_plan(const Doc& doc, const Plan& plan, plan_format format = plan_format::text) {
  switch (format) {
    case plan_format::text:
      if constexpr (std::is_same_v<Plan, neuronrw::ref_schedule_fusion_plan>) {
        return neuronrw::print_schedule_fusion_plan(doc, plan);
      } else {
        static_assert(std::is_same_v<Plan, neuronrw::comm_domain_plan<neuronrw::host::program>>);
        return neuronrw::describe_plan(plan);
      }
  }
  return {};
}

}  // namespace neuronrw_opt
