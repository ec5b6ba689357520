// neuronrw/passes/comm_domain_scopes/pass.hpp — MaterializeCommDomainScopes's entry point that
// plans and applies (materialize_comm_domain_scopes: the program untouched on any error), and
// its descriptor neuronrw::passes::materialize_comm_domain_scopes (passes/protocol.hpp): name,
// summary, options, entry points, and the per-function parts:
//   units       every function of the program
//   scratch     one analysis per worker (analysis.hpp)
//   plan_part   one function's part (empty unless it is a host orchestrator), and the devices it
//               checked against max_total_listed_devices
//   merge       the parts in program order; past that limit, the program planned again in order
//   apply_*     one function per task; a plan with refusals applies nothing
//
// Customization points: none beyond the pass's (the program, comm_domain_options).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <neuronrw/concepts/host.hpp>
#include <neuronrw/diagnostic.hpp>
#include <neuronrw/passes/comm_domain_scopes/analysis.hpp>
#include <neuronrw/passes/comm_domain_scopes/apply.hpp>
#include <neuronrw/passes/comm_domain_scopes/checked.hpp>
#include <neuronrw/passes/comm_domain_scopes/describe.hpp>
#include <neuronrw/passes/comm_domain_scopes/options.hpp>
#include <neuronrw/passes/comm_domain_scopes/plan.hpp>
#include <neuronrw/passes/protocol.hpp>

namespace neuronrw {

/// Plan, then apply when the plan has no errors. Returns the diagnostics: empty = success (the
/// program may have changed); otherwise the program is exactly as it was.
template <class P>
diagnostics materialize_comm_domain_scopes(P& p, const comm_domain_options& opts = {}) {
  auto plan = plan_comm_domain_scopes(p, opts);
  if (!plan.ok()) return plan.errors();
  apply_comm_domain_scopes(p, plan);
  return {};
}

}  // namespace neuronrw

namespace neuronrw::passes {

/// MaterializeCommDomainScopes's descriptor (passes/protocol.hpp). Parts: one per function (empty
/// unless it is a host orchestrator), each planned by the worker's own analysis. merge
/// concatenates them in program order; the program-wide limit max_total_listed_devices depends on
/// the order the functions are planned in, so when the devices the workers checked against it add
/// up to more than the limit (an input near or past it), merge plans the program again
/// sequentially and the refusals are the sequential ones. apply: one function per task; a plan
/// with refusals applies nothing.
struct materialize_comm_domain_scopes {
  static constexpr std::string_view name = "materialize-comm-domain-scopes";
  static constexpr std::string_view display = "MaterializeCommDomainScopes";
  static constexpr std::string_view summary =
      "Infer the devices of each window buffer and wrap the allocations in comm-domain scopes";
  static constexpr pass_input input = pass_input::host;
  using options = comm_domain_options;
  template <class P>
  using traits = host_traits<std::remove_cvref_t<P>>;
  template <class P>
  using plan_type = comm_domain_plan<P>;
  static constexpr std::string_view mlir_name = "";  // host programs: no MLIR pass
  static constexpr std::string_view dry_run_help = "print the comm-domain plan; change nothing";

  /// Its counters (what an applied plan creates counts only when it is applied).
  template <class P>
  static std::vector<pass_statistic> statistics(const P&, const plan_type<P>& plan, bool applied) {
    std::uint64_t scopes = 0, buffers = 0, views = 0, dispatches = 0, collectives = 0, functions = 0;
    for (const auto& f : plan.functions) {
      if (f.state != plan_type<P>::status::materialize) continue;
      ++functions;
      scopes += f.scopes.size();
      buffers += f.allocs.size();
      views += f.views.size();
      dispatches += f.dispatches.size();
      collectives += f.collectives.size();
    }
    const bool made = plan.ok() && applied;
    return {{"buffers", "Window buffers materialized", made ? buffers : 0},
            {"collectives", "Collectives whose buffers share a domain", collectives},
            {"dispatches", "Device-tagged chip dispatches", dispatches},
            {"functions", "Host orchestrators materialized", made ? functions : 0},
            {"refused", "Refusals (the program is then unchanged)", plan.refused.size()},
            {"scopes", "Comm-domain scopes created", made ? scopes : 0},
            {"views", "Window views re-typed", made ? views : 0}};
  }


  template <class P>
  static plan_type<P> plan(const P& p, const options& o = {}) {
    return plan_comm_domain_scopes(p, o);
  }
  /// Applies a plan without refusals; one with refusals changes nothing.
  template <class P>
  static void apply(P& p, const plan_type<P>& plan) {
    if (plan.ok()) apply_comm_domain_scopes(p, plan);
  }
  template <class P>
  static std::string describe(const P& p, const plan_type<P>& plan) {
    return neuronrw::describe(p, plan);
  }
  /// The apply with its rewrite check (passes/comm_domain_scopes/checked.hpp).
  template <class P>
  static auto apply_checked(P& p, const plan_type<P>& plan) {
    return neuronrw::apply_checked(p, plan);
  }
  template <class P>
  static auto check_scope(const P& p, const plan_type<P>& plan) {
    return neuronrw::check_scope(p, plan);
  }

  template <class P>
  static std::vector<host_function_t<P>> units(const P& p) {
    std::vector<host_function_t<P>> fs;
    for (auto f : host_access::functions(p)) fs.push_back(f);
    return fs;
  }
  template <class P>
  static comm_domain_detail::analysis<P> scratch(const P& p, const options& o) {
    return comm_domain_detail::analysis<P>(p, o);
  }
  /// One function's part and the devices it checked against max_total_listed_devices.
  template <class P>
  struct part {
    plan_type<P> plan;
    std::uint64_t checked = 0;
  };
  template <class P>
  static part<P> plan_part(const P&, host_function_t<P> f, comm_domain_detail::analysis<P>& a) {
    const std::uint64_t before = a.devices_checked();
    part<P> out{a.run_one(f), 0};
    out.checked = a.devices_checked() - before;
    return out;
  }
  template <class P>
  static plan_type<P> merge(const P& p, const options& o, std::vector<part<P>>&& parts) {
    std::uint64_t total = 0;
    for (const auto& part : parts)
      if ((total += part.checked) > o.max_total_listed_devices) return plan_comm_domain_scopes(p, o);
    plan_type<P> out;
    out.options = o;
    out.file = std::string(host_access::source_file(p));
    for (auto& part : parts) {
      for (auto& f : part.plan.functions) out.functions.push_back(std::move(f));
      for (auto& r : part.plan.refused) out.refused.push_back(std::move(r));
      for (auto& d : part.plan.remarks) out.remarks.push_back(std::move(d));
      for (auto& u : part.plan.unmodeled) out.unmodeled.push_back(std::move(u));
    }
    return out;
  }

  struct apply_state {
    std::size_t n = 0;
    std::size_t tasks() const noexcept { return n; }
  };
  /// One task per planned function (none when the plan has refusals).
  template <class P>
  static std::optional<apply_state> apply_begin(const P&, const plan_type<P>& plan) {
    return apply_state{plan.ok() ? plan.functions.size() : 0};
  }
  template <class P>
  static void apply_task(P& p, const plan_type<P>& plan, apply_state&, std::size_t k) {
    apply_comm_domain_function(p, plan.functions[k]);
  }
  template <class P>
  static void apply_end(P&, const plan_type<P>&, apply_state&) {}
};

}  // namespace neuronrw::passes
