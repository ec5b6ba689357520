// neuronrw/passes/comm_domain_scopes/describe.hpp — MaterializeCommDomainScopes's dry run: a plan
// as text (describe_plan, or the protocol's describe(p, plan)), one line per allocation,
// dispatch, collective and scope, then the remarks and the refusals; and how its refusals read
// as diagnostics (refusal_words, the hook of to_diagnostics in passes/diagnostics.hpp).
//
// Customization points: none (host programs name their functions, allocations and calls
// themselves, so no printer is needed). Deterministic: program order throughout.
#pragma once

#include <cstddef>
#include <string>

#include <neuronrw/descriptors/device_coverage.hpp>
#include <neuronrw/diagnostic.hpp>
#include <neuronrw/passes/comm_domain_scopes/plan.hpp>
#include <neuronrw/passes/diagnostics.hpp>
#include <neuronrw/passes/protocol.hpp>

namespace neuronrw {

/// A refusal as a diagnostic (to_diagnostics, passes/diagnostics.hpp): an error at the location
/// pypto reports it at, in the plan's file, saying pypto's text, then ` [CODE]` (pypto's text
/// alone with refusal_style::message, as errors() gives it). Names no pass.
template <class G, class P>
worded_refusal<diagnostic_location<source_loc>> refusal_words(const G&, const comm_domain_plan<P>& plan,
                                                              const typename comm_domain_plan<P>::refusal_record& r,
                                                              const refusal_wording& w) {
  worded_refusal<diagnostic_location<source_loc>> out;
  out.at = {plan.file, r.loc};
  out.message = r.pypto_message();
  if (w.style == refusal_style::tool) out.message += " [" + std::string(to_string(r.code)) + "]";
  return out;
}

/// A dry run: the plan as text, one line per allocation, dispatch, collective and scope, then the
/// remarks and the refusals as located diagnostics (pypto's errors). Deterministic (program order
/// throughout).
template <class P>
std::string describe_plan(const comm_domain_plan<P>& plan) {
  using plan_t = comm_domain_plan<P>;
  auto devices = [](const device_coverage& c) { return c.is_all() ? std::string("all") : to_string(c); };
  std::string out;
  for (const auto& f : plan.functions) {
    out += "function " + f.name + ": ";
    switch (f.state) {
      case plan_t::status::materialize: out += "materialize\n"; break;
      case plan_t::status::no_allocs: out += "no allocations\n"; continue;
      case plan_t::status::already_materialized: out += "already materialized\n"; continue;
      case plan_t::status::failed: out += "failed\n"; continue;
    }
    for (const auto& a : f.allocs)
      out += "  alloc " + a.name + " at " + line_col(a.loc) + ": " + std::to_string(a.views.size()) + " view(s), devices " +
             devices(a.coverage) + ", scope " + f.scopes[a.scope].name + "\n";
    for (const auto& d : f.dispatches) {
      out += "  dispatch " + d.callee + " at " + line_col(d.loc) + ": devices " + devices(d.devices) + ", allocs [";
      for (std::size_t i = 0; i < d.allocs.size(); ++i) out += (i ? ", " : "") + f.allocs[d.allocs[i]].name;
      out += "]\n";
    }
    for (const auto& c : f.collectives) {
      out += "  collective " + c.op + " at " + line_col(c.loc) + ": ";
      out += c.target == plan_t::npos ? std::string("no target") : "target " + f.allocs[c.target].name;
      for (std::size_t i : c.inheritors) out += ", inherits " + f.allocs[i].name;
      out += "\n";
    }
    for (const auto& s : f.scopes) {
      out += "  scope " + s.name + ": devices [";
      for (std::size_t i = 0; i < s.devices.size(); ++i) out += (i ? ", " : "") + std::to_string(s.devices[i]);
      out += "], slots [";
      for (std::size_t i = 0; i < s.allocs.size(); ++i) out += (i ? ", " : "") + f.allocs[s.allocs[i]].name;
      out += "]\n";
    }
  }
  for (const auto& u : plan.unmodeled)
    out += "unmodeled " + u.first + " at " + line_col(u.second) + " (allowed)\n";
  out += located_lines(plan.remarks);
  out += located_lines(plan.errors());
  return out;
}

/// The protocol's name for the dry run (passes/protocol.hpp): host programs name their functions,
/// allocations and calls themselves, so no printer is needed and the text is describe_plan's.
template <class P>
std::string describe(const P&, const comm_domain_plan<P>& plan) {
  return describe_plan(plan);
}

}  // namespace neuronrw
