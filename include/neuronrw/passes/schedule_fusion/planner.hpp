// neuronrw/passes/schedule_fusion/planner.hpp — ScheduleFusion's planner: matches each consumer
// collective with its producer, checks the walk budget and convexity, and plans the reschedule,
// without changing the IR (docs/schedule-fusion.md §"Semantics").
//
// Customization points:
//   - the IR: any model of neuronrw::ordered_ir (ir_traits<G>, concepts/ir.hpp): planning reads
//     only; applying the plan needs groupable_ir (apply.hpp). Detected:
//     `functions(g)` (+ `has_attribute`) lets the pass find the functions itself; the optional
//     capability `argument_block` makes live-in detection exact for block arguments used inside
//     nested regions of cluster ops (see "Live-ins" below).
//   - the pattern (passes/schedule_fusion/pattern.hpp) and schedule_fusion_options (plan.hpp),
//     whose producer / consumer / boundary may replace the pattern's at run time
//     (check_schedule_fusion_options; docs/schedule-fusion.md §"Patterns from a pipeline").
//
// Semantics, per candidate consumer C (a Consumer-kind op), in pre-order walk order (outermost
// first, block order; each op once, in the IR's original order):
//   1. C's parent op is a fusion (kind `fusion`, or carries a FusionKind string) → already_fused.
//   2. The producer P: the first defining op of C's operands, in operand order, that is a
//      Producer-kind op in C's block and not claimed by an earlier cluster of this run. None →
//      producer_claimed / different_block (for the first Producer-kind operand that failed so),
//      else no_producer_operand.
//   3. dependence_walk from C's producers, floored at P, with the pattern's boundary set and
//      budget → budget_exceeded when the window holds more than `budget` producers of C.
//   4. check_convexity(P, C): an op reachable from P that feeds C (through any op, other
//      collectives included) → non_convex, naming the op and the path's end points.
//   5. The reschedule (plan_sink): P moves to immediately before C; the ops of (P, C) that use P
//      transitively move, in order, to immediately after the cluster. Then C's get_tuple_element
//      users in the block move to immediately after C and join the cluster (a GTE that would need
//      another op hoisted with it stays outside; C's result is then a live-out). An earlier
//      cluster in the window moves as a unit, as its grouping op will: it is carried whole when
//      one of its members uses a carried op. When C itself uses such a cluster, it could go
//      neither way → splits_cluster. A repair the algorithm layer refuses → reschedule_refused
//      (cannot happen on a valid block).
//   Planning never changes the IR: it simulates the moves of earlier clusters on an order overlay
//   (algorithms/scheduled_view.hpp), so every cluster is planned against the order the earlier
//   reschedules produce — match-and-move-as-you-go, without the mutation.
//
// Live-ins: every value used by a cluster op or by an op nested in one, defined outside the
// cluster. A block argument used directly by a cluster op is a live-in; one used only inside a
// nested region is a live-in when the IR answers `argument_block` and that block lies outside the
// cluster (the reference IR's traits answer it); without that capability it is taken to be an
// argument of the nested region itself (it almost always is: a reduction body's operands).
//
// Complexity: O(Σ windows + operands in them) plus, for each block where a cluster moves ops,
// one O(block) overlay build.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <neuronrw/algorithms/ancestry.hpp>
#include <neuronrw/algorithms/block_dataflow.hpp>
#include <neuronrw/algorithms/convexity.hpp>
#include <neuronrw/algorithms/dependence_walk.hpp>
#include <neuronrw/algorithms/dominance_repair.hpp>
#include <neuronrw/algorithms/scheduled_view.hpp>
#include <neuronrw/algorithms/walk.hpp>
#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/descriptors/kind_names.hpp>
#include <neuronrw/descriptors/kinds.hpp>
#include <neuronrw/detail/ranges.hpp>
#include <neuronrw/passes/composite_lowering.hpp>
#include <neuronrw/passes/schedule_fusion/pattern.hpp>
#include <neuronrw/passes/schedule_fusion/plan.hpp>

