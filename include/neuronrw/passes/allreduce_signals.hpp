// neuronrw/passes/allreduce_signals.hpp — SynthesizeAllReduceSignals (docs/host-programs.md
// §"SynthesizeAllReduceSignals"), the pass pypto runs right before MaterializeCommDomainScopes: a
// host-level `pld.tensor.allreduce(data, op=...)` written without its signal gets one — a private
// signal window buffer and view, bound by statements inserted right before the call:
//
//   __allreduce_signal_world_size_0 = pld.system.world_size()
//   __allreduce_signal_buf_0 = pld.tensor.alloc_window_buffer(__allreduce_signal_world_size_0 * 1 * 4, name=...)
//   __allreduce_signal_0 = pld.tensor.window(__allreduce_signal_buf_0, [__allreduce_signal_world_size_0, 1], dtype=pl.INT32)
//   data = pld.tensor.allreduce(data, __allreduce_signal_0, op=pld.ReduceOp.Sum)
//
// so that MaterializeCommDomainScopes sees an ordinary allocation and puts it in the data's comm
// domain. The signal is `[world_size, core_num]` INT32 lanes (`core_num=` of the call, default 1),
// its size in bytes that many times 4. An allreduce returned directly (`return
// pld.tensor.allreduce(...)`) is first bound to a fresh `__allreduce_result_N`, explicit signal or
// not, as pypto's host lowering needs. Names are program-unique: one counter for the whole
// program, skipping every number whose names a variable or an allocation of the program already
// has; host orchestrators are visited in the order of their names (pypto keeps its functions in a
// map by name), statements in program order.
//
// Refused, with pypto's messages: an allreduce with neither one nor two positional arguments; one
// without its signal inside a for / while loop (an allocation per dynamic iteration is not
// possible); one nested in another expression (only a direct assignment, expression statement or
// return value can be given statements before it); a `core_num=` that is not a positive integer.
//
// Customization points: the program (`buildable_host_program`, concepts/host.hpp: requirements
// 1-14 to read, 18-25 to name and insert statements); `allreduce_signal_options` (op, keyword and name
// spellings; defaults: pypto's).
// Plan/apply: `plan_allreduce_signals` reads only and returns the plan (one record per rewrite,
// with the names it will use, or refusals); `apply_allreduce_signals` performs a plan without
// refusals and never fails; `synthesize_allreduce_signals` does both. `describe_plan` prints it;
// plan.errors() or to_diagnostics(p, plan) (passes/diagnostics.hpp, which adds the code:
// `PYPTO MESSAGE [CODE]`) give the refusals as pypto's located errors.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

#include <neuronrw/algorithms/host_arith.hpp>
#include <neuronrw/algorithms/host_walk.hpp>
#include <neuronrw/concepts/host.hpp>
#include <neuronrw/diagnostic.hpp>
#include <neuronrw/passes/diagnostics.hpp>
#include <neuronrw/passes/protocol.hpp>
#include <neuronrw/passes/options.hpp>
#include <neuronrw/validate/check.hpp>

namespace neuronrw {

/// Options, filled with designated initializers; the defaults are pypto's spellings.
struct allreduce_signal_options {
  std::string_view host_level = "HOST";
  std::string_view orchestrator_role = "Orchestrator";
  std::string_view orchestration_type = "Orchestration";  ///< F1: a HOST function of this type is an orchestrator
  std::string_view allreduce_op = "pld.tensor.allreduce";
  std::string_view alloc_op = "pld.tensor.alloc_window_buffer";
  std::string_view window_op = "pld.tensor.window";
  std::string_view world_size_op = "pld.system.world_size";
  std::string_view name_kwarg = "name";
  std::string_view dtype_kwarg = "dtype";
  std::string_view core_num_kwarg = "core_num";
  std::string_view signal_dtype = "pl.INT32";
  std::int64_t signal_dtype_bytes = 4;
  std::string_view world_size_prefix = "__allreduce_signal_world_size_";
  std::string_view buffer_prefix = "__allreduce_signal_buf_";
  std::string_view signal_prefix = "__allreduce_signal_";
  std::string_view result_prefix = "__allreduce_result_";
};

/// The options neuronrw-opt offers, declared once (passes/options.hpp): the pass's own are
/// spellings fixed by pypto, so only the run-level dry run.
template <>
inline constexpr auto option_schema_v<allreduce_signal_options> = std::array{
    option_field<allreduce_signal_options>{
        .name = "dry-run", .type = option_type::boolean, .default_text = "false",
        .help = "Print the allreduce rewrites (signal names, refusals) instead of the program; change nothing"},
};

/// Why an allreduce cannot be rewritten (refusal::op is the allreduce call).
enum class allreduce_signal_refusal_code : std::uint8_t {
  bad_arity,         ///< neither `target` nor `target, signal`
  implicit_in_loop,  ///< no signal, inside a for / while loop
  nested,            ///< not a direct assignment, expression statement or return value
  bad_core_num,      ///< `core_num=` is not a positive integer
};

constexpr std::string_view to_string(allreduce_signal_refusal_code c) noexcept {
  switch (c) {
    case allreduce_signal_refusal_code::bad_arity: return "bad_arity";
    case allreduce_signal_refusal_code::implicit_in_loop: return "implicit_in_loop";
    case allreduce_signal_refusal_code::nested: return "nested";
    case allreduce_signal_refusal_code::bad_core_num: return "bad_core_num";
  }
  return "unknown";
}

template <class P>
struct allreduce_signal_plan {
  using function_handle = host_function_t<P>;
  using stmt_handle = host_stmt_t<P>;
  using expr_handle = host_expr_t<P>;

