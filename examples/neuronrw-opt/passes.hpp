// passes.hpp — what a registered pass does to the reference IR or to a host program, the same for
// every pass descriptor (run_descriptor): it fills its options struct from the pass_instance
// through the struct's schema, plans, reports the plan's refusals through the driver's
// diagnostics (errors fail the pass; remarks and notes do not), counts its statistics
// (D::statistics), and prints the plan (a dry run) or applies it. What a pass adds to that is a
// driver_extension specialization (ScheduleFusion: its dry run's cluster remarks and the plan
// --emit-dot draws). On a refusal the input stays exactly as it was.
//
// Diagnostic texts are those of the MLIR passes (neuronrw/adapters/mlir/passes.hpp) with the
// driver's pass names, so the same expectations hold in both tools' tests; both make the
// refusals' texts with the library's to_diagnostics (neuronrw/passes/diagnostics.hpp):
//   remark  schedule-fusion refused this candidate: CODE: MESSAGE    at the candidate
//   note    (what the op the refusal names is)                      at that op, when not the candidate
//   error   fusion-to-composite: CODE: MESSAGE                      at the op concerned
//   error   MaterializeCommDomainScopes: PYPTO MESSAGE [CODE]        at the expression concerned
//   error   PYPTO MESSAGE [CODE]                                     SynthesizeAllReduceSignals, at the allreduce
//   (the host passes carry pypto's own texts, so a pypto user finds them; the code trails)
//   error   validate-kinds: unknown_fusion_kind|unknown_composite_kind: REGISTRY MESSAGE
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <neuronrw/ir/host/comm_domain_scopes.hpp>
#include <neuronrw/ir/host/ir.hpp>
#include <neuronrw/ir/ref/diagnostics.hpp>
#include <neuronrw/ir/ref/fusion_to_composite.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/plan_printer.hpp>
#include <neuronrw/ir/ref/schedule_fusion.hpp>
#include <neuronrw/passes/allreduce_signals.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/passes/diagnostics.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>
#include <neuronrw/validate/check.hpp>

#include "diagnostics_render.hpp"
#include "pass_registry.hpp"
#include "plan_output.hpp"

