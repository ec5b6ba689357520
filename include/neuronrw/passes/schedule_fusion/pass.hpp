// neuronrw/passes/schedule_fusion/pass.hpp — ScheduleFusion's descriptors (passes/protocol.hpp):
// neuronrw::passes::schedule_fusion and ::schedule_fusion_composites, or basic_schedule_fusion
// for another co-scheduling pattern. They carry the pass's name, summary and options, its entry
// points, and its per-function parts:
//   units       the functions (ir::functions), or root blocks given as root_block{b}
//   plan_part   one function's clusters and refusals, indices from 0 (a function carrying the
//               skip attribute gives only itself as skipped)
//   merge       the parts concatenated in unit order, indices shifted, refusal messages that name
//               a cluster redone, and (composites flavour) the decomposition names given over the
//               whole plan in composite_order: the plan of plan_schedule_fusion[_composites]
//   apply_*     the clusters of one function per task (its moves, then its groupings, the last
//               first); apply_end lowers the composites, which creates module-level functions
//
// Customization points: the pattern (template parameter). Complexity: as the pass, plus
// O(plan size) to merge.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/passes/protocol.hpp>
#include <neuronrw/passes/schedule_fusion/apply.hpp>
#include <neuronrw/passes/schedule_fusion/checked.hpp>
#include <neuronrw/passes/schedule_fusion/describe.hpp>
#include <neuronrw/passes/schedule_fusion/plan.hpp>
#include <neuronrw/passes/schedule_fusion/planner.hpp>

namespace neuronrw::passes {

template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, bool Composites = false>
struct basic_schedule_fusion {
  static constexpr std::string_view name = Composites ? "schedule-fusion-composites" : "schedule-fusion";
  static constexpr std::string_view display = Composites ? "ScheduleFusionComposites" : "ScheduleFusion";
  static constexpr std::string_view summary =
      Composites ? "ScheduleFusion, each cluster lowered to a stablehlo.composite with a private decomposition"
                 : "Co-schedule each all_gather with the reduce_scatter it feeds into fusions tagged FusionKind";
  static constexpr pass_input input = pass_input::ops;
  using pattern = Pattern;
  using options = schedule_fusion_options;
  /// The defaults the schema leaves open (passes/options.hpp): the pattern's budget and kind.
  static std::string option_default(std::string_view option) {
    if (option == "budget") return std::to_string(Pattern::budget);
    if (option == "producer") return std::string(Pattern::producer::name);
    if (option == "consumer") return std::string(Pattern::consumer::name);
    if (option == "boundary") return sf_detail::pattern_boundary_text<Pattern>();
    return option == "fusion-kind" ? std::string(Pattern::fusion_kind) : std::string();
  }
  /// The kinds it found no op of (the tools' "no op of kind all_gather / reduce_scatter"
  /// remark): none when it had a candidate (an op of the consumer kind) or skipped a function;
  /// else the consumer kind, after the producer kind when no op has that either.
  template <class G>
  static std::vector<std::string> missing_kinds(const G& g, const schedule_fusion_plan_t<G>& plan) {
    if (plan.candidates() != 0 || !plan.skipped_functions.empty()) return {};
    bool producer = false;
    const kind_id pid = kind_id_of(plan.producer_kind);
    if constexpr (requires { ir::functions(g); })
      for (auto&& f : ir::functions(g))
        for (auto&& b : ir::regions(g, f))
          if (!producer)
            read_walk(g, b, [&](op_handle_t<G> o) {
              producer = ir::kind(g, o) == pid;
              return producer ? walk_action::interrupt : walk_action::advance;
            });
    std::vector<std::string> out;
    if (!producer && plan.producer_kind != plan.consumer_kind) out.push_back(plan.producer_kind);
    out.push_back(plan.consumer_kind);
    return out;
  }
  /// The rules between options: a run-time pattern held to the compile-time one's
  /// (check_schedule_fusion_options).
  static std::optional<option_problem> check_options(const options& o) {
    return check_schedule_fusion_options<Pattern>(o);
  }
  /// What an option left open stands for, given the others, when that is not its default text:
  /// an open boundary is the pattern's plus the producer and consumer (planner.hpp's
  /// pattern_boundary), so a printed pipeline that sets it reads back with the same meaning.
  /// Empty: the default text.
  static std::string implied_option_text(const options& o, std::string_view name) {
    if (name != "boundary" || !o.boundary.empty()) return {};
    std::string text = sf_detail::pattern_boundary_text<Pattern>();
    if (text.empty()) return {};
    std::vector<std::string> kinds;
    if (parse_kind_list(text, kinds)) return {};
    const std::string producer = o.producer.empty() ? std::string(Pattern::producer::name) : canonical_kind_name(o.producer);
    const std::string consumer = o.consumer.empty() ? std::string(Pattern::consumer::name) : canonical_kind_name(o.consumer);
    for (const std::string* k : {&producer, &consumer})
      if (std::find(kinds.begin(), kinds.end(), *k) == kinds.end()) {
        kinds.push_back(*k);
        text += "," + *k;
      }
    return text;
  }
  /// The MLIR passes' description (docs/mlir.md).
  static constexpr std::string_view mlir_summary =
      Composites ? "Co-schedule collective pairs (all_gather -> reduce_scatter) and lower each cluster to a "
                   "stablehlo.composite with a private decomposition"
                 : "Co-schedule collective pairs (all_gather -> reduce_scatter) into fusions tagged FusionKind";
  /// The dry-run flag (`schedule-fusion-dry-run`); the composites flavour has none.
  static constexpr std::string_view dry_run_help = Composites ? "" : "print the plan (clusters, moves, refusals); change nothing";
  template <class G>
  using traits = ir_traits<std::remove_cvref_t<G>>;
  template <class G>
  using plan_type = schedule_fusion_plan_t<G>;

