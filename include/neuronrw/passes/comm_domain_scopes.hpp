// neuronrw/passes/comm_domain_scopes.hpp — MaterializeCommDomainScopes (docs/host-programs.md): find
// the window-buffer allocations of every host orchestrator, infer from the chip dispatches which
// devices use each one, build one WindowBuffer per allocation, re-type its views, and group the
// allocations into comm-domain scopes wrapped around the function body.
//
// Customization points:
//   - the program: any `rewritable_host_program` (neuronrw/concepts/host.hpp);
//   - `comm_domain_options`: the level / role / op / attribute names and the collective table, for
//     a dialect that spells them differently (defaults: pypto's).
// Plan/apply split: `plan_comm_domain_scopes` only reads the program and returns a plain plan
// (allocations, views, dispatches with their device descriptors, merged coverage, scopes) or the
// refusals; `apply_comm_domain_scopes` materializes a plan that has no refusals;
// `materialize_comm_domain_scopes` does both and leaves the program untouched on any error.
// `describe_plan` (or the protocol's `describe(p, plan)`) prints a plan (a dry run); every
// plan models pass_plan (passes/protocol.hpp): refusals carry a comm_domain_refusal_code, and
// read as pypto's located errors through plan.errors() or to_diagnostics(p, plan)
// (passes/diagnostics.hpp, which adds the code: `PYPTO MESSAGE [CODE]`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <neuronrw/algorithms/host_arith.hpp>
#include <neuronrw/algorithms/host_walk.hpp>
#include <neuronrw/concepts/host.hpp>
#include <neuronrw/descriptors/device_coverage.hpp>
#include <neuronrw/descriptors/lattice.hpp>
#include <neuronrw/diagnostic.hpp>
#include <neuronrw/passes/diagnostics.hpp>
#include <neuronrw/passes/protocol.hpp>
#include <neuronrw/passes/options.hpp>
#include <neuronrw/passes/transaction.hpp>

