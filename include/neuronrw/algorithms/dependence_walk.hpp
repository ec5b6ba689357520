// neuronrw/algorithms/dependence_walk.hpp — the dependence walk: from start values through their
// defining ops in one block, stopping at the ops of a boundary set, deduplicated, ordered by
// block position, bounded by a budget, optionally floored at a window start (docs/schedule-fusion.md §"Semantics"; the
// original compiler's worklist BFS, docs/sources.md §"ScheduleFusion").
//
// Customization points:
//   - BoundarySet (template parameter): any type with `bool contains(kind_id)`, normally a
//     neuronrw::boundary_set<...>; default `default_boundary_set` (the four collectives). Use
//     `boundary_set<>` for a walk that never stops early. A set known only at run time
//     (runtime_boundary_set) is passed as the first argument: dependence_walk(set, scratch, g, op).
//   - walk_options (aggregate, designated initializers): budget (default 100 visited ops,
//     nullopt = unbounded) and window_floor (ops positioned before it are not visited).
// Needs ordered_ir; takes faster paths on indexed_ir, and on versioned_ir too (see below).
//
// Semantics (docs/schedule-fusion.md §"Semantics"):
//   - The start set is producers(op in its block) for `dependence_walk(g, op)` (nested uses of op
//     count, op itself is never visited), or the ancestors in `block` of the start values'
//     defining ops for `dependence_walk_from(g, values, block)`.
//   - An op of the start set, or a producer in the block of a visited op, is *met*. Met ops of the
//     boundary set are recorded in `boundary` and not expanded; other met ops are *visited*
//     (recorded in `ops`) and expanded through their producers in the block (nested uses
//     included). Both lists are in block order, without duplicates.
//   - Ops positioned before `window_floor` are neither met nor recorded (the floor itself is).
//   - The budget bounds the visited ops (boundary ops are free, as in the original compiler, whose bound is on
//     the ordered op list the boundary ops never join). The walk is complete iff at most `budget`
//     ops are visitable; otherwise it stops when one more would be visited, with status
//     budget_exceeded and visited_count = budget + 1.
//
// How (why it looks like this: the walk is benchmarked against a CSR-array BFS, docs/performance.md;
// figures in docs/performance.md):
//   - Any IR: breadth-first from the start set (the worklist is the result vector itself), op_set
//     marks, then one sort by is_before_in_block.
//   - Indexed IRs (dense op numbering; their order queries and next/prev are taken to be O(1)):
//     a backward sweep of the block from the latest start op. A producer precedes its user, so
//     every met op is reached by the sweep after all its users; the sweep takes it, marks its
//     producers, and stops as soon as no marked op is pending (or at the floor). Ops come out in
//     block order with no sort, the block is read in order instead of hopping through it, and
//     the marks are dense_marks whose branch-free test-and-set keeps the ~50/50 "seen before?"
//     answer out of the branch predictor (that alone was 2-3x). Skipping unmarked ops is wasted
//     work when the walk is sparse, so the sweep hands over to the breadth-first walk once it
//     has skipped more than `sweep_slack + 2 × (ops taken)`; the BFS part is then ordered by a
//     bounded backward sweep that falls back to sorting when that would be cheaper.
//   - Indexed IRs with a mutation counter (O7): the same sweep, over a dense copy of the block
//     that the scratch's block_copy_cache keeps (block_copy_cache.hpp) — ops in order, in-block
//     producers as positions, a flag for the rare ones — instead of prev_op and a producer's
//     block per operand. Over a copy the block's ops are marked at their positions (ops outside
//     the block, met through rare producers, at their op index), so everything the sweep reads
//     per op — marks, producer bounds, producers, the op — lies in arrays it reads in block
//     order, as a CSR sweep does. The copy is made once the walks in one block and version have
//     swept as many ops as it holds (the default block_copy_policy), so making it costs at most
//     what those walks cost, and is used until the IR's version moves on. It changes how the
//     sweep steps, never what it returns. While the scratch holds a copy, a walk from an op of
//     its block takes the op's block and position, its producers and the floor's position from
//     the copy too (walker::from_held): it reads from the IR only the kinds of the ops it takes
//     (the boundary test), unless an op has rare producers or the walk turns sparse. For
//     ScheduleFusion's many short walks in one large block that removed most of the cache misses
//     a walk paid before its sweep; figures in
//     docs/performance.md §"Windowed walks (what ScheduleFusion pays per pair)".
//   Either way: O(Σ operands of met ops + min(span, k log k)) for k met ops over a block span.
#pragma once

