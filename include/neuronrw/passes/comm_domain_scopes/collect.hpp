// neuronrw/passes/comm_domain_scopes/collect.hpp — the first phases of one host orchestrator's
// analysis, each one walk of the body:
//   0.   comm_api_check: calls of communication APIs the pass does not model (an op under
//        comm_domain_options::comm_prefix that is not the alloc / window / world-size op, a
//        collective of the options' table or a neutral op) are refused, or recorded as let
//        through when allow_unmodeled_comm_apis; an alloc call not bound by an assignment is
//        refused;
//   1-2. collector: the allocations `x = alloc_window_buffer(size, name=...)` (their size
//        checked when the program fixes it) and their views `v = window(x, ...)`, and every
//        variable's definition, for the def-chains of function_facts.
//
// Internal to MaterializeCommDomainScopes (comm_domain_detail). Complexity: O(body size).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include <neuronrw/algorithms/host_walk.hpp>
#include <neuronrw/concepts/host.hpp>
#include <neuronrw/passes/comm_domain_scopes/collective_spec.hpp>
#include <neuronrw/passes/comm_domain_scopes/function_facts.hpp>
#include <neuronrw/passes/comm_domain_scopes/options.hpp>
#include <neuronrw/passes/comm_domain_scopes/plan.hpp>

namespace neuronrw::comm_domain_detail {

/// Phase 0: communication APIs the pass does not model.
template <class P>
class comm_api_check {
  using stmt_t = host_stmt_t<P>;
  using expr_t = host_expr_t<P>;

 public:
  explicit comm_api_check(function_context<P>& c) : c_(c) {}

  void run() {
    walk_host_function(c_.p, c_.fp.fn, [&](stmt_t s) { check_statement(s); });
  }

 private:
  function_context<P>& c_;

  /// Whether the pass models `op`: the options' alloc, window and world-size ops, collectives
  /// and neutral ops.
  bool modeled(std::string_view op) const {
    if (op == c_.o.alloc_op || op == c_.o.window_op || op == c_.o.world_size_op) return true;
    for (const collective_spec& c : c_.o.collectives)
      if (c.op == op) return true;
    for (std::string_view n : c_.o.neutral_ops)
      if (n == op) return true;
    return false;
  }
  void check_statement(stmt_t s) {
    const bool assign = host_access::stmt_kind(c_.p, s) == host_stmt_kind::assign;
    for (expr_t e : host_access::operands(c_.p, s)) {
      // An allocation is read only as the value of an assignment (its variable is its identity).
      if (assign && c_.facts.is_op_call(e, c_.o.alloc_op)) {
        for (expr_t a : host_access::call_args(c_.p, e)) check_call(a);
        continue;
      }
      check_call(e);
    }
  }
  void check_call(expr_t e) {
    if (c_.facts.kind(e) == host_expr_kind::binary) {
      const auto b = host_access::binary(c_.p, e);
      check_call(b.lhs);
      if (b.op != host_binary_op::neg) check_call(b.rhs);
      return;
    }
    if (c_.facts.kind(e) != host_expr_kind::call) return;
    if (c_.facts.is_op_call(e, c_.o.alloc_op)) {
      c_.log.error(comm_domain_refusal_code::bad_alloc_call, e, host_access::location(c_.p, e),
                   std::string(c_.o.alloc_op) + " must appear as the RHS of a simple assignment (its result must be "
                                                "bound to a named variable)");
    } else if (host_access::callee_kind(c_.p, e) == host_callee_kind::op) {
      const std::string_view op = host_access::callee_name(c_.p, e);
      if (op.substr(0, c_.o.comm_prefix.size()) == c_.o.comm_prefix && !modeled(op)) {
        const source_loc loc = host_access::location(c_.p, e);
        if (c_.o.allow_unmodeled_comm_apis)
          c_.log.unmodeled(std::string(op), loc);
        else
          c_.log.error(comm_domain_refusal_code::unmodeled_comm_api, e, loc,
                       std::string(op) + " is a communication API this pass does not model: the comm domains "
                                         "inferred without it could be wrong (allow-unmodeled-comm-apis=true "
                                         "materializes anyway)");
      }
    }
    for (expr_t a : host_access::call_args(c_.p, e)) check_call(a);
  }
};

/// Phases 1-2: allocations and views, and every variable definition.
template <class P>
class collector {
  using plan_t = comm_domain_plan<P>;
  using stmt_t = host_stmt_t<P>;
  using expr_t = host_expr_t<P>;
  using var_t = host_var_t<P>;
  static constexpr std::size_t npos = plan_t::npos;

