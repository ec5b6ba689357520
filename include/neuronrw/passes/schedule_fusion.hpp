// neuronrw/passes/schedule_fusion.hpp — ScheduleFusion, and every other compile-time co-scheduling
// pattern: make a producer collective and the consumer collective that uses it adjacent, legally
// rescheduling the compute around them (comm-compute overlap), and group them into one fusion
// tagged with the pattern's kind (SPEC §4; seed 000 §"ScheduleFusion — comm-compute overlap
// scheduling"). docs/schedule-fusion.md has the semantics with examples, the plan format, the
// refusal codes, and how to declare a new pattern.
//
// Customization points:
//   - the IR: any model of neuronrw::groupable_ir (ir_traits<G>, concepts/ir.hpp). Optional
//     capabilities, detected: `functions(g)` (+ `has_attribute`) lets the pass find the functions
//     itself; `argument_block(g, value) -> block_handle` makes live-in detection exact for block
//     arguments used inside nested regions of cluster ops (see "Live-ins" below).
//   - the pattern: `co_schedule_pattern<Producer, Consumer, BoundarySet, Budget, FusionKind>`; the
//     seed's is `schedule_fusion_pattern` (all_gather → reduce_scatter, the four collectives, 100,
//     "ScheduleFusion"). A user declares another in one line, e.g. for mixture-of-experts
//     dispatch/combine:
//       using moe_overlap = neuronrw::co_schedule_pattern<neuronrw::kinds::all_to_all,
//           neuronrw::kinds::all_to_all, neuronrw::default_boundary_set, 64, "MoEOverlap">;
//   - schedule_fusion_options (aggregate, designated initializers): grouping op and terminator
//     names, budget override, which functions to skip, and `emit_composites` (the seed's
//     StableHLO twin: each new fusion lowered at once by FusionToComposite's apply; needs
//     outlinable_ir).
//
// Plan + apply (STYLE 5):
//   auto p = neuronrw::plan_schedule_fusion(g);   // reads only: clusters, moves, refusals
//   neuronrw::apply(g, p);                         // all moves, then all groupings
// or `neuronrw::schedule_fusion(g)`, which does both and returns the plan. A dry run is the plan
// alone. On the reference IR, `run_schedule_fusion(m, &text)` is the driver's entry point and
// `print_schedule_fusion_plan` the dry run's text.
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
//   (`sf_detail::scheduled_view`, an Inverse<G>-style view), so every cluster is planned against
//   the order the earlier reschedules produce — the seed's match-and-move-as-you-go, without the
//   mutation.
//   6. Codegen, after all clusters are planned (collect-then-execute): every move in plan order,
//      then every cluster grouped, the last planned first (so a cluster nested in a cluster op's
//      region is grouped before its enclosing one), into `group_op_name` with operands = live-ins
//      (first-use order), results = live-outs (op/result order), the moved ops as the body, a
//      `terminator_name` of the live-outs, and exactly one attribute FusionKind = "<kind>".
//      With emit_composites, each new fusion then becomes a composite + decomposition, inner
//      clusters first, numbered <composite_prefix><N> per run (FusionToComposite's numbering).
//
// Live-ins: every value used by a cluster op or by an op nested in one, defined outside the
// cluster. A block argument used directly by a cluster op is a live-in; one used only inside a
// nested region is a live-in when the IR answers `argument_block` and that block lies outside the
// cluster (the reference IR's traits answer it); without that
// capability it is taken to be an argument of the nested region itself (it almost always is: a
// reduction body's operands).
//
// Complexity: planning is O(Σ windows + operands in them) plus, for each block where a cluster
// moves ops, one O(block) overlay build; applying is O(moves + cluster ops + uses of live values).
// A 1M-op function with 10k pairs plans and applies in linear time (bench/schedule_fusion_bench).
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <optional>
#include <ranges>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <neuronrw/algorithms/ancestry.hpp>
#include <neuronrw/algorithms/block_dataflow.hpp>
#include <neuronrw/algorithms/convexity.hpp>
#include <neuronrw/algorithms/dependence_walk.hpp>
#include <neuronrw/algorithms/dominance_repair.hpp>
#include <neuronrw/algorithms/order.hpp>
#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/descriptors/boundary_set.hpp>
#include <neuronrw/descriptors/kinds.hpp>
#include <neuronrw/diagnostic.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>

namespace neuronrw {

// ============================================================================== the descriptor

/// A walk budget meaning "no bound".
inline constexpr std::size_t unbounded_budget = std::numeric_limits<std::size_t>::max();

/// A compile-time co-scheduling pattern (SPEC §4): the producer collective, the consumer
/// collective that uses it, the boundary set of the dependence walk, the walk budget
/// (`unbounded_budget` for none) and the FusionKind the grouping op carries.
template <kind_tag_type Producer, kind_tag_type Consumer, boundary_set_like BoundarySet = default_boundary_set,
          std::size_t Budget = 100, fixed_string FusionKind = "ScheduleFusion">
struct co_schedule_pattern {
  using producer = Producer;
  using consumer = Consumer;
  using boundary = BoundarySet;
  static constexpr std::size_t budget = Budget;
  static constexpr std::string_view fusion_kind = FusionKind.view();