  enum class form : std::uint8_t { assign, expr_stmt, ret };
  /// One allreduce to rewrite.
  struct rewrite {
    function_handle fn;
    std::string function;    ///< its name
    stmt_handle stmt;        ///< the statement holding the call
    expr_handle call;
    form where = form::assign;
    std::size_t ret_index = 0;   ///< ret: which returned value
    bool synthesize = false;     ///< the call has no signal: one is made
    std::int64_t core_num = 1;
    std::string world_size_name, buffer_name, signal_name;  ///< synthesize only
    std::string result_name;                                ///< ret only
    source_loc loc;
  };
  /// {code, op, message}, plus where it is; `message` is pypto's text.
  struct refusal_record : refusal<allreduce_signal_refusal_code, expr_handle> {
    source_loc loc;
  };

  /// The options it was planned with (apply builds with their op and keyword names); their views
  /// must outlive the plan (the defaults are literals).
  allreduce_signal_options options;
  std::string file;                     ///< the program's source_file: where `loc`s point
  std::vector<rewrite> rewrites;        ///< in the order they are applied
  std::vector<refusal_record> refused;  ///< non-empty: apply must not run

  bool ok() const noexcept { return refused.empty(); }
  bool has_changes() const noexcept { return ok() && !rewrites.empty(); }
  std::span<const rewrite> changes() const noexcept {
    return ok() ? std::span<const rewrite>(rewrites) : std::span<const rewrite>();
  }
  std::span<const refusal_record> refusals() const noexcept { return refused; }
  /// The refusals located and worded as pypto raises them (`FILE:LINE:COL: error: MESSAGE`), in
  /// plan order: to_diagnostics(p, plan, {.style = refusal_style::message}). Before 2026-12-02 a
  /// data member holding the same.
  diagnostics errors() const {
    diagnostics out;
    out.reserve(refused.size());
    for (const auto& r : refused) out.push_back({file, r.loc, r.message});
    return out;
  }
};

/// A refusal as a diagnostic (to_diagnostics, passes/diagnostics.hpp): an error at the allreduce,
/// in the plan's file, saying pypto's text, then ` [CODE]` (pypto's text alone with
/// refusal_style::message, as errors() gives it). Names no pass.
template <class G, class P>
worded_refusal<diagnostic_location<source_loc>> refusal_words(const G&, const allreduce_signal_plan<P>& plan,
                                                              const typename allreduce_signal_plan<P>::refusal_record& r,
                                                              const refusal_wording& w) {
  worded_refusal<diagnostic_location<source_loc>> out;
  out.at = {plan.file, r.loc};
  out.message = r.message;
  if (w.style == refusal_style::tool) out.message += " [" + std::string(to_string(r.code)) + "]";
  return out;
}

namespace allreduce_signal_detail {

template <class P>
class analysis {
  using plan_t = allreduce_signal_plan<P>;
  using form = typename plan_t::form;
  using fn_t = host_function_t<P>;
  using stmt_t = host_stmt_t<P>;
  using expr_t = host_expr_t<P>;
  using var_t = host_var_t<P>;
  using traits = host_traits<std::remove_cvref_t<P>>;

 public:
  analysis(const P& p, const allreduce_signal_options& o) : p_(p), o_(o), file_(host_access::source_file(p)) {}