#include <algorithm>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <neuronrw/algorithms/ancestry.hpp>
#include <neuronrw/algorithms/block_dataflow.hpp>
#include <neuronrw/algorithms/block_scratch.hpp>
#include <neuronrw/algorithms/op_set.hpp>
#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/descriptors/boundary_set.hpp>
#include <neuronrw/detail/ranges.hpp>

namespace neuronrw {

/// Options of the dependence walk; fill with designated initializers:
/// `dependence_walk(g, rs, {.budget = std::nullopt, .window_floor = ag})`.
template <class G>
struct walk_options {
  /// Maximum number of visited (non-boundary) ops; nullopt = unbounded. Default: the original compiler's 100.
  std::optional<std::size_t> budget = 100;
  /// When set, ops positioned before it in the walked block are not visited (the reschedule of
  /// docs/schedule-fusion.md §"Semantics" cannot affect them). @pre it lies in the walked block.
  std::optional<op_handle_t<G>> window_floor = std::nullopt;
};

enum class walk_status : std::uint8_t {
  complete,         ///< every reachable op was met
  budget_exceeded,  ///< more than `budget` ops would have been visited
};

/// Result of a dependence walk: plain data.
template <class Op>
struct walk_result {
  walk_status status = walk_status::complete;
  /// Visited ops (expanded), in block order, each once. On budget_exceeded: the `budget` ops
  /// visited before the walk stopped, in block order (which ones depends on the traversal:
  /// the latest in the block on indexed IRs, breadth-first otherwise).
  std::vector<Op> ops;
  /// Boundary ops met (not expanded), in block order, each once.
  std::vector<Op> boundary;
  /// ops.size() when complete; budget + 1 when the budget was exceeded.
  std::size_t visited_count = 0;

  bool complete() const noexcept { return status == walk_status::complete; }
};

/// A type usable as the walk's boundary set: `contains(kind_id)`, static (boundary_set<...>, a
/// compile-time set) or a member of an object the walk is given (runtime_boundary_set, a set
/// read from a pipeline string). Default-constructible: a walk given no object uses `S{}`.
template <class S>
concept boundary_set_like = std::default_initializable<S> && requires(const S& s, kind_id k) {
  { s.contains(k) } -> std::convertible_to<bool>;
};

namespace walk_detail {

/// Skips the backward sweep tolerates beyond twice the ops it has taken before it hands over to
/// the breadth-first walk: small enough that a sparse walk pays little for trying, large enough
/// that a dense one never hands over.
inline constexpr std::size_t sweep_slack = 64;

template <class BoundarySet, class G>
class walker {
  using op = op_handle_t<G>;
  static constexpr bool dense = indexed_ir<G>;

 public:
  walker(block_scratch<G>& s, const G& g, block_handle_t<G> block, const walk_options<G>& opts,
         const BoundarySet& boundary = BoundarySet{})
      : boundary_(boundary),
        scratch_(s),
        g_(g),
        block_(block),
        opts_(opts),
        dense_(s.walk().fresh_marks(g)),
        swept_(s.walk().sweep_buffer()) {
    if constexpr (!dense) seen_ = s.marks().take(g);
  }

  walk_result<op> from_op(op start) {
    if constexpr (dense) {
      if constexpr (versioned_ir<G>) {
        if (const block_copy<G>* c = scratch_.block_copies().get(g_, block_); c != nullptr)
          if (const auto at = c->position_of(index(start)))
            if (const auto stop = floor_position(*c)) return from_copy(*c, *at, *stop, start);
      }
      // Marked first: a block that does not respect dominance could lead back to it.
      mark_new(start);
      pending_ = mark_producers(start);
      sweep_ir(ir::prev_op(g_, start), start);
    } else {
      mark_new(start);
      for_each_producer_in_block(g_, start, block_, [this](op d) { return meet(d); });
      bfs();
      sort_bfs_part();
    }
    return std::move(r_);
  }