namespace neuronrw {

namespace sf_detail {

// A groupable IR may also list its functions (outlinable_ir requirement 16) and answer attribute
// queries (17): then the pass finds the functions itself and skips the marked ones.
template <class G>
concept has_functions = requires(const G& g) {
  { ir_traits<G>::functions(g) } -> concepts_detail::range_of<op_handle_t<G>>;
};
template <class G>
concept has_attribute_query = requires(const G& g, op_handle_t<G> o) {
  { ir_traits<G>::has_attribute(g, o, std::string_view{}) } -> std::convertible_to<bool>;
};

/// The boundary set of a pattern as the walk uses it: the kinds the options list, or the
/// pattern's compile-time set. Either way one run-time set type, so the dependence walk is
/// instantiated once per IR, not once per set type (docs/performance.md §"Compile cost of
/// including neuronrw"). The set always holds the producer and consumer kinds
/// (check_schedule_fusion_options makes an explicit boundary say so; an implicit one is the
/// pattern's plus them).
template <co_schedule_pattern_like Pattern>
struct pattern_boundary {
  /// The listed kinds, plus (nothing listed, and the pattern's set does not list its ids or has
  /// more than runtime_boundary_set::max_kinds) the pattern's set through `base`.
  struct set {
    runtime_boundary_set listed;
    bool (*base)(kind_id) = nullptr;
    /// Bit (id mod 64) of every listed id: most ops the walk asks about are not in the set, and
    /// one test of this mask answers for them without scanning the list.
    std::uint64_t filter = 0;
    bool contains(kind_id k) const noexcept {
      if ((filter >> (k & 63u) & 1u) != 0 && listed.contains(k)) return true;
      return base != nullptr && base(k);
    }
  };
  static bool pattern_contains(kind_id k) noexcept { return typename Pattern::boundary{}.contains(k); }

  static set of(const schedule_fusion_options& opt, kind_id producer, kind_id consumer) {
    set s;
    if (!opt.boundary.empty()) {
      std::vector<std::string> kinds;
      (void)parse_kind_list(opt.boundary, kinds);  // checked before (check_schedule_fusion_options)
      for (const auto& k : kinds) s.listed.add(kind_id_of(k));
    } else {
      bool listed = false;
      if constexpr (requires { Pattern::boundary::ids(); }) {
        const auto& ids = Pattern::boundary::ids();
        if (ids.size() + 2 <= runtime_boundary_set::max_kinds) {
          for (const kind_id id : ids) s.listed.add(id);
          listed = true;
        }
      }
      if (!listed) s.base = &pattern_contains;
    }
    s.listed.add(producer);
    s.listed.add(consumer);
    for (std::size_t i = 0; i < s.listed.count; ++i) s.filter |= std::uint64_t{1} << (s.listed.ids[i] & 63u);
    return s;
  }
};

/// The pattern's boundary names joined by commas (the `boundary` option's default text), or empty
/// when the boundary set type does not list its names.
template <co_schedule_pattern_like Pattern>
std::string pattern_boundary_text() {
  std::string out;
  if constexpr (requires { Pattern::boundary::names(); })
    for (const auto& n : Pattern::boundary::names()) out += (out.empty() ? "" : ",") + std::string(n);
  return out;
}

template <co_schedule_pattern_like Pattern, class G>
class planner {
  using op = op_handle_t<G>;
  using value = value_handle_t<G>;
  using block = block_handle_t<G>;
  using view = scheduled_view<G>;
  using plan_type = schedule_fusion_plan<op, value>;
  using cluster_type = typename plan_type::cluster;
  using refusal_type = typename plan_type::refusal_record;

 public:
  planner(const G& g, const schedule_fusion_options& opt, bool emit_composites)
      : g_(g), view_(g), scratch_(view_) {
    plan_.producer_kind = opt.producer.empty() ? std::string(Pattern::producer::name) : canonical_kind_name(opt.producer);
    plan_.consumer_kind = opt.consumer.empty() ? std::string(Pattern::consumer::name) : canonical_kind_name(opt.consumer);
    producer_ = kind_id_of(plan_.producer_kind);
    consumer_ = kind_id_of(plan_.consumer_kind);
    boundary_ = pattern_boundary<Pattern>::of(opt, producer_, consumer_);
    plan_.fusion_kind = std::string(opt.fusion_kind.empty() ? Pattern::fusion_kind : opt.fusion_kind);
    plan_.group_op_name = std::string(opt.group_op_name);
    plan_.terminator_name = std::string(opt.terminator_name);
    plan_.budget = opt.budget ? *opt.budget : Pattern::budget;
    plan_.skip_attribute = std::string(opt.skip_functions_with);
    plan_.emit_composites = emit_composites;
    composite_prefix_ = opt.composite_prefix;
  }