  static_assert(BoundarySet::contains(kind_id_v<Producer>),
                "neuronrw::co_schedule_pattern: the producer kind must be in the boundary set, or "
                "the dependence walk would reach across another producer of the pattern. Fix: "
                "use BoundarySet::with<Producer> (descriptors/boundary_set.hpp).");
  static_assert(BoundarySet::contains(kind_id_v<Consumer>),
                "neuronrw::co_schedule_pattern: the consumer kind must be in the boundary set, or "
                "the dependence walk would reach across another consumer of the pattern. Fix: "
                "use BoundarySet::with<Consumer> (descriptors/boundary_set.hpp).");
  static_assert(FusionKind.size() > 0, "neuronrw::co_schedule_pattern: the fusion kind name is empty");
};

/// The seed's instance: all_gather → reduce_scatter, the four-collective boundary, budget 100.
using schedule_fusion_pattern =
    co_schedule_pattern<kinds::all_gather, kinds::reduce_scatter, default_boundary_set, 100, "ScheduleFusion">;

template <class P>
concept co_schedule_pattern_like = requires {
  typename P::producer;
  typename P::consumer;
  typename P::boundary;
  { P::budget } -> std::convertible_to<std::size_t>;
  { P::fusion_kind } -> std::convertible_to<std::string_view>;
} && kind_tag_type<typename P::producer> && kind_tag_type<typename P::consumer> &&
                                  boundary_set_like<typename P::boundary>;

// ============================================================================== options, plan

/// Run-time options; fill with designated initializers.
struct schedule_fusion_options {
  /// The grouping op and its region terminator. StableHLO has no fusion op, so these are the
  /// MHLO names for both flavours (SPEC §4, last paragraph); the matcher itself is
  /// dialect-neutral (it reads kinds: `stablehlo.all_gather` is an all_gather too).
  std::string_view group_op_name = "mhlo.fusion";
  std::string_view terminator_name = "mhlo.return";
  /// Overrides the pattern's walk budget; `unbounded_budget` = no bound.
  std::optional<std::size_t> budget = std::nullopt;
  /// When the pass finds the functions itself (`functions(g)`), functions carrying this
  /// attribute are skipped: by default FusionToComposite's decompositions, whose bodies are
  /// already-scheduled fusion bodies. Empty = skip none.
  std::string_view skip_functions_with = "genComposite";
  /// The seed's StableHLO twin: lower each new fusion at once into a `stablehlo.composite` plus
  /// a private decomposition function, exactly as FusionToComposite would (same schema), numbered
  /// <composite_prefix><N> from 0 per run, inner clusters first, skipping names the module
  /// defines. Needs an outlinable IR (planning throws std::invalid_argument otherwise).
  bool emit_composites = false;
  std::string_view composite_prefix = "hilo.FusedComposite.";
};

/// Why a candidate consumer was not clustered. Every refusal names the op concerned.
enum class schedule_refusal : std::uint8_t {
  no_producer_operand,  ///< no operand is defined by a producer-kind op          (op = consumer)
  already_fused,        ///< the consumer's parent op is a fusion                 (op = that fusion)
  producer_claimed,     ///< the producer belongs to an earlier cluster          (op = producer)
  different_block,      ///< the producer lies in another block                  (op = producer)
  budget_exceeded,      ///< the walk would visit more than `budget` ops          (op = consumer)
  non_convex,           ///< an op outside the cluster lies on a path P → C       (op = that op)
  splits_cluster,       ///< an earlier cluster would have to be split: one of its members uses
                        ///< the producer, another feeds the consumer (op = the one the consumer uses)
  reschedule_refused,   ///< the dominance repair refused (see `repair`)          (op = its offender)
};

constexpr std::string_view to_string(schedule_refusal r) noexcept {
  switch (r) {
    case schedule_refusal::no_producer_operand: return "no_producer_operand";
    case schedule_refusal::already_fused: return "already_fused";
    case schedule_refusal::producer_claimed: return "producer_claimed";
    case schedule_refusal::different_block: return "different_block";
    case schedule_refusal::budget_exceeded: return "budget_exceeded";
    case schedule_refusal::non_convex: return "non_convex";
    case schedule_refusal::splits_cluster: return "splits_cluster";
    case schedule_refusal::reschedule_refused: return "reschedule_refused";
  }
  return "unknown";
}

/// The plan of one run: plain data, in walk order. Handles refer to the IR as it was planned:
/// apply the plan to that IR, unchanged.
template <class Op, class Value>
struct schedule_fusion_plan {
  static constexpr std::size_t none = static_cast<std::size_t>(-1);

  struct cluster {
    std::size_t candidate = 0;  ///< position of its consumer in the walk (over all candidates)
    std::size_t unit = 0;       ///< index into `units`
    /// [producer, consumer, get_tuple_element...]: the fusion body, in body order.
    std::vector<Op> ops;
    /// The window ops that transitively use the producer: moved, in order, after the cluster.
    std::vector<Op> carried;
    /// Every move, in apply order (the sink, then the get_tuple_element hoists).
    std::vector<op_move<Op>> moves;
    std::vector<Value> live_ins;   ///< the grouping op's operands, in first-use order
    std::vector<Value> live_outs;  ///< its results: cluster results used outside, op/result order
    std::size_t walked = 0;        ///< ops the dependence walk visited
    std::string decomposition;     ///< emit_composites: the decomposition's symbol, without '@'

    Op producer() const { return ops[0]; }
    Op consumer() const { return ops[1]; }
  };

  struct refusal {
    std::size_t candidate = 0;
    std::size_t unit = 0;
    schedule_refusal code{};
    Op consumer{};  ///< the candidate
    Op op{};        ///< the op concerned (see schedule_refusal)
    /// non_convex: one violating path runs path_from → ... → op → ... → path_to (cluster
    /// members). Null otherwise.
    Op path_from{};
    Op path_to{};
    std::size_t cluster = none;    ///< producer_claimed, splits_cluster: the earlier cluster
    repair_refusal repair = repair_refusal::none;  ///< reschedule_refused: the repair's reason
  };