namespace neuronrw_opt {

namespace nr = neuronrw;

static_assert(nr::schedule_fusion_pattern::budget == 100, "the options schema's budget default is the pattern's");

/// One counter of a pass (mlir-opt's Pass::Statistic): the library's, D::statistics.
using statistic = nr::pass_statistic;

/// What a pass run reports back to the pipeline.
struct pass_context {
  std::function<void(diagnostic)> emit;  ///< every diagnostic the pass reports
  std::vector<statistic> stats;    ///< filled by the pass
  std::optional<std::string> plan; ///< a dry run's printed plan (replaces the output)
  plan_format format = plan_format::text;  ///< how a dry run prints its plan (--plan-format)
  bool changed = false;            ///< the pass changed the IR
  bool verify_rewrites = false;    ///< --verify-rewrites: check the rewrite (docs/validation.md)
  bool remarks = false;            ///< --remarks: also a pass without a `remarks` option remarks
  /// --kinds=FILE's table (null: none); a pass's own `kinds=FILE` adds to it for that pass.
  std::shared_ptr<const nr::kind_map> kinds;
  /// The plan of a ScheduleFusion run (for --emit-dot), when its handles stay valid.
  std::optional<nr::ref_schedule_fusion_plan>* dot_plan = nullptr;
};

namespace pass_detail {

/// `FILE:LINE:COL` of an op of `m`.
inline std::string loc_text(const nr::ref::module& m, nr::ref::op_ref op) {
  const auto l = m.loc(op);
  return m.source_name + ":" + std::to_string(l.line) + ":" + std::to_string(l.col);
}

}  // namespace pass_detail

/// What neuronrw-opt does beyond the protocol for a pass: none by default. A specialization for
/// a descriptor type may give (each optional)
///   dry_run_remarks(m, plan, name, cx)   remarks a dry run adds under remarks=true, before the
///                                        refusals' diagnostics
///   after(m, plan, dry, cx)              after the run (the plan moved from: its last use)
///   plan_for_dot(m, options)             the plan --emit-dot=before draws
template <class D>
struct driver_extension {};

/// ScheduleFusion (not its composites flavour, whose plan --emit-dot does not draw): the dry
/// run's cluster remarks, and the plan --emit-dot draws.
template <class Pattern, bool Composites>
struct driver_extension<nr::passes::basic_schedule_fusion<Pattern, Composites>> {
  static void dry_run_remarks(const nr::ref::module& m, const nr::ref_schedule_fusion_plan& plan, const std::string& name,
                              pass_context& cx) {
    for (std::size_t i = 0; i < plan.clusters.size(); ++i) {
      const auto& c = plan.clusters[i];
      cx.emit(diagnostic{m.source_name, m.loc(c.consumer()),
                         name + ": cluster " + std::to_string(i) + " with the producer at " + pass_detail::loc_text(m, c.producer()) +
                             ": " + std::to_string(c.ops.size()) + " ops, " + std::to_string(c.carried.size()) +
                             " carried, " + std::to_string(c.moves.size()) + " moves",
                         severity::remark});
    }
  }
  /// The plan's handles stay valid after a plain apply (ScheduleFusion moves ops and never erases
  /// them); the composites flavour erases its fusions, so its plan is not kept.
  static void after(const nr::ref::module&, nr::ref_schedule_fusion_plan& plan, bool dry, pass_context& cx) {
    if (cx.dot_plan && (dry || !Composites)) *cx.dot_plan = std::move(plan);
  }
  static constexpr bool draws_dot = !Composites && std::is_same_v<Pattern, nr::schedule_fusion_pattern>;
  static nr::ref_schedule_fusion_plan plan_for_dot(const nr::ref::module& m,
                                                   const typename nr::passes::basic_schedule_fusion<Pattern, Composites>::options& o) {
    return nr::passes::basic_schedule_fusion<Pattern, Composites>::plan(m, o);
  }
};

namespace pass_detail {

/// The options struct of `p`, filled by its schema (neuronrw/passes/options.hpp) from the
/// pipeline's checked values; its strings view `p`'s values.
/// A field whose default the struct leaves open (the pattern's budget, kinds, FusionKind) is set
/// only when the pipeline gave it, so a pass registered with another pattern keeps its own.
template <class Options>
Options options_of(const pass_instance& p) {
  Options o;
  std::size_t k = 0;
  for (const auto& f : nr::option_schema_v<Options>) {
    if (!nr::offers(f.tools, nr::option_tools::driver)) continue;
    if (f.member && (!f.open_default || p.explicitly_set[k])) f.member.set(o, std::string_view(p.values[k]));
    ++k;
  }
  return o;
}

/// The rules between the options of `p` (D::check_options).
template <class D>
std::optional<nr::option_problem> check_options(const pass_instance& p) {
  return nr::descriptor_check_options<D>(options_of<typename D::options>(p));
}

/// What option `name` of `p` stands for when not given (D::implied_option_text), or empty.
template <class D>
std::string implied_text(const pass_instance& p, std::string_view name) {
  if constexpr (requires(const typename D::options& o) {
                  { D::implied_option_text(o, name) } -> std::convertible_to<std::string>;
                })
    return D::implied_option_text(options_of<typename D::options>(p), name);
  else
    return {};
}

/// Reads the kinds file `path` (docs/kinds.md); its errors are emitted. Null when it failed.
inline std::shared_ptr<const nr::kind_map> read_kinds_file(const std::string& path,
                                                          const std::function<void(diagnostic)>& emit) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    emit(diagnostic{path, {}, "cannot open the kinds file"});
    return nullptr;
  }
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto r = nr::kind_map::parse(text, path);
  for (auto& d : r.errors) emit(std::move(d));
  if (!r.ok()) return nullptr;
  return std::make_shared<const nr::kind_map>(std::move(*r.map));
}

/// The refusals of `plan` as the driver reports them (neuronrw/passes/diagnostics.hpp): located
/// at their ops and worded with the pass's name on the reference IR; located already, in the
/// pass's own words, on host programs.
template <class Plan>
nr::diagnostics refusal_diagnostics(const nr::ref::module& m, const Plan& plan, const std::string& name) {
  return nr::to_diagnostics(m, plan, nr::ref::op_locator{m}, {.pass = name});
}
template <class Plan>
nr::diagnostics refusal_diagnostics(const nr::host::program& prog, const Plan& plan, const std::string&) {
  return nr::to_diagnostics(prog, plan);  // pypto's text, then the code
}

/// The file name diagnostics about a whole document carry.
inline const std::string& source_name(const nr::ref::module& m) { return m.source_name; }
inline const std::string& source_name(const nr::host::program& p) { return p.file; }

/// A descriptor with a checked apply on the reference IR (validate/, docs/validation.md).
template <class D, class Doc, class Plan>
concept checkable = requires(Doc& doc, const Plan& plan) {
  D::apply_checked(doc, plan, nr::ref::plan_printer{doc});
};