  plan_t run() {
    plan_.file = file_;
    // Every name the program already uses: variables (parameters, targets, loop variables) and
    // allocation names.
    std::vector<fn_t> hosts;
    for (fn_t f : host_access::functions(p_)) {
      for (var_t v : traits::params(p_, f)) used_.insert(std::string(traits::var_name(p_, v)));
      walk_host_function(p_, f, [&](stmt_t s) { collect_names(s); });
      if (is_host_orchestrator(f)) hosts.push_back(f);
    }
    std::stable_sort(hosts.begin(), hosts.end(), [&](fn_t a, fn_t b) {
      return host_access::function_name(p_, a) < host_access::function_name(p_, b);
    });
    for (fn_t f : hosts) {
      fn_ = f;
      walk_host_function(p_, f, [&](stmt_t s) { return visit_stmt(s); }, [&](stmt_t s) { leave_stmt(s); });
    }
    return std::move(plan_);
  }

 private:
  const P& p_;
  const allreduce_signal_options& o_;
  std::string file_;
  plan_t plan_;
  std::unordered_set<std::string> used_;
  std::int64_t next_id_ = 0;
  int loop_depth_ = 0;
  fn_t fn_{};

  host_expr_kind kind(expr_t e) const { return host_access::expr_kind(p_, e); }
  bool is_host_orchestrator(fn_t f) const {
    if (host_access::level(p_, f) != o_.host_level) return false;
    return host_access::role(p_, f) == o_.orchestrator_role ||
           (!o_.orchestration_type.empty() && host_access::function_type(p_, f) == o_.orchestration_type);
  }
  bool is_allreduce(expr_t e) const {
    return kind(e) == host_expr_kind::call && host_access::callee_kind(p_, e) == host_callee_kind::op &&
           host_access::callee_name(p_, e) == o_.allreduce_op;
  }
  std::size_t arity(expr_t call) const { return host_access::call_arity(p_, call); }
  void refuse(allreduce_signal_refusal_code code, expr_t call, std::string msg) {
    const source_loc loc = host_access::location(p_, call);
    typename plan_t::refusal_record r;
    r.code = code;
    r.op = call;
    r.message = std::move(msg);
    r.loc = loc;
    plan_.refused.push_back(std::move(r));
  }

  void collect_names(stmt_t s) {
    switch (host_access::stmt_kind(p_, s)) {
      case host_stmt_kind::assign: used_.insert(std::string(traits::var_name(p_, host_access::assign_target(p_, s)))); break;
      case host_stmt_kind::for_range: used_.insert(std::string(traits::var_name(p_, host_access::loop_var(p_, s)))); break;
      default: break;
    }
    for (expr_t e : host_access::operands(p_, s)) collect_alloc_names(e);
  }
  void collect_alloc_names(expr_t e) {
    if (kind(e) == host_expr_kind::call && host_access::callee_kind(p_, e) == host_callee_kind::op &&
        host_access::callee_name(p_, e) == o_.alloc_op)
      if (auto k = host_access::keyword_arg(p_, e, o_.name_kwarg))
        if (auto sv = host_access::string_value(p_, *k)) used_.insert(std::string(*sv));
    for (expr_t x : traits::children(p_, e)) collect_alloc_names(x);
  }

  // ---- the walk (pypto's IRMutator order) ----------------------------------------------------
  host_walk visit_stmt(stmt_t s) {
    const host_stmt_kind k = host_access::stmt_kind(p_, s);
    if (k == host_stmt_kind::assign && is_allreduce(host_access::assign_value(p_, s))) {
      direct(s, host_access::assign_value(p_, s), form::assign, 0);
      return host_walk::skip;
    }
    if (k == host_stmt_kind::expr_stmt) {
      for (expr_t e : host_access::operands(p_, s)) {
        if (is_allreduce(e)) direct(s, e, form::expr_stmt, 0);
        else visit_expr(e);
      }
      return host_walk::skip;
    }
    if (k == host_stmt_kind::ret) {
      std::size_t i = 0;
      for (expr_t e : host_access::operands(p_, s)) {
        if (is_allreduce(e)) direct(s, e, form::ret, i);
        else visit_expr(e);
        ++i;
      }
      return host_walk::skip;
    }
    if (k == host_stmt_kind::while_loop) ++loop_depth_;  // its condition runs every iteration
    for (expr_t e : host_access::operands(p_, s)) visit_expr(e);
    if (k == host_stmt_kind::for_range) ++loop_depth_;
    return host_walk::advance;
  }
  void leave_stmt(stmt_t s) {
    const host_stmt_kind k = host_access::stmt_kind(p_, s);
    if (k == host_stmt_kind::for_range || k == host_stmt_kind::while_loop) --loop_depth_;
  }