  /// Its counters: candidates, clusters, composites, moves, and one per refusal code.
  template <class G>
  static std::vector<pass_statistic> statistics(const G&, const plan_type<G>& plan, bool applied) {
    std::uint64_t moves = 0;
    if (applied)
      for (const auto& c : plan.clusters) moves += c.moves.size();
    std::vector<pass_statistic> out = {
        {"candidates", "Candidate consumers examined", plan.candidates()},
        {"clusters", "Clusters formed", plan.clusters.size()},
        {"composites", "Composites created (composites flavour)", applied && Composites ? plan.clusters.size() : 0},
        {"moves", "Ops moved by the reschedule", moves}};
    static constexpr schedule_refusal codes[] = {
        schedule_refusal::no_producer_operand, schedule_refusal::already_fused,   schedule_refusal::producer_claimed,
        schedule_refusal::different_block,     schedule_refusal::budget_exceeded, schedule_refusal::non_convex,
        schedule_refusal::splits_cluster,      schedule_refusal::reschedule_refused};
    static constexpr std::string_view descriptions[] = {
        "Refused: no producer operand",       "Refused: already inside a fusion", "Refused: producer in an earlier cluster",
        "Refused: producer in another block", "Refused: walk budget exceeded",    "Refused: cluster not convex",
        "Refused: would split an earlier cluster", "Refused: dominance repair refused"};
    for (std::size_t k = 0; k < std::size(codes); ++k) {
      std::uint64_t n = 0;
      for (const auto& r : plan.refused) n += r.code == codes[k];
      out.push_back({"refused-" + std::string(to_string(codes[k])), std::string(descriptions[k]), n});
    }
    return out;
  }

  template <class G>
  static plan_type<G> plan(const G& g, const options& o = {}) {
    if constexpr (Composites)
      return plan_schedule_fusion_composites<Pattern>(g, o);
    else
      return plan_schedule_fusion<Pattern>(g, o);
  }
  template <class G>
  static std::vector<op_handle_t<G>> apply(G& g, const plan_type<G>& p) {
    return neuronrw::apply(g, p);
  }
  template <class G, class Printer>
  static std::string describe(const G& g, const plan_type<G>& p, Printer&& printer) {
    return neuronrw::describe(g, p, std::forward<Printer>(printer));
  }
  /// The checked apply and what its check covers (passes/schedule_fusion/checked.hpp).
  template <class G, class Printer>
  static auto apply_checked(G& g, const plan_type<G>& p, Printer&& printer) {
    return neuronrw::apply_checked(g, p, std::forward<Printer>(printer));
  }
  template <class G>
  static auto check_scope(const G& g, const plan_type<G>& p) {
    return neuronrw::check_scope(g, p);
  }

