// neuronrw/validate/allreduce_signals.hpp — the rewrite check of SynthesizeAllReduceSignals
// (docs/validation.md §"Host programs"; what it proves: validate/host.hpp) and its checked apply:
//
//   auto r = neuronrw::apply_checked(p, plan);   // r.applied: whether the plan was applied
//   if (!r.check.ok()) ...                       // r.check: rewrite_check<source_loc>
//
// In a build that defines NEURONRW_CHECK_REWRITES (the tests' builds) the plain
// apply_allreduce_signals checks itself and aborts on a mismatch.
//
// Customization points: the program (buildable_host_program, concepts/host.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <neuronrw/concepts/host.hpp>
#include <neuronrw/passes/allreduce_signals.hpp>
#include <neuronrw/passes/transaction.hpp>
#include <neuronrw/validate/check.hpp>
#include <neuronrw/validate/host.hpp>

namespace neuronrw {

/// What the SynthesizeAllReduceSignals check compares with: the program's statements, and the
/// digest of each rewritten allreduce call as the input has it.
template <class P>
struct allreduce_signal_snapshot {
  host_snapshot<P> host;
  std::vector<std::uint64_t> calls;  ///< per plan rewrite
  std::size_t bytes() const noexcept { return host.bytes() + calls.size() * sizeof(std::uint64_t); }
};

template <class P>
allreduce_signal_snapshot<P> snapshot_allreduce_signals(const P& p, const allreduce_signal_plan<P>& plan) {
  allreduce_signal_snapshot<P> s{snapshot_host(p), {}};
  const host_check_detail::expr_digest<P> ed{p};
  for (const auto& r : plan.rewrites) {
    detail::fnv1a_64 h;
    ed.add(h, r.call);
    s.calls.push_back(h.value());
  }
  return s;
}

/// Checks the output `p` of applying `plan` against `snap`, taken of the input: what
/// validate/host.hpp lists. O(statements + expression nodes + rewrites).
/// `o`: the options the plan was applied with (default: the plan's own).
template <class P>
rewrite_check<source_loc> check_allreduce_signal_rewrite(const P& p, const allreduce_signal_plan<P>& plan,
                                                 const allreduce_signal_snapshot<P>& snap,
                                                 const allreduce_signal_options& o) {
  static_assert(require_buildable_host_program<P>());
  namespace hd = host_check_detail;
  using T = host_traits<std::remove_cvref_t<P>>;
  using fn_t = host_function_t<P>;
  using expr_t = host_expr_t<P>;
  using var_t = host_var_t<P>;
  using plan_t = allreduce_signal_plan<P>;
  rewrite_check<source_loc> check;
  check.ops = snap.host.statements;
  check.bytes = snap.bytes();
  const hd::expr_digest<P> ed{p};

  std::vector<fn_t> fns;
  for (auto f : host_access::functions(p)) fns.push_back(f);
  if (fns.size() != snap.host.functions.size()) {
    check.add(rewrite_fault::statement_changed, source_loc{}, "the program's functions changed",
              std::to_string(snap.host.functions.size()) + " functions", std::to_string(fns.size()) + " functions");
    return check;
  }

  // What the plan puts before a statement: per rewrite, the signal's three statements, then the
  // bound result.
  enum class role : std::uint8_t { world_size, buffer, signal, result };
  struct expected {
    std::size_t rewrite;
    role what;
    std::string_view name;
    std::string_view op;  ///< empty: the bound result
  };
  struct found {
    std::optional<var_t> signal, result;
    std::optional<expr_t> result_value;
  };
  std::vector<found> made(plan.rewrites.size());

  for (std::size_t k = 0; k < fns.size(); ++k) {
    const fn_t f = fns[k];
    const auto& in = snap.host.functions[k];
    if (!(in.fn == f)) {
      check.add(rewrite_fault::statement_changed, source_loc{}, "function " + std::to_string(k + 1) + " is not the input's");
      continue;
    }
    // The input position of each of f's rewrites (they are in program order within a function).
    std::vector<std::vector<std::size_t>> at(in.stmts.size());
    {
      std::vector<std::size_t> mine;
      for (std::size_t r = 0; r < plan.rewrites.size(); ++r)
        if (plan.rewrites[r].fn == f) mine.push_back(r);
      std::size_t j = 0;
      for (std::size_t i = 0; i < in.stmts.size() && j < mine.size(); ++i)
        while (j < mine.size() && plan.rewrites[mine[j]].stmt == in.stmts[i].stmt) at[i].push_back(mine[j++]);
      for (; j < mine.size(); ++j)
        check.add(rewrite_fault::plan_not_realized, plan.rewrites[mine[j]].loc,
                  "the plan rewrites an allreduce whose statement the input does not have in this order");
    }
    std::vector<std::vector<expected>> before(in.stmts.size());
    for (std::size_t i = 0; i < in.stmts.size(); ++i)
      for (std::size_t r : at[i]) {
        const auto& rw = plan.rewrites[r];
        if (rw.synthesize) {
          before[i].push_back({r, role::world_size, rw.world_size_name, o.world_size_op});
          before[i].push_back({r, role::buffer, rw.buffer_name, o.alloc_op});
          before[i].push_back({r, role::signal, rw.signal_name, o.window_op});
        }
        if (rw.where == plan_t::form::ret) before[i].push_back({r, role::result, rw.result_name, {}});
      }
    std::vector<std::size_t> taken(in.stmts.size(), 0);

    const auto synthesized = [&](const host_stmt_record<P>& out, std::size_t i) {
      if (i >= in.stmts.size() || taken[i] >= before[i].size()) return false;
      const expected& e = before[i][taken[i]];
      if (out.kind != host_stmt_kind::assign) return false;
      const var_t target = host_access::assign_target(p, out.stmt);
      if (T::var_name(p, target) != e.name) return false;
      const expr_t value = host_access::assign_value(p, out.stmt);
      if (!e.op.empty() && (host_access::expr_kind(p, value) != host_expr_kind::call ||
                            host_access::callee_name(p, value) != e.op))
        return false;
      if (e.what == role::signal) made[e.rewrite].signal = target;
      if (e.what == role::result) {
        made[e.rewrite].result = target;
        made[e.rewrite].result_value = value;
      }
      ++taken[i];
      return true;
    };
    const auto digest_of = [&](const host_stmt_record<P>& out, std::size_t i) -> std::uint64_t {
      if (at[i].empty()) return out.digest;
      if (taken[i] != before[i].size()) {
        const expected& e = before[i][taken[i]];
        check.add(rewrite_fault::plan_not_realized, out.loc,
                  "the statement binding '" + std::string(e.name) + "' is not right before its allreduce",
                  "", hd::record_words(out));
        taken[i] = before[i].size();
      }
      hd::expr_digest<P> adjusted{p};
      for (std::size_t r : at[i]) {
        const auto& rw = plan.rewrites[r];
        // The call as the output has it: the statement's value, or the bound result's.
        std::optional<expr_t> call;
        if (rw.where == plan_t::form::ret) {
          if (made[r].result && made[r].result_value) {
            adjusted.inlined.push_back({*made[r].result, *made[r].result_value});
            call = made[r].result_value;
          }
        } else {
          for (auto e : host_access::operands(p, out.stmt)) {
            call = e;
            break;
          }
        }
        if (!call) continue;
        if (rw.synthesize) {
          std::optional<expr_t> last;
          if (host_access::expr_kind(p, *call) == host_expr_kind::call)
            for (auto a : host_access::call_args(p, *call)) last = a;
          const bool is_signal = last && made[r].signal && host_access::expr_kind(p, *last) == host_expr_kind::var_ref &&
                                 host_access::referenced_var(p, *last) == *made[r].signal;
          if (!is_signal) {
            check.add(rewrite_fault::plan_not_realized, rw.loc,
                      "the allreduce's last argument is not its synthesized signal '" + rw.signal_name + "'");
            continue;
          }
          adjusted.skip.push_back(*last);
        }
        detail::fnv1a_64 h;
        adjusted.add(h, *call);
        if (h.value() != snap.calls[r])
          check.add(rewrite_fault::statement_changed, rw.loc,
                    "the rewritten allreduce evaluates other arguments than the input's");
      }
      return hd::stmt_digest(p, out.stmt, adjusted);
    };
    hd::compare_statements(p, in, hd::output_records(p, f, ed), check, synthesized, digest_of);
  }
  return check;
}

template <class P>
rewrite_check<source_loc> check_allreduce_signal_rewrite(const P& p, const allreduce_signal_plan<P>& plan,
                                                 const allreduce_signal_snapshot<P>& snap) {
  return check_allreduce_signal_rewrite(p, plan, snap, plan.options);
}

/// apply_allreduce_signals, then the check of its output against a snapshot of its input.
/// `applied`: whether the plan was applied (it is not when it has refusals).
template <class P>
checked_result<bool, source_loc> apply_checked(P& p, const allreduce_signal_plan<P>& plan) {
  static_assert(require_buildable_host_program<P>());
  checked_result<bool, source_loc> r{false, {}};
  if (!plan.ok()) return r;
  const auto snap = snapshot_allreduce_signals(std::as_const(p), plan);
  allreduce_signal_detail::apply_unchecked(p, plan, plan.options);
  r.applied = true;
  r.check = check_allreduce_signal_rewrite(std::as_const(p), plan, snap);
  return r;
}

/// What the check of `plan` on `p` will cover: the statements of the snapshot and its size.
template <class P>
rewrite_check<source_loc> check_scope(const P& p, const allreduce_signal_plan<P>& plan) {
  rewrite_check<source_loc> c;
  if (!plan.has_changes()) return c;
  const auto snap = snapshot_allreduce_signals(p, plan);
  c.ops = snap.host.statements;
  c.bytes = snap.bytes();
  return c;
}

namespace allreduce_signal_detail {
template <class P>
void apply_or_abort(P& p, const allreduce_signal_plan<P>& plan, const allreduce_signal_options& o) {
  if (!plan.ok()) return;
  const auto snap = snapshot_allreduce_signals(std::as_const(p), plan);
  apply_unchecked(p, plan, o);
  const auto check = check_allreduce_signal_rewrite(std::as_const(p), plan, snap, o);
  if (!check.ok()) validate_detail::rewrite_check_failed(check);
}
}  // namespace allreduce_signal_detail

}  // namespace neuronrw
