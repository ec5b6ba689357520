// neuronrw/validate/comm_domain_scopes.hpp — the rewrite check of MaterializeCommDomainScopes
// (docs/validation.md §"Host programs"; what it proves: validate/host.hpp).
//
//   auto snap = neuronrw::snapshot_host(p);
//   neuronrw::apply_comm_domain_scopes(p, plan);
//   auto check = neuronrw::check_comm_domain_rewrite(p, plan, snap);
// (passes/comm_domain_scopes/checked.hpp's apply_checked does the three.)
//
// Customization points: the program (a rewritable_host_program with optional capability S1,
// scope_inspectable_host_program, validate/host.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <neuronrw/concepts/host.hpp>
#include <neuronrw/passes/comm_domain_scopes/analysis.hpp>
#include <neuronrw/passes/comm_domain_scopes/plan.hpp>
#include <neuronrw/validate/check.hpp>
#include <neuronrw/validate/host.hpp>

namespace neuronrw {

namespace host_check_detail {

inline std::string devices_words(const std::vector<std::int64_t>& d) {
  if (d.empty()) return "every device";
  std::string s = "devices [";
  for (std::size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

/// Whether every device of `c` is one of `devices` (ascending; empty: every device).
inline bool within(const device_coverage& c, const std::vector<std::int64_t>& devices) {
  if (devices.empty() || c.is_bottom()) return true;
  if (c.is_all()) return false;
  for (const auto& iv : c.intervals()) {
    const auto lo = std::lower_bound(devices.begin(), devices.end(), static_cast<std::int64_t>(iv.first));
    const auto hi = std::upper_bound(devices.begin(), devices.end(), static_cast<std::int64_t>(iv.last));
    if (static_cast<std::uint64_t>(hi - lo) != std::uint64_t{iv.last} - iv.first + 1) return false;
  }
  return true;
}

/// Every variable `e` references, in pre-order, without recursion.
template <class P, class F>
void for_each_var(const P& p, host_expr_t<P> root, const expr_digest<P>& ed, F&& f) {
  std::vector<host_expr_t<P>> stack{root};
  while (!stack.empty()) {
    const auto e = stack.back();
    stack.pop_back();
    const host_expr_kind k = host_access::expr_kind(p, e);
    if (k == host_expr_kind::var_ref) f(host_access::referenced_var(p, e));
    for (auto c : ed.children_of(e, k)) stack.push_back(c);
  }
}

}  // namespace host_check_detail

/// Checks the output `p` of applying `plan` against `snap`, taken of the input (snapshot_host):
/// what validate/host.hpp lists. O(statements + expression nodes + the plan's analysis).
template <class P>
rewrite_check<source_loc> check_comm_domain_rewrite(const P& p, const comm_domain_plan<P>& plan,
                                                  const host_snapshot<P>& snap) {
  static_assert(scope_inspectable_host_program<P>,
                "neuronrw: the MaterializeCommDomainScopes check reads the program's scopes and WindowBuffers: "
                "give host_traits<P> optional capability S1 (scope_devices, scope_slots, var_window, "
                "window_base; validate/host.hpp)");
  namespace hd = host_check_detail;
  using T = host_traits<std::remove_cvref_t<P>>;
  using fn_t = host_function_t<P>;
  using stmt_t = host_stmt_t<P>;
  using window_t = typename T::window_handle;
  using plan_t = comm_domain_plan<P>;
  constexpr std::size_t npos = static_cast<std::size_t>(-1);

  rewrite_check<source_loc> check;
  check.ops = snap.statements;
  check.bytes = snap.bytes();
  const hd::expr_digest<P> ed{p};

  std::vector<fn_t> fns;
  for (auto f : host_access::functions(p)) fns.push_back(f);
  if (fns.size() != snap.functions.size()) {
    check.add(rewrite_fault::statement_changed, source_loc{}, "the program's functions changed",
              std::to_string(snap.functions.size()) + " functions", std::to_string(fns.size()) + " functions");
    return check;
  }

  // The independent recomputation: the pass's own inference on the output, scopes taken away,
  // over the functions the plan materializes and every function that is no host orchestrator
  // (the chip orchestrators they dispatch to); the host orchestrators the plan leaves alone are
  // no concern of the check's.
  const auto find_plan = [](const auto& fs, fn_t f) -> decltype(&fs.front()) {
    for (const auto& fp : fs)
      if (fp.fn == f) return &fp;
    return nullptr;
  };
  std::vector<fn_t> recompute_on;
  bool any = false;
  for (fn_t f : fns) {
    const auto* fp = find_plan(plan.functions, f);
    if (fp != nullptr && fp->state != plan_t::status::materialize) continue;
    recompute_on.push_back(f);
    any |= fp != nullptr;
  }
  if (!any) recompute_on.clear();  // nothing materialized: nothing to recompute
  const unscoped_program<P> view{&p, &recompute_on};
  const auto recomputed = plan_comm_domain_scopes(view, plan.options);
  for (const auto& r : recomputed.refused)
    check.add(rewrite_fault::scope_mismatch, r.loc,
              "the output, its scopes taken away, is refused by a recomputation: " + r.message);

  struct scope_info {
    stmt_t stmt;
    std::size_t parent = npos;
    std::vector<std::int64_t> devices;
    std::vector<window_t> slots;
  };

  for (std::size_t k = 0; k < fns.size(); ++k) {
    const fn_t f = fns[k];
    const auto& in = snap.functions[k];
    const std::string fname(host_access::function_name(p, f));
    if (!(in.fn == f)) {
      check.add(rewrite_fault::statement_changed, source_loc{}, "function " + std::to_string(k + 1) + " is not the input's");
      continue;
    }
    std::vector<scope_info> scopes;
    std::vector<host_stmt_record<P>> recs;
    std::vector<std::size_t> rec_scope;
    hd::walk_function(
        p, f,
        [&](stmt_t s, std::size_t parent) {
          scope_info si{s, parent, {}, {}};
          for (auto d : T::scope_devices(p, s)) si.devices.push_back(d);
          for (auto w : T::scope_slots(p, s)) si.slots.push_back(w);
          scopes.push_back(std::move(si));
        },
        [&](stmt_t s, std::uint32_t depth, std::size_t scope) {
          recs.push_back({s, hd::stmt_digest(p, s, ed), depth, host_access::stmt_kind(p, s), hd::stmt_location(p, s)});
          rec_scope.push_back(scope);
        });
    hd::compare_statements(p, in, recs, check, [](const auto&, std::size_t) { return false; },
                           [](const auto& o, std::size_t) { return o.digest; });

    const auto* fp = find_plan(plan.functions, f);
    if (fp == nullptr || fp->state != plan_t::status::materialize) {
      if (scopes.size() != in.scopes)
        check.add(rewrite_fault::scope_mismatch, recs.empty() ? source_loc{} : recs.front().loc,
                  "'" + fname + "' is not materialized by the plan, yet its comm-domain scopes changed",
                  std::to_string(in.scopes) + " scopes", std::to_string(scopes.size()) + " scopes");
      continue;
    }
    const auto* rf = find_plan(recomputed.functions, f);
    if (rf == nullptr || rf->state != decltype(recomputed)::status::materialize) {
      if (recomputed.ok())
        check.add(rewrite_fault::scope_mismatch, recs.empty() ? source_loc{} : recs.front().loc,
                  "a recomputation from the output finds no allocation to scope in '" + fname + "'");
      continue;
    }
    if (scopes.size() != rf->scopes.size())
      check.add(rewrite_fault::scope_mismatch, scopes.empty() ? source_loc{} : fp->allocs.front().loc,
                "'" + fname + "' has not the comm-domain scopes a recomputation from the output finds",
                std::to_string(rf->scopes.size()) + " scopes (recomputed)", std::to_string(scopes.size()) + " scopes");

    // Each allocation: one WindowBuffer, its own, shared by its views, the slot of one scope whose
    // devices are the recomputed ones and hold the allocation's.
    std::vector<std::vector<bool>> slot_seen(scopes.size());
    for (std::size_t s = 0; s < scopes.size(); ++s) slot_seen[s].assign(scopes[s].slots.size(), false);
    for (const auto& a : rf->allocs) {
      std::optional<window_t> w;
      for (std::size_t vi : a.views) {
        const auto& v = rf->views[vi];
        const auto vw = T::var_window(p, v.var);
        if (!vw) {
          check.add(rewrite_fault::scope_mismatch, v.loc, "a view of allocation '" + a.name + "' carries no WindowBuffer");
        } else if (!(T::window_base(p, *vw) == a.var)) {
          check.add(rewrite_fault::scope_mismatch, v.loc,
                    "a view of allocation '" + a.name + "' carries the WindowBuffer of another allocation");
        } else if (!w) {
          w = *vw;
        } else if (!(*w == *vw)) {
          check.add(rewrite_fault::scope_mismatch, v.loc,
                    "two views of allocation '" + a.name + "' carry different WindowBuffers");
        }
      }
      if (!w) continue;
      std::size_t holder = npos, holders = 0;
      for (std::size_t s = 0; s < scopes.size(); ++s)
        for (std::size_t i = 0; i < scopes[s].slots.size(); ++i)
          if (scopes[s].slots[i] == *w) {
            slot_seen[s][i] = true;
            if (holders++ == 0) holder = s;
          }
      if (holders != 1) {
        check.add(rewrite_fault::scope_mismatch, a.loc,
                  "the WindowBuffer of allocation '" + a.name + "' is a slot of " + std::to_string(holders) +
                      " comm-domain scopes of '" + fname + "'",
                  "one scope", std::to_string(holders) + " scopes");
        continue;
      }
      const auto& expected = rf->scopes[a.scope].devices;
      if (scopes[holder].devices != expected)
        check.add(rewrite_fault::scope_mismatch, a.loc,
                  "the scope holding allocation '" + a.name + "' has not the device set a recomputation from the output finds",
                  hd::devices_words(expected) + " (recomputed)", hd::devices_words(scopes[holder].devices));
      else if (!hd::within(a.coverage, scopes[holder].devices))
        check.add(rewrite_fault::scope_mismatch, a.loc,
                  "allocation '" + a.name + "' is used by devices outside its scope's",
                  "", hd::devices_words(scopes[holder].devices));
    }
    for (std::size_t s = 0; s < scopes.size(); ++s)
      for (std::size_t i = 0; i < scopes[s].slots.size(); ++i)
        if (!slot_seen[s][i])
          check.add(rewrite_fault::scope_mismatch, recs.empty() ? source_loc{} : recs.front().loc,
                    "slot " + std::to_string(i) + " of comm-domain scope " + std::to_string(s) + " of '" + fname +
                        "' is the WindowBuffer of no allocation of the function");

    // Every use of a window view is inside a scope holding its WindowBuffer.
    const auto enclosed = [&](std::size_t scope, const window_t& w) {
      for (; scope != npos; scope = scopes[scope].parent)
        for (const auto& x : scopes[scope].slots)
          if (x == w) return true;
      return false;
    };
    for (std::size_t r = 0; r < recs.size(); ++r) {
      const stmt_t s = recs[r].stmt;
      bool bad = false;
      const auto use = [&](host_var_t<P> v) {
        if (bad) return;
        if (auto w = T::var_window(p, v); w && !enclosed(rec_scope[r], *w)) bad = true;
      };
      if (recs[r].kind == host_stmt_kind::assign) use(host_access::assign_target(p, s));
      for (auto e : host_access::operands(p, s)) hd::for_each_var(p, e, ed, use);
      if (bad)
        check.add(rewrite_fault::scope_mismatch, recs[r].loc,
                  "a window view is used outside every comm-domain scope holding its WindowBuffer",
                  "inside its scope", hd::record_words(recs[r]) + " outside it");
    }
  }
  return check;
}

}  // namespace neuronrw
