// neuronrw/passes/comm_domain_scopes/analysis.hpp — MaterializeCommDomainScopes's analysis:
// plan_comm_domain_scopes, and the class behind it (comm_domain_detail::analysis) that the
// descriptor's per-function parts run (pass.hpp). The analysis finds the host and chip
// orchestrators, and runs the phases on each host orchestrator in program order, stopping a
// function at its first failing phase:
//   0-2  collect.hpp           unmodeled communication APIs; allocations and views
//   3    device_inference.hpp  dispatches with their device descriptors; collectives
//   4-5  grouping.hpp          merged coverage and its checks; grouping into scopes
// reporting through the refusal log (refusal_log.hpp) and reading the function through its
// facts (function_facts.hpp).
//
// Customization points: the program (any host_program, concepts/host.hpp) and
// comm_domain_options (options.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <neuronrw/algorithms/host_walk.hpp>
#include <neuronrw/concepts/host.hpp>
#include <neuronrw/passes/comm_domain_scopes/collect.hpp>
#include <neuronrw/passes/comm_domain_scopes/device_inference.hpp>
#include <neuronrw/passes/comm_domain_scopes/function_facts.hpp>
#include <neuronrw/passes/comm_domain_scopes/grouping.hpp>
#include <neuronrw/passes/comm_domain_scopes/options.hpp>
#include <neuronrw/passes/comm_domain_scopes/plan.hpp>
#include <neuronrw/passes/comm_domain_scopes/refusal_log.hpp>

namespace neuronrw {
namespace comm_domain_detail {

template <class P>
class analysis {
  using plan_t = comm_domain_plan<P>;
  using fn_t = host_function_t<P>;
  using stmt_t = host_stmt_t<P>;

 public:
  analysis(const P& p, const comm_domain_options& o)
      : p_(p), o_(o), log_(std::string(host_access::source_file(p))), facts_(p, o) {
    for (fn_t f : host_access::functions(p_))
      if (is_chip_orchestrator(f)) chip_orchs_.insert(std::string(host_access::function_name(p_, f)));
  }

  /// pypto's IsHostOrch: level HOST, and role Orchestrator or type Orchestration.
  bool is_host_orchestrator(fn_t f) const {
    if (host_access::level(p_, f) != o_.host_level) return false;
    return host_access::role(p_, f) == o_.orchestrator_role ||
           (!o_.orchestration_type.empty() && host_access::function_type(p_, f) == o_.orchestration_type);
  }
  /// pypto's IsChipOrch: level CHIP, role Orchestrator or type Orchestration, and not a Graph.
  bool is_chip_orchestrator(fn_t f) const {
    if (host_access::level(p_, f) != o_.chip_level) return false;
    const std::string_view type = host_access::function_type(p_, f);
    if (!o_.graph_type.empty() && type == o_.graph_type) return false;
    return host_access::role(p_, f) == o_.orchestrator_role ||
           (!o_.orchestration_type.empty() && type == o_.orchestration_type);
  }

  plan_t run() {
    log_.start_plan();
    for (fn_t f : host_access::functions(p_)) analyze_function(f);
    auto plan = log_.take_plan();
    plan.options = o_;
    return plan;
  }

  /// The part of the plan that function `f` contributes (empty unless f is a host orchestrator):
  /// run()'s plan is these parts concatenated in program order. Reads only `f` and the functions'
  /// names, levels and roles; one analysis may plan many functions in turn (passes/parallel.hpp).
  /// The listed devices count against max_total_listed_devices across all the functions this
  /// analysis planned, so only the whole program planned in order on one analysis is run()'s plan
  /// when that limit is reached.
  plan_t run_one(fn_t f) {
    log_.start_plan();
    analyze_function(f);
    auto plan = log_.take_plan();
    plan.options = o_;
    return plan;
  }

  /// The devices of every listed comm domain this analysis has checked against
  /// max_total_listed_devices so far, refused ones included. When these counts of the parts of a
  /// parallel plan add up to at most the limit, no running total of any order of the functions
  /// can reach it, so the parts are exactly the sequential plan's (passes/parallel.hpp).
  std::uint64_t devices_checked() const { return budget_.checked; }