  /// Checks pypto makes of every allreduce it meets; false after a refusal.
  bool check(expr_t call) {
    const std::size_t n = arity(call);
    if (n != 1 && n != 2) {
      refuse(allreduce_signal_refusal_code::bad_arity, call,
             std::string(o_.allreduce_op) + " expects target[, signal], got " + std::to_string(n) + " positional arguments");
      return false;
    }
    if (loop_depth_ > 0 && n == 1) {
      refuse(allreduce_signal_refusal_code::implicit_in_loop, call,
             std::string(o_.allreduce_op) +
                 " without an explicit signal is not supported inside a for/while loop on the HOST rail: the "
                 "synthesized signal binding cannot be allocated per dynamic iteration. Pass an explicit signal "
                 "buffer \u2014 it is self-clearing and reusable across iterations \u2014 or hoist the call out of the "
                 "loop.");
      return false;
    }
    return true;
  }

  /// An allreduce anywhere but directly in a statement.
  void visit_expr(expr_t e) {
    if (is_allreduce(e) && check(e))
      refuse(allreduce_signal_refusal_code::nested, e,
             std::string(o_.allreduce_op) +
                 " must be a direct assignment, expression statement, or return value before allreduce signal "
                 "synthesis.");
    for (expr_t x : traits::children(p_, e)) visit_expr(x);
  }

  void direct(stmt_t s, expr_t call, form where, std::size_t index) {
    if (!check(call)) return;
    const bool synthesize = arity(call) == 1;
    typename plan_t::rewrite r;
    r.fn = fn_;
    r.function = std::string(host_access::function_name(p_, fn_));
    r.stmt = s;
    r.call = call;
    r.where = where;
    r.ret_index = index;
    r.synthesize = synthesize;
    r.loc = host_access::location(p_, call);
    if (synthesize) {
      if (auto k = host_access::keyword_arg(p_, call, o_.core_num_kwarg)) {
        auto none = [](host_var_t<P>) -> std::optional<expr_t> { return std::nullopt; };
        const auto v = evaluate_host_int(p_, *k, none, o_.world_size_op);
        if (!v.is_int() || v.value <= 0) {
          refuse(allreduce_signal_refusal_code::bad_core_num, call, "SynthesizeAllReduceSignals requires a positive allreduce core_num");
          return;
        }
        r.core_num = v.value;
      }
      if (r.core_num > std::numeric_limits<std::int64_t>::max() / o_.signal_dtype_bytes) {
        refuse(allreduce_signal_refusal_code::bad_core_num, call, "SynthesizeAllReduceSignals requires a positive allreduce core_num");
        return;
      }
    }
    // pypto's order: an assignment or expression statement takes its signal names before its
    // arguments are visited; a return visits the target first.
    if (where == form::ret) visit_args(call);
    if (synthesize) fresh_signal_names(r);
    if (where == form::ret) r.result_name = fresh_name(o_.result_prefix);
    else visit_args(call);
    // An explicit signal outside a return needs nothing: only rewrites that change the program
    // are planned (has_changes() means a change).
    if (synthesize || where == form::ret) plan_.rewrites.push_back(std::move(r));
  }
  void visit_args(expr_t call) {
    for (expr_t x : traits::children(p_, call)) visit_expr(x);
  }