  /// from_op when the scratch already holds a copy of start's block at the IR's version and
  /// start is at position `at` in it (dependence_walk checks both, before reading the IR).
  walk_result<op> from_held(const block_copy<G>& c, std::uint32_t at, op start)
    requires dense
  {
    if (const auto stop = floor_position(c)) return from_copy(c, at, *stop, start);
    return from_op(start);  // a floor outside the block: the IR path says what that means
  }

  template <class R>
  walk_result<op> from_values(R&& values) {
    // Over a copy (when there is one at the IR's version), the marks of the block's ops are
    // positions from the start, so the copy is asked for before anything is marked.
    [[maybe_unused]] const block_copy<G>* c = nullptr;
    [[maybe_unused]] std::uint32_t stop = 0;
    if constexpr (dense && versioned_ir<G>) {
      c = scratch_.block_copies().get(g_, block_);
      if (c != nullptr) {
        if (const auto f = floor_position(*c)) {
          stop = *f;
          enter_copy(*c);
        } else {
          c = nullptr;
        }
      }
    }
    auto latest = ir::null_op<G>();
    for (auto&& v : values) {
      const auto d = ir::defining_op(g_, v);
      if (ir::is_null<G>(d)) continue;
      const auto a = ancestor_in_block(g_, d, block_);
      if (ir::is_null<G>(a)) continue;
      if constexpr (dense) {
        if (ir::is_null<G>(latest) || ir::is_before_in_block(g_, latest, a)) latest = a;
        if (mark_new(a)) {
          ++pending_;
          starts_.push_back(a);
        }
      } else {
        if (!meet(a)) break;
      }
    }
    if constexpr (dense) {
      if (ir::is_null<G>(latest)) return std::move(r_);
      if constexpr (versioned_ir<G>) {
        if (c != nullptr) {
          // latest is an op of the block, so of the copy; the sweep takes it first.
          sweep_copy(*c, *c->position_of(index(latest)) + 1, stop, ir::null_op<G>());
          return std::move(r_);
        }
      }
      sweep_ir(latest, ir::null_op<G>());
    } else {
      bfs();
      sort_bfs_part();
    }
    return std::move(r_);
  }

 private:
  // ---------------------------------------------------------------- marks
  // dense_marks on indexed IRs (branch-free test-and-set, see block_scratch.hpp), op_set else.

  // Over a copy, an op of the copy is marked at its position (pos_), any other op (outside the
  // block) at its op index (dense_); through the IR, every op at its op index.
  bool mark_new(op o) {
    if constexpr (dense) {
      if (copy_ != nullptr) [[unlikely]]
        if (const auto p = copy_->position_of(index(o))) return pos_->test_and_set(*p);
      return dense_.test_and_set(ir::traits<G>::op_index(g_, o));
    } else {
      return seen_->insert(o);
    }
  }

  // The walk runs over copy c from now on: the block's ops are marked by position. Before
  // anything is marked.
  void enter_copy(const block_copy<G>& c) {
    copy_ = &c;
    pos_ = &scratch_.walk().fresh_position_marks(c.ops.size());
  }

  // Where a sweep over c stops (it takes the op at that position last): the floor's position,
  // 0 without a floor; nullopt when the floor is not in c (another block).
  std::optional<std::uint32_t> floor_position(const block_copy<G>& c) const {
    if (!opts_.window_floor || ir::is_null<G>(*opts_.window_floor)) return std::uint32_t{0};
    return c.position_of(index(*opts_.window_floor));
  }

  // from_op over copy c: start at position `at`, the sweep stopping at position `stop`. Start's
  // producers and the floor come from the copy, so the walk reads no IR table before its sweep —
  // no block_of, prev_op, producer blocks or order query (what a walk of ~100 ops in a large
  // block spent most of its cache misses on). The same ops marked, the same sweep, the same
  // result.
  walk_result<op> from_copy(const block_copy<G>& c, std::uint32_t at, std::uint32_t stop, op start)
    requires dense
  {
    enter_copy(c);
    pos_->test_and_set(at);  // start, first (see from_op)
    bool rare = false;
    pending_ = cursor(c, at + 1, 0).mark(*this, pos_->raw(), rare);
    if (rare) pending_ += mark_rare(start);
    // A floor at or after start leaves nothing to sweep: i <= stop.
    sweep_copy(c, at, stop, start);
    return std::move(r_);
  }