  // ------------------------------------------------------------------------ per-function parts
  template <class G>
  static std::vector<op_handle_t<G>> units(const G& g) {
    std::vector<op_handle_t<G>> fs;
    for (auto&& f : ir::functions(g)) fs.push_back(f);
    return fs;
  }
  template <class G>
  static sf_detail::planner<Pattern, G> scratch(const G& g, const options& o) {
    return sf_detail::planner<Pattern, G>(g, o, Composites);
  }
  /// One function: its regions, or nothing when it carries the skip attribute.
  template <class G>
  static plan_type<G> plan_part(const G& g, op_handle_t<G> f, sf_detail::planner<Pattern, G>& p) {
    if (!p.skips(f))
      for (auto&& b : ir::regions(g, f)) p.run_root(b);
    else
      p.skip_function(f);
    return p.take_part();
  }
  /// One root block (IRs whose functions are not ops).
  template <class G>
  static plan_type<G> plan_part(const G&, root_block<block_handle_t<G>> b, sf_detail::planner<Pattern, G>& p) {
    p.run_root(b.block);
    return p.take_part();
  }
  template <class G>
  static plan_type<G> merge(const G& g, const options& o, std::vector<plan_type<G>>&& parts) {
    using planner_t = sf_detail::planner<Pattern, G>;
    // The header fields come from an empty part: the same options, planned from nothing.
    plan_type<G> out = planner_t(g, o, false).take_part();
    out.emit_composites = Composites;
    for (auto& part : parts) append<G>(out, std::move(part));
    if constexpr (Composites && outlinable_ir<G>) {
      std::size_t counter = 0;  // module-level: the names count over the whole plan
      for (const std::size_t i : out.composite_order) {
        std::string n;
        do n = std::string(o.composite_prefix) + std::to_string(counter++);
        while (ir::has_symbol(g, n));
        out.clusters[i].decomposition = std::move(n);
      }
    }
    return out;
  }

  // ------------------------------------------------------------------ per-function application
  template <class G>
  struct apply_state {
    std::vector<std::size_t> bounds;  ///< task k owns the clusters [bounds[busy[k]], bounds[busy[k] + 1])
    std::vector<std::size_t> busy;    ///< the functions with clusters
    std::vector<op_handle_t<G>> groups;
    std::size_t tasks() const noexcept { return busy.size(); }
  };
  /// The clusters of each function, when consecutive clusters of one function owner make up the
  /// plan (a plan made function by function); nullopt otherwise (apply sequentially). A unit
  /// whose owner the IR cannot tell (null) counts as a function of its own only when the caller
  /// knows the units are different functions (`units_are_functions`: the parallel driver planned
  /// them as its units); otherwise such a plan applies sequentially.
  template <class G>
  static std::optional<apply_state<G>> apply_begin(const G&, const plan_type<G>& plan, bool units_are_functions = false) {
    using op = op_handle_t<G>;
    apply_state<G> st;
    std::unordered_set<op, handle_hash<op>> seen;
    std::unordered_set<std::size_t> seen_units;
    for (std::size_t i = 0; i < plan.clusters.size(); ++i) {
      const std::size_t u = plan.clusters[i].unit;
      const op f = plan.units[u];
      const bool known = f != ir::null_op<G>();
      if (!known && !units_are_functions) return std::nullopt;
      if (i != 0) {
        const std::size_t pu = plan.clusters[i - 1].unit;
        if (known ? plan.units[pu] == f : pu == u) continue;
      }
      if (!(known ? seen.insert(f).second : seen_units.insert(u).second)) return std::nullopt;
      st.bounds.push_back(i);
    }
    st.bounds.push_back(plan.clusters.size());
    for (std::size_t k = 0; k + 1 < st.bounds.size(); ++k) st.busy.push_back(k);
    st.groups.assign(plan.clusters.size(), ir::null_op<G>());
    return st;
  }
  template <class G>
  static void apply_task(G& g, const plan_type<G>& plan, apply_state<G>& st, std::size_t k) {
    const std::size_t lo = st.bounds[st.busy[k]], hi = st.bounds[st.busy[k] + 1];
    txn_detail::unchecked_steps steps;
    sf_detail::reschedule(g, plan, steps, lo, hi);
    sf_detail::grouping(g, plan, steps, lo, hi, st.groups);
  }
  template <class G>
  static std::vector<op_handle_t<G>> apply_end(G& g, const plan_type<G>& plan, apply_state<G>& st) {
    if constexpr (outlinable_ir<G>)
      if (plan.emit_composites) {
        txn_detail::unchecked_steps steps;
        return sf_detail::composites(g, plan, st.groups, "stablehlo.composite", steps);
      }
    return std::move(st.groups);
  }

 private:
  /// Appends `part` (planned alone, indices from 0) to `out`, shifting its indices.
  template <class G, class Plan = plan_type<G>>
  static void append(Plan& out, Plan&& part) {
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
        r.message = sf_detail::planner<Pattern, G>::message(out, r);
      }
      out.refused.push_back(std::move(r));
    }
    for (auto& u : part.units) out.units.push_back(u);
    for (auto& f : part.skipped_functions) out.skipped_functions.push_back(f);
    for (const std::size_t i : part.composite_order) out.composite_order.push_back(i + clusters);
  }
};

using schedule_fusion = basic_schedule_fusion<>;
using schedule_fusion_composites = basic_schedule_fusion<schedule_fusion_pattern, true>;

}  // namespace neuronrw::passes
