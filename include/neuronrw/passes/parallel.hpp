// neuronrw/passes/parallel.hpp — the passes over the functions of one module on several threads
// (std::jthread), with output byte-identical to the sequential pass.
//
//   auto p = neuronrw::plan_schedule_fusion_parallel(g, {}, {.threads = 4});   // == plan_schedule_fusion(g)
//   auto p = neuronrw::schedule_fusion_parallel(g, {}, {.threads = 4});        // == schedule_fusion(g)
//   auto p = neuronrw::plan_schedule_fusion_composites_parallel(g, ...);       // and _composites_parallel
//   auto p = neuronrw::plan_fusion_to_composite_parallel(g, ...);              // and fusion_to_composite_parallel
//   auto p = neuronrw::plan_comm_domain_scopes_parallel(p, ...);               // and materialize_..._parallel
//
// How: the functions are handed out one at a time (an atomic counter) to N workers — the calling
// thread and N-1 std::jthreads — each planning its function with its own planner (its own scratch
// memory). The per-function parts are then concatenated in function order on the calling thread,
// their indices shifted (candidates, units, clusters) and the module-level decisions taken there,
// sequentially and in the sequential pass's order: the decomposition names of FusionToComposite
// and of the composites flavour (counted from 0 in plan order, skipping the names the module
// defines). So the merged plan is equal, field for field, to the sequential pass's plan, whatever
// the number of threads or the scheduling. apply then runs, on an IR that declares function-local
// mutation (R2 below):
//   - ScheduleFusion: one function per task on the workers — that function's moves, then its
//     groupings, the last first (the sequential apply restricted to its clusters; clusters never
//     span functions and a nested cluster is in its enclosing cluster's function); then the
//     composites' lowering, whose decomposition functions are module-level, sequentially;
//   - MaterializeCommDomainScopes: one function per task;
//   - FusionToComposite: sequentially (every conversion creates a module-level function).
// On any other IR, apply runs sequentially, in plan order, with the pass's own apply. Either way
// the result is the sequential pass's result. IRs whose functions are not ops (no functions(g))
// give the root blocks instead, one task per root: plan_schedule_fusion_parallel(g, roots, ...),
// schedule_fusion_parallel(g, roots, ...).
//
// The rule an IR must satisfy (docs/concepts.md §"Threads"):
//   R1. Concurrent reads: any number of threads may call the const traits functions (every read
//       requirement of ir_traits / host_traits) on one unchanging IR at once. So a read must not
//       fill a cache, build an index or order labels lazily, bump a counter or reorder a list
//       unless that is synchronized. The reference IR and the host IR keep no such state (their
//       reads are pure loads; tests/threads checks it under ThreadSanitizer).
//   R2. Function-local mutation (optional, declared): an IR whose traits say
//       `static constexpr bool concurrent_function_mutation = true;` promises that the mutations a
//       pass makes to one function (for host programs: make_window_buffer, attach_window and
//       wrap_body for that function's variables, calls and body) touch no state shared with
//       another function, so different functions may be rewritten on different threads at once
//       (while no thread reads a function another rewrites). The host IR declares it: every node
//       is owned by its function, WindowBuffers are fresh immutable objects (shared_ptr counts
//       are atomic) — outside a transaction (concepts/ir.hpp O5): inside one, every rewrite also
//       appends to the program's undo journal, so a parallel apply must not run in a transaction.
//       The custom-IR example (examples/custom_ir) declares it too. The reference IR does not:
//       its ops, values, uses, interned strings and order groups live in module-wide vectors that
//       any creation, or a move that splits an order group, may grow (docs/concepts.md §"Threads"
//       says what that costs and why it stays).
//   While a parallel pass runs, nothing else may change the IR.
//
// Customization points: the IR (as for each pass), R2's trait member, parallel_options.
// Failures: none of its own; like every std::jthread user, a failure to start a thread (which the
// library reports by throwing std::system_error) terminates under -fno-exceptions.
// Complexity: the sequential pass's work spread over the workers, plus O(plan size) to merge;
// each worker allocates its planner's scratch once (ScheduleFusion: O(ops) per worker).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