 private:
  const P& p_;
  const comm_domain_options& o_;
  plan_recorder<P> log_;
  function_facts<P> facts_;            ///< of the function being analyzed
  device_budget budget_;               ///< across every function planned (max_total_listed_devices)
  name_set chip_orchs_;

  void analyze_function(fn_t f) {
    if (!is_host_orchestrator(f)) return;
    typename plan_t::function_plan fp;
    fp.fn = f;
    fp.name = std::string(host_access::function_name(p_, f));
    analyze(fp);
    log_.add_function(std::move(fp));
  }

  /// Idempotence (docs/host-programs.md): a body that already is a scope is left alone; a scope
  /// anywhere in the body counts too, so a second run can never wrap (and re-type) a
  /// materialized body again.
  bool already_scoped(fn_t f) const {
    return !walk_host_function(p_, f, [&](stmt_t s) {
      return host_access::stmt_kind(p_, s) == host_stmt_kind::comm_domain_scope ? host_walk::stop : host_walk::advance;
    });
  }

  /// One host orchestrator, phase by phase; the first failing phase ends it.
  void analyze(typename plan_t::function_plan& fp) {
    facts_.clear();
    log_.start_function();
    if (already_scoped(fp.fn)) {
      fp.state = plan_t::status::already_materialized;
      return;
    }
    function_context<P> c{p_, o_, log_, facts_, fp};
    auto failed = [&] {
      if (!log_.failed()) return false;
      fp.state = plan_t::status::failed;
      fp.scopes.clear();
      return true;
    };
    // 0. Communication APIs the pass does not model: the domains inferred without them could be
    //    wrong, so they are refused unless the caller says otherwise (comm_domain_options).
    if (!o_.comm_prefix.empty()) {
      comm_api_check<P>(c).run();
      if (failed()) return;
    }
    // 1-2. Allocations and views (and every variable definition, for the def-chains below).
    collector<P>(c).run();
    if (failed()) return;
    if (fp.allocs.empty()) {
      fp.state = plan_t::status::no_allocs;
      return;
    }
    // 3. Dispatch scan with the loop stack.
    dispatch_scan<P>(c, chip_orchs_).run();
    if (failed()) return;
    // 4. Merge, then the sanity checks.
    merge_coverage(c);
    if (failed()) return;
    check_allocations(c);
    if (failed()) return;
    check_views(c);
    if (failed()) return;
    // 5. Group by exact coverage.
    scope_grouping<P>(c, budget_).run();
    if (failed()) return;
    fp.state = plan_t::status::materialize;
  }
};

}  // namespace comm_domain_detail

/// The analysis of MaterializeCommDomainScopes (docs/host-programs.md; docs/sources.md §"MaterializeCommDomainScopes"):
/// per host orchestrator (level HOST, role Orchestrator), in program order —
///   1-2. allocations `x = alloc_window_buffer(size, name=...)` and their views
///        `v = window(x, [shape], dtype=...)` (first argument directly an allocation variable);
///   3.   every call of a chip orchestrator (level CHIP, role Orchestrator, resolved by name) with a
///        `device=` attribute gives a device descriptor (constant N → {N}; the induction variable of
///        an enclosing `for r in pl.range(...)`: stop world_size() → every device, constant stop
///        → {start..stop-1}, bounds followed through variable definitions, unit step), joined into
///        every allocation a positional argument reaches (through aliases and collective results);
///   4.   collectives pass their target's coverage on to their signal / recv_counts buffers; the
///        coverage lattice (device_coverage) merges; allocations are grouped by exact coverage in
///        allocation order into scopes comm_d0, comm_d1, ...
/// Errors carry the location of the allocation, dispatch or collective at fault; a function stops
/// at its first failing phase, the others are still analyzed.
/// @pre P models host_program. Complexity: O(program size + calls × def-chain length) expected,
/// plus the coverage fixpoint, O(collectives × allocations) joins at worst.
template <class P>
comm_domain_plan<P> plan_comm_domain_scopes(const P& p, const comm_domain_options& opts = {}) {
  static_assert(require_host_program<P>());
  return comm_domain_detail::analysis<P>(p, opts).run();
}

}  // namespace neuronrw
