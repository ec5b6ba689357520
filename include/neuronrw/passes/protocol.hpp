// neuronrw/passes/protocol.hpp — the one protocol every pass follows, and what a dry run prints
// with. docs/passes.md explains it with a compiled example that adds a pass.
//
// Every pass X offers three entry points and one plan type:
//   auto plan = plan_X(g, options);   // reads only; returns plain data
//   apply(g, plan);                   // performs the plan; the IR unchanged since planning
//   auto plan = X(g, options);        // both, returns the plan
// and every plan models `pass_plan`:
//   plan.has_changes()   whether applying it changes the IR
//   plan.changes()       a range of the plan's change records (ScheduleFusion: clusters,
//                        FusionToComposite: conversions, MaterializeCommDomainScopes: functions
//                        it materializes)
//   plan.refusals()      a range of records deriving from refusal<Code, Op>: the enum `code`,
//                        the `op` concerned and a `message` saying why in words (MLIR's
//                        notifyMatchFailure, as data)
// and `describe(g, plan, op_printer)` prints it as the dry run's text for any IR.
//
// Errors travel as values (refusals); nothing here throws, and no pass needs RTTI.
//
// Every pass also has a descriptor (neuronrw::passes::<name>, in the pass's own header): a type
// with its name, summary, input kind, options type and entry points, from which the parallel
// driver (passes/parallel.hpp), neuronrw-opt's flags and the MLIR passes are made. A descriptor D
// models `pass_descriptor`:
//   D::name, D::display, D::summary    its pipeline name (`schedule-fusion`), the name timings
//                                      and IR dumps print (`ScheduleFusion`), one help line
//   D::input                           pass_input::ops (ir_traits IRs) or ::host (host programs)
//   D::options                         its options struct (aggregate, default-constructible)
//   D::traits<G>                       the traits the IR G is read through
//   D::plan(g, options) -> plan        plan, apply(g, plan), describe(g, plan, printer)
// and optionally (defaults detected by concept, so a descriptor need not spell them):
//   D::mlir_name                       its MLIR pass argument (default `neuronrw-` + name; empty:
//                                      no MLIR pass), which neuronrw-opt accepts as an alias
//   D::mlir_summary                    the MLIR pass's description (default: summary)
//   D::dry_run_help                    what its `NAME-dry-run` flag does (default: print the plan;
//                                      empty: no such flag); only a pass with a `dry-run` option
//   D::statistics(g, plan, applied)    its counters (pass_statistic), as the tools print them
//   D::apply_checked(g, plan, printer) the apply with its rewrite check (validate/,
//                                      docs/validation.md): a checked_result {applied, check};
//                                      the driver's --verify-rewrites and the MLIR passes'
//                                      verify-rewrites option use it
//   D::check_scope(g, plan)            what that check will cover (ops, snapshot bytes)
// and, when the pass splits into per-function parts the way MLIR nests function passes
// (`partitioned_pass`):
//   D::units(g)                        the units (functions), in module order
//   D::scratch(g, options)             one worker's scratch memory
//   D::plan_part(g, unit, scratch)     the part of the plan one unit contributes; reads only it
//   D::merge(g, options, parts)        the plan: parts in unit order, indices shifted, the
//                                      module-level decisions (names, program-wide limits) taken
//                                      here, so the plan equals D::plan(g, options)
// and, when a part of the plan can be applied to its function alone (`part_applicable_pass`):
//   D::apply_begin(g, plan)            an optional state: its tasks() touch different functions
//   D::apply_task(g, plan, state, k)   applies task k (tasks may run at once)
//   D::apply_end(g, plan, state)       what must run alone afterwards (module-level creations);
//                                      returns what D::apply returns
//
// Customization point: the op printer given to describe (see describe_detail below): a callable
// `std::string(op_handle)`, optionally with members `value(value_handle)` and `function(op_handle)`
// that name values and functions the IR's own way.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/detail/ranges.hpp>

