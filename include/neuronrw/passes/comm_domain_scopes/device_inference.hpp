// neuronrw/passes/comm_domain_scopes/device_inference.hpp — phase 3 of one host orchestrator's
// analysis, the per-allocation device-set inference: one walk of the body with the stack of
// enclosing loops, visiting every call in pre-order —
//   - a call of a chip orchestrator with a `device=` attribute is a dispatch: its device
//     descriptor (constant N → {N}; the induction variable of an enclosing `for r in
//     pl.range(...)`: stop world_size() → every device, constant stop → {start..stop-1}, bounds
//     followed through definitions, unit step) and the allocations its positional arguments
//     reach (through aliases and collective results);
//   - a call of a collective of the options' table: arity and loop checks, and which
//     allocations are its target and the buffers inheriting its coverage.
// Phase 4 (grouping.hpp) merges what this records.
//
// Internal to MaterializeCommDomainScopes (comm_domain_detail). Complexity: O(body size + calls ×
// def-chain length) expected.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <neuronrw/algorithms/host_walk.hpp>
#include <neuronrw/concepts/host.hpp>
#include <neuronrw/descriptors/device_coverage.hpp>
#include <neuronrw/passes/comm_domain_scopes/collective_spec.hpp>
#include <neuronrw/passes/comm_domain_scopes/function_facts.hpp>
#include <neuronrw/passes/comm_domain_scopes/plan.hpp>

namespace neuronrw::comm_domain_detail {

inline std::string arity_text(std::size_t n) {
  if (n == 1) return "one arg";
  if (n == 2) return "two args";
  return std::to_string(n) + " args";
}

/// Phase 3: the dispatch scan (the loop stack: pushed on entering a loop, popped on leaving).
template <class P>
class dispatch_scan {
  using plan_t = comm_domain_plan<P>;
  using stmt_t = host_stmt_t<P>;
  using expr_t = host_expr_t<P>;
  using var_t = host_var_t<P>;
  using int_value = host_int_value<expr_t>;
  static constexpr std::size_t npos = plan_t::npos;
  // The largest rank device_coverage holds.
  static constexpr std::int64_t max_rank = std::numeric_limits<device_coverage::rank_type>::max();

 public:
  /// `chip_orchestrators`: the names of the functions a dispatch may call.
  dispatch_scan(function_context<P>& c, const name_set& chip_orchestrators)
      : c_(c), chip_orchs_(chip_orchestrators) {}

  void run() {
    walk_host_function(c_.p, c_.fp.fn, [&](stmt_t s) { enter(s); }, [&](stmt_t s) { leave(s); });
  }

 private:
  function_context<P>& c_;
  const name_set& chip_orchs_;
  std::vector<stmt_t> loops_;  // enclosing for loops, innermost last
  int repeat_depth_ = 0;       // enclosing for + while loops

  host_expr_kind kind(expr_t e) const { return c_.facts.kind(e); }
  void error(comm_domain_refusal_code code, expr_t concerned, source_loc loc, std::string msg) {
    c_.log.error(code, concerned, loc, std::move(msg));
  }
  std::string world_size_text() const { return std::string(c_.o.world_size_op) + "()"; }

  void enter(stmt_t s) {
    const host_stmt_kind k = host_access::stmt_kind(c_.p, s);
    if (k == host_stmt_kind::while_loop) ++repeat_depth_;  // the condition runs on every iteration
    for (expr_t e : host_access::operands(c_.p, s)) visit(e);  // a for's bounds run once, outside it
    if (k == host_stmt_kind::for_range) {
      loops_.push_back(s);
      ++repeat_depth_;
    }
  }
  void leave(stmt_t s) {
    const host_stmt_kind k = host_access::stmt_kind(c_.p, s);
    if (k == host_stmt_kind::for_range) loops_.pop_back();
    if (k == host_stmt_kind::for_range || k == host_stmt_kind::while_loop) --repeat_depth_;
  }

  /// Pre-order over the calls of one expression (nested calls are their arguments).
  void visit(expr_t e) {
    if (kind(e) == host_expr_kind::binary) {
      const auto b = host_access::binary(c_.p, e);
      visit(b.lhs);
      if (b.op != host_binary_op::neg) visit(b.rhs);
      return;
    }
    if (kind(e) != host_expr_kind::call) return;
    dispatch(e);
    collective(e);
    for (expr_t a : host_access::call_args(c_.p, e)) visit(a);
  }