  std::string_view producer_kind, consumer_kind;  ///< the pattern's kind names
  std::string fusion_kind;
  std::string group_op_name, terminator_name;
  std::size_t budget = 0;                         ///< the effective budget
  /// The walked roots: the op owning each root block (its function), null when unknown.
  std::vector<Op> units;
  std::string skip_attribute;         ///< copied from the options
  std::vector<Op> skipped_functions;  ///< functions carrying `skip_attribute`
  std::vector<cluster> clusters;
  std::vector<refusal> refusals;
  bool emit_composites = false;  ///< copied from the options
  /// emit_composites: the clusters in lowering (and numbering) order — a cluster nested in a
  /// cluster op's region before the enclosing one, plan order otherwise.
  std::vector<std::size_t> composite_order;

  std::size_t candidates() const noexcept { return clusters.size() + refusals.size(); }
  /// True when applying the plan changes the IR.
  bool changes() const noexcept { return !clusters.empty(); }
};

template <class G>
using schedule_fusion_plan_t = schedule_fusion_plan<op_handle_t<G>, value_handle_t<G>>;

// ============================================================================== the order view

namespace sf_detail {

/// A read-only view of G whose block order can be changed without touching G: the moves the
/// planner simulates land in an order-maintenance overlay (algorithms/order.hpp), built for a
/// block on its first move (O(block)); other blocks answer from G. It models ordered_ir (and
/// indexed_ir when G does), so the algorithm layer runs on it unchanged — the way LLVM's
/// Inverse<G> turns direction into a view instead of a second algorithm.
template <class G>
class scheduled_view {
 public:
  using op = op_handle_t<G>;
  using block = block_handle_t<G>;
  static constexpr std::uint32_t npos = order_maintenance::npos;

  explicit scheduled_view(const G& g) : g_(&g) {}

  const G& base() const noexcept { return *g_; }

  /// The overlay node of `o`, or npos when o's block has no overlay.
  std::uint32_t local(op o) const {
    if constexpr (indexed_ir<G>) {
      if (local_.empty()) return npos;
      const std::size_t i = ir::traits<G>::op_index(*g_, o);
      return i < local_.size() ? local_[i] : npos;
    } else {
      auto it = local_.find(o);
      return it == local_.end() ? npos : it->second;
    }
  }

  bool is_before(op a, op b) const {
    const auto la = local(a);
    if (la == npos) return ir::is_before_in_block(*g_, a, b);
    return order_.is_before(la, local(b));
  }
  op next(op o) const {
    const auto l = local(o);
    if (l == npos) return ir::next_op(*g_, o);
    const auto n = order_.next(l);
    return n == npos ? ir::null_op<G>() : ops_[n];
  }
  op prev(op o) const {
    const auto l = local(o);
    if (l == npos) return ir::prev_op(*g_, o);
    const auto n = order_.prev(l);
    return n == npos ? ir::null_op<G>() : ops_[n];
  }
  /// The first op of `b` in the view's order (null when empty).
  op first(block b) const {
    auto&& r = ir::ops(*g_, b);
    auto it = std::ranges::begin(r);
    if (it == std::ranges::end(r)) return ir::null_op<G>();
    const op f = *it;
    const auto l = local(f);
    if (l == npos) return f;
    const auto n = order_.first(order_.list_of(l));
    return n == npos ? ir::null_op<G>() : ops_[n];
  }

  /// Simulates a move within one block.
  void move(const op_move<op>& m) {
    if (m.op == m.anchor) return;
    overlay(ir::block_of(*g_, m.anchor));
    const auto n = local(m.op), a = local(m.anchor);
    if (m.where == move_position::before)
      order_.move_before(n, a);
    else
      order_.move_after(n, a);
  }

  /// A forward range over the ops of a block in the view's order.
  class op_range {
   public:
    class iterator {
     public:
      using value_type = op;
      using difference_type = std::ptrdiff_t;
      using iterator_category = std::forward_iterator_tag;
      iterator() = default;
      iterator(const scheduled_view* v, op o) : v_(v), o_(o) {}
      op operator*() const { return o_; }
      iterator& operator++() {
        o_ = v_->next(o_);
        return *this;
      }
      iterator operator++(int) {
        auto t = *this;
        ++*this;
        return t;
      }
      friend bool operator==(const iterator& a, const iterator& b) { return a.o_ == b.o_; }

     private:
      const scheduled_view* v_ = nullptr;
      op o_ = ir::null_op<G>();
    };
    op_range(const scheduled_view* v, op first) : v_(v), first_(first) {}
    iterator begin() const { return {v_, first_}; }
    iterator end() const { return {v_, ir::null_op<G>()}; }

   private:
    const scheduled_view* v_;
    op first_;
  };

 private:
  void overlay(block b) {
    {
      auto&& r = ir::ops(*g_, b);
      auto it = std::ranges::begin(r);
      if (it == std::ranges::end(r) || local(*it) != npos) return;
    }
    if constexpr (indexed_ir<G>) {
      if (local_.empty()) local_.assign(ir::traits<G>::op_index_bound(*g_), npos);
    }
    const auto list = order_.create_list();
    for (auto&& o : ir::ops(*g_, b)) {
      const auto n = order_.add_node();
      ops_.push_back(o);
      if constexpr (indexed_ir<G>) {
        const std::size_t i = ir::traits<G>::op_index(*g_, o);
        if (i >= local_.size()) local_.resize(i + 1, npos);
        local_[i] = n;
      } else {
        local_.emplace(o, n);
      }
      order_.push_back(list, n);
    }
  }