namespace neuronrw {

/// One host-level collective (docs/host-programs.md §"Collectives"): which of its arguments are window views and how their
/// coverage flows. Argument positions are 0-based; -1 means "none".
struct collective_spec {
  std::string_view op;             ///< "pld.tensor.allreduce"
  std::size_t arity = 0;           ///< exact number of positional arguments
  int target = -1;                 ///< data / target buffer whose coverage is shared (-1: barrier)
  int signal = -1;                 ///< signal buffer: inherits the target's coverage
  int recv_counts = -1;            ///< all_to_all_v: recv_counts inherits it too
  int result_alias = -1;           ///< the argument the call's result aliases (a view reaches a
                                   ///< dispatch through it)
  bool single_use = false;         ///< rejected inside a for / while loop (all_to_all_v)
  std::string_view target_role = "data/target";  ///< word used in diagnostics
};

/// docs/host-programs.md: allreduce / broadcast / reduce_scatter (data 0, signal 1); allgather / all_to_all
/// (target 1, signal 2); all_to_all_v (target 1, signal 2, recv_counts 4); barrier (signal 0).
/// Results alias the in-place buffer: argument 0, or the target for the push-based forms.
inline constexpr collective_spec default_collectives[] = {
    {"pld.tensor.allreduce", 2, 0, 1, -1, 0, false, "data/target"},
    {"pld.tensor.broadcast", 2, 0, 1, -1, 0, false, "data/target"},
    {"pld.tensor.reduce_scatter", 2, 0, 1, -1, 0, false, "data/target"},
    {"pld.tensor.allgather", 3, 1, 2, -1, 1, false, "target"},
    {"pld.tensor.all_to_all", 3, 1, 2, -1, 1, false, "target"},
    {"pld.tensor.all_to_all_v", 5, 1, 2, 4, 1, true, "target"},
    {"pld.tensor.barrier", 1, -1, 0, -1, -1, false, "signal"},
};

/// pypto's communication queries: they read the world, they do not touch a window.
inline constexpr std::string_view default_neutral_ops[] = {"pld.system.rank", "pld.system.nranks",
                                                           "pld.system.get_comm_ctx"};

/// Options, filled with designated initializers; the defaults are pypto's names.
struct comm_domain_options {
  std::string_view host_level = "HOST";
  std::string_view chip_level = "CHIP";
  std::string_view orchestrator_role = "Orchestrator";
  /// pypto's FunctionType names (optional capability F1): an `Orchestration` function at the host
  /// level is a host orchestrator whatever its role; a `Graph` function is never a dispatch target
  /// (it carries CHIP / Orchestrator like a chip entry, but is a task a chip entry launches).
  std::string_view orchestration_type = "Orchestration";
  std::string_view graph_type = "Graph";
  std::string_view alloc_op = "pld.tensor.alloc_window_buffer";
  std::string_view window_op = "pld.tensor.window";
  std::string_view world_size_op = "pld.system.world_size";
  std::string_view device_attr = "device";
  std::string_view name_kwarg = "name";
  std::string_view scope_prefix = "comm_d";
  std::span<const collective_spec> collectives = default_collectives;
  /// Calls under this prefix are communication APIs: a host orchestrator calling one the pass does
  /// not model (not the alloc / window / world-size ops, a collective, or a neutral op) is refused
  /// (unmodeled_comm_api) — the domains inferred without it could be wrong — unless
  /// allow_unmodeled_comm_apis. Empty: no check.
  std::string_view comm_prefix = "pld.";
  /// Ops under comm_prefix that have no bearing on comm domains (queries).
  std::span<const std::string_view> neutral_ops = default_neutral_ops;
  bool allow_unmodeled_comm_apis = false;
  /// A finite comm domain lists its devices; refuse ones larger than this instead of allocating
  /// gigabytes for `pl.range(4294967295)`.
  std::uint64_t max_listed_devices = std::uint64_t{1} << 20;
  /// The devices all the comm domains of one program may list together (the plan holds them and
  /// the printed program spells each one out): bounds what a small input can demand — 100 loops
  /// `for r in pl.range(1000000)` are 16 KB of text but would list 100M devices (800 MB in the
  /// plan, 700 MB printed). 2^20 devices print as at most about 8 MB; pypto's programs list a
  /// few thousand.
  std::uint64_t max_total_listed_devices = std::uint64_t{1} << 20;
  /// The comm domains of one function: they nest (the first outermost), so every statement of the
  /// body is printed indented once per domain — N allocations with distinct `device=` constants
  /// would print O(N^2) bytes, and past the text format's nesting limit (200) the output would
  /// not parse back. pypto's functions have a few.
  std::uint64_t max_scopes_per_function = 64;
};

/// The options neuronrw-opt offers, declared once (passes/options.hpp).
template <>
inline constexpr auto option_schema_v<comm_domain_options> = std::array{
    option_field<comm_domain_options>{
        .name = "allow-unmodeled-comm-apis", .type = option_type::boolean, .default_text = "false",
        .help = "Materialize even when a host orchestrator calls a pld. communication API the pass does not model",
        .member = option_member<&comm_domain_options::allow_unmodeled_comm_apis>},
    option_field<comm_domain_options>{
        .name = "dry-run", .type = option_type::boolean, .default_text = "false",
        .help = "Print the comm-domain plan instead of the program; change nothing"},
    option_field<comm_domain_options>{
        .name = "max-listed-devices", .type = option_type::uint64, .default_text = "1048576",
        .help = "Refuse a finite comm domain that lists more devices than this",
        .member = option_member<&comm_domain_options::max_listed_devices>},
    option_field<comm_domain_options>{
        .name = "scope-prefix", .type = option_type::string, .default_text = "comm_d",
        .help = "Scopes are named <scope-prefix><N>", .check = option_check::non_empty,
        .member = option_member<&comm_domain_options::scope_prefix>},
};
static_assert(check_option_defaults(option_schema_v<comm_domain_options>));

/// The analysis result: plain data, read by apply, by dry runs and by tests.
/// Why a host orchestrator cannot be materialized (refusal::op names the expression concerned:
/// the call, or the `device=` / step expression).
enum class comm_domain_refusal_code : std::uint8_t {
  bad_alloc_call,         ///< the alloc call has not exactly one size argument, or no name
  unsupported_device,     ///< a `device=` expression the inference cannot resolve (or out of range)
  non_unit_step,          ///< `device=r` over a loop whose step is not the constant 1
  collective_in_loop,     ///< a single-use collective (all_to_all_v) inside a for / while loop
  bad_collective_call,    ///< wrong arity, or a buffer argument that is not a window view
  no_coverage_to_share,   ///< a collective's buffer has no coverage its signal could inherit
  dead_allocation,        ///< an allocation without a window view
  unconsumed_allocation,  ///< an allocation no device-tagged dispatch reaches
  untyped_view,           ///< a view variable whose type cannot carry a WindowBuffer
  too_many_devices,       ///< a finite domain larger than comm_domain_options::max_listed_devices, or
                          ///< past max_total_listed_devices with the program's domains before it
  too_many_scopes,        ///< a function needs more than comm_domain_options::max_scopes_per_function
  duplicate_name,         ///< two allocations of one scope share a name
  bad_arithmetic,         ///< an integer the pass needs overflows or divides by zero, or a size is negative
  unmodeled_comm_api,     ///< a communication API the pass does not model (comm_domain_options::comm_prefix)
};

constexpr std::string_view to_string(comm_domain_refusal_code c) noexcept {
  switch (c) {
    case comm_domain_refusal_code::bad_alloc_call: return "bad_alloc_call";
    case comm_domain_refusal_code::unsupported_device: return "unsupported_device";
    case comm_domain_refusal_code::non_unit_step: return "non_unit_step";
    case comm_domain_refusal_code::collective_in_loop: return "collective_in_loop";
    case comm_domain_refusal_code::bad_collective_call: return "bad_collective_call";
    case comm_domain_refusal_code::no_coverage_to_share: return "no_coverage_to_share";
    case comm_domain_refusal_code::dead_allocation: return "dead_allocation";
    case comm_domain_refusal_code::unconsumed_allocation: return "unconsumed_allocation";
    case comm_domain_refusal_code::untyped_view: return "untyped_view";
    case comm_domain_refusal_code::too_many_devices: return "too_many_devices";
    case comm_domain_refusal_code::too_many_scopes: return "too_many_scopes";
    case comm_domain_refusal_code::duplicate_name: return "duplicate_name";
    case comm_domain_refusal_code::bad_arithmetic: return "bad_arithmetic";
    case comm_domain_refusal_code::unmodeled_comm_api: return "unmodeled_comm_api";
  }
  return "unknown";
}

template <class P>
struct comm_domain_plan {
  using function_handle = host_function_t<P>;
  using expr_handle = host_expr_t<P>;
  using var_handle = host_var_t<P>;
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  /// `buf = pld.tensor.alloc_window_buffer(size, name="buf")`.
  struct alloc {
    var_handle var;
    expr_handle call;
    expr_handle size;
    std::string name;                ///< the `name=` keyword
    source_loc loc;                  ///< of the alloc call
    std::vector<std::size_t> views;  ///< indices into `views`, source order
    device_coverage coverage;        ///< merged: dispatches, then collective inheritance
    std::size_t scope = npos;
  };
  /// `v = pld.tensor.window(buf, [shape], dtype=...)`.
  struct view {
    var_handle var;
    expr_handle call;
    std::size_t alloc = npos;
    source_loc loc;
  };
  /// `self.chip_fn(..., device=...)`: its descriptor and the allocations its arguments reach.
  struct dispatch {
    expr_handle call;
    std::string callee;
    source_loc loc;
    device_coverage devices;
    std::vector<std::size_t> allocs;  ///< per positional argument that reaches a view, in order
  };
  /// A collective: `inheritors` (signal, recv_counts) take the coverage of `target`; a barrier has
  /// no target and needs coverage of its own.
  struct collective {
    expr_handle call;
    std::string op;
    source_loc loc;
    std::size_t target = npos;
    std::vector<std::size_t> inheritors;
  };
  struct scope {
    std::string name;                  ///< comm_d<i>
    device_coverage coverage;
    std::vector<std::int64_t> devices;  ///< ascending; empty = every device
    std::vector<std::size_t> allocs;    ///< slots, in allocation order
  };
  enum class status : std::uint8_t {
    materialize,           ///< apply wraps the body in `scopes`
    no_allocs,             ///< nothing to do
    already_materialized,  ///< the body already holds a comm-domain scope: idempotence
    failed,                ///< see `refused`
  };
  struct function_plan {
    function_handle fn;
    std::string name;
    status state = status::no_allocs;
    std::vector<alloc> allocs;
    std::vector<view> views;
    std::vector<dispatch> dispatches;
    std::vector<collective> collectives;
    std::vector<scope> scopes;
  };

  /// {code, op, message}, plus where pypto reports it (not always at `op`: a `device=`
  /// expression's refusal is located at its dispatch) and how pypto words it.
  struct refusal_record : refusal<comm_domain_refusal_code, expr_handle> {
    source_loc loc;
    /// pypto prefixes the message with its pass's name (false: the few checks it words without
    /// one, its CHECK_SPANs that are not INTERNAL_CHECK_SPANs).
    bool prefixed = true;
    /// pypto's text: `MaterializeCommDomainScopes: MESSAGE`, or MESSAGE when not `prefixed`.
    std::string pypto_message() const {
      return (prefixed ? std::string("MaterializeCommDomainScopes: ") : std::string()) + this->message;
    }
  };

  std::string file;                      ///< the program's source_file: where `loc`s point
  std::vector<function_plan> functions;  ///< every host orchestrator, in program order
  std::vector<refusal_record> refused;   ///< in program order; non-empty: apply must not run
  /// Where this pass answers differently from pypto on purpose (docs/host-programs.md
  /// §"Where this pass differs from pypto"): located remarks (severity::remark) for a dry run;
  /// they change nothing.
  diagnostics remarks;
  /// Calls of communication APIs the pass does not model, let through because
  /// comm_domain_options::allow_unmodeled_comm_apis was set (else they are refusals).
  std::vector<std::pair<std::string, source_loc>> unmodeled;