  // ---------------------------------------------------------------- the backward sweep
  // Indexed IRs only. The hot loop keeps its state (marks, pending count, budget) in locals so
  // that it lives in registers.

  std::size_t index(op o) const { return ir::traits<G>::op_index(g_, o); }

  // Marks producers(x in block); returns how many of them are new ops of the block. The common
  // case (a producer in the block) is computed without branching on the mark: it is close to a
  // coin flip in a dense graph, and mispredicting it dominated the walk before this was done.
  // Split in two so the sweep's hot loop makes no call (a call there makes the compiler reload
  // every IR table and spill the loop's state around each op): mark_in_block marks the producers
  // in the block and reports whether x has rare ones — producers outside the block (defined in
  // an enclosing block; their ancestors in it are marked), or nested regions — which
  // mark_rare, out of line, then marks.
  // always_inline: in a large translation unit GCC's unit-growth limit otherwise leaves this
  // (the innermost loop of the walk) as a call, measured ~50% slower on small walks.
  [[gnu::always_inline]] std::size_t mark_in_block(const G& g, op x, dense_marks::view marks,
                                                   block_handle_t<G> blk, bool& rare) {
    std::size_t added = 0;
    bool outside = false;
    auto producer = [&](const op d) {
      if (ir::is_null<G>(d)) return;
      if (ir::block_of(g, d) != blk) [[unlikely]] {
        outside = true;
        return;
      }
      added += static_cast<std::size_t>(marks.test_and_set(ir::traits<G>::op_index(g, d)));
    };
    if constexpr (operand_defs_ir<G>) {
      // O6: the defining ops, contiguous — no value → op hop.
      auto&& defs = ir::traits<G>::operand_defs(g, x);
      const op* p = std::ranges::data(defs);
      for (const op* e = p + std::ranges::size(defs); p != e; ++p) producer(*p);
    } else {
      for (auto&& v : ir::operands(g, x)) producer(ir::defining_op(g, v));
    }
    rare = outside | !std::ranges::empty(ir::regions(g, x));
    return added;
  }
  std::size_t mark_producers(op x) {
    bool rare = false;
    std::size_t added = mark_in_block(g_, x, dense_.raw(), block_, rare);
    if (rare) added += mark_rare(x);
    return added;
  }

  // x's producers outside the block (their ancestors in it, which mark_in_block skipped) and
  // inside its regions.
  [[gnu::noinline]] std::size_t mark_rare(op x) {
    std::size_t added = 0;
    for (auto&& v : ir::operands(g_, x)) {
      const op d = ir::defining_op(g_, v);
      if (!ir::is_null<G>(d) && ir::block_of(g_, d) != block_ && mark_new(d)) added += mark_ancestor(d);
    }
    auto&& rs = ir::regions(g_, x);
    if (std::ranges::begin(rs) != std::ranges::end(rs)) added += mark_nested(x);
    return added;
  }

  // The rare paths, kept out of line so the hot loop above stays small.
  [[gnu::noinline]] std::size_t mark_ancestor(op d) {
    // Never the marking op itself: its own operands are not defined inside it (and it is marked).
    const op a = ancestor_in_block(g_, d, block_);
    return !ir::is_null<G>(a) && mark_new(a) ? 1 : 0;
  }
  [[gnu::noinline]] std::size_t mark_nested(op x) {
    std::size_t added = 0;
    dataflow_detail::nested_producers<G>(g_, x, x, block_, [&](op a) {
      added += mark_new(a) ? 1 : 0;
      return true;
    });
    return added;
  }