  const G* g_;
  order_maintenance order_;
  std::vector<op> ops_;  // overlay node -> op
  std::conditional_t<indexed_ir<G>, std::vector<std::uint32_t>, std::unordered_map<op, std::uint32_t, handle_hash<op>>>
      local_;
};

}  // namespace sf_detail

/// The view models ordered_ir (and indexed_ir when G does); everything but the order is G's.
template <class G>
struct ir_traits<sf_detail::scheduled_view<G>> {
  using V = sf_detail::scheduled_view<G>;
  using base = ir_traits<G>;
  using op_handle = typename base::op_handle;
  using value_handle = typename base::value_handle;
  using block_handle = typename base::block_handle;

  static op_handle null_op() { return base::null_op(); }
  static kind_id kind(const V& v, op_handle o) { return base::kind(v.base(), o); }
  static decltype(auto) operands(const V& v, op_handle o) { return base::operands(v.base(), o); }
  static op_handle defining_op(const V& v, value_handle x) { return base::defining_op(v.base(), x); }
  static decltype(auto) users(const V& v, value_handle x) { return base::users(v.base(), x); }
  static decltype(auto) results(const V& v, op_handle o) { return base::results(v.base(), o); }
  static op_handle parent_op(const V& v, op_handle o) { return base::parent_op(v.base(), o); }

  static block_handle block_of(const V& v, op_handle o) { return base::block_of(v.base(), o); }
  static typename V::op_range ops(const V& v, block_handle b) { return {&v, v.first(b)}; }
  static bool is_before_in_block(const V& v, op_handle a, op_handle b) { return v.is_before(a, b); }
  static op_handle next_op(const V& v, op_handle o) { return v.next(o); }
  static op_handle prev_op(const V& v, op_handle o) { return v.prev(o); }
  static decltype(auto) regions(const V& v, op_handle o) { return base::regions(v.base(), o); }

  static std::size_t op_index(const V& v, op_handle o)
    requires indexed_ir<G>
  {
    return base::op_index(v.base(), o);
  }
  static std::size_t op_index_bound(const V& v)
    requires indexed_ir<G>
  {
    return base::op_index_bound(v.base());
  }
};

// ============================================================================== the planner

namespace sf_detail {

template <class G>
concept has_functions = requires(const G& g) {
  { ir_traits<G>::functions(g) } -> concepts_detail::range_of<op_handle_t<G>>;
};
template <class G>
concept has_attribute_query = requires(const G& g, op_handle_t<G> o) {
  { ir_traits<G>::has_attribute(g, o, std::string_view{}) } -> std::convertible_to<bool>;
};
template <class G>
concept has_argument_block = requires(const G& g, value_handle_t<G> v) {
  { ir_traits<G>::argument_block(g, v) } -> std::same_as<block_handle_t<G>>;
};

/// The block a block argument belongs to, when the IR can tell (see the header comment).
template <class G>
std::optional<block_handle_t<G>> argument_block(const G& g, value_handle_t<G> v) {
  if constexpr (has_argument_block<G>)
    return ir_traits<G>::argument_block(g, v);
  else
    return std::nullopt;
}

template <co_schedule_pattern_like Pattern, class G>
class planner {
  using op = op_handle_t<G>;
  using value = value_handle_t<G>;
  using block = block_handle_t<G>;
  using view = scheduled_view<G>;
  using plan_type = schedule_fusion_plan<op, value>;
  using cluster_type = typename plan_type::cluster;
  using refusal_type = typename plan_type::refusal;

 public:
  planner(const G& g, const schedule_fusion_options& opt) : g_(g), view_(g), scratch_(view_) {
    plan_.producer_kind = Pattern::producer::name;
    plan_.consumer_kind = Pattern::consumer::name;
    plan_.fusion_kind = std::string(Pattern::fusion_kind);
    plan_.group_op_name = std::string(opt.group_op_name);
    plan_.terminator_name = std::string(opt.terminator_name);
    plan_.budget = opt.budget ? *opt.budget : Pattern::budget;
    plan_.skip_attribute = std::string(opt.skip_functions_with);
    plan_.emit_composites = opt.emit_composites;
    composite_prefix_ = opt.composite_prefix;
    if constexpr (!outlinable_ir<G>)
      if (opt.emit_composites)
        throw std::invalid_argument(
            "neuronrw::plan_schedule_fusion: emit_composites needs an outlinable IR (outline_region, "
            "replace_op, erase_op, has_symbol)");
  }

  void skip_function(op f) { plan_.skipped_functions.push_back(f); }

  /// Plans every candidate nested (at any depth) in `root`, in pre-order.
  void run_root(block root) {
    const std::size_t unit = plan_.units.size();
    {
      auto&& r = ir::ops(g_, root);
      auto it = std::ranges::begin(r);
      plan_.units.push_back(it == std::ranges::end(r) ? ir::null_op<G>() : ir::parent_op(g_, *it));
    }
    // Explicit stack (deep nesting cannot exhaust the call stack), over G's original order.
    std::vector<op> stack;
    auto push_block = [&](block b) {
      const std::size_t mark = stack.size();
      for (auto&& o : ir::ops(g_, b)) stack.push_back(o);
      std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(mark), stack.end());
    };
    push_block(root);
    while (!stack.empty()) {
      const op o = stack.back();
      stack.pop_back();
      if (ir::kind(g_, o) == kind_id_v<typename Pattern::consumer>) consider(o, unit);
      // Regions in reverse so the first region's ops come off the stack first.
      regions_.clear();
      for (auto&& b : ir::regions(g_, o)) regions_.push_back(b);
      for (auto it = regions_.rbegin(); it != regions_.rend(); ++it) push_block(*it);
    }
  }