  void fresh_signal_names(typename plan_t::rewrite& r) {
    for (;;) {
      const std::string n = std::to_string(next_id_++);
      std::string ws = std::string(o_.world_size_prefix) + n, buf = std::string(o_.buffer_prefix) + n,
                  sig = std::string(o_.signal_prefix) + n;
      if (used_.count(ws) || used_.count(buf) || used_.count(sig)) continue;
      used_.insert(ws);
      used_.insert(buf);
      used_.insert(sig);
      r.world_size_name = std::move(ws);
      r.buffer_name = std::move(buf);
      r.signal_name = std::move(sig);
      return;
    }
  }
  std::string fresh_name(std::string_view prefix) {
    for (;;) {
      std::string n = std::string(prefix) + std::to_string(next_id_++);
      if (used_.insert(n).second) return n;
    }
  }
};

}  // namespace allreduce_signal_detail

/// The analysis (see the header comment). Reads only. O(program size + names).
template <class P>
allreduce_signal_plan<P> plan_allreduce_signals(const P& p, const allreduce_signal_options& opts = {}) {
  static_assert(require_buildable_host_program<P>());
  auto plan = allreduce_signal_detail::analysis<P>(p, opts).run();
  plan.options = opts;
  return plan;
}

namespace allreduce_signal_detail {

/// The checked apply that aborts on a mismatch (validate/allreduce_signals.hpp, included at the
/// end of this header): what apply_allreduce_signals does in a build that defines
/// NEURONRW_CHECK_REWRITES.
template <class P>
void apply_or_abort(P& p, const allreduce_signal_plan<P>& plan, const allreduce_signal_options& o);

/// The apply itself.
template <class P>
void apply_unchecked(P& p, const allreduce_signal_plan<P>& plan, const allreduce_signal_options& o) {
  using traits = host_traits<std::remove_cvref_t<P>>;
  using expr_t = host_expr_t<P>;
  using plan_t = allreduce_signal_plan<P>;
  if (!plan.ok()) return;
  for (const auto& r : plan.rewrites) {
    const source_loc at = r.loc;
    if (r.synthesize) {
      const auto ws = traits::new_var(p, r.world_size_name, at);
      traits::insert_assign_before(p, r.stmt, ws, traits::make_op_call(p, o.world_size_op, {}, {}, at));
      const auto buf = traits::new_var(p, r.buffer_name, at);
      const expr_t lanes = traits::make_binary(p, host_binary_op::mul, traits::make_var_ref(p, ws, at),
                                               traits::make_int(p, r.core_num, at), at);
      const expr_t size =
          traits::make_binary(p, host_binary_op::mul, lanes, traits::make_int(p, o.signal_dtype_bytes, at), at);
      const host_keyword<expr_t> name[] = {{o.name_kwarg, traits::make_string(p, r.buffer_name, at)}};
      const expr_t size_args[] = {size};
      traits::insert_assign_before(p, r.stmt, buf, traits::make_op_call(p, o.alloc_op, size_args, name, at));
      const auto sig = traits::new_var(p, r.signal_name, at);
      const expr_t dims[] = {traits::make_var_ref(p, ws, at), traits::make_int(p, r.core_num, at)};
      const expr_t window_args[] = {traits::make_var_ref(p, buf, at), traits::make_list(p, dims, at)};
      const host_keyword<expr_t> dtype[] = {{o.dtype_kwarg, traits::make_symbol(p, o.signal_dtype, at)}};
      traits::insert_assign_before(p, r.stmt, sig, traits::make_op_call(p, o.window_op, window_args, dtype, at));
      traits::append_call_arg(p, r.call, traits::make_var_ref(p, sig, at));
    }
    if (r.where == plan_t::form::ret) {
      const auto res = traits::new_var(p, r.result_name, at);
      const expr_t value = traits::take_return_value(p, r.stmt, r.ret_index);
      traits::insert_assign_before(p, r.stmt, res, value);
      traits::set_return_value(p, r.stmt, r.ret_index, traits::make_var_ref(p, res, at));
    }
  }
}

}  // namespace allreduce_signal_detail

/// Performs a plan without refusals, computed on `p` as it is now; never fails.
/// O(rewrites) builder calls. With NEURONRW_CHECK_REWRITES defined (the tests' builds), checked
/// as apply_checked does, aborting on a mismatch (docs/validation.md).
template <class P>
void apply_allreduce_signals(P& p, const allreduce_signal_plan<P>& plan, const allreduce_signal_options& o) {
  static_assert(require_buildable_host_program<P>());
#ifdef NEURONRW_CHECK_REWRITES
  return allreduce_signal_detail::apply_or_abort(p, plan, o);
#else
  allreduce_signal_detail::apply_unchecked(p, plan, o);
#endif
}

/// apply_allreduce_signals with the options the plan was made with.
template <class P>
void apply_allreduce_signals(P& p, const allreduce_signal_plan<P>& plan) {
  apply_allreduce_signals(p, plan, plan.options);
}

/// Plan, then apply when the plan has no refusals. Returns the plan.
template <class P>
allreduce_signal_plan<P> synthesize_allreduce_signals(P& p, const allreduce_signal_options& opts = {}) {
  auto plan = plan_allreduce_signals(std::as_const(p), opts);
  apply_allreduce_signals(p, plan, opts);
  return plan;
}

/// A dry run: one line per rewrite, then the refusals. Deterministic.
template <class P>
std::string describe_plan(const allreduce_signal_plan<P>& plan) {
  using plan_t = allreduce_signal_plan<P>;
  std::string out;
  for (const auto& r : plan.rewrites) {
    out += "allreduce at " + line_col(r.loc) + " in " + r.function + ": ";
    if (r.synthesize)
      out += "signal " + r.signal_name + " over " + r.buffer_name + " ([" + r.world_size_name + ", " +
             std::to_string(r.core_num) + "] INT32)";
    else
      out += "explicit signal";
    if (r.where == plan_t::form::ret) out += ", result bound to " + r.result_name;
    out += "\n";
  }
  if (plan.rewrites.empty() && plan.refused.empty()) out += "no allreduce to rewrite\n";
  out += located_lines(plan.errors());
  return out;
}

template <class P>
std::string describe(const P&, const allreduce_signal_plan<P>& plan) {
  return describe_plan(plan);
}

}  // namespace neuronrw