  void skip_function(op f) { plan_.skipped_functions.push_back(f); }
  /// Whether function `f` carries the options' skip attribute (never, on IRs without
  /// has_attribute).
  bool skips(op f) const {
    if constexpr (has_attribute_query<G>)
      return !plan_.skip_attribute.empty() && ir::has_attribute(g_, f, plan_.skip_attribute);
    else
      return false;
  }

  /// Plans every candidate nested (at any depth) in `root`, in pre-order.
  void run_root(block root) {
    const std::size_t unit = plan_.units.size();
    {
      auto&& r = ir::ops(g_, root);
      auto it = std::ranges::begin(r);
      plan_.units.push_back(it == std::ranges::end(r) ? ir::null_op<G>() : ir::parent_op(g_, *it));
    }
    // Over G's original order: the view's moves never change which candidates there are.
    // Planning changes nothing in G, so the scan reads each op once (read_walk).
    read_walk(g_, root, [&](op o) {
      if (ir::kind(g_, o) == consumer_) consider(o, unit);
    });
  }

  plan_type take() {
    if (plan_.emit_composites) name_composites();
    return std::move(plan_);
  }

  /// The plan of the roots run since the previous part (its indices — candidates, units,
  /// clusters, composite_order — count from 0 within it), and a fresh part begins with the same
  /// options; the scratch memory is kept. Planning function by function with one planner and
  /// concatenating the parts (indices shifted, messages redone) gives take()'s plan up to the
  /// composite names (passes/schedule_fusion/pass.hpp's merge does this; passes/parallel.hpp runs
  /// one planner per worker thread).
  plan_type take_part() {
    if (plan_.emit_composites) name_composites();
    plan_type part = std::move(plan_);
    plan_ = plan_type{};
    plan_.producer_kind = part.producer_kind;
    plan_.consumer_kind = part.consumer_kind;
    plan_.fusion_kind = part.fusion_kind;
    plan_.group_op_name = part.group_op_name;
    plan_.terminator_name = part.terminator_name;
    plan_.budget = part.budget;
    plan_.skip_attribute = part.skip_attribute;
    plan_.emit_composites = part.emit_composites;
    member_.clear();
    return part;
  }

  // Why, in words; describe() prints the same with the ops named.
  static std::string message(const plan_type& plan, const refusal_type& r) {
    const std::string producer(plan.producer_kind), consumer(plan.consumer_kind);
    switch (r.code) {
      case schedule_refusal::no_producer_operand: return "no operand is defined by an op of kind " + producer;
      case schedule_refusal::already_fused: return "the " + consumer + " is already inside a fusion";
      case schedule_refusal::producer_claimed:
        return "its " + producer + " belongs to cluster " + std::to_string(r.cluster);
      case schedule_refusal::different_block: return "its " + producer + " is in another block";
      case schedule_refusal::budget_exceeded:
        return "the dependence walk would visit more than " + std::to_string(plan.budget) + " ops";
      case schedule_refusal::non_convex:
        return "an op outside the cluster depends on the " + producer + " and feeds the " + consumer;
      case schedule_refusal::splits_cluster:
        return "cluster " + std::to_string(r.cluster) + " uses the " + producer + " and feeds the " + consumer;
      case schedule_refusal::reschedule_refused:
        return "the dominance repair refused: " + std::string(to_string(r.repair));
    }
    return {};
  }

 private:
  bool is_fusion(op o) const {
    return ir::kind(g_, o) == kind_id_v<kinds::fusion> ||
           ir::string_attribute(g_, o, composite_schema::fusion_kind).has_value();
  }

