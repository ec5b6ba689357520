// neuronrw/passes/comm_domain_scopes/grouping.hpp — the last phases of one host orchestrator's
// analysis, over what the earlier ones recorded in its plan:
//   4. merge_coverage: every dispatch joins its descriptor into the allocations it reaches; then
//      the collectives' signal / recv_counts buffers inherit their target's coverage, to a
//      fixpoint (remarks say where pypto's one pass in source order answers differently); a
//      collective with no coverage to share is refused. check_allocations and check_views: every
//      allocation has a view and a consuming dispatch, every view can carry a WindowBuffer;
//   5. group_into_scopes: allocations grouped by exact coverage, in allocation order, into
//      scopes <scope_prefix>0, 1, ...; the devices listed are bounded per domain, per function
//      (max_scopes_per_function) and per program (device_budget, kept across the functions one
//      analysis plans).
//
// Internal to MaterializeCommDomainScopes (comm_domain_detail). Complexity: O(dispatch × reached
// allocations) joins, the fixpoint O(collectives × allocations) joins at worst, grouping
// O(allocations) expected plus the devices listed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <neuronrw/concepts/host.hpp>
#include <neuronrw/descriptors/device_coverage.hpp>
#include <neuronrw/descriptors/lattice.hpp>
#include <neuronrw/detail/handle_map.hpp>
#include <neuronrw/passes/comm_domain_scopes/function_facts.hpp>
#include <neuronrw/passes/comm_domain_scopes/plan.hpp>

namespace neuronrw::comm_domain_detail {

inline std::string describe_devices(const device_coverage& c) { return c.is_all() ? std::string("all") : to_string(c); }

/// pypto's own inheritance rule, one pass over the collectives in source order: the allocations'
/// coverage after it (from `joined`, the dispatches' coverage), and which collectives it refuses
/// (a target without coverage yet). Kept to point at where the fixpoint answers differently.
template <class P>
std::pair<std::vector<device_coverage>, std::vector<bool>> inherit_once(const typename comm_domain_plan<P>::function_plan& fp) {
  std::vector<device_coverage> once;
  for (const auto& a : fp.allocs) once.push_back(a.coverage);
  std::vector<bool> refused(fp.collectives.size(), false);
  for (std::size_t ci = 0; ci < fp.collectives.size(); ++ci) {
    const auto& c = fp.collectives[ci];
    if (c.target == comm_domain_plan<P>::npos) continue;
    if (once[c.target].is_bottom()) {
      refused[ci] = true;
      continue;
    }
    for (std::size_t i : c.inheritors) once[i] = lattice::join(once[i], once[c.target]);
  }
  return {std::move(once), std::move(refused)};
}

/// The inheritance to a fixpoint (join is monotone, so it terminates): a chain of collectives
/// gets the same answer in any order.
template <class P>
void inherit_to_fixpoint(typename comm_domain_plan<P>::function_plan& fp) {
  for (bool changed = true; changed;) {
    changed = false;
    for (auto& c : fp.collectives) {
      if (c.target == comm_domain_plan<P>::npos) continue;
      for (std::size_t i : c.inheritors) {
        device_coverage j = lattice::join(fp.allocs[i].coverage, fp.allocs[c.target].coverage);
        if (!(j == fp.allocs[i].coverage)) {
          fp.allocs[i].coverage = std::move(j);
          changed = true;
        }
      }
    }
  }
}

/// Phase 4: the merged coverage of every allocation; refuses a collective with none to share.
template <class P>
void merge_coverage(function_context<P>& c) {
  auto& fp = c.fp;
  constexpr std::size_t npos = comm_domain_plan<P>::npos;
  for (auto& d : fp.dispatches)
    for (std::size_t a : d.allocs) fp.allocs[a].coverage.join_with(d.devices);
  const auto [once, once_refused] = inherit_once<P>(fp);
  inherit_to_fixpoint<P>(fp);
  for (std::size_t ci = 0; ci < fp.collectives.size(); ++ci)
    if (once_refused[ci] && !fp.allocs[fp.collectives[ci].target].coverage.is_bottom())
      c.log.remark(fp.collectives[ci].loc, "pypto refuses this " + fp.collectives[ci].op + ": in source order its target '" +
                                               fp.allocs[fp.collectives[ci].target].name +
                                               "' has no coverage yet; coverage passed along collectives to a fixpoint gives it some");
  for (std::size_t i = 0; i < fp.allocs.size(); ++i)
    if (!once[i].is_bottom() && !(once[i] == fp.allocs[i].coverage))
      c.log.remark(fp.allocs[i].loc, "pypto gives '" + fp.allocs[i].name + "' the devices " + describe_devices(once[i]) +
                                         " (coverage passed once, in source order); the fixpoint gives " +
                                         describe_devices(fp.allocs[i].coverage));
  for (auto& col : fp.collectives) {
    if (col.target != npos) {
      if (fp.allocs[col.target].coverage.is_bottom())
        c.log.error(comm_domain_refusal_code::no_coverage_to_share, col.call, col.loc,
                    "collective data/target buffer has no inferred comm-domain coverage to share with its "
                    "signal buffer");
    } else if (!col.inheritors.empty() && fp.allocs[col.inheritors.front()].coverage.is_bottom()) {
      c.log.error(comm_domain_refusal_code::no_coverage_to_share, col.call, col.loc,
                  col.op + " signal buffer has no inferred comm-domain coverage — add a device= annotation or "
                           "ensure the signal window is consumed by a device-tagged chip dispatch");
    }
  }
}

/// Every allocation has a view and a consuming dispatch. Coverage ⊥ also counts as "not
/// consumed": a dispatch inside `pl.range(0)` never runs, and an empty device list would read as
/// "every device".
template <class P>
void check_allocations(function_context<P>& c) {
  for (auto& a : c.fp.allocs) {
    if (a.views.empty())
      c.log.error(comm_domain_refusal_code::dead_allocation, a.call, a.loc,
                  std::string(c.o.alloc_op) + " '" + a.name + "' has no " + std::string(c.o.window_op) +
                      " materialisation (dead allocation)");
    else if (a.coverage.is_bottom())
      c.log.error(comm_domain_refusal_code::unconsumed_allocation, a.call, a.loc,
                  std::string(c.o.alloc_op) + " '" + a.name + "' is not consumed by any chip_orch dispatch");
  }
}

/// Every view variable can carry a WindowBuffer.
template <class P>
void check_views(function_context<P>& c) {
  for (auto& v : c.fp.views)
    if (!host_access::can_carry_window(c.p, v.var))
      c.log.error(comm_domain_refusal_code::untyped_view, v.call, v.loc,
                  std::string(c.o.window_op) + " result Var should have DistributedTensorType");
}

/// The devices listed by the comm domains of the functions one analysis planned
/// (comm_domain_options::max_total_listed_devices).
struct device_budget {
  std::uint64_t listed = 0;   ///< devices listed by the scopes planned so far
  std::uint64_t checked = 0;  ///< devices of every scope checked against the limit, refused ones included
};

struct coverage_hash {
  std::size_t operator()(const device_coverage& c) const noexcept { return hash_value(c); }
};

/// Phase 5: group by EXACT coverage, in allocation order; scope i is <scope_prefix><i>.
template <class P>
class scope_grouping {
  using plan_t = comm_domain_plan<P>;
  static constexpr std::size_t npos = plan_t::npos;

