// plan_output.hpp — the one place a dry run's plan becomes the driver's output. Every dry-run
// pass (schedule-fusion{dry-run=true}, fusion-to-composite{dry-run=true}, any registered pass with
// a `dry-run` option) hands its plan object to render_plan, in the format `--plan-format=text|json` chose: the library's text, or
// the JSON of docs/plan-format.md (plan_json.hpp), named after the document's source file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include <neuronrw/ir/host/ir.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/plan_printer.hpp>
#include <neuronrw/ir/ref/schedule_fusion.hpp>
#include <neuronrw/passes/allreduce_signals.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>

#include "plan_json.hpp"

namespace neuronrw_opt {

enum class plan_format : std::uint8_t {
  text,  ///< the library's dry-run text (describe / describe_plan)
  json,  ///< docs/plan-format.md, validated against docs/plan-schema.json
};

/// The printed plan of a dry run of pass D: for the library's passes, the library's text
/// (ScheduleFusion: print_schedule_fusion_plan; the others: D::describe) or their JSON
/// (docs/plan-format.md); for any other pass, D::describe's text — `describe(m, plan,
/// ref::plan_printer{m})` on the reference IR, `describe(program, plan)` on a host program — and,
/// as JSON, the plan-format header with that text as "text".
template <class D, class Doc, class Plan>
std::string render_plan(const Doc& doc, const Plan& plan, plan_format format) {
  constexpr bool schedule = std::is_same_v<Plan, neuronrw::ref_schedule_fusion_plan>;
  constexpr bool f2c = std::is_same_v<Plan, ref_fusion_to_composite_plan>;
  constexpr bool signals = std::is_same_v<Plan, host_allreduce_signal_plan>;
  constexpr bool comm = std::is_same_v<Plan, host_comm_domain_plan>;
  constexpr bool ref_ir = std::is_same_v<Doc, neuronrw::ref::module>;
  auto text = [&] {
    if constexpr (schedule) return neuronrw::print_schedule_fusion_plan(doc, plan);
    else if constexpr (ref_ir) return std::string(D::describe(doc, plan, neuronrw::ref::plan_printer{doc}));
    else return std::string(D::describe(doc, plan));
  };
  switch (format) {
    case plan_format::text: return text();
    case plan_format::json:
      if constexpr (schedule) return schedule_fusion_plan_json(doc, plan, doc.source_name);
      else if constexpr (f2c) return fusion_to_composite_plan_json(doc, plan, doc.source_name);
      else if constexpr (signals) return allreduce_signal_plan_json(doc, plan, doc.file);
      else if constexpr (comm) return comm_domain_plan_json(doc, plan, doc.file);
      else {
        std::string_view file;
        if constexpr (ref_ir) file = doc.source_name;
        else file = doc.file;
        json_value j = plan_json_detail::header(D::name, file);
        j.set("text", text());
        return j.dump();
      }
  }
  return {};
}

}  // namespace neuronrw_opt