  void refuse(refusal_type r) {
    r.candidate = candidate_;
    r.message = message(plan_, r);
    plan_.refused.push_back(std::move(r));
  }
  refusal_type make_refusal(std::size_t unit, schedule_refusal code, op consumer, op concerned) const {
    refusal_type r;
    r.unit = unit;
    r.code = code;
    r.consumer = consumer;
    r.op = concerned;
    r.path_from = r.path_to = ir::null_op<G>();
    return r;
  }
  std::size_t cluster_of(op o) const {
    auto it = member_.find(o);
    return it == member_.end() ? plan_type::none : it->second;
  }

  void consider(op consumer, std::size_t unit) {
    candidate_ = plan_.candidates();
    const block b = ir::block_of(g_, consumer);

    // 1. never re-fuse
    const op parent = ir::parent_op(g_, consumer);
    if (!ir::is_null<G>(parent) && is_fusion(parent))
      return refuse(make_refusal(unit, schedule_refusal::already_fused, consumer, parent));

    // 2. the producer: first unclaimed Producer-kind operand definition in the block
    op producer = ir::null_op<G>();
    std::optional<refusal_type> why;
    for (auto&& v : ir::operands(g_, consumer)) {
      const op d = ir::defining_op(g_, v);
      if (ir::is_null<G>(d) || ir::kind(g_, d) != producer_) continue;
      if (!(ir::block_of(g_, d) == b)) {
        if (!why) why = make_refusal(unit, schedule_refusal::different_block, consumer, d);
        continue;
      }
      if (const auto k = cluster_of(d); k != plan_type::none) {
        if (!why) {
          why = make_refusal(unit, schedule_refusal::producer_claimed, consumer, d);
          why->cluster = k;
        }
        continue;
      }
      producer = d;
      break;
    }
    if (ir::is_null<G>(producer))
      return refuse(why ? *why : make_refusal(unit, schedule_refusal::no_producer_operand, consumer, consumer));

    // 3. the dependence walk (the budget), over the order earlier clusters produced
    walk_options<view> wo;
    wo.budget = plan_.budget == unbounded_budget ? std::nullopt : std::optional<std::size_t>(plan_.budget);
    wo.window_floor = producer;
    const auto walk = dependence_walk(boundary_, scratch_, view_, consumer, wo);
    if (!walk.complete()) return refuse(make_refusal(unit, schedule_refusal::budget_exceeded, consumer, consumer));

    // 4. legality
    const auto cv = check_convexity(scratch_, view_, producer, consumer);
    if (!cv.convex) {
      auto r = make_refusal(unit, schedule_refusal::non_convex, consumer, cv.offending);
      r.path_from = cv.from_member;
      r.path_to = cv.to_member;
      return refuse(r);
    }

    // 5. the reschedule: sink the producer next to the consumer
    auto sink = plan_sink(scratch_, view_, producer, consumer, consumer);
    if (!sink.ok()) {
      auto r = make_refusal(unit, schedule_refusal::reschedule_refused, consumer, sink.offending);
      r.repair = sink.refusal;
      return refuse(r);
    }
    // An earlier cluster will be one grouping op: the reschedule carries it whole or not at all.
    std::vector<op> slice = std::move(sink.slice);
    std::vector<op_move<op>> moves = std::move(sink.moves);
    if (touches_cluster(slice)) {
      op blocker = ir::null_op<G>();
      std::size_t k = plan_type::none;
      if (!carry_units(producer, consumer, slice, blocker, k)) {
        auto r = make_refusal(unit, schedule_refusal::splits_cluster, consumer, blocker);
        r.cluster = k;
        return refuse(r);
      }
      moves = sink_moves(producer, consumer, slice);
    }

    cluster_type c;
    c.candidate = candidate_;
    c.unit = unit;
    c.ops = {producer, consumer};
    c.carried = std::move(slice);
    c.moves = std::move(moves);
    c.walked = walk.visited_count;
    for (const auto& m : c.moves) view_.move(m);

    // 6. get_tuple_element users of the consumer join, hoisted right after it
    op anchor = consumer;
    for (const op gte : tuple_users(consumer, b)) {
      const auto h = plan_hoist(scratch_, view_, gte, anchor);
      if (!h.ok() || !h.slice.empty()) continue;  // it would drag another op along: stays out
      for (const auto& m : h.moves) {
        view_.move(m);
        c.moves.push_back(m);
      }
      c.ops.push_back(gte);
      anchor = gte;
    }

    collect_live_values(c, b);
    const std::size_t k = plan_.clusters.size();
    for (const op o : c.ops) member_.emplace(o, k);
    plan_.clusters.push_back(std::move(c));
  }