 public:
  scope_grouping(function_context<P>& c, device_budget& budget) : c_(c), budget_(budget) {}

  void run() {
    auto& fp = c_.fp;
    for (std::size_t i = 0; i < fp.allocs.size(); ++i) {
      auto& a = fp.allocs[i];
      std::size_t si = npos;
      if (auto it = scope_of_.find(a.coverage); it != scope_of_.end()) {
        si = it->second;
      } else {
        if (fp.scopes.size() >= c_.o.max_scopes_per_function) {
          c_.log.error(comm_domain_refusal_code::too_many_scopes, a.call, a.loc,
                       "comm domain of '" + a.name + "' would be comm domain " + std::to_string(fp.scopes.size() + 1) +
                           " of '" + fp.name + "'; at most " + std::to_string(c_.o.max_scopes_per_function) +
                           " can nest in one function");
          break;
        }
        si = open_scope(a);
        if (si == npos) continue;
      }
      if (!names_[si].try_emplace(a.name, 1).second) {
        c_.log.error(comm_domain_refusal_code::duplicate_name, a.call, a.loc,
                     "duplicate allocation name '" + a.name + "' within the same comm domain");
        continue;
      }
      a.scope = si;
      fp.scopes[si].allocs.push_back(i);
    }
  }

 private:
  function_context<P>& c_;
  device_budget& budget_;
  std::unordered_map<device_coverage, std::size_t, coverage_hash> scope_of_;
  /// Per scope: its allocations' names (views of fp.allocs' names, which run() does not move).
  std::vector<detail::handle_map<std::string_view, char>> names_;

  /// A new scope for `a`'s coverage, its devices listed within the limits: its index, or npos
  /// after refusing.
  std::size_t open_scope(const typename plan_t::alloc& a) {
    auto& fp = c_.fp;
    const auto& o = c_.o;
    typename plan_t::scope s;
    s.name = std::string(o.scope_prefix) + std::to_string(fp.scopes.size());
    s.coverage = a.coverage;
    if (!a.coverage.is_all()) {
      const auto n = a.coverage.rank_count().value_or(0);
      if (n > o.max_listed_devices) {
        c_.log.error(comm_domain_refusal_code::too_many_devices, a.call, a.loc,
                     "comm domain of '" + a.name + "' covers " + std::to_string(n) + " devices; at most " +
                         std::to_string(o.max_listed_devices) + " can be listed");
        return npos;
      }
      budget_.checked += n;
      if (n > o.max_total_listed_devices - std::min(budget_.listed, o.max_total_listed_devices)) {
        c_.log.error(comm_domain_refusal_code::too_many_devices, a.call, a.loc,
                     "comm domain of '" + a.name + "' lists " + std::to_string(n) + " devices after " +
                         std::to_string(budget_.listed) + " in the program's other comm domains; at most " +
                         std::to_string(o.max_total_listed_devices) + " can be listed in all");
        return npos;
      }
      budget_.listed += n;
      for (device_coverage::rank_type r : a.coverage.ranks()) s.devices.push_back(r);
    }
    const std::size_t si = fp.scopes.size();
    scope_of_.emplace(a.coverage, si);
    fp.scopes.push_back(std::move(s));
    names_.emplace_back();
    return si;
  }
};

}  // namespace neuronrw::comm_domain_detail