  bool ok() const noexcept { return refused.empty(); }
  /// Whether applying changes the program.
  bool has_changes() const noexcept {
    if (!ok()) return false;
    for (auto& f : functions)
      if (f.state == status::materialize) return true;
    return false;
  }
  /// The functions apply materializes (none when the plan has refusals), in program order.
  std::vector<std::reference_wrapper<const function_plan>> changes() const {
    std::vector<std::reference_wrapper<const function_plan>> out;
    if (ok())
      for (const auto& f : functions)
        if (f.state == status::materialize) out.push_back(std::cref(f));
    return out;
  }
  std::span<const refusal_record> refusals() const noexcept { return refused; }
  /// The refusals located and worded as pypto reports them (`FILE:LINE:COL: error: PYPTO MESSAGE`),
  /// in program order: to_diagnostics(p, plan, {.style = refusal_style::message}). Before
  /// 2026-12-02 a data member holding the same.
  diagnostics errors() const {
    diagnostics out;
    out.reserve(refused.size());
    for (const auto& r : refused) out.push_back({file, r.loc, r.pypto_message()});
    return out;
  }
};

/// A refusal as a diagnostic (to_diagnostics, passes/diagnostics.hpp): an error at the location
/// pypto reports it at, in the plan's file, saying pypto's text, then ` [CODE]` (pypto's text
/// alone with refusal_style::message, as errors() gives it). Names no pass.
template <class G, class P>
worded_refusal<diagnostic_location<source_loc>> refusal_words(const G&, const comm_domain_plan<P>& plan,
                                                              const typename comm_domain_plan<P>::refusal_record& r,
                                                              const refusal_wording& w) {
  worded_refusal<diagnostic_location<source_loc>> out;
  out.at = {plan.file, r.loc};
  out.message = r.pypto_message();
  if (w.style == refusal_style::tool) out.message += " [" + std::string(to_string(r.code)) + "]";
  return out;
}

namespace comm_domain_detail {

inline std::string arity_text(std::size_t n) {
  if (n == 1) return "one arg";
  if (n == 2) return "two args";
  return std::to_string(n) + " args";
}

template <class P>
class analysis {
  using plan_t = comm_domain_plan<P>;
  using fn_t = host_function_t<P>;
  using stmt_t = host_stmt_t<P>;
  using expr_t = host_expr_t<P>;
  using var_t = host_var_t<P>;
  static constexpr std::size_t npos = plan_t::npos;
  // The largest rank device_coverage holds.
  static constexpr std::int64_t max_rank = std::numeric_limits<device_coverage::rank_type>::max();

 public:
  analysis(const P& p, const comm_domain_options& o) : p_(p), o_(o), file_(host_access::source_file(p)) {
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
    plan_.file = file_;
    for (fn_t f : host_access::functions(p_)) analyze_function(f);
    return std::move(plan_);
  }

  /// The part of the plan that function `f` contributes (empty unless f is a host orchestrator):
  /// run()'s plan is these parts concatenated in program order. Reads only `f` and the functions'
  /// names, levels and roles; one analysis may plan many functions in turn (passes/parallel.hpp).
  /// The listed devices count against max_total_listed_devices across all the functions this
  /// analysis planned, so only the whole program planned in order on one analysis is run()'s plan
  /// when that limit is reached.
  plan_t run_one(fn_t f) {
    plan_ = plan_t{};
    plan_.file = file_;
    analyze_function(f);
    return std::move(plan_);
  }

  /// The devices of every listed comm domain this analysis has checked against
  /// max_total_listed_devices so far, refused ones included. When these counts of the parts of a
  /// parallel plan add up to at most the limit, no running total of any order of the functions
  /// can reach it, so the parts are exactly the sequential plan's (passes/parallel.hpp).
  std::uint64_t devices_checked() const { return checked_; }

 private:
  void analyze_function(fn_t f) {
    if (!is_host_orchestrator(f)) return;
    typename plan_t::function_plan fp;
    fp.fn = f;
    fp.name = std::string(host_access::function_name(p_, f));
    analyze(fp);
    plan_.functions.push_back(std::move(fp));
  }

  const P& p_;
  const comm_domain_options& o_;
  std::string file_;
  std::uint64_t listed_ = 0;   ///< devices listed by the scopes planned so far (max_total_listed_devices)
  std::uint64_t checked_ = 0;  ///< devices of every scope checked against that limit (devices_checked)
  plan_t plan_;
  std::unordered_set<std::string> chip_orchs_;

  // Per-function state (reset by analyze).
  typename plan_t::function_plan* fp_ = nullptr;
  std::unordered_map<var_t, expr_t, handle_hash<var_t>> defs_;
  std::unordered_map<var_t, std::size_t, handle_hash<var_t>> alloc_of_;
  std::unordered_map<var_t, std::size_t, handle_hash<var_t>> view_of_;
  std::vector<stmt_t> loops_;  // enclosing for loops, innermost last
  int repeat_depth_ = 0;       // enclosing for + while loops
  std::size_t refused_at_start_ = 0;

  /// `msg` is pypto's text without its prefix; `prefixed` false for the few checks pypto words
  /// without one (its CHECK_SPANs that are not INTERNAL_CHECK_SPANs).
  void error(comm_domain_refusal_code code, expr_t concerned, source_loc loc, std::string msg, bool prefixed = true) {
    typename plan_t::refusal_record r;
    r.code = code;
    r.op = concerned;
    r.message = std::move(msg);
    r.loc = loc;
    r.prefixed = prefixed;
    plan_.refused.push_back(std::move(r));
  }
  void remark(source_loc loc, std::string msg) {
    plan_.remarks.push_back({file_, loc, "MaterializeCommDomainScopes: " + std::move(msg), severity::remark});
  }
  bool failed() const { return plan_.refused.size() != refused_at_start_; }
  static std::string describe_devices(const device_coverage& c) { return c.is_all() ? std::string("all") : to_string(c); }

  // ---- small accessors -------------------------------------------------------------------
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
  const collective_spec* collective_of(expr_t e) const {
    if (kind(e) != host_expr_kind::call || host_access::callee_kind(p_, e) != host_callee_kind::op) return nullptr;
    const std::string_view name = host_access::callee_name(p_, e);
    for (const collective_spec& c : o_.collectives)
      if (c.op == name) return &c;
    return nullptr;
  }