  // ---- dispatches --------------------------------------------------------------------------
  void dispatch(expr_t call) {
    if (host_access::callee_kind(c_.p, call) != host_callee_kind::function) return;
    if (!chip_orchs_.contains(std::string_view(host_access::callee_name(c_.p, call)))) return;
    const auto device = host_access::call_attr(c_.p, call, c_.o.device_attr);
    if (!device) return;  // a dispatch without device= is ignored (docs/host-programs.md)
    const source_loc loc = host_access::location(c_.p, call);
    auto desc = resolve_device(*device, loc);
    if (!desc) return;
    typename plan_t::dispatch d{call, std::string(host_access::callee_name(c_.p, call)), loc, std::move(*desc), {}};
    for (expr_t a : host_access::call_args(c_.p, call)) {
      if (kind(a) != host_expr_kind::var_ref) continue;
      const std::size_t w = c_.facts.resolve_view(host_access::referenced_var(c_.p, a));
      if (w != npos) d.allocs.push_back(c_.fp.views[w].alloc);
    }
    c_.fp.dispatches.push_back(std::move(d));
  }

  /// The device descriptor of a `device=` expression (pypto's table, plus docs/host-programs.md's
  /// start and variable-bound forms). nullopt after reporting an error.
  std::optional<device_coverage> resolve_device(expr_t d, source_loc at) {
    const host_expr_kind k = kind(d);
    if (k == host_expr_kind::int_const || k == host_expr_kind::binary) {
      const int_value c = c_.facts.constant_of(d);
      if (c_.arithmetic_error(c, at)) return std::nullopt;
      if (c.is_int()) return constant_device(d, c.value, at);
    }
    if (k == host_expr_kind::var_ref) {
      const var_t v = host_access::referenced_var(c_.p, d);
      for (auto it = loops_.rbegin(); it != loops_.rend(); ++it)
        if (host_access::loop_var(c_.p, *it) == v) return loop_devices(d, *it, at);
      error(comm_domain_refusal_code::unsupported_device, d, at,
            "device= Var is not the induction variable of any enclosing pl.range loop");
      return std::nullopt;
    }
    error(comm_domain_refusal_code::unsupported_device, d, at,
          "device= expression must be ConstInt or the induction var of pl.range; got an unsupported "
          "expression");
    return std::nullopt;
  }

  /// `device=N`: the device N.
  std::optional<device_coverage> constant_device(expr_t d, std::int64_t v, source_loc at) {
    if (v < 0) {
      error(comm_domain_refusal_code::unsupported_device, d, at, "device= ConstInt must be non-negative, got " + std::to_string(v));
      return std::nullopt;
    }
    if (v > max_rank) {
      error(comm_domain_refusal_code::unsupported_device, d, at,
            "device= ConstInt " + std::to_string(v) + " exceeds the largest supported rank " + std::to_string(max_rank));
      return std::nullopt;
    }
    return device_coverage::single(static_cast<device_coverage::rank_type>(v));
  }

  /// `device=r`, r the induction variable of `loop`: every device over world_size(), else the
  /// loop's range.
  std::optional<device_coverage> loop_devices(expr_t d, stmt_t loop, source_loc at) {
    const int_value stop = c_.facts.value_of(host_access::loop_stop(c_.p, loop));
    if (c_.arithmetic_error(stop, at)) return std::nullopt;
    if (stop.kind == host_int_kind::world_size) {
      // A sub-range of the world (start > 0) is over-approximated by every device, as in pypto:
      // a domain larger than the users is safe, a smaller one would hang.
      if (!check_step(host_access::loop_step(c_.p, loop), at, true)) return std::nullopt;
      return device_coverage::all();
    }
    if (!stop.is_int()) {
      error(comm_domain_refusal_code::unsupported_device, d, at, "device=r loop bound must be ConstInt or " + world_size_text());
      return std::nullopt;
    }
    const int_value start = c_.facts.value_of(host_access::loop_start(c_.p, loop));
    if (c_.arithmetic_error(start, at)) return std::nullopt;
    if (!start.is_int()) {
      error(comm_domain_refusal_code::unsupported_device, d, at, "device=r loop start must unwrap to ConstInt");
      return std::nullopt;
    }
    if (!check_step(host_access::loop_step(c_.p, loop), at, false)) return std::nullopt;
    const std::int64_t lo = start.value;
    const std::int64_t hi = stop.value;
    if (lo < 0 || hi < lo) {
      error(comm_domain_refusal_code::unsupported_device, d, at, "device=r loop range must be [0, N) with N>=0");
      return std::nullopt;
    }
    if (hi - 1 > max_rank) {
      error(comm_domain_refusal_code::unsupported_device, d, at,
            "device=r loop bound " + std::to_string(hi) + " exceeds the largest supported rank " + std::to_string(max_rank));
      return std::nullopt;
    }
    if (hi == lo)
      c_.log.remark(at, "device=r over an empty loop (pl.range(" + std::to_string(lo) + ", " + std::to_string(hi) +
                            ")) gives no device here; pypto records an empty device set, which it prints as every device");
    return device_coverage::range(static_cast<device_coverage::rank_type>(lo), static_cast<device_coverage::rank_type>(hi));
  }