  // Post-order over cluster nesting (FusionToComposite's order: a fusion inside another is
  // lowered first, or the outer one's erase would take it along), then the names.
  void name_composites() {
    const std::size_t n = plan_.clusters.size();
    std::vector<std::vector<std::size_t>> inner(n);
    std::vector<bool> nested(n, false);
    for (std::size_t j = 0; j < n; ++j)
      for (op a = ir::parent_op(g_, plan_.clusters[j].consumer()); !ir::is_null<G>(a); a = ir::parent_op(g_, a))
        if (const auto k = cluster_of(a); k != plan_type::none) {
          inner[k].push_back(j);
          nested[j] = true;
          break;
        }
    std::vector<std::pair<std::size_t, bool>> stack;
    for (std::size_t i = n; i-- > 0;)
      if (!nested[i]) stack.emplace_back(i, false);
    while (!stack.empty()) {
      auto [i, expanded] = stack.back();
      stack.pop_back();
      if (expanded) {
        plan_.composite_order.push_back(i);
        continue;
      }
      stack.emplace_back(i, true);
      for (auto it = inner[i].rbegin(); it != inner[i].rend(); ++it) stack.emplace_back(*it, false);
    }
    if constexpr (outlinable_ir<G>) {
      std::size_t counter = 0;
      for (const std::size_t i : plan_.composite_order) {
        std::string name;
        do name = std::string(composite_prefix_) + std::to_string(counter++);
        while (ir::has_symbol(g_, name));
        plan_.clusters[i].decomposition = std::move(name);
      }
    }
  }

  bool touches_cluster(const std::vector<op>& slice) const {
    if (member_.empty()) return false;
    return std::any_of(slice.begin(), slice.end(), [&](const op& s) { return cluster_of(s) != plan_type::none; });
  }

  // The forward slice of `producer` in (producer, consumer), where an earlier cluster (contiguous in the view, and
  // never straddling producer or consumer, which belong to none) is carried whole as soon as one of its
  // members uses a carried op — as its grouping op will be. False when the consumer itself uses
  // a carried op then (`blocker`, in cluster `k`): the cluster could go neither way.
  // Complexity: O(window + operands of its ops).
  bool carry_units(op producer, op consumer, std::vector<op>& slice, op& blocker, std::size_t& k) {
    const block b = ir::block_of(g_, producer);
    const auto carried_lease = scratch_.marks().take(view_);
    op_set<view>& carried = *carried_lease;
    carried.insert(producer);
    slice.clear();
    // carried holds only ops of the block: no block test per producer (first_producer_in).
    auto uses_carried = [&](op x) { return !ir::is_null<view>(first_producer_in(view_, x, b, carried)); };
    for (op x = view_.next(producer); !(x == consumer);) {
      const std::size_t unit = cluster_of(x);
      if (unit == plan_type::none) {
        if (uses_carried(x)) {
          carried.insert(x);
          slice.push_back(x);
        }
        x = view_.next(x);
        continue;
      }
      // x starts the contiguous run of cluster `unit`.
      const auto& members = plan_.clusters[unit].ops;
      bool take = false;
      for (op y = x; !(y == consumer) && cluster_of(y) == unit; y = view_.next(y)) take = take || uses_carried(y);
      op y = x;
      for (std::size_t i = 0; i < members.size() && !(y == consumer); ++i, y = view_.next(y))
        if (take) {
          carried.insert(y);
          slice.push_back(y);
        }
      x = y;
    }
    carried.erase(producer);  // the consumer uses it by definition
    const op p = first_producer_in(view_, consumer, b, carried);
    if (ir::is_null<view>(p)) return true;
    blocker = p;
    k = cluster_of(p);
    return false;
  }

  // The moves of a sink with the given slice (as plan_sink lists them).
  std::vector<op_move<op>> sink_moves(op producer, op consumer, const std::vector<op>& slice) const {
    std::vector<op_move<op>> moves;
    std::size_t window = 0;
    for (op x = view_.next(producer); !(x == consumer); x = view_.next(x)) ++window;
    if (window > slice.size()) moves.push_back({producer, move_position::before, consumer});
    op anchor = consumer;
    for (const op& s : slice) {
      moves.push_back({s, move_position::after, anchor});
      anchor = s;
    }
    return moves;
  }