  // Walks backward from `from` (inclusive), taking marked ops until none is pending, the floor
  // is passed or the budget runs out; hands over to the BFS when the walk turns out sparse.
  // Taken ops collect at the top of swept_, filled downwards, so [lo, top) is in block order;
  // boundary ops collect in r_.boundary in reverse block order.
  //
  // It steps either through the IR (prev_op, producers through the IR: sweep_ir) or, when the
  // scratch's cache has a dense copy of the block at the IR's version (O7, block_copy_cache.hpp),
  // through the copy's arrays (sweep_copy): the same ops in the same order with the same marks,
  // so the same result.
  void sweep_ir(op from, op start) {
    const op floor = opts_.window_floor ? *opts_.window_floor : ir::null_op<G>();
    // Everything from `from` down lies before the floor: nothing to visit.
    if (opts_.window_floor && !ir::is_null<G>(from) && ir::is_before_in_block(g_, from, floor))
      from = ir::null_op<G>();
    // The sweep ends after the floor: at the op before it (null when the floor is the first op or
    // there is no floor), one compare per op for both ends.
    const op stop = ir::is_null<G>(floor) || ir::is_null<G>(from) ? ir::null_op<G>() : ir::prev_op(g_, floor);
    const std::size_t swept = sweep_loop(ir_cursor{g_, block_, from, stop}, start);
    scratch_.block_copies().note_swept(g_, block_, swept);
  }

  // The sweep's two ways through the block. Each names the op it stands at, its index, steps
  // back, and marks the op's producers in the block (mark_in_block's contract).
  struct ir_cursor {
    const G& g;
    block_handle_t<G> blk;
    op o, stop;
    static constexpr bool positional = false;  // marks at op indices
    bool more() const { return o != stop; }
    op at() const { return o; }
    std::size_t at_index() const { return ir::traits<G>::op_index(g, o); }
    void back() { o = ir::prev_op(g, o); }
    [[gnu::always_inline]] std::size_t mark(walker& w, dense_marks::view marks, bool& rare) const {
      return w.mark_in_block(g, o, marks, blk, rare);
    }
  };
  struct copy_cursor {
    const op* ops;
    const std::uint32_t *bounds, *producers;  // block_copy's
    std::uint32_t i, stop;  // the op at position i - 1; stops at i == stop
    static constexpr bool positional = true;  // marks at positions, producers are positions
    bool more() const { return i != stop; }
    op at() const { return ops[i - 1]; }
    std::size_t at_index() const { return i - 1; }
    void back() { --i; }
    [[gnu::always_inline]] std::size_t mark(walker&, dense_marks::view marks, bool& rare) const {
      constexpr std::uint32_t mask = block_copy<G>::offset_mask;
      const std::uint32_t end = bounds[i];
      std::size_t added = 0;
      for (const std::uint32_t *p = producers + (bounds[i - 1] & mask), *e = producers + (end & mask); p != e; ++p)
        added += static_cast<std::size_t>(marks.test_and_set(*p));
      rare = (end & block_copy<G>::rare_bit) != 0;
      return added;
    }
  };

  static copy_cursor cursor(const block_copy<G>& c, std::uint32_t i, std::uint32_t stop) {
    return copy_cursor{c.ops.data(), c.bounds.data(), c.producers.data(), i, stop};
  }
  // The sweep over a copy from the op at position i - 1 down to the one at `stop` (nothing when
  // i <= stop). The one caller of sweep_loop over a copy, so the compiler inlines the loop here.
  void sweep_copy(const block_copy<G>& c, std::uint32_t i, std::uint32_t stop, op start) {
    sweep_loop(cursor(c, std::max(i, stop), stop), start);
  }

