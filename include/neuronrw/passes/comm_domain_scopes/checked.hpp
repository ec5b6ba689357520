// neuronrw/passes/comm_domain_scopes/checked.hpp — MaterializeCommDomainScopes's checked apply
// (docs/validation.md §"Host programs"):
//
//   auto r = neuronrw::apply_checked(p, plan);   // r.applied: whether the plan was applied
//   if (!r.check.ok())
//     for (auto& d : neuronrw::to_diagnostics(p, r.check, locate)) print(d);
//
// what the check proves: validate/host.hpp. In a build that defines NEURONRW_CHECK_REWRITES (the
// tests' builds) the plain apply_comm_domain_scopes checks itself and aborts on a mismatch.
//
// Customization points: the program (rewritable_host_program with optional capability S1,
// validate/host.hpp).
#pragma once

#include <neuronrw/concepts/host.hpp>
#include <neuronrw/passes/comm_domain_scopes/apply.hpp>
#include <neuronrw/passes/comm_domain_scopes/plan.hpp>
#include <neuronrw/passes/transaction.hpp>
#include <neuronrw/validate/check.hpp>
#include <neuronrw/validate/comm_domain_scopes.hpp>
#include <neuronrw/validate/host.hpp>

namespace neuronrw {

/// What the check of `plan` on `p` will cover: the statements of the snapshot and its size.
template <class P>
rewrite_check<source_loc> check_scope(const P& p, const comm_domain_plan<P>& plan) {
  rewrite_check<source_loc> c;
  if (!plan.has_changes()) return c;
  const auto snap = snapshot_host(p);
  c.ops = snap.statements;
  c.bytes = snap.bytes();
  return c;
}

/// apply_comm_domain_scopes, then the check of its output against a snapshot of its input.
/// `applied`: whether the plan was applied (it is not when it has refusals).
template <class P>
checked_result<bool, source_loc> apply_checked(P& p, const comm_domain_plan<P>& plan) {
  static_assert(require_rewritable_host_program<P>());
  checked_result<bool, source_loc> r{false, {}};
  if (!plan.ok()) return r;
  const auto snap = snapshot_host(p);
  txn_detail::unchecked_steps steps;
  comm_detail::apply_steps(p, plan, steps);
  r.applied = true;
  r.check = check_comm_domain_rewrite(p, plan, snap);
  return r;
}

namespace comm_detail {
template <class P>
void apply_or_abort(P& p, const comm_domain_plan<P>& plan) {
  auto r = apply_checked(p, plan);
  if (!r.check.ok()) validate_detail::rewrite_check_failed(r.check);
}
}  // namespace comm_detail

}  // namespace neuronrw