  // get_tuple_element users of `consumer` in block b, once each, in the view's order.
  std::vector<op> tuple_users(op consumer, block b) const {
    std::vector<op> r;
    for (auto&& v : ir::results(g_, consumer))
      for (auto&& u : ir::users(g_, v)) {
        if (ir::kind(g_, u) != kind_id_v<kinds::get_tuple_element> || !(ir::block_of(g_, u) == b)) continue;
        if (std::find(r.begin(), r.end(), u) == r.end()) r.push_back(u);
      }
    std::sort(r.begin(), r.end(), [&](op x, op y) { return view_.is_before(x, y); });
    return r;
  }

  // The cluster op that `o` is or is nested in; null when none.
  op member_ancestor(const cluster_type& c, op o, block b) const {
    const op a = ancestor_in_block(g_, o, b);
    if (ir::is_null<G>(a)) return a;
    for (const op& m : c.ops)
      if (m == a) return a;
    return ir::null_op<G>();
  }

  bool defined_inside(const cluster_type& c, value v, block b, bool nested_use) const {
    const op d = ir::defining_op(g_, v);
    if (!ir::is_null<G>(d)) return !ir::is_null<G>(member_ancestor(c, d, b));
    // A block argument used directly by a cluster op belongs to b or an enclosing block.
    if (!nested_use) return false;
    const auto ab = ir::argument_block(g_, v);
    if (!ab) return true;  // assumed local to the nested region (see the header comment)
    if (*ab == b) return false;
    // Inside the cluster iff the block's owner is a cluster op or nested in one.
    auto&& ops_of = ir::ops(g_, *ab);
    auto it = std::ranges::begin(ops_of);
    if (it == std::ranges::end(ops_of)) return true;  // an empty block: no use can come from it
    const op owner = ir::parent_op(g_, *it);
    return !ir::is_null<G>(owner) && !ir::is_null<G>(member_ancestor(c, owner, b));
  }

  void collect_live_values(cluster_type& c, block b) const {
    auto add_in = [&](value v) {
      for (const value& x : c.live_ins)
        if (x == v) return;
      c.live_ins.push_back(v);
    };
    // Pre-order over a cluster op and its nested ops: operands in first-use order.
    for (const op& m : c.ops) {
      for (auto&& v : ir::operands(g_, m))
        if (!defined_inside(c, v, b, false)) add_in(v);
      walk_inside<walk_order::pre>(g_, m, [&](op o) {
        for (auto&& v : ir::operands(g_, o))
          if (!defined_inside(c, v, b, true)) add_in(v);
      });
    }
    for (const op& m : c.ops)
      for (auto&& r : ir::results(g_, m))
        for (auto&& u : ir::users(g_, r))
          if (ir::is_null<G>(member_ancestor(c, u, b))) {
            c.live_outs.push_back(r);
            break;
          }
  }