  // The sweep proper over either cursor; returns how many ops it passed.
  //
  // The loop is two loops: the inner one takes ordinary ops and makes no call, so its state stays
  // in registers and the IR's tables are loaded once; everything else — a boundary op, an op
  // with rare producers, a full buffer, the budget, a sparse walk, the end — leaves it for the
  // outer one, which handles it and re-enters.
  template <class Cursor>
  std::size_t sweep_loop(Cursor c, op start) {
    const G& g = g_;
    const dense_marks::view marks = Cursor::positional ? pos_->raw() : dense_.raw();
    std::size_t room = opts_.budget ? *opts_.budget : static_cast<std::size_t>(-1);  // budget left
    std::size_t pending = pending_, skipped = 0, boundary = 0;
    // swept_ is a buffer filled downwards from its end (grown rarely, never trimmed, so a reused
    // scratch costs no fill per walk). Filled downwards, the taken ops end up in block order.
    if (swept_.size() < 64) swept_.resize(64);
    op* base = swept_.data();
    op* top = base + swept_.size();
    op* lo = top;  // the taken ops are [lo, top)
    // Where lo may not go without an event: base (the buffer is full) or, nearer, lo - room (the
    // budget is spent), so one compare per op serves both. `room` is the budget left when lo
    // was at `lo_mark`.
    op* lo_mark = lo;
    auto limit_of = [&] { return room < static_cast<std::size_t>(lo - base) ? lo - room : base; };
    op* limit = limit_of();
    enum class event : std::uint8_t { end, boundary, rare, full, budget, sparse };
    for (;;) {
      event e = event::end;
      for (; pending > 0 && c.more(); c.back()) {
        if (!marks.test(c.at_index())) {
          if (++skipped > sweep_slack + 2 * (static_cast<std::size_t>(top - lo) + boundary)) [[unlikely]] {
            e = event::sparse;
            break;
          }
          continue;
        }
        const op o = c.at();
        if (boundary_.contains(ir::kind(g, o))) {
          e = event::boundary;
          break;
        }
        if (lo == limit) [[unlikely]] {
          room -= static_cast<std::size_t>(lo_mark - lo);
          lo_mark = lo;
          e = room == 0 ? event::budget : event::full;
          break;
        }
        --pending;
        *--lo = o;
        bool rare = false;
        pending += c.mark(*this, marks, rare);
        if (rare) [[unlikely]] {
          e = event::rare;
          break;
        }
      }
      switch (e) {
        case event::end:
          break;
        case event::boundary:  // met, not expanded
          --pending;
          ++boundary;
          r_.boundary.push_back(c.at());
          c.back();
          continue;
        case event::rare:  // taken; its rare producers now
          pending += mark_rare(c.at());
          c.back();
          continue;
        case event::full: {  // grow, the taken ops moving to the new top; the same op again
          const std::size_t cap = swept_.size();
          swept_.resize(2 * cap);
          base = swept_.data();
          std::copy_backward(base, base + cap, base + 2 * cap);
          top = base + 2 * cap;
          lo = top - cap;
          lo_mark = lo;
          limit = limit_of();
          continue;
        }
        case event::budget:  // one more would be visited
          stopped_ = true;
          r_.status = walk_status::budget_exceeded;
          break;
        case event::sparse:
          swept_lo_ = static_cast<std::size_t>(lo - base);
          visited_ = static_cast<std::size_t>(top - lo);
          hand_over(c.at(), start);
          return visited_ + skipped + boundary;
      }
      break;
    }
    r_.ops.assign(lo, top);
    std::reverse(r_.boundary.begin(), r_.boundary.end());
    r_.visited_count = r_.ops.size() + (stopped_ ? 1 : 0);
    return r_.ops.size() + skipped + boundary;
  }

  // The sweep stopped at `at` (unmarked): everything after it is done, the marked ops before it
  // are pending. They are recomputed as the producers, positioned before `at`, of the start and
  // of the ops taken so far, admitted, and walked breadth-first; the BFS part (all before `at`)
  // is ordered and put in front of the swept part.
  void hand_over(op at, op start) {
    std::vector<op> late_boundary = std::move(r_.boundary);
    r_.boundary.clear();
    const auto queued_lease = scratch_.marks().take(g_);  // held across order_bfs_part's own
    op_set<G>& queued = *queued_lease;
    bool go = true;
    auto pend = [&](op a) {
      if (!go || !ir::is_before_in_block(g_, a, at) || !queued.insert(a)) return go;
      return go = admit(a);
    };
    if (!ir::is_null<G>(start)) for_each_producer_in_block(g_, start, block_, pend);
    for (const op& s : starts_) pend(s);
    const std::span<const op> swept(swept_.data() + swept_lo_, swept_.size() - swept_lo_);  // block order
    // In the order the sweep took them (latest first), so the BFS queue is as it always was.
    for (auto it = swept.rbegin(); it != swept.rend(); ++it) for_each_producer_in_block(g_, *it, block_, pend);
    if (go) bfs();
    order_bfs_part(at);
    r_.ops.insert(r_.ops.end(), swept.begin(), swept.end());
    r_.boundary.insert(r_.boundary.end(), late_boundary.rbegin(), late_boundary.rend());
    r_.visited_count = r_.ops.size() + (stopped_ ? 1 : 0);
  }

  // ---------------------------------------------------------------- breadth-first

  void bfs() {
    for (std::size_t head = 0; !stopped_ && head < r_.ops.size();) expand(r_.ops[head++]);
  }