  // ---- one host orchestrator ---------------------------------------------------------------
  void analyze(typename plan_t::function_plan& fp) {
    fp_ = &fp;
    defs_.clear();
    alloc_of_.clear();
    view_of_.clear();
    loops_.clear();
    repeat_depth_ = 0;
    refused_at_start_ = plan_.refused.size();

    // Idempotence (docs/host-programs.md): a body that already is a scope is left alone; a scope anywhere in the
    // body counts too, so a second run can never wrap (and re-type) a materialized body again.
    const bool scoped = !walk_host_function(p_, fp.fn, [&](stmt_t s) {
      return host_access::stmt_kind(p_, s) == host_stmt_kind::comm_domain_scope ? host_walk::stop : host_walk::advance;
    });
    if (scoped) {
      fp.state = plan_t::status::already_materialized;
      return;
    }

    // 0. Communication APIs the pass does not model: the domains inferred without them could be
    //    wrong, so they are refused unless the caller says otherwise (comm_domain_options).
    if (!o_.comm_prefix.empty()) {
      walk_host_function(p_, fp.fn, [&](stmt_t s) { check_comm_apis(s); });
      if (failed()) return fail();
    }

    // 1-2. Allocations and views (and every variable definition, for the def-chains below).
    walk_host_function(p_, fp.fn, [&](stmt_t s) { collect(s); });
    if (failed()) return fail();
    if (fp.allocs.empty()) {
      fp.state = plan_t::status::no_allocs;
      return;
    }

    // 3. Dispatch scan with the loop stack.
    walk_host_function(p_, fp.fn, [&](stmt_t s) { scan_enter(s); }, [&](stmt_t s) { scan_leave(s); });
    if (failed()) return fail();

    // 4. Merge: every dispatch joins its descriptor into the allocations it reaches; then the
    //    collectives' signal / recv_counts buffers inherit their target's coverage. Inheritance
    //    runs to a fixpoint (join is monotone, so it terminates) rather than once in source order
    //    as pypto does, so a chain of collectives gets the same answer in any order.
    for (auto& d : fp.dispatches)
      for (std::size_t a : d.allocs) fp.allocs[a].coverage.join_with(d.devices);
    // pypto's own rule (one pass in source order), kept to point at where the answers differ.
    std::vector<device_coverage> once;
    for (const auto& a : fp.allocs) once.push_back(a.coverage);
    std::vector<bool> once_refused(fp.collectives.size(), false);
    for (std::size_t ci = 0; ci < fp.collectives.size(); ++ci) {
      const auto& c = fp.collectives[ci];
      if (c.target == npos) continue;
      if (once[c.target].is_bottom()) {
        once_refused[ci] = true;
        continue;
      }
      for (std::size_t i : c.inheritors) once[i] = lattice::join(once[i], once[c.target]);
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (auto& c : fp.collectives) {
        if (c.target == npos) continue;
        for (std::size_t i : c.inheritors) {
          device_coverage j = lattice::join(fp.allocs[i].coverage, fp.allocs[c.target].coverage);
          if (!(j == fp.allocs[i].coverage)) {
            fp.allocs[i].coverage = std::move(j);
            changed = true;
          }
        }
      }
    }
    for (std::size_t ci = 0; ci < fp.collectives.size(); ++ci)
      if (once_refused[ci] && !fp.allocs[fp.collectives[ci].target].coverage.is_bottom())
        remark(fp.collectives[ci].loc, "pypto refuses this " + fp.collectives[ci].op + ": in source order its target '" +
                                           fp.allocs[fp.collectives[ci].target].name +
                                           "' has no coverage yet; coverage passed along collectives to a fixpoint gives it some");
    for (std::size_t i = 0; i < fp.allocs.size(); ++i)
      if (!once[i].is_bottom() && !(once[i] == fp.allocs[i].coverage))
        remark(fp.allocs[i].loc, "pypto gives '" + fp.allocs[i].name + "' the devices " + describe_devices(once[i]) +
                                     " (coverage passed once, in source order); the fixpoint gives " +
                                     describe_devices(fp.allocs[i].coverage));
    for (auto& c : fp.collectives) {
      if (c.target != npos) {
        if (fp.allocs[c.target].coverage.is_bottom())
          error(comm_domain_refusal_code::no_coverage_to_share, c.call, c.loc, "collective data/target buffer has no inferred comm-domain coverage to share with its "
                       "signal buffer");
      } else if (!c.inheritors.empty() && fp.allocs[c.inheritors.front()].coverage.is_bottom()) {
        error(comm_domain_refusal_code::no_coverage_to_share, c.call, c.loc, c.op + " signal buffer has no inferred comm-domain coverage — add a device= annotation or "
                            "ensure the signal window is consumed by a device-tagged chip dispatch");
      }
    }
    if (failed()) return fail();

    // Sanity: every allocation has a view and a consuming dispatch. Coverage ⊥ also counts as
    // "not consumed": a dispatch inside `pl.range(0)` never runs, and an empty device list would
    // read as "every device".
    for (auto& a : fp.allocs) {
      if (a.views.empty())
        error(comm_domain_refusal_code::dead_allocation, a.call, a.loc, std::string(o_.alloc_op) + " '" + a.name + "' has no " + std::string(o_.window_op) +
                         " materialisation (dead allocation)");
      else if (a.coverage.is_bottom())
        error(comm_domain_refusal_code::unconsumed_allocation, a.call, a.loc, std::string(o_.alloc_op) + " '" + a.name + "' is not consumed by any chip_orch dispatch");
    }
    if (failed()) return fail();
    for (auto& v : fp.views)
      if (!host_access::can_carry_window(p_, v.var))
        error(comm_domain_refusal_code::untyped_view, v.call, v.loc, std::string(o_.window_op) + " result Var should have DistributedTensorType");
    if (failed()) return fail();

    // 5. Group by EXACT coverage, in allocation order; scope i is comm_d<i>.
    struct cov_hash {
      std::size_t operator()(const device_coverage& c) const noexcept { return hash_value(c); }
    };
    std::unordered_map<device_coverage, std::size_t, cov_hash> scope_of;
    std::vector<std::unordered_set<std::string>> names;
    for (std::size_t i = 0; i < fp.allocs.size(); ++i) {
      auto& a = fp.allocs[i];
      auto it = scope_of.find(a.coverage);
      if (it == scope_of.end()) {
        if (fp.scopes.size() >= o_.max_scopes_per_function) {
          error(comm_domain_refusal_code::too_many_scopes, a.call, a.loc,
                "comm domain of '" + a.name + "' would be comm domain " + std::to_string(fp.scopes.size() + 1) + " of '" + fp.name +
                    "'; at most " + std::to_string(o_.max_scopes_per_function) + " can nest in one function");
          break;
        }
        typename plan_t::scope s;
        s.name = std::string(o_.scope_prefix) + std::to_string(fp.scopes.size());
        s.coverage = a.coverage;
        if (!a.coverage.is_all()) {
          const auto n = a.coverage.rank_count().value_or(0);
          if (n > o_.max_listed_devices) {
            error(comm_domain_refusal_code::too_many_devices, a.call, a.loc, "comm domain of '" + a.name + "' covers " + std::to_string(n) + " devices; at most " +
                             std::to_string(o_.max_listed_devices) + " can be listed");
            continue;
          }
          checked_ += n;
          if (n > o_.max_total_listed_devices - std::min(listed_, o_.max_total_listed_devices)) {
            error(comm_domain_refusal_code::too_many_devices, a.call, a.loc,
                  "comm domain of '" + a.name + "' lists " + std::to_string(n) + " devices after " + std::to_string(listed_) +
                      " in the program's other comm domains; at most " + std::to_string(o_.max_total_listed_devices) +
                      " can be listed in all");
            continue;
          }
          listed_ += n;
          for (device_coverage::rank_type r : a.coverage.ranks()) s.devices.push_back(r);
        }
        it = scope_of.emplace(a.coverage, fp.scopes.size()).first;
        fp.scopes.push_back(std::move(s));
        names.emplace_back();
      }
      const std::size_t si = it->second;
      if (!names[si].insert(a.name).second) {
        error(comm_domain_refusal_code::duplicate_name, a.call, a.loc, "duplicate allocation name '" + a.name + "' within the same comm domain");
        continue;
      }
      a.scope = si;
      fp.scopes[si].allocs.push_back(i);
    }
    if (failed()) return fail();
    fp.state = plan_t::status::materialize;
  }