  const G& g_;
  view view_;
  block_scratch<view> scratch_;
  plan_type plan_;
  std::unordered_map<op, std::size_t, handle_hash<op>> member_;  // op -> its cluster (claimed)
  std::size_t candidate_ = 0;
  std::string_view composite_prefix_;
  kind_id producer_ = unknown_kind, consumer_ = unknown_kind;  // the pattern's, or the options'
  typename pattern_boundary<Pattern>::set boundary_;
};

}  // namespace sf_detail

// ============================================================================== plan / apply

/// What is wrong with the options' run-time pattern for the compile-time Pattern (the rules
/// co_schedule_pattern's static_asserts hold a C++ pattern to, as option errors): a producer or
/// consumer that is not a kind name, a boundary that is not a list of distinct kind names, or one
/// that lacks the producer or consumer kind (the walk would then reach across another producer
/// or consumer of the pattern). Names the option concerned; nullopt when all hold.
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern>
std::optional<option_problem> check_schedule_fusion_options(const schedule_fusion_options& opt) {
  for (auto [name, text] : {std::pair<std::string_view, std::string_view>{"producer", opt.producer},
                            std::pair<std::string_view, std::string_view>{"consumer", opt.consumer}})
    if (!text.empty() && !is_canonical_kind_name(canonical_kind_name(text)))
      return option_problem{name, "must be a kind name (letters, digits, '_' and '-', e.g. all_gather), not '" +
                                      std::string(text) + "'"};
  if (opt.boundary.empty()) return std::nullopt;
  std::vector<std::string> kinds;
  if (auto why = parse_kind_list(opt.boundary, kinds)) return option_problem{"boundary", std::move(*why)};
  const std::string producer = opt.producer.empty() ? std::string(Pattern::producer::name) : canonical_kind_name(opt.producer);
  const std::string consumer = opt.consumer.empty() ? std::string(Pattern::consumer::name) : canonical_kind_name(opt.consumer);
  for (auto [role, kind] : {std::pair<std::string_view, const std::string*>{"producer", &producer},
                            std::pair<std::string_view, const std::string*>{"consumer", &consumer}})
    if (std::find(kinds.begin(), kinds.end(), *kind) == kinds.end())
      return option_problem{"boundary", "must contain the " + std::string(role) + " kind '" + *kind +
                                            "', or the dependence walk would reach across another " +
                                            std::string(role) + " of the pattern"};
  return std::nullopt;
}

/// Plans the pattern over the ops nested in `roots` (blocks: function bodies, typically), each
/// walked in pre-order. For IRs without `functions(g)`; nothing is changed.
/// @pre the blocks respect dominance.
/// Complexity: see the header comment. Source: docs/schedule-fusion.md §"Semantics".
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G, class Roots>
  requires std::ranges::input_range<Roots> &&
           std::convertible_to<std::ranges::range_value_t<Roots>, block_handle_t<G>>
schedule_fusion_plan_t<G> plan_schedule_fusion(const G& g, Roots&& roots, const schedule_fusion_options& opt = {}) {
  static_assert(require_ordered_ir<G>());  // planning reads and orders; apply groups
  sf_detail::planner<Pattern, G> p(g, opt, false);
  for (auto&& b : roots) p.run_root(b);
  return p.take();
}

namespace sf_detail {

template <co_schedule_pattern_like Pattern, class G>
schedule_fusion_plan_t<G> plan_functions(const G& g, const schedule_fusion_options& opt, bool emit_composites) {
  planner<Pattern, G> p(g, opt, emit_composites);
  for (auto&& f : ir::functions(g)) {
    if (p.skips(f)) {
      p.skip_function(f);
      continue;
    }
    for (auto&& b : ir::regions(g, f)) p.run_root(b);
  }
  return p.take();
}

}  // namespace sf_detail

/// Plans the pattern over every function of `g` (`functions(g)`, module order), skipping the
/// functions carrying `opt.skip_functions_with`. Nothing is changed.
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G>
schedule_fusion_plan_t<G> plan_schedule_fusion(const G& g, const schedule_fusion_options& opt = {}) {
  static_assert(require_ordered_ir<G>());  // planning reads and orders; apply groups
  static_assert(sf_detail::has_functions<G>,
                "neuronrw::plan_schedule_fusion(g, options): ir_traits<G> lacks `static auto "
                "functions(const G&)`. Fix: add it (outlinable_ir requirement 16), or pass the root "
                "blocks yourself: plan_schedule_fusion(g, blocks, options).");
  return sf_detail::plan_functions<Pattern>(g, opt, false);
}

/// Plans the pattern followed by composite outlining, the StableHLO flavour of the AWS Neuron
/// compiler (docs/schedule-fusion.md §"StableHLO"): the same clusters, and apply then lowers each
/// new fusion at once into a composite + a private decomposition, exactly as FusionToComposite
/// would (same schema), numbered <opt.composite_prefix><N> from 0 per run, inner clusters first,
/// skipping names the module defines. Nothing is changed. Needs outlinable_ir.
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G>
schedule_fusion_plan_t<G> plan_schedule_fusion_composites(const G& g, const schedule_fusion_options& opt = {}) {
  static_assert(require_outlinable_ir<G>());
  return sf_detail::plan_functions<Pattern>(g, opt, true);
}


}  // namespace neuronrw