/// A descriptor with a checked apply on host programs (MaterializeCommDomainScopes).
template <class D, class Doc, class Plan>
concept host_checkable = std::same_as<Doc, nr::host::program> && requires(Doc& doc, const Plan& plan) {
  D::apply_checked(doc, plan);
};

/// Whether D offers a checked apply on the input it runs on (its pass then has a
/// `verify-rewrites` option, as the MLIR passes do).
template <class D>
constexpr bool offers_check() {
  if constexpr (D::input == nr::pass_input::ops)
    return checkable<D, nr::ref::module, nr::pass_plan_t<D, nr::ref::module>>;
  else
    return host_checkable<D, nr::host::program, nr::pass_plan_t<D, nr::host::program>>;
}

/// What the dry run of a checked pass adds to its plan: the text's last line, or the JSON's
/// `verified` and `check` members (docs/plan-format.md §"verified"). A host program's check
/// covers statements, not ops (`unit`).
template <class Op>
void add_check_summary(std::string& plan, const nr::rewrite_check<Op>& check, plan_format format,
                       std::string_view unit = "ops") {
  const std::string n = std::to_string(check.ops), b = std::to_string(check.bytes),
                    k = std::to_string(check.mismatches.size() + check.unrecorded);
  if (format == plan_format::text) {
    plan += "verify-rewrites: the check covered " + n + " " + std::string(unit) + " (a snapshot of " + b + " bytes): " +
            (check.ok() ? std::string("ok") : k + " mismatches") + "\n";
    return;
  }
  // The document ends with "\n}\n" (json_writer.hpp's layout): add two members before it.
  if (plan.size() >= 3 && plan.compare(plan.size() - 3, 3, "\n}\n") == 0) {
    plan.resize(plan.size() - 3);
    plan += ",\n  \"verified\": " + std::string(check.ok() ? "true" : "false") + ",\n  \"check\": {\"ops\": " + n +
            ", \"snapshot_bytes\": " + b + ", \"mismatches\": " + k + "}\n}\n";
  }
}

/// Applies `plan` with D's checked apply inside the module's transaction: when the check fails,
/// its mismatches are emitted as errors and the module is rolled back (the pass fails, the input
/// unchanged). A dry run (`keep` false) always rolls back and reports mismatches as warnings: it
/// changes nothing, and its printed plan says `verified: false`. Returns the check.
template <class D, class Plan>
auto apply_verified(nr::ref::module& m, const Plan& plan, const std::string& name, bool keep, pass_context& cx) {
  const auto token = nr::ir_traits<nr::ref::module>::begin_transaction(m);
  auto r = D::apply_checked(m, plan, nr::ref::plan_printer{m});
  nr::diagnostics ds;
  if (!r.check.ok()) ds = nr::to_diagnostics(m, r.check, nr::ref::op_locator{m}, name);
  if (!keep)
    for (auto& d : ds) d.sev = severity::warning;
  if (keep && r.check.ok())
    nr::ir_traits<nr::ref::module>::commit(m, token);
  else
    nr::ir_traits<nr::ref::module>::rollback(m, token);
  for (auto& d : ds) cx.emit(std::move(d));
  return std::move(r.check);
}

/// apply_verified on a host program: the same, in the program's own transaction.
template <class D, class Plan>
auto apply_verified(nr::host::program& p, const Plan& plan, const std::string& name, bool keep, pass_context& cx) {
  using T = nr::host_traits<nr::host::program>;
  const auto token = T::begin_transaction(p);
  auto r = D::apply_checked(p, plan);
  nr::diagnostics ds;
  if (!r.check.ok())
    ds = nr::to_diagnostics(p, r.check, [&](const nr::source_loc& l) { return nr::diagnostic_location<nr::source_loc>{p.file, l}; }, name);
  if (!keep)
    for (auto& d : ds) d.sev = severity::warning;
  if (keep && r.check.ok())
    T::commit(p, token);
  else
    T::rollback(p, token);
  for (auto& d : ds) cx.emit(std::move(d));
  return std::move(r.check);
}