  /// The step rule: a constant 1. Over world_size() pypto does not look at the step (it takes
  /// every device); this pass refuses a non-unit step there too, and says where pypto differs.
  bool check_step(expr_t step_expr, source_loc at, bool over_world) {
    const int_value step = c_.facts.value_of(step_expr);
    if (c_.arithmetic_error(step, at)) return false;
    if (!step.is_int()) {
      error(comm_domain_refusal_code::non_unit_step, step_expr, at, "device=r loop step must unwrap to ConstInt");
      return false;
    }
    if (step.value != 1) {
      if (over_world)
        c_.log.remark(at, "pypto does not check the step of a loop over " + world_size_text() +
                              " and takes every device; this pass refuses it");
      error(comm_domain_refusal_code::non_unit_step, step_expr, at,
            "device=r over a non-unit-step loop is not supported (step=" + std::to_string(step.value) + ")");
      return false;
    }
    return true;
  }

  // ---- collectives -------------------------------------------------------------------------
  void collective(expr_t call) {
    const collective_spec* c = c_.facts.collective_of(call);
    if (!c) return;
    const source_loc loc = host_access::location(c_.p, call);
    const std::string op(c->op);
    const auto a = c_.facts.args(call);
    if (a.size() != c->arity) {
      error(comm_domain_refusal_code::bad_collective_call, call, loc, op + " expects exactly " + arity_text(c->arity));
      return;
    }
    if (c->single_use && repeat_depth_ > 0) {
      c_.log.error(comm_domain_refusal_code::collective_in_loop, call, loc,
                   op + " is not supported inside a for/while loop in a HOST orchestrator. The signal protocol is "
                        "single-use and cannot reuse a signal across dynamic invocations (same restriction "
                        "LowerCompositeOps enforces on the InCore path via CheckAllReduceLoopUse).",
                   false);
      return;
    }
    typename plan_t::collective rec{call, op, loc, npos, {}};
    bool ok = true;
    rec.target = buffer(a, c->target, c->target_role, op, loc, ok);
    const std::size_t signal = buffer(a, c->signal, "signal", op, loc, ok);
    const std::size_t recv = buffer(a, c->recv_counts, "recv_counts", op, loc, ok);
    if (!ok) return;
    if (signal != npos) rec.inheritors.push_back(signal);
    if (recv != npos) rec.inheritors.push_back(recv);
    c_.fp.collectives.push_back(std::move(rec));
  }

  /// The allocation a collective's buffer argument `index` (-1: none) reaches; npos for none, or
  /// after reporting that it is not a window view (then `ok` is false, and later buffers are not
  /// looked at).
  std::size_t buffer(const std::vector<expr_t>& a, int index, std::string_view name, const std::string& op,
                     source_loc loc, bool& ok) {
    if (index < 0 || !ok) return npos;
    const expr_t e = a[static_cast<std::size_t>(index)];
    const source_loc at = host_access::location(c_.p, e).known() ? host_access::location(c_.p, e) : loc;
    if (kind(e) != host_expr_kind::var_ref) {
      error(comm_domain_refusal_code::bad_collective_call, e, at, op + " " + std::string(name) + " must be a window view Var");
      ok = false;
      return npos;
    }
    const std::size_t w = c_.facts.resolve_view(host_access::referenced_var(c_.p, e));
    if (w == npos) {
      error(comm_domain_refusal_code::bad_collective_call, e, at,
            op + " " + std::string(name) + " must be produced by " + std::string(c_.o.window_op));
      ok = false;
      return npos;
    }
    return c_.fp.views[w].alloc;
  }
};

}  // namespace neuronrw::comm_domain_detail
