// neuronrw/passes/diagnostics.hpp — a plan's refusals as diagnostics (neuronrw/diagnostic.hpp):
// the one translation the driver, the MLIR passes and the reference IRs' entry points share, so
// a refusal reads the same wherever it is reported.
//
//   auto ds = to_diagnostics(g, plan, locate);                  // what the tools print
//   auto ds = to_diagnostics(g, plan, locate, {.pass = "my-pass"});
//   auto ds = to_diagnostics(g, plan, locate, {.style = refusal_style::message});
//   auto ds = to_diagnostics(p, plan);                          // host plans locate themselves
//
// One diagnostic per refusal, in plan order. Each pass words its refusals (the texts the
// driver's and the MLIR passes' tests expect, docs/passes.md §"Diagnostics"):
//
//   ScheduleFusion             remark  PASS refused this candidate: CODE: MESSAGE   at the candidate
//                                note  note_text(CODE)                            at r.op, when not the candidate
//   FusionToComposite          error   PASS: CODE: MESSAGE                         at r.op
//   MaterializeCommDomainScopes error  PYPTO MESSAGE [CODE]                        at r.loc
//   SynthesizeAllReduceSignals error   PYPTO MESSAGE [CODE]                        at r.loc
//   any other pass             error   PASS: CODE: MESSAGE                         at r.op
//
// PASS is refusal_wording::pass (the running pass's name: the driver's `schedule-fusion`, the
// MLIR pass's `neuronrw-schedule-fusion`), by default the pass's driver name; the host passes
// carry pypto's own texts, so a pypto user finds them, and name no PASS. With
// refusal_style::message a diagnostic says the message alone (pypto's text for the host
// passes), as the reference IRs' entry points return it.
//
// Customization points:
//   - `locate(op)`: where a diagnostic about `op` points. Returns a diagnostic_location<Loc>
//     (a file name and a location) or a bare `Loc` (a location that names its source itself, as
//     the MLIR adapter's mlir::Operation*); the diagnostics are basic_diagnostic<Loc>.
//   - `refusal_words(g, plan, record, wording)`, found by argument-dependent lookup: how a pass
//     words one refusal (a worded_refusal: severity, anchor, message, notes at ops). The four
//     passes define theirs beside their plans; a pass without one gets `PASS: CODE: MESSAGE`
//     (CODE by `to_string(code)` when the code has one), an error at r.op.
//
// Also here: the located lines every host pass's dry run ends with (line_col, located_lines).
// Nothing here throws or needs RTTI; everything is deterministic (plan order).
#pragma once

#include <concepts>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <neuronrw/detail/ranges.hpp>
#include <neuronrw/diagnostic.hpp>
#include <neuronrw/passes/protocol.hpp>