#include <neuronrw/concepts/host.hpp>
#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/descriptors/kind_registry.hpp>
#include <neuronrw/diagnostic.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

namespace neuronrw {

/// How many threads a parallel pass uses.
struct parallel_options {
  /// Workers, the calling thread included; 0 = std::thread::hardware_concurrency() (1 when
  /// unknown). Never more than the number of functions; 1 runs everything on the calling thread.
  unsigned threads = 0;
};

/// R2 (see the header comment): the traits declare that one function's mutations touch nothing
/// another function's mutations or reads touch.
template <class Traits>
concept declares_concurrent_function_mutation = requires {
  requires static_cast<bool>(Traits::concurrent_function_mutation);
};

namespace parallel_detail {

inline unsigned worker_count(const parallel_options& o, std::size_t jobs) {
  unsigned n = o.threads != 0 ? o.threads : std::thread::hardware_concurrency();
  if (n == 0) n = 1;
  return static_cast<unsigned>(std::min<std::size_t>(n, std::max<std::size_t>(jobs, 1)));
}

/// Calls body(state, i) once for every i in [0, n) on `workers` threads (the calling one among
/// them); each thread makes its own state with make_state() and takes the next index from a shared
/// counter. Returns when every call has returned (the jthreads' joins publish their writes).
template <class MakeState, class Body>
void for_each_index(std::size_t n, unsigned workers, MakeState&& make_state, Body&& body) {
  if (n == 0) return;
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    auto state = make_state();
    for (std::size_t i = next.fetch_add(1, std::memory_order_relaxed); i < n;
         i = next.fetch_add(1, std::memory_order_relaxed))
      body(state, i);
  };
  std::vector<std::jthread> pool;
  pool.reserve(workers > 1 ? workers - 1 : 0);
  for (unsigned k = 1; k < workers; ++k) pool.emplace_back(work);
  work();
  // ~jthread joins each worker.
}

template <class G>
std::vector<op_handle_t<G>> function_list(const G& g) {
  std::vector<op_handle_t<G>> fs;
  for (auto&& f : ir::functions(g)) fs.push_back(f);
  return fs;
}

// ---------------------------------------------------------------------------- ScheduleFusion

/// Appends `part` (planned alone, indices from 0) to `out`, shifting its indices.
template <class Planner, class Plan>
void append_part(Plan& out, Plan&& part) {
  const std::size_t units = out.units.size(), clusters = out.clusters.size(), candidates = out.candidates();
  for (auto& c : part.clusters) {
    c.candidate += candidates;
    c.unit += units;
    out.clusters.push_back(std::move(c));
  }
  for (auto& r : part.refused) {
    r.candidate += candidates;
    r.unit += units;
    if (r.cluster != Plan::none) {
      r.cluster += clusters;
      r.message = Planner::message(out, r);
    }
    out.refused.push_back(std::move(r));
  }
  for (auto& u : part.units) out.units.push_back(u);
  for (auto& f : part.skipped_functions) out.skipped_functions.push_back(f);
  for (const std::size_t i : part.composite_order) out.composite_order.push_back(i + clusters);
}

/// A merged plan and, for each task (a function, or a root block), where its clusters begin:
/// task k owns the clusters [bounds[k], bounds[k + 1]).
template <class Plan>
struct tasked_plan {
  Plan plan;
  std::vector<std::size_t> bounds;
};

/// Plans `n` tasks on the workers (run_task(planner, i) plans task i) and merges the parts in task
/// order; the composites' names are then given over the whole plan, in composite_order.
template <co_schedule_pattern_like Pattern, class G, class RunTask>
tasked_plan<schedule_fusion_plan_t<G>> plan_tasks_parallel(const G& g, std::size_t n, const schedule_fusion_options& opt,
                                                           bool emit_composites, const parallel_options& popt,
                                                           RunTask&& run_task) {
  using planner_t = sf_detail::planner<Pattern, G>;
  using plan_t = schedule_fusion_plan_t<G>;
  std::vector<plan_t> parts(n);
  for_each_index(
      n, worker_count(popt, n), [&] { return planner_t(g, opt, emit_composites); },
      [&](planner_t& p, std::size_t i) {
        run_task(p, i);
        parts[i] = p.take_part();
      });
  // The header fields come from an empty part: the same options, planned from nothing.
  tasked_plan<plan_t> out{planner_t(g, opt, false).take_part(), {}};
  out.plan.emit_composites = emit_composites;
  out.bounds.reserve(n + 1);
  for (auto& part : parts) {
    out.bounds.push_back(out.plan.clusters.size());
    append_part<planner_t>(out.plan, std::move(part));
  }
  out.bounds.push_back(out.plan.clusters.size());
  if constexpr (outlinable_ir<G>)
    if (emit_composites) {
      // Module-level: the names count from 0 over the whole plan, in composite_order.
      std::size_t counter = 0;
      for (const std::size_t i : out.plan.composite_order) {
        std::string name;
        do name = std::string(opt.composite_prefix) + std::to_string(counter++);
        while (ir::has_symbol(g, name));
        out.plan.clusters[i].decomposition = std::move(name);
      }
    }
  return out;
}

/// One task per function: its regions, or nothing when it carries opt.skip_functions_with.
template <co_schedule_pattern_like Pattern, class G>
tasked_plan<schedule_fusion_plan_t<G>> plan_functions_parallel(const G& g, const schedule_fusion_options& opt,
                                                               bool emit_composites, const parallel_options& popt) {
  const auto fs = function_list(g);
  return plan_tasks_parallel<Pattern>(g, fs.size(), opt, emit_composites, popt,
                                      [&](sf_detail::planner<Pattern, G>& p, std::size_t i) {
                                        const auto f = fs[i];
                                        bool skip = false;
                                        if constexpr (sf_detail::has_attribute_query<G>)
                                          skip = !opt.skip_functions_with.empty() &&
                                                 ir::has_attribute(g, f, opt.skip_functions_with);
                                        if (skip)
                                          p.skip_function(f);
                                        else
                                          for (auto&& b : ir::regions(g, f)) p.run_root(b);
                                      });
}

/// The cluster ranges of a plan's functions: consecutive clusters whose unit is owned by the same
/// function op. Empty (= apply sequentially) when a unit's owner is unknown (null) or one
/// function's clusters are not contiguous (a plan not made function by function).
template <class G>
std::vector<std::size_t> function_bounds(const schedule_fusion_plan_t<G>& plan) {
  using op = op_handle_t<G>;
  std::vector<std::size_t> bounds;
  std::unordered_set<op, handle_hash<op>> seen;
  op current = ir::null_op<G>();
  for (std::size_t i = 0; i < plan.clusters.size(); ++i) {
    const op f = plan.units[plan.clusters[i].unit];
    if (f == ir::null_op<G>()) return {};
    if (i != 0 && f == current) continue;
    if (!seen.insert(f).second) return {};
    bounds.push_back(i);
    current = f;
  }
  bounds.push_back(plan.clusters.size());
  return bounds;
}

/// Applies the plan with the clusters [bounds[k], bounds[k + 1]) of each task k rewritten on the
/// workers (each task's moves, then its groupings, the last first: the sequential apply restricted
/// to that task's clusters), then the composites' lowering, which creates module-level functions,
/// sequentially. @pre the IR declares R2 and the tasks are in different functions.
template <class G>
std::vector<op_handle_t<G>> apply_tasks_parallel(G& g, const schedule_fusion_plan_t<G>& plan,
                                                 const std::vector<std::size_t>& bounds,
                                                 const parallel_options& popt) {
  std::vector<op_handle_t<G>> groups(plan.clusters.size(), ir::null_op<G>());
  std::vector<std::size_t> busy;  // the tasks with clusters
  for (std::size_t k = 0; k + 1 < bounds.size(); ++k)
    if (bounds[k] != bounds[k + 1]) busy.push_back(k);
  for_each_index(
      busy.size(), worker_count(popt, busy.size()), [] { return 0; },
      [&](int, std::size_t t) {
        const std::size_t lo = bounds[busy[t]], hi = bounds[busy[t] + 1];
        txn_detail::unchecked_steps steps;
        sf_detail::reschedule(g, plan, steps, lo, hi);
        sf_detail::grouping(g, plan, steps, lo, hi, groups);
      });
  if constexpr (outlinable_ir<G>)
    if (plan.emit_composites) {
      txn_detail::unchecked_steps steps;
      return sf_detail::composites(g, plan, groups, "stablehlo.composite", steps);
    }
  return groups;
}

/// The apply of a plan with task bounds: in parallel on an IR declaring R2, else sequential.
template <class G>
void apply_tasked(G& g, const tasked_plan<schedule_fusion_plan_t<G>>& tp, const parallel_options& popt) {
  if constexpr (declares_concurrent_function_mutation<ir_traits<std::remove_cvref_t<G>>>)
    apply_tasks_parallel(g, tp.plan, tp.bounds, popt);
  else
    neuronrw::apply(g, tp.plan);
}

}  // namespace parallel_detail