namespace neuronrw {
// The checked apply and what its check covers (validate/allreduce_signals.hpp, included below:
// it needs the plan and the apply above, the descriptor below names them).
template <class P>
checked_result<bool, source_loc> apply_checked(P& p, const allreduce_signal_plan<P>& plan);
template <class P>
rewrite_check<source_loc> check_scope(const P& p, const allreduce_signal_plan<P>& plan);
}  // namespace neuronrw

#include <neuronrw/validate/allreduce_signals.hpp>

namespace neuronrw::passes {

/// SynthesizeAllReduceSignals's descriptor (passes/protocol.hpp). The pass is program-level (its
/// names are program-unique, from one counter over the host orchestrators in name order), so it
/// has one unit, the whole program: the parallel driver runs it on one worker.
struct synthesize_allreduce_signals {
  static constexpr std::string_view name = "synthesize-allreduce-signals";
  static constexpr std::string_view display = "SynthesizeAllReduceSignals";
  static constexpr std::string_view summary =
      "Give every host allreduce written without a signal a private signal window buffer (pypto's pass before "
      "materialize-comm-domain-scopes)";
  static constexpr pass_input input = pass_input::host;
  using options = allreduce_signal_options;
  template <class P>
  using traits = host_traits<std::remove_cvref_t<P>>;
  template <class P>
  using plan_type = allreduce_signal_plan<P>;
  static constexpr std::string_view mlir_name = "";  // host programs: no MLIR pass
  static constexpr std::string_view dry_run_help = "print the allreduce rewrites; change nothing";

  /// Its counters (what an applied plan creates counts only when it is applied).
  template <class P>
  static std::vector<pass_statistic> statistics(const P&, const plan_type<P>& plan, bool applied) {
    std::uint64_t synthesized = 0, lifted = 0;
    for (const auto& r : plan.rewrites) {
      synthesized += r.synthesize;
      lifted += r.where == plan_type<P>::form::ret;
    }
    const bool made = plan.ok() && applied;
    return {{"lifted", "Returned allreduces bound to a result variable", made ? lifted : 0},
            {"refused", "Refusals (the program is then unchanged)", plan.refused.size()},
            {"signals", "Signal buffers synthesized", made ? synthesized : 0}};
  }

  template <class P>
  static plan_type<P> plan(const P& p, const options& o = {}) {
    return plan_allreduce_signals(p, o);
  }
  template <class P>
  static void apply(P& p, const plan_type<P>& plan) {
    apply_allreduce_signals(p, plan, plan.options);
  }
  template <class P>
  static std::string describe(const P& p, const plan_type<P>& plan) {
    return neuronrw::describe(p, plan);
  }
  /// The apply with its rewrite check (validate/allreduce_signals.hpp).
  template <class P>
  static auto apply_checked(P& p, const plan_type<P>& plan) {
    return neuronrw::apply_checked(p, plan);
  }
  template <class P>
  static auto check_scope(const P& p, const plan_type<P>& plan) {
    return neuronrw::check_scope(p, plan);
  }

  /// The one unit: the whole program.
  struct whole_program {};
  template <class P>
  static std::vector<whole_program> units(const P&) {
    return {whole_program{}};
  }
  template <class P>
  static const options* scratch(const P&, const options& o) {
    return &o;
  }
  template <class P>
  static plan_type<P> plan_part(const P& p, whole_program, const options*& o) {
    return plan_allreduce_signals(p, *o);
  }
  template <class P>
  static plan_type<P> merge(const P& p, const options& o, std::vector<plan_type<P>>&& parts) {
    return parts.size() == 1 ? std::move(parts.front()) : plan_allreduce_signals(p, o);
  }
};

}  // namespace neuronrw::passes