  // producers(x in block), met one by one (for_each_producer_in_block with the mark test first:
  // a producer seen before then costs one mark load, not a block load too).
  void expand(op x) {
    for (auto&& v : ir::operands(g_, x)) {
      const op d = ir::defining_op(g_, v);
      if (ir::is_null<G>(d) || !mark_new(d)) continue;
      if (ir::block_of(g_, d) == block_) {
        if (!admit(d)) return;
        continue;
      }
      const op a = ancestor_in_block(g_, d, block_);
      if (!ir::is_null<G>(a) && !meet(a)) return;
    }
    auto&& rs = ir::regions(g_, x);
    if (std::ranges::begin(rs) == std::ranges::end(rs)) return;
    dataflow_detail::nested_producers<G>(g_, x, x, block_, [this](op d) { return meet(d); });
  }

  // Meets d, an op of the block. Returns false to stop (budget exceeded).
  bool meet(op d) { return !mark_new(d) || admit(d); }

  // Classifies a newly met op of the block (BFS): queued for expansion, boundary, or ignored.
  bool admit(op d) {
    if (opts_.window_floor && ir::is_before_in_block(g_, d, *opts_.window_floor)) return true;
    if (boundary_.contains(ir::kind(g_, d))) {
      r_.boundary.push_back(d);
      return true;
    }
    if (over_budget()) return false;
    r_.ops.push_back(d);
    return true;
  }

  bool over_budget() {
    if (!opts_.budget || visited_ < *opts_.budget) {
      ++visited_;
      return false;
    }
    stopped_ = true;
    r_.status = walk_status::budget_exceeded;
    return true;
  }

  void sort_bfs_part() {
    auto before = [this](op a, op b) { return ir::is_before_in_block(g_, a, b); };
    std::sort(r_.ops.begin(), r_.ops.end(), before);
    std::sort(r_.boundary.begin(), r_.boundary.end(), before);
    r_.visited_count = r_.ops.size() + (stopped_ ? 1 : 0);
  }

  // Orders the BFS part, all of whose ops lie before `at`: collect them by walking backward from
  // `at` until all are found, or sort when that walk gets longer than the sort would be.
  void order_bfs_part(op at) {
    const std::size_t total = r_.ops.size() + r_.boundary.size();
    if (total == 0) return;
    const auto in_part_lease = scratch_.marks().take(g_);
    op_set<G>& in_part = *in_part_lease;
    for (const op& o : r_.ops) in_part.insert(o);
    for (const op& o : r_.boundary) in_part.insert(o);
    const std::size_t limit = 4 * total * static_cast<std::size_t>(std::bit_width(total)) + sweep_slack;
    std::vector<op>& found = scratch_.walk().partition_list();
    found.clear();
    std::size_t steps = 0;
    for (op o = ir::prev_op(g_, at); !ir::is_null<G>(o) && found.size() < total; o = ir::prev_op(g_, o)) {
      if (++steps > limit) return sort_bfs_part();
      if (in_part.contains(o)) found.push_back(o);
    }
    if (found.size() != total) return sort_bfs_part();
    r_.ops.clear();
    r_.boundary.clear();
    for (auto it = found.rbegin(); it != found.rend(); ++it)
      (boundary_.contains(ir::kind(g_, *it)) ? r_.boundary : r_.ops).push_back(*it);
  }