  void fail() {
    fp_->state = plan_t::status::failed;
    fp_->scopes.clear();
  }

  // ---- phase 0: communication APIs -----------------------------------------------------------
  bool modeled(std::string_view op) const {
    if (op == o_.alloc_op || op == o_.window_op || op == o_.world_size_op) return true;
    for (const collective_spec& c : o_.collectives)
      if (c.op == op) return true;
    for (std::string_view n : o_.neutral_ops)
      if (n == op) return true;
    return false;
  }
  void check_comm_apis(stmt_t s) {
    const bool assign = host_access::stmt_kind(p_, s) == host_stmt_kind::assign;
    for (expr_t e : host_access::operands(p_, s)) {
      // An allocation is read only as the value of an assignment (its variable is its identity).
      if (assign && is_op_call(e, o_.alloc_op)) {
        for (expr_t a : host_access::call_args(p_, e)) check_comm_call(a);
        continue;
      }
      check_comm_call(e);
    }
  }
  void check_comm_call(expr_t e) {
    if (kind(e) == host_expr_kind::binary) {
      const auto b = host_access::binary(p_, e);
      check_comm_call(b.lhs);
      if (b.op != host_binary_op::neg) check_comm_call(b.rhs);
      return;
    }
    if (kind(e) != host_expr_kind::call) return;
    if (is_op_call(e, o_.alloc_op)) {
      error(comm_domain_refusal_code::bad_alloc_call, e, host_access::location(p_, e),
            std::string(o_.alloc_op) + " must appear as the RHS of a simple assignment (its result must be bound to a "
                                       "named variable)");
    } else if (host_access::callee_kind(p_, e) == host_callee_kind::op) {
      const std::string_view op = host_access::callee_name(p_, e);
      if (op.substr(0, o_.comm_prefix.size()) == o_.comm_prefix && !modeled(op)) {
        const source_loc loc = host_access::location(p_, e);
        if (o_.allow_unmodeled_comm_apis)
          plan_.unmodeled.emplace_back(std::string(op), loc);
        else
          error(comm_domain_refusal_code::unmodeled_comm_api, e, loc,
                std::string(op) + " is a communication API this pass does not model: the comm domains inferred "
                                  "without it could be wrong (allow-unmodeled-comm-apis=true materializes anyway)");
      }
    }
    for (expr_t a : host_access::call_args(p_, e)) check_comm_call(a);
  }

  // ---- phase 1-2: collect ------------------------------------------------------------------
  void collect(stmt_t s) {
    if (host_access::stmt_kind(p_, s) == host_stmt_kind::assign) {
      const var_t t = host_access::assign_target(p_, s);
      const expr_t v = host_access::assign_value(p_, s);
      defs_[t] = v;
      if (is_op_call(v, o_.alloc_op)) {
        collect_alloc(t, v);
      } else if (is_op_call(v, o_.window_op)) {
        const auto a = args(v);
        if (!a.empty() && kind(a[0]) == host_expr_kind::var_ref) {
          auto it = alloc_of_.find(host_access::referenced_var(p_, a[0]));
          if (it != alloc_of_.end()) {
            view_of_[t] = fp_->views.size();
            fp_->allocs[it->second].views.push_back(fp_->views.size());
            fp_->views.push_back({t, v, it->second, host_access::location(p_, v)});
          }
        }
      }
    }
  }

  void collect_alloc(var_t t, expr_t call) {
    const source_loc loc = host_access::location(p_, call);
    const auto a = args(call);
    if (a.size() != 1) {
      error(comm_domain_refusal_code::bad_alloc_call, call, loc, std::string(o_.alloc_op) + " expects exactly one arg (size)");
      return;
    }
    if (host_access::keyword_arg(p_, call, "dtype")) {  // pypto's shape form: alloc([dims], dtype=pl.X)
      error(comm_domain_refusal_code::bad_alloc_call, call, loc,
            std::string(o_.alloc_op) + " shape form ([dims], dtype=...) is not supported here: give the size in bytes");
      return;
    }
    std::string name;
    if (auto k = host_access::keyword_arg(p_, call, o_.name_kwarg))
      if (auto sv = host_access::string_value(p_, *k)) name = std::string(*sv);
    if (name.empty()) {
      error(comm_domain_refusal_code::bad_alloc_call, call, loc, std::string(o_.alloc_op) + " missing '" + std::string(o_.name_kwarg) + "' kwarg");
      return;
    }
    // The size, when the program fixes it: a negative one, an overflow or a division by zero is
    // an error here rather than a buffer the runtime cannot allocate.
    const int_value size = value_of(a[0]);
    if (arithmetic_error(size, loc)) return;
    if (size.is_int() && size.value < 0) {
      error(comm_domain_refusal_code::bad_arithmetic, a[0], loc,
            std::string(o_.alloc_op) + " '" + name + "' size is " + std::to_string(size.value) +
                " bytes; a window buffer size must be non-negative");
      return;
    }
    alloc_of_[t] = fp_->allocs.size();
    typename plan_t::alloc rec{t, call, a[0], std::move(name), loc, {}, {}, npos};
    fp_->allocs.push_back(std::move(rec));
  }

  // ---- phase 3: dispatch scan (the loop stack: pushed on entering a loop, popped on leaving) --
  void scan_enter(stmt_t s) {
    const host_stmt_kind k = host_access::stmt_kind(p_, s);
    if (k == host_stmt_kind::while_loop) ++repeat_depth_;  // the condition runs on every iteration
    for (expr_t e : host_access::operands(p_, s)) visit(e);  // a for's bounds run once, outside it
    if (k == host_stmt_kind::for_range) {
      loops_.push_back(s);
      ++repeat_depth_;
    }
  }
  void scan_leave(stmt_t s) {
    const host_stmt_kind k = host_access::stmt_kind(p_, s);
    if (k == host_stmt_kind::for_range) loops_.pop_back();
    if (k == host_stmt_kind::for_range || k == host_stmt_kind::while_loop) --repeat_depth_;
  }

  /// Pre-order over the calls of one expression (nested calls are their arguments).
  void visit(expr_t e) {
    if (kind(e) == host_expr_kind::binary) {
      const auto b = host_access::binary(p_, e);
      visit(b.lhs);
      if (b.op != host_binary_op::neg) visit(b.rhs);
      return;
    }
    if (kind(e) != host_expr_kind::call) return;
    analyze_dispatch(e);
    analyze_collective(e);
    for (expr_t a : host_access::call_args(p_, e)) visit(a);
  }