/// plan_schedule_fusion(g, opt) with the functions planned on `popt.threads` threads; the plan is
/// equal to the sequential one. Nothing is changed. @pre R1 (header comment).
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G>
schedule_fusion_plan_t<G> plan_schedule_fusion_parallel(const G& g, const schedule_fusion_options& opt = {},
                                                        const parallel_options& popt = {}) {
  static_assert(require_groupable_ir<G>());
  static_assert(sf_detail::has_functions<G>,
                "neuronrw::plan_schedule_fusion_parallel: ir_traits<G> lacks `static auto functions(const G&)` "
                "(outlinable_ir requirement 16); give the parallel pass the root blocks of your functions "
                "instead: plan_schedule_fusion_parallel(g, roots, options, parallel_options).");
  return parallel_detail::plan_functions_parallel<Pattern>(g, opt, false, popt).plan;
}

/// plan_schedule_fusion(g, roots, opt) with one task per root block, planned in parallel; the plan
/// is equal to the sequential one. For IRs whose functions are not ops (no `functions(g)`).
/// @pre R1; the roots are the blocks of different functions (no root inside another).
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G, class Roots>
  requires std::ranges::input_range<Roots> &&
           std::convertible_to<std::ranges::range_value_t<Roots>, block_handle_t<G>>