  BoundarySet boundary_;
  block_scratch<G>& scratch_;
  const G& g_;
  block_handle_t<G> block_;
  const walk_options<G>& opts_;
  typename mark_pool<G>::lease seen_;  // marks on IRs without a dense numbering (empty otherwise)
  dense_marks& dense_;                  // marks on indexed IRs, at op indices
  const block_copy<G>* copy_ = nullptr;  // the copy the walk runs over (enter_copy), if any
  dense_marks* pos_ = nullptr;          // then: marks of the copy's ops, at their positions
  std::vector<op>& swept_;  // buffer: taken by the sweep, in block order, [swept_lo_, size)
  std::size_t swept_lo_ = 0;
  walk_result<op> r_;
  std::vector<op> starts_;   // start ops of a walk from values (sweep mode, for hand_over)
  std::size_t pending_ = 0;  // sweep: marked ops of the block not reached yet
  std::size_t visited_ = 0;
  bool stopped_ = false;
};

// The walk from an op: through the held copy of its block when the scratch has one at the IR's
// version and the op is in it (walker::from_held), through the IR otherwise.
template <class BoundarySet, class G>
walk_result<op_handle_t<G>> walk_from_op(block_scratch<G>& scratch, const G& g, op_handle_t<G> start,
                                         const walk_options<G>& opts, const BoundarySet& boundary) {
  if constexpr (indexed_ir<G> && block_copy_cache<G>::enabled) {
    if (const block_copy<G>* c = scratch.block_copies().held(g); c != nullptr)
      if (const auto at = c->position_of(ir::op_index(g, start)))
        return walker<BoundarySet, G>(scratch, g, *c->block, opts, boundary).from_held(*c, *at, start);
  }
  return walker<BoundarySet, G>(scratch, g, ir::block_of(g, start), opts, boundary).from_op(start);
}

}  // namespace walk_detail

/// The dependence walk from the producers of `start` (its operands and the operands of ops
/// nested in it) within start's block. See the header comment for the semantics.
/// @pre start lies in a block that respects dominance (producers before users);
///      opts.window_floor, when set, lies in the same block.
/// Complexity: O(Σ over met ops of their operands, nested ops' included) plus
/// O(min(span, k log k)) order queries for k met ops spread over a block span; with a scratch
/// reused across calls, no term depends on the size of the function.
/// Source: docs/schedule-fusion.md §"Semantics"; docs/sources.md §"ScheduleFusion".
template <boundary_set_like BoundarySet = default_boundary_set, class G>
walk_result<op_handle_t<G>> dependence_walk(block_scratch<G>& scratch, const G& g, op_handle_t<G> start,
                                            const walk_options<G>& opts = {}) {
  static_assert(require_ordered_ir<G>());
  return walk_detail::walk_from_op<BoundarySet>(scratch, g, start, opts, BoundarySet{});
}

/// The same walk with a boundary set object (runtime_boundary_set: kinds known only at run time).
template <boundary_set_like BoundarySet, class G>
walk_result<op_handle_t<G>> dependence_walk(const BoundarySet& boundary, block_scratch<G>& scratch, const G& g,
                                            op_handle_t<G> start, const walk_options<G>& opts = {}) {
  static_assert(require_ordered_ir<G>());
  return walk_detail::walk_from_op<BoundarySet>(scratch, g, start, opts, boundary);
}

template <boundary_set_like BoundarySet = default_boundary_set, class G>
walk_result<op_handle_t<G>> dependence_walk(const G& g, op_handle_t<G> start, const walk_options<G>& opts = {}) {
  block_scratch<G> scratch(g);
  return dependence_walk<BoundarySet>(scratch, g, start, opts);
}

/// The general form (docs/schedule-fusion.md §"Semantics"): the walk from arbitrary start values, within `block`. A value
/// whose defining op is not (transitively) inside `block`, or that is a block argument, adds
/// nothing to the start set.
/// @pre `block` respects dominance; opts.window_floor, when set, lies in `block`.
/// Complexity: as dependence_walk, plus O(#values × nesting depth).
template <boundary_set_like BoundarySet = default_boundary_set, class G, class R>
  requires std::ranges::input_range<R> &&
           std::convertible_to<std::ranges::range_value_t<R>, value_handle_t<G>>
walk_result<op_handle_t<G>> dependence_walk_from(block_scratch<G>& scratch, const G& g, R&& values,
                                                 block_handle_t<G> block, const walk_options<G>& opts = {}) {
  static_assert(require_ordered_ir<G>());
  return walk_detail::walker<BoundarySet, G>(scratch, g, block, opts).from_values(std::forward<R>(values));
}

template <boundary_set_like BoundarySet = default_boundary_set, class G, class R>
  requires std::ranges::input_range<R> &&
           std::convertible_to<std::ranges::range_value_t<R>, value_handle_t<G>>
walk_result<op_handle_t<G>> dependence_walk_from(const G& g, R&& values, block_handle_t<G> block,
                                                 const walk_options<G>& opts = {}) {
  block_scratch<G> scratch(g);
  return dependence_walk_from<BoundarySet>(scratch, g, std::forward<R>(values), block, opts);
}

}  // namespace neuronrw