  void analyze_dispatch(expr_t call) {
    if (host_access::callee_kind(p_, call) != host_callee_kind::function) return;
    if (!chip_orchs_.count(std::string(host_access::callee_name(p_, call)))) return;
    const auto device = host_access::call_attr(p_, call, o_.device_attr);
    if (!device) return;  // a dispatch without device= is ignored (docs/host-programs.md)
    const source_loc loc = host_access::location(p_, call);
    auto desc = resolve_device(*device, loc);
    if (!desc) return;
    typename plan_t::dispatch d{call, std::string(host_access::callee_name(p_, call)), loc, std::move(*desc), {}};
    for (expr_t a : host_access::call_args(p_, call)) {
      if (kind(a) != host_expr_kind::var_ref) continue;
      const std::size_t w = resolve_view(host_access::referenced_var(p_, a));
      if (w != npos) d.allocs.push_back(fp_->views[w].alloc);
    }
    fp_->dispatches.push_back(std::move(d));
  }

  using int_value = host_int_value<expr_t>;
  /// The integer value of `e`, variables followed through their definitions
  /// (`n = pld.system.world_size(); for r in pl.range(n)`, `n = 2 * k`): algorithms/host_arith.hpp.
  int_value value_of(expr_t e) const {
    auto def_of = [this](var_t v) -> std::optional<expr_t> {
      auto it = defs_.find(v);
      if (it == defs_.end()) return std::nullopt;
      return it->second;
    };
    return evaluate_host_int(p_, e, def_of, o_.world_size_op);
  }
  /// The value of `e` from constants alone (pypto folds constant arithmetic when it parses; a
  /// variable is never followed): what `device=` may be.
  int_value constant_of(expr_t e) const {
    auto none = [](var_t) -> std::optional<expr_t> { return std::nullopt; };
    return evaluate_host_int(p_, e, none, o_.world_size_op);
  }
  /// Reports an arithmetic error of `v` (true when there was one).
  bool arithmetic_error(const int_value& v, source_loc fallback) {
    if (v.kind != host_int_kind::error) return false;
    const source_loc at = host_access::location(p_, v.at).known() ? host_access::location(p_, v.at) : fallback;
    error(comm_domain_refusal_code::bad_arithmetic, v.at, at, v.message);
    return true;
  }

  std::string world_size_text() const { return std::string(o_.world_size_op) + "()"; }

  /// The device descriptor of a `device=` expression (pypto's table, plus docs/host-programs.md's start and
  /// variable-bound forms). nullopt after reporting an error.
  std::optional<device_coverage> resolve_device(expr_t d, source_loc at) {
    const host_expr_kind k = kind(d);
    if (k == host_expr_kind::int_const || k == host_expr_kind::binary) {
      const int_value c = constant_of(d);
      if (arithmetic_error(c, at)) return std::nullopt;
      if (c.is_int()) {
        const std::int64_t v = c.value;
        if (v < 0) {
          error(comm_domain_refusal_code::unsupported_device, d, at, "device= ConstInt must be non-negative, got " + std::to_string(v));
          return std::nullopt;
        }
        if (v > max_rank) {
          error(comm_domain_refusal_code::unsupported_device, d, at, "device= ConstInt " + std::to_string(v) + " exceeds the largest supported rank " +
                        std::to_string(max_rank));
          return std::nullopt;
        }
        return device_coverage::single(static_cast<device_coverage::rank_type>(v));
      }
    }
    if (k == host_expr_kind::var_ref) {
      const var_t v = host_access::referenced_var(p_, d);
      for (auto it = loops_.rbegin(); it != loops_.rend(); ++it) {
        if (!(host_access::loop_var(p_, *it) == v)) continue;
        const int_value stop = value_of(host_access::loop_stop(p_, *it));
        if (arithmetic_error(stop, at)) return std::nullopt;
        if (stop.kind == host_int_kind::world_size) {
          // A sub-range of the world (start > 0) is over-approximated by every device, as in pypto:
          // a domain larger than the users is safe, a smaller one would hang.
          if (!check_step(host_access::loop_step(p_, *it), at, true)) return std::nullopt;
          return device_coverage::all();
        }
        if (stop.is_int()) {
          const int_value start = value_of(host_access::loop_start(p_, *it));
          if (arithmetic_error(start, at)) return std::nullopt;
          if (!start.is_int()) {
            error(comm_domain_refusal_code::unsupported_device, d, at, "device=r loop start must unwrap to ConstInt");
            return std::nullopt;
          }
          if (!check_step(host_access::loop_step(p_, *it), at, false)) return std::nullopt;
          const std::int64_t lo = start.value;
          const std::int64_t hi = stop.value;
          if (lo < 0 || hi < lo) {
            error(comm_domain_refusal_code::unsupported_device, d, at, "device=r loop range must be [0, N) with N>=0");
            return std::nullopt;
          }
          if (hi - 1 > max_rank) {
            error(comm_domain_refusal_code::unsupported_device, d, at, "device=r loop bound " + std::to_string(hi) + " exceeds the largest supported rank " +
                          std::to_string(max_rank));
            return std::nullopt;
          }
          if (hi == lo)
            remark(at, "device=r over an empty loop (pl.range(" + std::to_string(lo) + ", " + std::to_string(hi) +
                           ")) gives no device here; pypto records an empty device set, which it prints as every device");
          return device_coverage::range(static_cast<device_coverage::rank_type>(lo),
                                        static_cast<device_coverage::rank_type>(hi));
        }
        error(comm_domain_refusal_code::unsupported_device, d, at, "device=r loop bound must be ConstInt or " + world_size_text());
        return std::nullopt;
      }
      error(comm_domain_refusal_code::unsupported_device, d, at, "device= Var is not the induction variable of any enclosing pl.range loop");
      return std::nullopt;
    }
    error(comm_domain_refusal_code::unsupported_device, d, at, "device= expression must be ConstInt or the induction var of pl.range; got an unsupported "
              "expression");
    return std::nullopt;
  }

  /// The step rule: a constant 1. Over world_size() pypto does not look at the step (it takes
  /// every device); this pass refuses a non-unit step there too, and says where pypto differs.
  bool check_step(expr_t step_expr, source_loc at, bool over_world) {
    const int_value step = value_of(step_expr);
    if (arithmetic_error(step, at)) return false;
    if (!step.is_int()) {
      error(comm_domain_refusal_code::non_unit_step, step_expr, at, "device=r loop step must unwrap to ConstInt");
      return false;
    }
    if (step.value != 1) {
      if (over_world)
        remark(at, "pypto does not check the step of a loop over " + world_size_text() +
                       " and takes every device; this pass refuses it");
      error(comm_domain_refusal_code::non_unit_step, step_expr, at, "device=r over a non-unit-step loop is not supported (step=" + std::to_string(step.value) + ")");
      return false;
    }
    return true;
  }

  /// The view a variable reaches through aliases (`y = v`) and collective results
  /// (`y = pld.tensor.allreduce(v, s)`); npos when none. Cycle-safe.
  std::size_t resolve_view(var_t v) const {
    std::unordered_set<var_t, handle_hash<var_t>> seen;
    for (;;) {
      if (!seen.insert(v).second) return npos;
      if (auto it = view_of_.find(v); it != view_of_.end()) return it->second;
      auto d = defs_.find(v);
      if (d == defs_.end()) return npos;
      const expr_t e = d->second;
      if (kind(e) == host_expr_kind::var_ref) {
        v = host_access::referenced_var(p_, e);
        continue;
      }
      const collective_spec* c = collective_of(e);
      if (!c || c->result_alias < 0) return npos;
      const auto a = args(e);
      const auto i = static_cast<std::size_t>(c->result_alias);
      if (i >= a.size() || kind(a[i]) != host_expr_kind::var_ref) return npos;
      v = host_access::referenced_var(p_, a[i]);
    }
  }