schedule_fusion_plan_t<G> plan_schedule_fusion_parallel(const G& g, Roots&& roots, const schedule_fusion_options& opt = {},
                                                        const parallel_options& popt = {}) {
  static_assert(require_groupable_ir<G>());
  std::vector<block_handle_t<G>> rs;
  for (auto&& b : roots) rs.push_back(b);
  return parallel_detail::plan_tasks_parallel<Pattern>(
             g, rs.size(), opt, false, popt,
             [&](sf_detail::planner<Pattern, G>& p, std::size_t i) { p.run_root(rs[i]); })
      .plan;
}

/// plan_schedule_fusion_composites(g, opt) with the functions planned in parallel.
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G>
schedule_fusion_plan_t<G> plan_schedule_fusion_composites_parallel(const G& g, const schedule_fusion_options& opt = {},
                                                                   const parallel_options& popt = {}) {
  static_assert(require_outlinable_ir<G>());
  return parallel_detail::plan_functions_parallel<Pattern>(g, opt, true, popt).plan;
}

/// apply(g, plan) for a plan made function by function (by plan_schedule_fusion[_composites] or
/// their _parallel forms): on an IR declaring R2, the clusters of different functions are rewritten
/// on different threads (then the composites' lowering, module-level, sequentially); otherwise, or
/// when the plan's units do not name their functions, the sequential apply. The result is the
/// sequential apply's. Returns the grouping ops (or composites) in cluster order.
/// @pre the plan was made on this IR, unchanged since; no transaction is open on `g`.
template <class G>
std::vector<op_handle_t<G>> apply_schedule_fusion_parallel(G& g, const schedule_fusion_plan_t<G>& plan,
                                                           const parallel_options& popt = {}) {
  static_assert(require_groupable_ir<G>());
  if constexpr (declares_concurrent_function_mutation<ir_traits<std::remove_cvref_t<G>>>) {
    const auto bounds = parallel_detail::function_bounds<G>(plan);
    if (!bounds.empty()) return parallel_detail::apply_tasks_parallel(g, plan, bounds, popt);
  }
  return neuronrw::apply(g, plan);
}