 public:
  explicit collector(function_context<P>& c) : c_(c) {}

  void run() {
    walk_host_function(c_.p, c_.fp.fn, [&](stmt_t s) { collect(s); });
  }

 private:
  function_context<P>& c_;

  void collect(stmt_t s) {
    if (host_access::stmt_kind(c_.p, s) != host_stmt_kind::assign) return;
    const var_t t = host_access::assign_target(c_.p, s);
    const expr_t v = host_access::assign_value(c_.p, s);
    c_.facts.define(t, v);
    if (c_.facts.is_op_call(v, c_.o.alloc_op))
      collect_alloc(t, v);
    else if (c_.facts.is_op_call(v, c_.o.window_op))
      collect_view(t, v);
  }

  /// `t = window(x, ...)` with `x` directly an allocation variable; other windows are not views.
  void collect_view(var_t t, expr_t call) {
    const auto x = host_access::call_arg(c_.p, call, 0);
    if (!x || c_.facts.kind(*x) != host_expr_kind::var_ref) return;
    const std::size_t slot = c_.facts.alloc_of(host_access::referenced_var(c_.p, *x));
    if (slot == npos) return;
    auto& fp = c_.fp;
    c_.facts.define_view(t, fp.views.size());
    fp.allocs[slot].views.push_back(fp.views.size());
    fp.views.push_back({t, call, slot, host_access::location(c_.p, call)});
  }

  void collect_alloc(var_t t, expr_t call) {
    const auto& o = c_.o;
    const source_loc loc = host_access::location(c_.p, call);
    const auto size_arg = host_access::call_arg(c_.p, call, 0);
    if (!size_arg || host_access::call_arity(c_.p, call) != 1) {
      c_.log.error(comm_domain_refusal_code::bad_alloc_call, call, loc, std::string(o.alloc_op) + " expects exactly one arg (size)");
      return;
    }
    if (host_access::keyword_arg(c_.p, call, "dtype")) {  // pypto's shape form: alloc([dims], dtype=pl.X)
      c_.log.error(comm_domain_refusal_code::bad_alloc_call, call, loc,
                   std::string(o.alloc_op) + " shape form ([dims], dtype=...) is not supported here: give the size in bytes");
      return;
    }
    std::string name;
    if (auto k = host_access::keyword_arg(c_.p, call, o.name_kwarg))
      if (auto sv = host_access::string_value(c_.p, *k)) name = std::string(*sv);
    if (name.empty()) {
      c_.log.error(comm_domain_refusal_code::bad_alloc_call, call, loc,
                   std::string(o.alloc_op) + " missing '" + std::string(o.name_kwarg) + "' kwarg");
      return;
    }
    // The size, when the program fixes it: a negative one, an overflow or a division by zero is
    // an error here rather than a buffer the runtime cannot allocate.
    const auto size = c_.facts.value_of(*size_arg);
    if (c_.arithmetic_error(size, loc)) return;
    if (size.is_int() && size.value < 0) {
      c_.log.error(comm_domain_refusal_code::bad_arithmetic, *size_arg, loc,
                   std::string(o.alloc_op) + " '" + name + "' size is " + std::to_string(size.value) +
                       " bytes; a window buffer size must be non-negative");
      return;
    }
    c_.facts.define_alloc(t, c_.fp.allocs.size());
    typename plan_t::alloc rec{t, call, *size_arg, std::move(name), loc, {}, {}, npos};
    c_.fp.allocs.push_back(std::move(rec));
  }
};

}  // namespace neuronrw::comm_domain_detail
