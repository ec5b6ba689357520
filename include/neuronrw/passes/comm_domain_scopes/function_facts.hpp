// neuronrw/passes/comm_domain_scopes/function_facts.hpp — what the analysis knows of one host
// orchestrator while it reads it: every variable's defining expression (the def-chains integers
// and views are followed through), which variables are allocations and window views, and the
// questions the phases ask of a call (is it this op, which collective is it). Collectives are
// looked up only in the table the options carry (comm_domain_options::collectives).
//
// Also here: function_context, what every phase of one function's analysis works on (the
// program, the options, the refusal log, these facts and the function's plan).
//
// Internal to MaterializeCommDomainScopes (comm_domain_detail). Complexity: expected O(1) per
// lookup; value_of and resolve_view O(def-chain length).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <neuronrw/algorithms/host_arith.hpp>
#include <neuronrw/concepts/host.hpp>
#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/detail/handle_map.hpp>
#include <neuronrw/diagnostic.hpp>
#include <neuronrw/passes/comm_domain_scopes/collective_spec.hpp>
#include <neuronrw/passes/comm_domain_scopes/options.hpp>
#include <neuronrw/passes/comm_domain_scopes/plan.hpp>
#include <neuronrw/passes/comm_domain_scopes/refusal_log.hpp>

namespace neuronrw::comm_domain_detail {

/// A set of names asked about with string_views (no string built per lookup): the names of a
/// program's chip orchestrators, asked about at every call.
struct name_hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};
using name_set = std::unordered_set<std::string, name_hash, std::equal_to<>>;

template <class P>
class function_facts {
 public:
  using expr_t = host_expr_t<P>;
  using var_t = host_var_t<P>;
  using int_value = host_int_value<expr_t>;
  static constexpr std::size_t npos = comm_domain_plan<P>::npos;

  function_facts(const P& p, const comm_domain_options& o) : p_(p), o_(o) {}

  /// Forgets the previous function.
  void clear() {
    defs_.clear();
    alloc_of_.clear();
    view_of_.clear();
  }

  // ---- calls -------------------------------------------------------------------------------
  host_expr_kind kind(expr_t e) const { return host_access::expr_kind(p_, e); }
  bool is_op_call(expr_t e, std::string_view name) const {
    return kind(e) == host_expr_kind::call && host_access::callee_kind(p_, e) == host_callee_kind::op &&
           host_access::callee_name(p_, e) == name;
  }
  std::vector<expr_t> args(expr_t e) const {
    std::vector<expr_t> out;
    for (expr_t a : host_access::call_args(p_, e)) out.push_back(a);
    return out;
  }
  /// The options' collective `e` calls, or null.
  const collective_spec* collective_of(expr_t e) const {
    if (kind(e) != host_expr_kind::call || host_access::callee_kind(p_, e) != host_callee_kind::op) return nullptr;
    const std::string_view name = host_access::callee_name(p_, e);
    for (const collective_spec& c : o_.collectives)
      if (c.op == name) return &c;
    return nullptr;
  }

  // ---- definitions -------------------------------------------------------------------------
  void define(var_t v, expr_t value) { defs_.insert_or_assign(v, value); }
  void define_alloc(var_t v, std::size_t slot) { alloc_of_.insert_or_assign(v, slot); }
  void define_view(var_t v, std::size_t view) { view_of_.insert_or_assign(v, view); }
  /// The allocation slot variable `v` is, or npos.
  std::size_t alloc_of(var_t v) const {
    const std::size_t* a = alloc_of_.find(v);
    return a ? *a : npos;
  }

  /// The integer value of `e`, variables followed through their definitions
  /// (`n = pld.system.world_size(); for r in pl.range(n)`, `n = 2 * k`): algorithms/host_arith.hpp.
  int_value value_of(expr_t e) const {
    auto def_of = [this](var_t v) -> std::optional<expr_t> {
      const expr_t* d = defs_.find(v);
      if (!d) return std::nullopt;
      return *d;
    };
    return evaluate_host_int(p_, e, def_of, o_.world_size_op);
  }
  /// The value of `e` from constants alone (pypto folds constant arithmetic when it parses; a
  /// variable is never followed): what `device=` may be.
  int_value constant_of(expr_t e) const {
    auto none = [](var_t) -> std::optional<expr_t> { return std::nullopt; };
    return evaluate_host_int(p_, e, none, o_.world_size_op);
  }

  /// The view a variable reaches through aliases (`y = v`) and collective results
  /// (`y = pld.tensor.allreduce(v, s)`); npos when none. Cycle-safe.
  std::size_t resolve_view(var_t v) const {
    seen_.clear();
    for (;;) {
      if (!seen_.try_emplace(v, 1).second) return npos;
      if (const std::size_t* w = view_of_.find(v)) return *w;
      const expr_t* d = defs_.find(v);
      if (!d) return npos;
      const expr_t e = *d;
      if (kind(e) == host_expr_kind::var_ref) {
        v = host_access::referenced_var(p_, e);
        continue;
      }
      const collective_spec* c = collective_of(e);
      if (!c || c->result_alias < 0) return npos;
      const auto a = host_access::call_arg(p_, e, static_cast<std::size_t>(c->result_alias));
      if (!a || kind(*a) != host_expr_kind::var_ref) return npos;
      v = host_access::referenced_var(p_, *a);
    }
  }

 private:
  const P& p_;
  const comm_domain_options& o_;
  // Flat tables (detail/handle_map.hpp): no allocation per variable, and clear() keeps the
  // memory for the next function.
  detail::handle_map<var_t, expr_t> defs_;
  detail::handle_map<var_t, std::size_t> alloc_of_;
  detail::handle_map<var_t, std::size_t> view_of_;
  mutable detail::handle_map<var_t, char> seen_;  // resolve_view's, reused
};

/// What every phase of one function's analysis works on.
template <class P>
struct function_context {
  const P& p;
  const comm_domain_options& o;
  plan_recorder<P>& log;
  function_facts<P>& facts;
  typename comm_domain_plan<P>::function_plan& fp;

  /// Reports an arithmetic error of `v` (true when there was one), at `v`'s expression when it
  /// has a location, else at `fallback`.
  bool arithmetic_error(const host_int_value<host_expr_t<P>>& v, source_loc fallback) const {
    if (v.kind != host_int_kind::error) return false;
    const source_loc at = host_access::location(p, v.at).known() ? host_access::location(p, v.at) : fallback;
    log.error(comm_domain_refusal_code::bad_arithmetic, v.at, at, v.message);
    return true;
  }
};

}  // namespace neuronrw::comm_domain_detail