/// schedule_fusion(g, opt): planned in parallel; applied in parallel on an IR declaring R2, in
/// plan order otherwise (see the header comment).
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G>
schedule_fusion_plan_t<G> schedule_fusion_parallel(G& g, const schedule_fusion_options& opt = {},
                                                   const parallel_options& popt = {}) {
  static_assert(require_groupable_ir<G>());
  static_assert(sf_detail::has_functions<G>,
                "neuronrw::schedule_fusion_parallel: ir_traits<G> lacks `static auto functions(const G&)` "
                "(outlinable_ir requirement 16); give the parallel pass the root blocks of your functions "
                "instead: schedule_fusion_parallel(g, roots, options, parallel_options).");
  auto tp = parallel_detail::plan_functions_parallel<Pattern>(std::as_const(g), opt, false, popt);
  parallel_detail::apply_tasked(g, tp, popt);
  return std::move(tp.plan);
}

/// schedule_fusion(g, roots, opt) with one task per root block: planned in parallel; applied in
/// parallel (one task per root) on an IR declaring R2, in plan order otherwise.
/// @pre R1; the roots are the blocks of different functions (R2 is about functions).
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G, class Roots>
  requires std::ranges::input_range<Roots> &&
           std::convertible_to<std::ranges::range_value_t<Roots>, block_handle_t<G>>
schedule_fusion_plan_t<G> schedule_fusion_parallel(G& g, Roots&& roots, const schedule_fusion_options& opt = {},
                                                   const parallel_options& popt = {}) {
  static_assert(require_groupable_ir<G>());
  std::vector<block_handle_t<G>> rs;
  for (auto&& b : roots) rs.push_back(b);
  auto tp = parallel_detail::plan_tasks_parallel<Pattern>(
      std::as_const(g), rs.size(), opt, false, popt,
      [&](sf_detail::planner<Pattern, G>& p, std::size_t i) { p.run_root(rs[i]); });
  parallel_detail::apply_tasked(g, tp, popt);
  return std::move(tp.plan);
}

/// schedule_fusion_composites(g, opt): planned in parallel; the groupings applied in parallel on an
/// IR declaring R2, the lowering to composites (module-level functions) in plan order.
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G>
schedule_fusion_plan_t<G> schedule_fusion_composites_parallel(G& g, const schedule_fusion_options& opt = {},
                                                              const parallel_options& popt = {}) {
  static_assert(require_outlinable_ir<G>());
  auto tp = parallel_detail::plan_functions_parallel<Pattern>(std::as_const(g), opt, true, popt);
  parallel_detail::apply_tasked(g, tp, popt);
  return std::move(tp.plan);
}

// ------------------------------------------------------------------------- FusionToComposite

/// plan_fusion_to_composite(g, opt) with the functions scanned in parallel and the decomposition
/// names given afterwards, in plan order; the plan is equal to the sequential one.
template <class Registry = fusion_op_registry, class G>
fusion_to_composite_plan<op_handle_t<G>> plan_fusion_to_composite_parallel(const G& g,
                                                                           const fusion_to_composite_options& opt = {},
                                                                           const parallel_options& popt = {}) {
  static_assert(require_outlinable_ir<G>());
  using plan_t = fusion_to_composite_plan<op_handle_t<G>>;
  const auto fs = parallel_detail::function_list(g);
  std::vector<plan_t> parts(fs.size());
  parallel_detail::for_each_index(
      fs.size(), parallel_detail::worker_count(popt, fs.size()), [] { return 0; },
      [&](int, std::size_t i) { f2c_detail::plan_function<Registry>(g, fs[i], opt, parts[i]); });
  plan_t out;
  out.composite_op_name = std::string(opt.composite_op_name);
  for (auto& part : parts) {
    for (auto& c : part.conversions) out.conversions.push_back(std::move(c));
    for (auto& s : part.skipped_functions) out.skipped_functions.push_back(s);
    for (auto& p : part.refused) out.refused.push_back(std::move(p));
  }
  f2c_detail::name_conversions(g, opt.symbol_prefix, out);
  return out;
}

