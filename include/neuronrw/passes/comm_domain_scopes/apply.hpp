// neuronrw/passes/comm_domain_scopes/apply.hpp — materializing a MaterializeCommDomainScopes plan:
// per function to materialize, one WindowBuffer per allocation (make_window_buffer), each view
// re-typed with its allocation's (attach_window), and the body wrapped in the plan's scopes, the
// first outermost (wrap_body). apply_comm_domain_scopes does every function, ungated or through
// a mutation gate with rollback (passes/transaction.hpp); apply_comm_domain_function does one.
//
// Customization point: the program (any rewritable_host_program, concepts/host.hpp; the gated
// apply also needs transactional_host_program).
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include <neuronrw/concepts/host.hpp>
#include <neuronrw/passes/comm_domain_scopes/plan.hpp>
#include <neuronrw/passes/transaction.hpp>
#include <neuronrw/validate/host.hpp>

namespace neuronrw {

namespace comm_detail {

/// One function's part of the apply over a step counter (passes/transaction.hpp): one step per
/// make_window_buffer, attach_window and wrap_body call, in that order. False when a step was
/// refused (nothing after it is done).
template <class P, class Steps>
bool apply_function_steps(P& p, const typename comm_domain_plan<P>::function_plan& fp, Steps& steps) {
  using traits = host_traits<std::remove_cvref_t<P>>;
  using window_t = host_window_t<P>;
  using plan_t = comm_domain_plan<P>;
  if (fp.state != plan_t::status::materialize) return true;
  std::vector<window_t> windows;
  windows.reserve(fp.allocs.size());
  for (const auto& a : fp.allocs) {
    if (!steps.next("make_window_buffer")) return false;
    windows.push_back(traits::make_window_buffer(
        p, window_request<host_var_t<P>, host_expr_t<P>>{a.var, a.size, false, false, a.loc}));
  }
  for (const auto& v : fp.views) {
    if (!steps.next("attach_window")) return false;
    traits::attach_window(p, v.var, v.call, windows[v.alloc]);
  }
  for (std::size_t i = fp.scopes.size(); i-- > 0;) {  // innermost first: scope 0 ends up outermost
    const auto& s = fp.scopes[i];
    std::vector<window_t> slots;
    for (std::size_t a : s.allocs) slots.push_back(windows[a]);
    if (!steps.next("wrap_body")) return false;
    traits::wrap_body(p, fp.fn, scope_request<window_t>{s.name, s.devices, slots, fp.allocs[s.allocs.front()].loc});
  }
  return true;
}

/// The apply over a step counter: every function's part, in order. Stops at a refused step.
template <class P, class Steps>
void apply_steps(P& p, const comm_domain_plan<P>& plan, Steps& steps) {
  for (const auto& fp : plan.functions)
    if (!apply_function_steps(p, fp, steps)) return;
}

/// The checked apply that aborts on a mismatch (passes/comm_domain_scopes/checked.hpp): what
/// apply_comm_domain_scopes does in a build that defines NEURONRW_CHECK_REWRITES.
template <class P>
void apply_or_abort(P& p, const comm_domain_plan<P>& plan);

/// The program offers what the check reads (optional capability S1, validate/host.hpp).
template <class P>
concept self_checking = scope_inspectable_host_program<P>;

}  // namespace comm_detail

/// Materializes one function's part of a plan (apply_comm_domain_scopes does this for each, in
/// order); it changes only that function's variables, calls and body.
/// @pre as apply_comm_domain_scopes.
template <class P>
void apply_comm_domain_function(P& p, const typename comm_domain_plan<P>::function_plan& fp) {
  static_assert(require_rewritable_host_program<P>());
  txn_detail::unchecked_steps steps;
  comm_detail::apply_function_steps(p, fp, steps);
}

/// Materializes a plan: one WindowBuffer(base, size, false, false) per allocation, shared by all its
/// views (each view variable and its defining call re-typed with it), and the function body wrapped
/// in the plan's scopes, the first outermost. Never fails.
/// With NEURONRW_CHECK_REWRITES defined (the tests' builds), checked as apply_checked does,
/// aborting on a mismatch (docs/validation.md).
/// @pre plan.ok(), and the plan was computed on `p` as it is now. O(allocations + views + scopes).
template <class P>
void apply_comm_domain_scopes(P& p, const comm_domain_plan<P>& plan) {
  static_assert(require_rewritable_host_program<P>());
#ifdef NEURONRW_CHECK_REWRITES
  if constexpr (comm_detail::self_checking<P>) return comm_detail::apply_or_abort(p, plan);
#endif
  txn_detail::unchecked_steps steps;
  comm_detail::apply_steps(p, plan, steps);
}

/// The gated apply (passes/transaction.hpp): the same steps (make_window_buffer, attach_window,
/// wrap_body), the gate asked before each; when it refuses one, everything done is rolled back
/// and the status names the step. A plan with errors is refused (invalid_plan) before any change.
/// Needs the program's transaction (transactional_host_program, concepts/host.hpp).
template <class P, mutation_gate Gate>
apply_status apply_comm_domain_scopes(P& p, const comm_domain_plan<P>& plan, Gate gate) {
  static_assert(require_rewritable_host_program<P>());
  static_assert(transactional_host_program<P>,
                "neuronrw: the gated apply needs the host program's transaction (optional capability O5): "
                "give host_traits<P> `static T begin_transaction(P&)`, `static void commit(P&, T)` and "
                "`static void rollback(P&, T)` (docs/concepts.md), or call the gate-less "
                "apply_comm_domain_scopes(p, plan).");
  if (!plan.ok())
    return txn_detail::invalid_plan("the plan has " + std::to_string(plan.refused.size()) +
                                    " error(s): nothing is applied");
  if constexpr (transactional_host_program<P>)  // else only the static_assert above reports
    return txn_detail::run_transaction<host_traits<std::remove_cvref_t<P>>>(
        p, gate, [&](auto& steps) { comm_detail::apply_steps(p, plan, steps); });
  else
    return {};
}

}  // namespace neuronrw