namespace neuronrw {

/// How much a diagnostic about a refusal says besides the pass's message.
enum class refusal_style : std::uint8_t {
  tool,     ///< what neuronrw-opt and the MLIR passes print: the pass's name and the refusal code too
  message,  ///< the message alone, as the pass (or pypto) words it: the reference IRs' entry points
};

/// How to_diagnostics words refusals; fill with designated initializers.
struct refusal_wording {
  /// The running pass's name (its argument: `schedule-fusion`, `neuronrw-fusion-to-composite`);
  /// empty: the pass's driver name. The host passes' texts are pypto's and name no pass.
  std::string_view pass = {};
  refusal_style style = refusal_style::tool;
};

/// What `locate` returns when the location type does not name its source: a file name and a
/// location in it (`diagnostic_location{m.source_name, m.loc(op)}`).
template <class Loc>
struct diagnostic_location {
  std::string file;
  Loc loc{};
};
template <class Loc>
diagnostic_location(std::string, Loc) -> diagnostic_location<Loc>;

/// One refusal as its pass words it (what a `refusal_words` hook returns): to_diagnostics
/// locates `at` and each note's op with `locate`.
template <class Anchor, class Op = Anchor>
struct worded_refusal {
  struct note {
    Op op{};
    std::string message;
  };
  severity sev = severity::error;
  Anchor at{};  ///< an op of the plan's IR, or an already located diagnostic_location
  std::string message;
  std::vector<note> notes;
};

namespace diagnostics_detail {

template <class T>
struct location_of {
  using type = T;
  static std::string file(const T&) { return {}; }
  static const T& loc(const T& t) { return t; }
};
template <class Loc>
struct location_of<diagnostic_location<Loc>> {
  using type = Loc;
  static std::string file(const diagnostic_location<Loc>& t) { return t.file; }
  static const Loc& loc(const diagnostic_location<Loc>& t) { return t.loc; }
};

template <class Located>
auto make(const Located& where, std::string message, severity sev) {
  using L = location_of<std::remove_cvref_t<Located>>;
  return basic_diagnostic<typename L::type>{L::file(where), L::loc(where), std::move(message), sev, {}};
}

/// `CODE` when the code has a to_string, else its number.
template <class Code>
std::string code_text(const Code& c) {
  if constexpr (requires { std::string_view(to_string(c)); }) {
    return std::string(to_string(c));
  } else {
    return std::to_string(static_cast<long long>(c));
  }
}

/// The wording of a pass without a refusal_words hook: `PASS: CODE: MESSAGE`, an error at r.op.
template <class G, class Plan, class R>
auto default_words(const G&, const Plan&, const R& r, const refusal_wording& w) {
  worded_refusal<std::remove_cvref_t<decltype(r.op)>> out;
  out.at = r.op;
  if (w.style == refusal_style::tool) {
    if (!w.pass.empty()) out.message += std::string(w.pass) + ": ";
    out.message += code_text(r.code) + ": ";
  }
  out.message += std::string_view(r.message);
  return out;
}

template <class G, class Plan, class R>
auto words(const G& g, const Plan& plan, const R& r, const refusal_wording& w) {
  if constexpr (requires { refusal_words(g, plan, r, w); }) {
    return refusal_words(g, plan, r, w);
  } else {
    return default_words(g, plan, r, w);
  }
}

template <class G, class Plan>
using record_t = std::ranges::range_value_t<decltype(std::declval<const Plan&>().refusals())>;
template <class G, class Plan>
using words_t = decltype(words(std::declval<const G&>(), std::declval<const Plan&>(),
                               std::declval<const record_t<G, Plan>&>(), std::declval<const refusal_wording&>()));
template <class G, class Plan>
using anchor_t = decltype(std::declval<words_t<G, Plan>&>().at);

template <class T>
inline constexpr bool is_diagnostic_location = false;
template <class Loc>
inline constexpr bool is_diagnostic_location<diagnostic_location<Loc>> = true;

}  // namespace diagnostics_detail

/// The refusals of `plan` (made on `g`) as diagnostics, one per refusal in plan order, with the
/// notes its pass attaches; `locate(op)` says where each points (see the header comment).
/// Returns std::vector<basic_diagnostic<Loc>>, Loc as `locate` gives it.
template <class G, pass_plan Plan, class Locate>
  requires std::invocable<Locate&, const diagnostics_detail::anchor_t<G, Plan>&>
auto to_diagnostics(const G& g, const Plan& plan, Locate&& locate, const refusal_wording& wording = {}) {
  namespace d = diagnostics_detail;
  using located = std::remove_cvref_t<std::invoke_result_t<Locate&, const d::anchor_t<G, Plan>&>>;
  using loc_t = typename d::location_of<located>::type;
  std::vector<basic_diagnostic<loc_t>> out;
  for (const auto& r : plan.refusals()) {
    auto w = d::words(g, plan, r, wording);
    auto diag = d::make(std::invoke(locate, std::as_const(w.at)), std::move(w.message), w.sev);
    for (auto& n : w.notes) diag.notes.push_back(d::make(std::invoke(locate, std::as_const(n.op)), std::move(n.message), severity::note));
    out.push_back(std::move(diag));
  }
  return out;
}

/// The same for a plan whose refusals are located already (the host passes: each refusal
/// carries the location pypto reports it at): no `locate` needed.
template <class G, pass_plan Plan>
  requires diagnostics_detail::is_diagnostic_location<diagnostics_detail::anchor_t<G, Plan>>
auto to_diagnostics(const G& g, const Plan& plan, const refusal_wording& wording = {}) {
  return to_diagnostics(g, plan, std::identity{}, wording);
}

// ------------------------------------------------------------------- located lines of a dry run

/// `LINE:COL`: how a host pass's dry run names a place of its program.
inline std::string line_col(source_loc l) { return std::to_string(l.line) + ":" + std::to_string(l.col); }

/// Each diagnostic's str() and a newline, in order: the located lines a dry run ends with (its
/// remarks, then its refusals as the errors the pass reports).
template <std::ranges::input_range Range>
std::string located_lines(const Range& ds) {
  std::string out;
  for (const auto& d : ds) {
    out += d.str();
    out += '\n';
  }
  return out;
}

}  // namespace neuronrw