/// fusion_to_composite(g, opt): planned in parallel, applied (when the plan has no problems) in
/// plan order.
template <class Registry = fusion_op_registry, class G>
fusion_to_composite_plan<op_handle_t<G>> fusion_to_composite_parallel(G& g, const fusion_to_composite_options& opt = {},
                                                                      const parallel_options& popt = {}) {
  auto plan = plan_fusion_to_composite_parallel<Registry>(std::as_const(g), opt, popt);
  neuronrw::apply(g, plan);
  return plan;
}

// ----------------------------------------------------------------- MaterializeCommDomainScopes

/// plan_comm_domain_scopes(p, opts) with the functions analyzed in parallel; the plan (functions,
/// refusals, diagnostics, all in program order) is equal to the sequential one. The program-wide
/// limit max_total_listed_devices depends on the order the functions are planned in: when the
/// devices the workers checked against it add up to more than the limit (an input near or past
/// it), the program is planned again sequentially, so the refusals and their messages are the
/// sequential ones.
template <class P>
comm_domain_plan<P> plan_comm_domain_scopes_parallel(const P& p, const comm_domain_options& opts = {},
                                                     const parallel_options& popt = {}) {
  static_assert(require_host_program<P>());
  using plan_t = comm_domain_plan<P>;
  using analysis_t = comm_domain_detail::analysis<P>;
  std::vector<host_function_t<P>> fs;
  for (auto f : host_access::functions(p)) fs.push_back(f);
  std::vector<plan_t> parts(fs.size());
  std::vector<std::uint64_t> checked(fs.size(), 0);
  parallel_detail::for_each_index(
      fs.size(), parallel_detail::worker_count(popt, fs.size()), [&] { return analysis_t(p, opts); },
      [&](analysis_t& a, std::size_t i) {
        const std::uint64_t before = a.devices_checked();
        parts[i] = a.run_one(fs[i]);
        checked[i] = a.devices_checked() - before;
      });
  std::uint64_t total = 0;
  for (const std::uint64_t c : checked) {
    total += c;
    if (total > opts.max_total_listed_devices) return plan_comm_domain_scopes(p, opts);
  }
  plan_t out;
  out.file = std::string(host_access::source_file(p));
  for (auto& part : parts) {
    for (auto& f : part.functions) out.functions.push_back(std::move(f));
    for (auto& r : part.refused) out.refused.push_back(std::move(r));
    for (auto& d : part.remarks) out.remarks.push_back(std::move(d));
    for (auto& u : part.unmodeled) out.unmodeled.push_back(std::move(u));
  }
  return out;
}

/// apply_comm_domain_scopes(p, plan): on an IR declaring R2, one function per task on the workers;
/// otherwise sequentially. @pre as apply_comm_domain_scopes; no transaction is open on `p`.
template <class P>
void apply_comm_domain_scopes_parallel(P& p, const comm_domain_plan<P>& plan, const parallel_options& popt = {}) {
  static_assert(require_rewritable_host_program<P>());
  if constexpr (declares_concurrent_function_mutation<host_traits<std::remove_cvref_t<P>>>) {
    const auto& fs = plan.functions;
    parallel_detail::for_each_index(
        fs.size(), parallel_detail::worker_count(popt, fs.size()), [] { return 0; },
        [&](int, std::size_t i) { apply_comm_domain_function(p, fs[i]); });
  } else {
    apply_comm_domain_scopes(p, plan);
  }
}

/// materialize_comm_domain_scopes(p, opts) with the analysis and the rewrite in parallel. Returns
/// the same diagnostics; on any error the program is exactly as it was.
template <class P>
diagnostics materialize_comm_domain_scopes_parallel(P& p, const comm_domain_options& opts = {},
                                                    const parallel_options& popt = {}) {
  auto plan = plan_comm_domain_scopes_parallel(std::as_const(p), opts, popt);
  if (!plan.ok()) return plan.errors();
  apply_comm_domain_scopes_parallel(p, plan, popt);
  return {};
}

}  // namespace neuronrw