/// Any registered pass D on its input `doc`: plan; under remarks=true (or always, for a pass
/// without a `remarks` option) its refusals as diagnostics; its counters; then, unless it failed
/// (a plan that is not ok(), or an error), the dry run's printed plan or the apply. False: the
/// pass failed (its errors were emitted), `doc` unchanged.
template <class D, class Doc>
bool run_descriptor(Doc& doc, const pass_instance& p, pass_context& cx) {
  using ext = driver_extension<D>;
  const Doc& cdoc = doc;
  const auto o = options_of<typename D::options>(p);
  // The pass's own kinds file, over --kinds's table, for this pass only.
  std::shared_ptr<const nr::kind_map> restore;
  bool own_kinds = false;
  if constexpr (std::same_as<Doc, nr::ref::module>)
    if (p.has(nr::kinds_option) && !p.str(nr::kinds_option).empty()) {
      auto file = read_kinds_file(p.str(nr::kinds_option), cx.emit);
      if (!file) return false;
      auto merged = std::make_shared<nr::kind_map>(cx.kinds ? *cx.kinds : nr::kind_map{});
      merged->merge(*file);
      restore = doc.kinds();
      doc.set_kinds(std::move(merged));
      own_kinds = true;
    }
  struct reset {
    Doc& d;
    bool on;
    std::shared_ptr<const nr::kind_map> old;
    ~reset() {
      if constexpr (std::same_as<Doc, nr::ref::module>)
        if (on) d.set_kinds(std::move(old));
    }
  } reset_kinds{doc, own_kinds, std::move(restore)};
  auto plan = D::plan(cdoc, o);
  const std::string name(p.spec->name);
  const bool dry = p.dry_run();
  bool failed = false;
  const bool remarks = p.has("remarks") ? p.flag("remarks") : dry || cx.remarks;
  if constexpr (std::same_as<Doc, nr::ref::module>)
    if (remarks) {
      const auto missing = nr::descriptor_missing_kinds<D>(cdoc, plan);
      if (!missing.empty()) {
        const auto known = cdoc.kinds() ? cdoc.kinds()->known_kinds() : nr::kind_map{}.known_kinds();
        cx.emit(diagnostic{source_name(cdoc), {1, 1}, nr::nothing_found_message(name, missing, known), severity::remark});
      }
    }
  if (!p.has("remarks") || p.flag("remarks")) {
    if constexpr (requires { ext::dry_run_remarks(cdoc, plan, name, cx); })
      if (dry) ext::dry_run_remarks(cdoc, plan, name, cx);
    for (auto& d : refusal_diagnostics(cdoc, plan, name)) {
      failed |= d.sev == severity::error;
      cx.emit(std::move(d));
    }
  }
  cx.stats = nr::descriptor_statistics<D>(cdoc, plan, !dry);
  if constexpr (requires { plan.ok(); }) failed = !plan.ok();
  if (failed) return false;
  constexpr bool can_check = checkable<D, Doc, decltype(plan)> || host_checkable<D, Doc, decltype(plan)>;
  // --verify-rewrites, or the pass's own verify-rewrites=true (the MLIR passes' option).
  const bool verify = cx.verify_rewrites || (p.has(nr::verify_rewrites_option) && p.flag(nr::verify_rewrites_option));
  constexpr std::string_view unit = std::same_as<Doc, nr::host::program> ? "statements" : "ops";
  if (verify && !can_check && plan.has_changes())
    cx.emit(diagnostic{source_name(cdoc), {}, name + ": --verify-rewrites: this pass has no rewrite check; its output is not checked",
                       severity::warning});
  if (dry) {
    cx.plan = render_plan<D>(doc, plan, cx.format);
    if constexpr (can_check)
      if (verify) add_check_summary(*cx.plan, apply_verified<D>(doc, plan, name, false, cx), cx.format, unit);
  } else {
    cx.changed = plan.has_changes();
    bool checked = false;
    if constexpr (can_check)
      if (verify) {
        checked = true;
        if (!apply_verified<D>(doc, plan, name, true, cx).ok()) return false;
      }
    if (!checked) D::apply(doc, plan);
  }
  if constexpr (requires { ext::after(cdoc, plan, dry, cx); }) ext::after(cdoc, plan, dry, cx);
  return true;
}

/// The plan --emit-dot=before draws for the instance `p` of D.
template <class D>
std::optional<nr::ref_schedule_fusion_plan> plan_for_dot(const nr::ref::module& m, const pass_instance& p) {
  return driver_extension<D>::plan_for_dot(m, options_of<typename D::options>(p));
}

}  // namespace pass_detail

/// Runs `p` on the reference IR. False: the pass failed (its errors were emitted), `m` unchanged.
inline bool run_pass(nr::ref::module& m, const pass_instance& p, pass_context& cx) {
  return p.spec->run_mlir != nullptr && p.spec->run_mlir(m, p, cx);
}

/// Runs `p` on a host program.
inline bool run_pass(nr::host::program& prog, const pass_instance& p, pass_context& cx) {
  return p.spec->run_host != nullptr && p.spec->run_host(prog, p, cx);
}

}  // namespace neuronrw_opt