  void analyze_collective(expr_t call) {
    const collective_spec* c = collective_of(call);
    if (!c) return;
    const source_loc loc = host_access::location(p_, call);
    const std::string op(c->op);
    const auto a = args(call);
    if (a.size() != c->arity) {
      error(comm_domain_refusal_code::bad_collective_call, call, loc, op + " expects exactly " + arity_text(c->arity));
      return;
    }
    if (c->single_use && repeat_depth_ > 0) {
      error(comm_domain_refusal_code::collective_in_loop, call, loc,
            op + " is not supported inside a for/while loop in a HOST orchestrator. The signal protocol is "
                 "single-use and cannot reuse a signal across dynamic invocations (same restriction "
                 "LowerCompositeOps enforces on the InCore path via CheckAllReduceLoopUse).",
            false);
      return;
    }
    typename plan_t::collective rec{call, op, loc, npos, {}};
    bool ok = true;
    auto role = [&](int index, std::string_view name) -> std::size_t {
      if (index < 0 || !ok) return npos;
      const expr_t e = a[static_cast<std::size_t>(index)];
      const source_loc at = host_access::location(p_, e).known() ? host_access::location(p_, e) : loc;
      if (kind(e) != host_expr_kind::var_ref) {
        error(comm_domain_refusal_code::bad_collective_call, e, at, op + " " + std::string(name) + " must be a window view Var");
        ok = false;
        return npos;
      }
      const std::size_t w = resolve_view(host_access::referenced_var(p_, e));
      if (w == npos) {
        error(comm_domain_refusal_code::bad_collective_call, e, at, op + " " + std::string(name) + " must be produced by " + std::string(o_.window_op));
        ok = false;
        return npos;
      }
      return fp_->views[w].alloc;
    };
    rec.target = role(c->target, c->target_role);
    const std::size_t signal = role(c->signal, "signal");
    const std::size_t recv = role(c->recv_counts, "recv_counts");
    if (!ok) return;
    if (signal != npos) rec.inheritors.push_back(signal);
    if (recv != npos) rec.inheritors.push_back(recv);
    fp_->collectives.push_back(std::move(rec));
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

/// Materializes one function's part of a plan (apply_comm_domain_scopes does this for each, in
/// order); it changes only that function's variables, calls and body.
/// @pre as apply_comm_domain_scopes.
template <class P>
void apply_comm_domain_function(P& p, const typename comm_domain_plan<P>::function_plan& fp) {
  static_assert(require_rewritable_host_program<P>());
  using traits = host_traits<std::remove_cvref_t<P>>;
  using window_t = host_window_t<P>;
  using plan_t = comm_domain_plan<P>;
  if (fp.state != plan_t::status::materialize) return;
  std::vector<window_t> windows;
  windows.reserve(fp.allocs.size());
  for (const auto& a : fp.allocs)
    windows.push_back(traits::make_window_buffer(
        p, window_request<host_var_t<P>, host_expr_t<P>>{a.var, a.size, false, false, a.loc}));
  for (const auto& v : fp.views) traits::attach_window(p, v.var, v.call, windows[v.alloc]);
  for (std::size_t i = fp.scopes.size(); i-- > 0;) {  // innermost first: scope 0 ends up outermost
    const auto& s = fp.scopes[i];
    std::vector<window_t> slots;
    for (std::size_t a : s.allocs) slots.push_back(windows[a]);
    traits::wrap_body(p, fp.fn, scope_request<window_t>{s.name, s.devices, slots, fp.allocs[s.allocs.front()].loc});
  }
}

namespace comm_detail {

/// The apply over a step counter (passes/transaction.hpp): one step per make_window_buffer,
/// attach_window and wrap_body call, in that order per function. Stops at a refused step.
template <class P, class Steps>
void apply_steps(P& p, const comm_domain_plan<P>& plan, Steps& steps) {
  using traits = host_traits<std::remove_cvref_t<P>>;
  using window_t = host_window_t<P>;
  using plan_t = comm_domain_plan<P>;
  for (const auto& fp : plan.functions) {
    if (fp.state != plan_t::status::materialize) continue;
    std::vector<window_t> windows;
    windows.reserve(fp.allocs.size());
    for (const auto& a : fp.allocs) {
      if (!steps.next("make_window_buffer")) return;
      windows.push_back(traits::make_window_buffer(
          p, window_request<host_var_t<P>, host_expr_t<P>>{a.var, a.size, false, false, a.loc}));
    }
    for (const auto& v : fp.views) {
      if (!steps.next("attach_window")) return;
      traits::attach_window(p, v.var, v.call, windows[v.alloc]);
    }
    for (std::size_t i = fp.scopes.size(); i-- > 0;) {  // innermost first: scope 0 ends up outermost
      const auto& s = fp.scopes[i];
      std::vector<window_t> slots;
      for (std::size_t a : s.allocs) slots.push_back(windows[a]);
      if (!steps.next("wrap_body")) return;
      traits::wrap_body(p, fp.fn, scope_request<window_t>{s.name, s.devices, slots, fp.allocs[s.allocs.front()].loc});
    }
  }
}

}  // namespace comm_detail

/// Materializes a plan: one WindowBuffer(base, size, false, false) per allocation, shared by all its
/// views (each view variable and its defining call re-typed with it), and the function body wrapped
/// in the plan's scopes, the first outermost. Never fails.
/// @pre plan.ok(), and the plan was computed on `p` as it is now. O(allocations + views + scopes).
template <class P>
void apply_comm_domain_scopes(P& p, const comm_domain_plan<P>& plan) {
  static_assert(require_rewritable_host_program<P>());
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

/// Plan, then apply when the plan has no errors. Returns the diagnostics: empty = success (the
/// program may have changed); otherwise the program is exactly as it was.
template <class P>
diagnostics materialize_comm_domain_scopes(P& p, const comm_domain_options& opts = {}) {
  auto plan = plan_comm_domain_scopes(p, opts);
  if (!plan.ok()) return plan.errors();
  apply_comm_domain_scopes(p, plan);
  return {};
}

/// A dry run: the plan as text, one line per allocation, dispatch, collective and scope, then the
/// remarks and the refusals as located diagnostics (pypto's errors). Deterministic (program order
/// throughout).
template <class P>
std::string describe_plan(const comm_domain_plan<P>& plan) {
  using plan_t = comm_domain_plan<P>;
  auto devices = [](const device_coverage& c) { return c.is_all() ? std::string("all") : to_string(c); };
  std::string out;
  for (const auto& f : plan.functions) {
    out += "function " + f.name + ": ";
    switch (f.state) {
      case plan_t::status::materialize: out += "materialize\n"; break;
      case plan_t::status::no_allocs: out += "no allocations\n"; continue;
      case plan_t::status::already_materialized: out += "already materialized\n"; continue;
      case plan_t::status::failed: out += "failed\n"; continue;
    }
    for (const auto& a : f.allocs)
      out += "  alloc " + a.name + " at " + line_col(a.loc) + ": " + std::to_string(a.views.size()) + " view(s), devices " +
             devices(a.coverage) + ", scope " + f.scopes[a.scope].name + "\n";
    for (const auto& d : f.dispatches) {
      out += "  dispatch " + d.callee + " at " + line_col(d.loc) + ": devices " + devices(d.devices) + ", allocs [";
      for (std::size_t i = 0; i < d.allocs.size(); ++i) out += (i ? ", " : "") + f.allocs[d.allocs[i]].name;
      out += "]\n";
    }
    for (const auto& c : f.collectives) {
      out += "  collective " + c.op + " at " + line_col(c.loc) + ": ";
      out += c.target == plan_t::npos ? std::string("no target") : "target " + f.allocs[c.target].name;
      for (std::size_t i : c.inheritors) out += ", inherits " + f.allocs[i].name;
      out += "\n";
    }
    for (const auto& s : f.scopes) {
      out += "  scope " + s.name + ": devices [";
      for (std::size_t i = 0; i < s.devices.size(); ++i) out += (i ? ", " : "") + std::to_string(s.devices[i]);
      out += "], slots [";
      for (std::size_t i = 0; i < s.allocs.size(); ++i) out += (i ? ", " : "") + f.allocs[s.allocs[i]].name;
      out += "]\n";
    }
  }
  for (const auto& u : plan.unmodeled)
    out += "unmodeled " + u.first + " at " + line_col(u.second) + " (allowed)\n";
  out += located_lines(plan.remarks);
  out += located_lines(plan.errors());
  return out;
}

/// The protocol's name for the dry run (passes/protocol.hpp): host programs name their functions,
/// allocations and calls themselves, so no printer is needed and the text is describe_plan's.
template <class P>
std::string describe(const P&, const comm_domain_plan<P>& plan) {
  return describe_plan(plan);
}

}  // namespace neuronrw

namespace neuronrw::passes {

/// MaterializeCommDomainScopes's descriptor (passes/protocol.hpp). Parts: one per function (empty
/// unless it is a host orchestrator), each planned by the worker's own analysis. merge
/// concatenates them in program order; the program-wide limit max_total_listed_devices depends on
/// the order the functions are planned in, so when the devices the workers checked against it add
/// up to more than the limit (an input near or past it), merge plans the program again
/// sequentially and the refusals are the sequential ones. apply: one function per task; a plan
/// with refusals applies nothing.
struct materialize_comm_domain_scopes {
  static constexpr std::string_view name = "materialize-comm-domain-scopes";
  static constexpr std::string_view display = "MaterializeCommDomainScopes";
  static constexpr std::string_view summary =
      "Infer the devices of each window buffer and wrap the allocations in comm-domain scopes";
  static constexpr pass_input input = pass_input::host;
  using options = comm_domain_options;
  template <class P>
  using traits = host_traits<std::remove_cvref_t<P>>;
  template <class P>
  using plan_type = comm_domain_plan<P>;
  static constexpr std::string_view mlir_name = "";  // host programs: no MLIR pass
  static constexpr std::string_view dry_run_help = "print the comm-domain plan; change nothing";

  /// Its counters (what an applied plan creates counts only when it is applied).
  template <class P>
  static std::vector<pass_statistic> statistics(const P&, const plan_type<P>& plan, bool applied) {
    std::uint64_t scopes = 0, buffers = 0, views = 0, dispatches = 0, collectives = 0, functions = 0;
    for (const auto& f : plan.functions) {
      if (f.state != plan_type<P>::status::materialize) continue;
      ++functions;
      scopes += f.scopes.size();
      buffers += f.allocs.size();
      views += f.views.size();
      dispatches += f.dispatches.size();
      collectives += f.collectives.size();
    }
    const bool made = plan.ok() && applied;
    return {{"buffers", "Window buffers materialized", made ? buffers : 0},
            {"collectives", "Collectives whose buffers share a domain", collectives},
            {"dispatches", "Device-tagged chip dispatches", dispatches},
            {"functions", "Host orchestrators materialized", made ? functions : 0},
            {"refused", "Refusals (the program is then unchanged)", plan.refused.size()},
            {"scopes", "Comm-domain scopes created", made ? scopes : 0},
            {"views", "Window views re-typed", made ? views : 0}};
  }

  template <class P>
  static plan_type<P> plan(const P& p, const options& o = {}) {
    return plan_comm_domain_scopes(p, o);
  }
  /// Applies a plan without refusals; one with refusals changes nothing.
  template <class P>
  static void apply(P& p, const plan_type<P>& plan) {
    if (plan.ok()) apply_comm_domain_scopes(p, plan);
  }
  template <class P>
  static std::string describe(const P& p, const plan_type<P>& plan) {
    return neuronrw::describe(p, plan);
  }

  template <class P>
  static std::vector<host_function_t<P>> units(const P& p) {
    std::vector<host_function_t<P>> fs;
    for (auto f : host_access::functions(p)) fs.push_back(f);
    return fs;
  }
  template <class P>
  static comm_domain_detail::analysis<P> scratch(const P& p, const options& o) {
    return comm_domain_detail::analysis<P>(p, o);
  }
  /// One function's part and the devices it checked against max_total_listed_devices.
  template <class P>
  struct part {
    plan_type<P> plan;
    std::uint64_t checked = 0;
  };
  template <class P>
  static part<P> plan_part(const P&, host_function_t<P> f, comm_domain_detail::analysis<P>& a) {
    const std::uint64_t before = a.devices_checked();
    part<P> out{a.run_one(f), 0};
    out.checked = a.devices_checked() - before;
    return out;
  }
  template <class P>
  static plan_type<P> merge(const P& p, const options& o, std::vector<part<P>>&& parts) {
    std::uint64_t total = 0;
    for (const auto& part : parts)
      if ((total += part.checked) > o.max_total_listed_devices) return plan_comm_domain_scopes(p, o);
    plan_type<P> out;
    out.file = std::string(host_access::source_file(p));
    for (auto& part : parts) {
      for (auto& f : part.plan.functions) out.functions.push_back(std::move(f));
      for (auto& r : part.plan.refused) out.refused.push_back(std::move(r));
      for (auto& d : part.plan.remarks) out.remarks.push_back(std::move(d));
      for (auto& u : part.plan.unmodeled) out.unmodeled.push_back(std::move(u));
    }
    return out;
  }

  struct apply_state {
    std::size_t n = 0;
    std::size_t tasks() const noexcept { return n; }
  };
  /// One task per planned function (none when the plan has refusals).
  template <class P>
  static std::optional<apply_state> apply_begin(const P&, const plan_type<P>& plan) {
    return apply_state{plan.ok() ? plan.functions.size() : 0};
  }
  template <class P>
  static void apply_task(P& p, const plan_type<P>& plan, apply_state&, std::size_t k) {
    apply_comm_domain_function(p, plan.functions[k]);
  }
  template <class P>
  static void apply_end(P&, const plan_type<P>&, apply_state&) {}
};

}  // namespace neuronrw::passes
