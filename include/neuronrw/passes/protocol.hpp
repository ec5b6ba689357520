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
// Customization point: the op printer given to describe (see describe_detail below): a callable
// `std::string(op_handle)`, optionally with members `value(value_handle)` and `function(op_handle)`
// that name values and functions the IR's own way.
#pragma once

#include <concepts>
#include <cstddef>
#include <ranges>
#include <string>
#include <string_view>
#include <utility>

#include <neuronrw/concepts/ir.hpp>

namespace neuronrw {

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