namespace neuronrw {

/// What a pass runs on: an IR modelling the ir_traits concepts (ops), or a host program
/// (host_traits, concepts/host.hpp).
enum class pass_input : std::uint8_t { ops, host };

/// A unit given as a root block (for IRs whose functions are not ops: no `functions(g)`).
template <class Block>
struct root_block {
  Block block;
};

/// Why a pass did not rewrite something: `code` for programs, `message` for people.
template <class Code, class Op>
struct refusal {
  Code code{};
  Op op{};              ///< the op concerned (each pass documents which op each code names)
  std::string message;  ///< why, in words, without naming ops (describe() adds the names)
};

namespace protocol_detail {
template <class R>
concept refusal_record = requires(const R& r) {
  r.code;
  r.op;
  { r.message } -> std::convertible_to<std::string_view>;
};
}  // namespace protocol_detail

/// The plan of a pass (see the header comment).
template <class P>
concept pass_plan = requires(const P& p) {
  { p.has_changes() } -> std::convertible_to<bool>;
  { p.changes() } -> std::ranges::input_range;
  { p.refusals() } -> std::ranges::input_range;
} && protocol_detail::refusal_record<std::ranges::range_value_t<decltype(std::declval<const P&>().refusals())>>;

/// A pass's descriptor (see the header comment).
template <class D>
concept pass_descriptor = requires {
  { D::name } -> std::convertible_to<std::string_view>;
  { D::display } -> std::convertible_to<std::string_view>;
  { D::summary } -> std::convertible_to<std::string_view>;
  { D::input } -> std::convertible_to<pass_input>;
  typename D::options;
} && std::default_initializable<typename D::options>;

/// One counter of a pass run (mlir-opt's Pass::Statistic): what D::statistics returns.
struct pass_statistic {
  std::string name;
  std::string description;
  std::uint64_t value = 0;
};

/// D's MLIR pass argument: D::mlir_name when it declares one (empty: it has no MLIR pass), else
/// `neuronrw-` + D::name.
template <pass_descriptor D>
std::string descriptor_mlir_name() {
  if constexpr (requires { { D::mlir_name } -> std::convertible_to<std::string_view>; })
    return std::string(std::string_view(D::mlir_name));
  else
    return "neuronrw-" + std::string(std::string_view(D::name));
}

/// The MLIR pass's description: D::mlir_summary, else D::summary.
template <pass_descriptor D>
constexpr std::string_view descriptor_mlir_summary() {
  if constexpr (requires { { D::mlir_summary } -> std::convertible_to<std::string_view>; })
    return D::mlir_summary;
  else
    return D::summary;
}

/// What the dry-run name of D does (`NAME-dry-run`, for a pass with a `dry-run` option):
/// D::dry_run_help (empty: no such name), else `print the plan; change nothing`.
template <pass_descriptor D>
constexpr std::string_view descriptor_dry_run_help() {
  if constexpr (requires { { D::dry_run_help } -> std::convertible_to<std::string_view>; })
    return D::dry_run_help;
  else
    return "print the plan; change nothing";
}

/// The run-level option every pass with a checked apply (D::apply_checked) gets in the MLIR passes
/// (`verify-rewrites`, docs/validation.md), beside its options schema; neuronrw-opt offers it as
/// one flag for the whole pipeline, `--verify-rewrites`.
inline constexpr std::string_view verify_rewrites_option = "verify-rewrites";
inline constexpr std::string_view verify_rewrites_help =
    "Check that the rewrite preserved the program's dataflow; a failed check is an error (docs/validation.md)";

/// The run-level option every pass over ops gets in both tools (`kinds`, docs/kinds.md), beside
/// its options schema: a kinds file whose `OP-NAME KIND` lines say which op names are which kinds
/// for this pass (over the tool-wide --kinds=FILE, which every pass reads).
inline constexpr std::string_view kinds_option = "kinds";
inline constexpr std::string_view kinds_help =
    "A kinds file: one `OP-NAME KIND` line per op name (docs/kinds.md); adds to --kinds";

/// What a remark says when a pass finds nothing to work on, so a dialect the kind table does not
/// know is not skipped silently: `no op of kind K1 / K2 in this module (kinds known: ...); see
/// --kinds`. `missing` names the kinds the pass looked for and did not find.
inline std::string nothing_found_message(std::string_view pass, const std::vector<std::string>& missing,
                                         const std::vector<std::string>& known) {
  std::string s = std::string(pass) + ": no op of kind ";
  for (std::size_t i = 0; i < missing.size(); ++i) s += (i ? " / " : "") + missing[i];
  s += " in this module (kinds known: ";
  for (std::size_t i = 0; i < known.size(); ++i) s += (i ? ", " : "") + known[i];
  return s + "); see --kinds";
}

/// The kinds D looked for and found no op of in g (D::missing_kinds(g, plan)), else none.
template <pass_descriptor D, class G, class Plan>
std::vector<std::string> descriptor_missing_kinds(const G& g, const Plan& plan) {
  if constexpr (requires { { D::missing_kinds(g, plan) } -> std::convertible_to<std::vector<std::string>>; })
    return D::missing_kinds(g, plan);
  else
    return {};
}

/// The counters of a run of D on g with `plan` (`applied`: the plan is applied, not a dry run):
/// D::statistics(g, plan, applied), else none.
template <pass_descriptor D, class G, class Plan>
std::vector<pass_statistic> descriptor_statistics(const G& g, const Plan& plan, bool applied) {
  if constexpr (requires { D::statistics(g, plan, applied); })
    return D::statistics(g, plan, applied);
  else
    return {};
}

/// A descriptor whose pass splits into per-function parts for the IR G (see the header comment).
template <class D, class G>
concept partitioned_pass =
    pass_descriptor<D> && requires(const G& g, const typename D::options& o) {
      { D::units(g) } -> std::ranges::random_access_range;
      D::scratch(g, o);
    } && requires(const G& g, const typename D::options& o, decltype(D::scratch(g, o))& s,
                  std::ranges::range_value_t<decltype(D::units(g))> u) {
      D::plan_part(g, u, s);
      D::merge(g, o, std::vector<decltype(D::plan_part(g, u, s))>{});
    };

/// The plan type of descriptor D for the IR G.
template <class D, class G>
using pass_plan_t = decltype(D::plan(std::declval<const G&>(), std::declval<const typename D::options&>()));

/// D offers a checked apply for the IR G, printing with Printer (see the header comment).
template <class D, class G, class Printer>
concept checked_pass = requires(G& g, const pass_plan_t<D, G>& p, Printer pr) { D::apply_checked(g, p, pr); };

/// A partitioned pass whose plan can be applied one function at a time (see the header comment).
template <class D, class G>
concept part_applicable_pass = requires(const G& cg, const pass_plan_t<D, G>& p) {
  { D::apply_begin(cg, p)->tasks() } -> std::convertible_to<std::size_t>;
} && requires(G& g, const pass_plan_t<D, G>& p,
              typename decltype(D::apply_begin(std::declval<const G&>(), p))::value_type& st) {
  D::apply_task(g, p, st, std::size_t{});
  D::apply_end(g, p, st);
};

// ------------------------------------------------------------------------------ describe helpers
namespace describe_detail {

/// `"1 cluster"`, `"2 clusters"`.
inline std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

/// The printer's name for an op; `<none>` for the null op.
template <class G, class Printer>
std::string op_text(const G&, Printer& pr, op_handle_t<G> o) {
  if (ir::is_null<G>(o)) return "<none>";
  return std::string(pr(o));
}

/// The printer's name for a value when it has `value(v)`; otherwise `result #i of <op>` or
/// `a block argument`.
template <class G, class Printer>
std::string value_text(const G& g, Printer& pr, value_handle_t<G> v) {
  if constexpr (requires { pr.value(v); }) {
    return std::string(pr.value(v));
  } else {
    const auto d = ir::defining_op(g, v);
    if (ir::is_null<G>(d)) return "a block argument";
    std::size_t i = 0;
    for (auto&& r : ir::results(g, d)) {
      if (r == v) break;
      ++i;
    }
    return "result #" + std::to_string(i) + " of " + op_text(g, pr, d);
  }
}

/// The printer's name for a function op when it has `function(f)`; else the op's; `<module>`
/// for the null op (a root block without an owner).
template <class G, class Printer>
std::string function_text(const G& g, Printer& pr, op_handle_t<G> f) {
  if constexpr (requires { pr.function(f); }) {
    return std::string(pr.function(f));
  } else {
    if (ir::is_null<G>(f)) return "<module>";
    return op_text(g, pr, f);
  }
}

}  // namespace describe_detail

}  // namespace neuronrw