  plan_type take() {
    if (plan_.emit_composites) name_composites();
    return std::move(plan_);
  }

 private:
  bool is_fusion(op o) const {
    return ir::kind(g_, o) == kind_id_v<kinds::fusion> ||
           ir::traits<G>::string_attribute(g_, o, composite_schema::fusion_kind).has_value();
  }

  void refuse(refusal_type r) {
    r.candidate = candidate_;
    plan_.refusals.push_back(r);
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

  void consider(op rs, std::size_t unit) {
    candidate_ = plan_.candidates();
    const block b = ir::block_of(g_, rs);

    // 1. never re-fuse
    const op parent = ir::parent_op(g_, rs);
    if (!ir::is_null<G>(parent) && is_fusion(parent))
      return refuse(make_refusal(unit, schedule_refusal::already_fused, rs, parent));

    // 2. the producer: first unclaimed Producer-kind operand definition in the block
    op ag = ir::null_op<G>();
    std::optional<refusal_type> why;
    for (auto&& v : ir::operands(g_, rs)) {
      const op d = ir::defining_op(g_, v);
      if (ir::is_null<G>(d) || ir::kind(g_, d) != kind_id_v<typename Pattern::producer>) continue;
      if (!(ir::block_of(g_, d) == b)) {
        if (!why) why = make_refusal(unit, schedule_refusal::different_block, rs, d);
        continue;
      }
      if (const auto k = cluster_of(d); k != plan_type::none) {
        if (!why) {
          why = make_refusal(unit, schedule_refusal::producer_claimed, rs, d);
          why->cluster = k;
        }
        continue;
      }
      ag = d;
      break;
    }
    if (ir::is_null<G>(ag))
      return refuse(why ? *why : make_refusal(unit, schedule_refusal::no_producer_operand, rs, rs));

    // 3. the dependence walk (the budget), over the order earlier clusters produced
    walk_options<view> wo;
    wo.budget = plan_.budget == unbounded_budget ? std::nullopt : std::optional<std::size_t>(plan_.budget);
    wo.window_floor = ag;
    const auto walk = dependence_walk<typename Pattern::boundary>(scratch_, view_, rs, wo);
    if (!walk.complete()) return refuse(make_refusal(unit, schedule_refusal::budget_exceeded, rs, rs));

    // 4. legality
    const auto cv = check_convexity(scratch_, view_, ag, rs);
    if (!cv.convex) {
      auto r = make_refusal(unit, schedule_refusal::non_convex, rs, cv.offending);
      r.path_from = cv.from_member;
      r.path_to = cv.to_member;
      return refuse(r);
    }

    // 5. the reschedule: sink the producer next to the consumer
    const auto sink = plan_sink(scratch_, view_, ag, rs, rs);
    if (!sink.ok()) {
      auto r = make_refusal(unit, schedule_refusal::reschedule_refused, rs, sink.offending);
      r.repair = sink.refusal;
      return refuse(r);
    }
    // An earlier cluster will be one grouping op: the reschedule carries it whole or not at all.
    std::vector<op> slice = sink.slice;
    std::vector<op_move<op>> moves = sink.moves;
    if (touches_cluster(slice)) {
      op blocker = ir::null_op<G>();
      std::size_t k = plan_type::none;
      if (!carry_units(ag, rs, slice, blocker, k)) {
        auto r = make_refusal(unit, schedule_refusal::splits_cluster, rs, blocker);
        r.cluster = k;
        return refuse(r);
      }
      moves = sink_moves(ag, rs, slice);
    }

    cluster_type c;
    c.candidate = candidate_;
    c.unit = unit;
    c.ops = {ag, rs};
    c.carried = std::move(slice);
    c.moves = std::move(moves);
    c.walked = walk.visited_count;
    for (const auto& m : c.moves) view_.move(m);

    // 6. get_tuple_element users of the consumer join, hoisted right after it
    op anchor = rs;
    for (const op gte : tuple_users(rs, b)) {
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
        while (ir::traits<G>::has_symbol(g_, name));
        plan_.clusters[i].decomposition = std::move(name);
      }
    }
  }

  bool touches_cluster(const std::vector<op>& slice) const {
    if (member_.empty()) return false;
    return std::any_of(slice.begin(), slice.end(), [&](const op& s) { return cluster_of(s) != plan_type::none; });
  }

  // The forward slice of `ag` in (ag, rs), where an earlier cluster (contiguous in the view, and
  // never straddling ag or rs, which belong to none) is carried whole as soon as one of its
  // members uses a carried op — as its grouping op will be. False when the consumer itself uses
  // a carried op then (`blocker`, in cluster `k`): the cluster could go neither way.
  // Complexity: O(window + operands of its ops).
  bool carry_units(op ag, op rs, std::vector<op>& slice, op& blocker, std::size_t& k) {
    const block b = ir::block_of(g_, ag);
    op_set<view>& carried = scratch_.fresh(0);
    carried.insert(ag);
    slice.clear();
    auto uses_carried = [&](op x) {
      return !for_each_producer_in_block(view_, x, b, [&](op p) { return !carried.contains(p); });
    };
    for (op x = view_.next(ag); !(x == rs);) {
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
      for (op y = x; !(y == rs) && cluster_of(y) == unit; y = view_.next(y)) take = take || uses_carried(y);
      op y = x;
      for (std::size_t i = 0; i < members.size() && !(y == rs); ++i, y = view_.next(y))
        if (take) {
          carried.insert(y);
          slice.push_back(y);
        }
      x = y;
    }
    bool ok = true;
    for_each_producer_in_block(view_, rs, b, [&](op p) {
      if (p == ag || !carried.contains(p)) return true;
      blocker = p;
      k = cluster_of(p);
      return ok = false;
    });
    return ok;
  }

  // The moves of a sink with the given slice (as plan_sink lists them).
  std::vector<op_move<op>> sink_moves(op ag, op rs, const std::vector<op>& slice) const {
    std::vector<op_move<op>> moves;
    std::size_t window = 0;
    for (op x = view_.next(ag); !(x == rs); x = view_.next(x)) ++window;
    if (window > slice.size()) moves.push_back({ag, move_position::before, rs});
    op anchor = rs;
    for (const op& s : slice) {
      moves.push_back({s, move_position::after, anchor});
      anchor = s;
    }
    return moves;
  }

  // get_tuple_element users of `rs` in block b, once each, in the view's order.
  std::vector<op> tuple_users(op rs, block b) const {
    std::vector<op> r;
    for (auto&& v : ir::results(g_, rs))
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
    const auto ab = argument_block(g_, v);
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
    std::vector<std::pair<op, bool>> stack;
    for (const op& m : c.ops) {
      stack.assign(1, {m, false});
      while (!stack.empty()) {
        auto [o, nested] = stack.back();
        stack.pop_back();
        for (auto&& v : ir::operands(g_, o))
          if (!defined_inside(c, v, b, nested)) add_in(v);
        std::vector<op> inner;
        for (auto&& rb : ir::regions(g_, o))
          for (auto&& x : ir::ops(g_, rb)) inner.push_back(x);
        for (auto it = inner.rbegin(); it != inner.rend(); ++it) stack.emplace_back(*it, true);
      }
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
  std::vector<block> regions_;  // run_root's scratch
  std::string_view composite_prefix_;
};

}  // namespace sf_detail

// ============================================================================== plan / apply

/// Plans the pattern over the ops nested in `roots` (blocks: function bodies, typically), each
/// walked in pre-order. For IRs without `functions(g)`; nothing is changed.
/// @pre the blocks respect dominance.
/// Complexity: see the header comment. Source: seed 000 §"Algorithm — the matcher and the
/// reschedule"; SPEC §4.1-4.6, 4.8.
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G, class Roots>
  requires std::ranges::input_range<Roots> &&
           std::convertible_to<std::ranges::range_value_t<Roots>, block_handle_t<G>>
schedule_fusion_plan_t<G> plan_schedule_fusion(const G& g, Roots&& roots, const schedule_fusion_options& opt = {}) {
  static_assert(require_groupable_ir<G>());
  sf_detail::planner<Pattern, G> p(g, opt);
  for (auto&& b : roots) p.run_root(b);
  return p.take();
}

/// Plans the pattern over every function of `g` (`functions(g)`, module order), skipping the
/// functions carrying `opt.skip_functions_with`. Nothing is changed.
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G>
schedule_fusion_plan_t<G> plan_schedule_fusion(const G& g, const schedule_fusion_options& opt = {}) {
  static_assert(require_groupable_ir<G>());
  static_assert(sf_detail::has_functions<G>,
                "neuronrw::plan_schedule_fusion(g, options): ir_traits<G> lacks `static auto "
                "functions(const G&)`. Fix: add it (outlinable_ir requirement 16), or pass the root "
                "blocks yourself: plan_schedule_fusion(g, blocks, options).");
  sf_detail::planner<Pattern, G> p(g, opt);
  for (auto&& f : ir::traits<G>::functions(g)) {
    if constexpr (sf_detail::has_attribute_query<G>) {
      if (!opt.skip_functions_with.empty() && ir::traits<G>::has_attribute(g, f, opt.skip_functions_with)) {
        p.skip_function(f);
        continue;
      }
    }
    for (auto&& b : ir::regions(g, f)) p.run_root(b);
  }
  return p.take();
}

/// Performs every move of the plan, in order (the reschedule, without grouping). Afterwards each
/// cluster is contiguous in its block and SSA dominance holds.
/// @pre the plan was made on this IR, unchanged since.
template <class G>
void apply_reschedule(G& g, const schedule_fusion_plan_t<G>& plan) {
  static_assert(require_reschedulable_ir<G>());
  for (const auto& c : plan.clusters)
    for (const auto& m : c.moves) {
      if (m.where == move_position::before)
        ir::move_before(g, m.op, m.anchor);
      else
        ir::move_after(g, m.op, m.anchor);
    }
}

/// Groups every cluster of a rescheduled plan into its grouping op, the last planned first (a
/// cluster nested in a cluster op's region is grouped before the enclosing one). Returns the
/// grouping ops in cluster order.
/// @pre apply_reschedule(g, plan) was the only change since planning.
template <class G>
std::vector<op_handle_t<G>> apply_grouping(G& g, const schedule_fusion_plan_t<G>& plan) {
  static_assert(require_groupable_ir<G>());
  using value = value_handle_t<G>;
  std::vector<op_handle_t<G>> groups(plan.clusters.size(), ir::null_op<G>());
  const std::string kind_text = mlir_string_literal(plan.fusion_kind);
  const named_attribute attrs[] = {{composite_schema::fusion_kind, kind_text}};
  // Live-outs of clusters grouped already are now results of their grouping op.
  std::unordered_map<value, value, handle_hash<value>> renamed;
  std::vector<value> ins;
  for (std::size_t i = plan.clusters.size(); i-- > 0;) {
    const auto& c = plan.clusters[i];
    ins.clear();
    for (const value& v : c.live_ins) {
      auto it = renamed.find(v);
      ins.push_back(it == renamed.end() ? v : it->second);
    }
    const group_request<op_handle_t<G>, value> req{c.ops, ins, c.live_outs, plan.group_op_name,
                                                   plan.terminator_name, attrs};
    groups[i] = ir::traits<G>::group_ops(g, req);
    std::size_t k = 0;
    for (auto&& r : ir::results(g, groups[i])) renamed.emplace(c.live_outs[k++], r);
  }
  return groups;
}

/// Lowers the grouping ops apply_grouping returned into composites + decompositions with
/// FusionToComposite's own apply (same schema), in `plan.composite_order`. Returns the composites
/// in cluster order.
template <class G>
std::vector<op_handle_t<G>> apply_composites(G& g, const schedule_fusion_plan_t<G>& plan,
                                             const std::vector<op_handle_t<G>>& groups,
                                             std::string_view composite_op_name = "stablehlo.composite") {
  static_assert(require_outlinable_ir<G>());
  fusion_to_composite_plan<op_handle_t<G>> lower;
  lower.composite_op_name = std::string(composite_op_name);
  for (const std::size_t i : plan.composite_order) {
    const auto& c = plan.clusters[i];
    lower.conversions.push_back({groups[i], ir::null_op<G>(), c.decomposition, plan.fusion_kind, false});
  }
  const auto made = neuronrw::apply(g, lower);
  std::vector<op_handle_t<G>> composites(plan.clusters.size(), ir::null_op<G>());
  for (std::size_t k = 0; k < made.size(); ++k) composites[plan.composite_order[k]] = made[k].composite;
  return composites;
}

/// Applies a plan: every move, then every grouping (collect-then-execute, seed §"Algorithm —
/// the driver"), then, with emit_composites, the lowering to composites. Returns the grouping
/// ops (or the composites) in cluster order.
/// @pre the plan was made on this IR, unchanged since.
template <class G>
std::vector<op_handle_t<G>> apply(G& g, const schedule_fusion_plan_t<G>& plan) {
  apply_reschedule(g, plan);
  auto groups = apply_grouping(g, plan);
  if constexpr (outlinable_ir<G>)
    if (plan.emit_composites) return apply_composites(g, plan, groups);
  return groups;
}

/// Plans and applies over `roots`; returns the plan.
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G, class Roots>
  requires std::ranges::input_range<Roots> &&
           std::convertible_to<std::ranges::range_value_t<Roots>, block_handle_t<G>>
schedule_fusion_plan_t<G> schedule_fusion(G& g, Roots&& roots, const schedule_fusion_options& opt = {}) {
  auto plan = plan_schedule_fusion<Pattern>(std::as_const(g), std::forward<Roots>(roots), opt);
  neuronrw::apply(g, plan);
  return plan;
}

/// Plans and applies over every function; returns the plan.
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern, class G>
schedule_fusion_plan_t<G> schedule_fusion(G& g, const schedule_fusion_options& opt = {}) {
  auto plan = plan_schedule_fusion<Pattern>(std::as_const(g), opt);
  neuronrw::apply(g, plan);
  return plan;
}

// ============================================================================== reference IR

using ref_schedule_fusion_plan = schedule_fusion_plan<ref::op_ref, ref::value_ref>;

namespace sf_detail {

inline std::string ref_loc(const ref::module& m, ref::op_ref o) {
  const auto l = m.loc(o);
  if (!l.known()) return "?";
  return std::to_string(l.line) + ":" + std::to_string(l.col);
}

/// `"mhlo.all_gather" (4:8)`.
inline std::string ref_op_text(const ref::module& m, ref::op_ref o) {
  if (!o.valid()) return "<none>";
  return "\"" + std::string(m.name(o)) + "\" (" + ref_loc(m, o) + ")";
}

/// `%hint`, `%hint#1`, or a structural description when the value has no name hint.
inline std::string ref_value_text(const ref::module& m, ref::value_ref v) {
  const auto d = m.defining_op(v);
  const auto i = m.value_index(v);
  if (!d.valid()) {
    const auto& h = m.arg_name_hint(v);
    if (!h.empty()) return "%" + h;
    const auto owner = m.parent_op_of_block(m.argument_block(v));
    std::string who = owner.valid() && m.is_function(owner) ? "@" + m.function(owner).sym_name
                                                              : ref_op_text(m, owner);
    return "argument #" + std::to_string(i) + " of " + who;
  }
  const auto& h = m.name_hint(d);
  if (!h.empty()) return "%" + h + (m.num_results(d) > 1 ? "#" + std::to_string(i) : std::string());
  return "result #" + std::to_string(i) + " of " + ref_op_text(m, d);
}

inline std::string ref_unit_text(const ref::module& m, ref::op_ref owner) {
  if (owner.valid() && m.is_function(owner)) return "@" + m.function(owner).sym_name;
  if (owner.valid()) return ref_op_text(m, owner);
  return "<module>";
}

}  // namespace sf_detail

/// The dry run's text: deterministic, ops named by op name and `line:col`, values by their name
/// hints. Format (docs/schedule-fusion.md):
///   schedule-fusion plan: FusionKind "ScheduleFusion", all_gather -> reduce_scatter, budget 100
///   3 candidates: 1 cluster, 2 refused
///   @layer
///     cluster 0: "mhlo.all_gather" (4:8) + "mhlo.reduce_scatter" (6:8)
///       move "mhlo.all_gather" (4:8) before "mhlo.reduce_scatter" (6:8)
///       move "mhlo.add" (5:8) after "mhlo.reduce_scatter" (6:8)
///       live-ins: %w
///       live-outs: %r, %g
///     refused "mhlo.reduce_scatter" (8:8): producer_claimed: "mhlo.all_gather" (4:8) belongs to cluster 0
inline std::string print_schedule_fusion_plan(const ref::module& m, const ref_schedule_fusion_plan& p) {
  using namespace sf_detail;
  std::string s = "schedule-fusion plan: FusionKind \"" + p.fusion_kind + "\", " + std::string(p.producer_kind) +
                  " -> " + std::string(p.consumer_kind) + ", budget " +
                  (p.budget == unbounded_budget ? std::string("unbounded") : std::to_string(p.budget)) + "\n";
  auto plural = [](std::size_t n, std::string_view one, std::string_view many) {
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
  };
  s += plural(p.candidates(), "candidate", "candidates") + ": " + plural(p.clusters.size(), "cluster", "clusters") +
       ", " + std::to_string(p.refusals.size()) + " refused\n";
  for (auto f : p.skipped_functions) s += "skipped " + ref_unit_text(m, f) + ": carries " + p.skip_attribute + "\n";

  std::size_t ci = 0, ri = 0, unit = ref_schedule_fusion_plan::none;
  auto join_values = [&](const std::vector<ref::value_ref>& vs) {
    if (vs.empty()) return std::string("(none)");
    std::string r;
    for (std::size_t i = 0; i < vs.size(); ++i) r += (i ? ", " : "") + ref_value_text(m, vs[i]);
    return r;
  };
  auto header = [&](std::size_t u) {
    if (u == unit) return;
    unit = u;
    s += ref_unit_text(m, u < p.units.size() ? p.units[u] : ref::op_ref{}) + "\n";
  };
  while (ci < p.clusters.size() || ri < p.refusals.size()) {
    const bool take_cluster = ri == p.refusals.size() ||
                              (ci < p.clusters.size() && p.clusters[ci].candidate < p.refusals[ri].candidate);
    if (take_cluster) {
      const auto& c = p.clusters[ci];
      header(c.unit);
      s += "  cluster " + std::to_string(ci) + ":";
      for (std::size_t i = 0; i < c.ops.size(); ++i) s += (i ? " + " : " ") + ref_op_text(m, c.ops[i]);
      s += "\n";
      for (const auto& mv : c.moves)
        s += "    move " + ref_op_text(m, mv.op) + (mv.where == move_position::before ? " before " : " after ") +
             ref_op_text(m, mv.anchor) + "\n";
      if (c.moves.empty()) s += "    no move\n";
      if (p.emit_composites) s += "    lowered to a composite, decomposition @" + c.decomposition + "\n";
      s += "    live-ins: " + join_values(c.live_ins) + "\n";
      s += "    live-outs: " + join_values(c.live_outs) + "\n";
      ++ci;
      continue;
    }
    const auto& r = p.refusals[ri++];
    header(r.unit);
    s += "  refused " + ref_op_text(m, r.consumer) + ": " + std::string(to_string(r.code)) + ": ";
    switch (r.code) {
      case schedule_refusal::no_producer_operand:
        s += "no operand is defined by an op of kind " + std::string(p.producer_kind);
        break;
      case schedule_refusal::already_fused:
        s += "already inside " + ref_op_text(m, r.op);
        break;
      case schedule_refusal::producer_claimed:
        s += ref_op_text(m, r.op) + " belongs to cluster " + std::to_string(r.cluster);
        break;
      case schedule_refusal::different_block:
        s += ref_op_text(m, r.op) + " is in another block";
        break;
      case schedule_refusal::budget_exceeded:
        s += "the dependence walk would visit more than " + std::to_string(p.budget) + " ops";
        break;
      case schedule_refusal::non_convex:
        s += ref_op_text(m, r.op) + " depends on " + ref_op_text(m, r.path_from) + " and feeds " +
             ref_op_text(m, r.path_to);
        break;
      case schedule_refusal::splits_cluster:
        s += "cluster " + std::to_string(r.cluster) + " uses the " + std::string(p.producer_kind) +
             " and feeds the " + std::string(p.consumer_kind) + " through " + ref_op_text(m, r.op);
        break;
      case schedule_refusal::reschedule_refused:
        s += std::string(to_string(r.repair)) + " at " + ref_op_text(m, r.op);
        break;
    }
    s += "\n";
  }
  return s;
}

/// The driver's entry point (`neuronrw-opt --schedule-fusion`, `--schedule-fusion-dry-run`):
/// plans the pattern over every function of `m`; with `dry_run_plan` non-null, writes the printed
/// plan there and changes nothing, else applies it. Refusals are not errors (the plan lists
/// them); the diagnostics are non-empty only when the rewrite itself failed, and then `m` may be
/// partially rewritten only if an IR operation threw.
template <co_schedule_pattern_like Pattern = schedule_fusion_pattern>
diagnostics run_schedule_fusion(ref::module& m, std::string* dry_run_plan = nullptr,
                                const schedule_fusion_options& opt = {}) {
  auto plan = plan_schedule_fusion<Pattern>(std::as_const(m), opt);
  if (dry_run_plan) {
    *dry_run_plan = print_schedule_fusion_plan(m, plan);
    return {};
  }
  try {
    neuronrw::apply(m, plan);
  } catch (const std::exception& e) {
    return {diagnostic{m.source_name, {}, std::string("schedule-fusion: ") + e.what()}};
  }
  return {};
}

}  // namespace neuronrw
