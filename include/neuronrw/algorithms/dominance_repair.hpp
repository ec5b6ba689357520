// neuronrw/algorithms/dominance_repair.hpp — move an op later or earlier in its block and carry
// exactly the ops that must come along so SSA dominance still holds, keeping the relative order
// of everything else. Plan + apply: planning reads the IR and returns plain data (the moves, or
// a refusal with its reason); applying performs the moves.
//
// Customization points: none; planning needs ordered_ir, applying reschedulable_ir.
//
//   sink  (op → immediately before dest; its forward slice in (op, dest) → immediately after
//          `after`). ScheduleFusion's reschedule (docs/schedule-fusion.md §"Semantics") is sink(AG, dest = RS,
//          after = last op of the cluster): the original compiler's `AG.moveAfter(RS)` plus its
//          moveBefore/moveAfter repair, stated by its outcome.
//   hoist (op → immediately after dest; its backward slice in (dest, op) → immediately before
//          op's new position).
//
// Slices are taken with block_dataflow's producers, so a use inside a nested region counts for
// its ancestor op in the block (docs/schedule-fusion.md §"Semantics"); a terminator
// (ir::is_terminator: the IR's own answer, optional capability O3, else a `return`-kind op)
// never moves, and nothing is moved after one.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>
#include <span>
#include <vector>

#include <neuronrw/algorithms/block_dataflow.hpp>
#include <neuronrw/algorithms/block_scratch.hpp>
#include <neuronrw/algorithms/op_set.hpp>
#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/descriptors/kinds.hpp>

namespace neuronrw {

/// Why a repair was refused. The IR is never changed by planning.
enum class repair_refusal : std::uint8_t {
  none,
  different_blocks,   ///< op, dest (and after) are not all in one block
  wrong_order,        ///< sink: dest not after op, or after before dest; hoist: dest not before op
  moves_terminator,   ///< the op or a carried op is a terminator (ir::is_terminator; offending = it)
  after_terminator,   ///< sink: carried ops would land after `after`, a terminator (offending = after)
  slice_feeds_range,  ///< sink: an op of [dest, after] uses a carried op, so the carried op
                      ///< cannot move after it (offending = that user; dependence = the carried op)
};

constexpr std::string_view to_string(repair_refusal r) noexcept {
  switch (r) {
    case repair_refusal::none: return "none";
    case repair_refusal::different_blocks: return "different_blocks";
    case repair_refusal::wrong_order: return "wrong_order";
    case repair_refusal::moves_terminator: return "moves_terminator";
    case repair_refusal::after_terminator: return "after_terminator";
    case repair_refusal::slice_feeds_range: return "slice_feeds_range";
  }
  return "unknown";
}

enum class move_position : std::uint8_t { before, after };

/// One move: put `op` immediately before/after `anchor`.
template <class Op>
struct op_move {
  Op op;
  move_position where;
  Op anchor;
  friend bool operator==(const op_move&, const op_move&) = default;
};

/// Chains shorter than this are applied move by move even on an IR with move_run_after (O10).
inline constexpr std::size_t min_run_moves = 8;

/// Performs `moves` in order: the one place a planned move becomes an IR move (the repair here,
/// ScheduleFusion's reschedule, any pass that plans moves). On an IR with move_run_after (O10),
/// each chain of at least min_run_moves moves that put an op after the op moved just before
/// (a repair's carried slice) is handed to it as one run; the outcome is the same.
/// @pre each move was planned against the IR as the earlier moves leave it.
/// Complexity: O(moves) IR moves (O(1) amortized each on the reference IR).
template <class G>
void apply_moves(G& g, std::span<const op_move<op_handle_t<G>>> moves) {
  static_assert(require_reschedulable_ir<G>());
  using handle = op_handle_t<G>;
  [[maybe_unused]] std::vector<handle> run;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const auto& m = moves[i];
    if (m.where == move_position::before) {
      ir::move_before(g, m.op, m.anchor);
      continue;
    }
    if constexpr (run_move_ir<G>) {
      // The chain's ops are collected while it is scanned: one pass over the moves.
      run.clear();
      run.reserve(moves.size() - i);
      run.push_back(m.op);
      std::size_t j = i + 1;
      for (; j < moves.size() && moves[j].where == move_position::after && moves[j].anchor == moves[j - 1].op; ++j)
        run.push_back(moves[j].op);
      if (j - i >= min_run_moves) {
        ir::move_run_after(g, std::span<const handle>(run), m.anchor);
      } else {
        for (std::size_t k = i; k < j; ++k) ir::move_after(g, moves[k].op, moves[k].anchor);
      }
      i = j - 1;  // the chain is done: it is scanned once, long or short
      continue;
    }
    ir::move_after(g, m.op, m.anchor);
  }
}

/// A dominance-repair plan: plain data.
template <class Op>
struct repair_plan {
  repair_refusal refusal = repair_refusal::none;
  /// The op that made the plan fail (see repair_refusal); null when accepted.
  Op offending{};
  /// For slice_feeds_range: the carried op that `offending` uses; null otherwise.
  Op dependence{};
  /// The carried ops, in their original block order (computed even when refused, if reached).
  std::vector<Op> slice;
  /// The moves, in the order apply performs them; empty when refused.
  std::vector<op_move<Op>> moves;

  bool ok() const noexcept { return refusal == repair_refusal::none; }
};

namespace repair_detail {

template <class G>
repair_plan<op_handle_t<G>> refused(repair_refusal why, op_handle_t<G> offending) {
  repair_plan<op_handle_t<G>> p;
  p.refusal = why;
  p.offending = offending;
  p.dependence = ir::null_op<G>();
  return p;
}

// The slice buffer (block_scratch::repair_buffer), whose size is its capacity, made larger.
template <class Op>
[[gnu::noinline]] void grow(std::vector<Op>& buf) {
  buf.resize(std::max<std::size_t>(64, 2 * buf.size()));
}

}  // namespace repair_detail

/// Plans sink: `op` to immediately before `dest`; the ops of the window (op, dest) that
/// transitively use op (its forward slice) to immediately after `after`, in their order. All
/// other ops keep their relative order. Refused (moves empty) when op/dest/after are not in one
/// block or out of order, when op or a carried op is a terminator (ir::is_terminator), when carried ops
/// would follow a terminator `after`, or when an op of [dest, after] uses a carried op (it
/// would then precede its producer).
/// @pre op, dest and after are ops of the IR; the block respects dominance.
/// Complexity: O(window (op, after) + operands of its ops) and O(1) order queries on IRs where
/// they are O(1); O(1) setup with a reused scratch.
/// Source: docs/schedule-fusion.md §"Semantics"; docs/sources.md §"ScheduleFusion".
template <class G>
repair_plan<op_handle_t<G>> plan_sink(block_scratch<G>& scratch, const G& g, op_handle_t<G> op,
                                      op_handle_t<G> dest, op_handle_t<G> after) {
  static_assert(require_ordered_ir<G>());
  using handle = op_handle_t<G>;
  using repair_detail::refused;
  const auto block = ir::block_of(g, op);
  if (!(ir::block_of(g, dest) == block)) return refused<G>(repair_refusal::different_blocks, dest);
  if (!(ir::block_of(g, after) == block)) return refused<G>(repair_refusal::different_blocks, after);
  if (!ir::is_before_in_block(g, op, dest)) return refused<G>(repair_refusal::wrong_order, dest);
  if (!(after == dest) && !ir::is_before_in_block(g, dest, after))
    return refused<G>(repair_refusal::wrong_order, after);
  if (ir::is_terminator(g, op)) return refused<G>(repair_refusal::moves_terminator, op);

  repair_plan<handle> p;
  p.offending = p.dependence = ir::null_op<G>();
  const auto carried_lease = scratch.marks().take(g);
  op_set<G>& carried = *carried_lease;
  carried.insert(op);
  std::size_t window = 0;
  // Collected in the scratch's buffer, then copied to the plan once (no regrowth per call).
  std::vector<handle>& buf = scratch.repair_buffer();
  std::size_t n = 0;
  for (handle x = ir::next_op(g, op); !(x == dest); x = ir::next_op(g, x)) {
    ++window;
    // carried holds only ops of the block: no block test per producer (first_producer_in).
    if (ir::is_null<G>(first_producer_in(g, x, block, carried))) continue;
    carried.insert(x);
    if (n == buf.size()) repair_detail::grow(buf);
    buf[n++] = x;
  }
  p.slice.assign(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
  for (const handle& s : p.slice)
    if (ir::is_terminator(g, s)) {
      p.refusal = repair_refusal::moves_terminator;
      p.offending = s;
      return p;
    }
  if (!p.slice.empty()) {
    if (ir::is_terminator(g, after)) {
      p.refusal = repair_refusal::after_terminator;
      p.offending = after;
      return p;
    }
    // op itself may feed [dest, after]: it stays before dest. Only carried ops are a problem.
    carried.erase(op);
    for (handle z = dest;; z = ir::next_op(g, z)) {
      const handle d = first_producer_in(g, z, block, carried);
      if (!ir::is_null<G>(d)) {
        p.refusal = repair_refusal::slice_feeds_range;
        p.offending = z;
        p.dependence = d;
        return p;
      }
      if (z == after) break;
    }
  }
  // When the whole window is carried away, op ends up right before dest without moving.
  const bool moves_op = window > p.slice.size();
  // Sized first and written field by field: the loop then stores straight into the plan (a
  // push_back of a built move costs a store-forwarding stall per move on some compilers).
  p.moves.resize(p.slice.size() + (moves_op ? 1 : 0));
  auto* out = p.moves.data();
  if (moves_op) *out++ = {op, move_position::before, dest};
  handle anchor = after;
  for (const handle& s : p.slice) {
    out->op = s;
    out->where = move_position::after;
    out->anchor = anchor;
    ++out;
    anchor = s;
  }
  return p;
}

template <class G>
repair_plan<op_handle_t<G>> plan_sink(const G& g, op_handle_t<G> op, op_handle_t<G> dest, op_handle_t<G> after) {
  block_scratch<G> scratch(g);
  return plan_sink(scratch, g, op, dest, after);
}

/// Plans hoist: `op` to immediately after `dest`; the ops of the window (dest, op) that op
/// transitively uses (its backward slice) to immediately before op's new position, in their
/// order. All other ops keep their relative order. Refused (moves empty) when op/dest are not in
/// one block or dest is not before op, or when op or a carried op is a terminator
/// terminator. On a block that respects dominance nothing else can break: carried ops only move
/// earlier past ops they do not use, and the ops they pass are not used by them.
/// @pre the block respects dominance.
/// Complexity: O(window (dest, op) + operands of its ops); O(1) setup with a reused scratch.
/// Source: docs/schedule-fusion.md §"Semantics" (the mirror image of sink).
template <class G>
repair_plan<op_handle_t<G>> plan_hoist(block_scratch<G>& scratch, const G& g, op_handle_t<G> op,
                                       op_handle_t<G> dest) {
  static_assert(require_ordered_ir<G>());
  using handle = op_handle_t<G>;
  using repair_detail::refused;
  const auto block = ir::block_of(g, op);
  if (!(ir::block_of(g, dest) == block)) return refused<G>(repair_refusal::different_blocks, dest);
  if (!ir::is_before_in_block(g, dest, op)) return refused<G>(repair_refusal::wrong_order, dest);
  if (ir::is_terminator(g, op)) return refused<G>(repair_refusal::moves_terminator, op);

  repair_plan<handle> p;
  p.offending = p.dependence = ir::null_op<G>();
  const auto needed_lease = scratch.marks().take(g);
  op_set<G>& needed = *needed_lease;
  insert_producers(g, op, block, needed);  // needed is asked only about window ops
  std::size_t window = 0;
  handle first_kept = ir::null_op<G>();  // the earliest window op that stays
  std::vector<handle>& buf = scratch.repair_buffer();  // as in plan_sink
  std::size_t n = 0;
  for (handle x = ir::prev_op(g, op); !(x == dest); x = ir::prev_op(g, x)) {
    ++window;
    if (!needed.contains(x)) {
      first_kept = x;
      continue;
    }
    if (n == buf.size()) repair_detail::grow(buf);
    buf[n++] = x;
    insert_producers(g, x, block, needed);
  }
  p.slice.assign(std::make_reverse_iterator(buf.begin() + static_cast<std::ptrdiff_t>(n)), buf.rend());
  for (const handle& s : p.slice)
    if (ir::is_terminator(g, s)) {
      p.refusal = repair_refusal::moves_terminator;
      p.offending = s;
      return p;
    }
  if (window == p.slice.size()) return p;  // everything in the window is carried: already in place
  // Carried ops before the first op that stays are already in place: list only real moves.
  std::size_t i = 0;
  while (i < p.slice.size() && ir::is_before_in_block(g, p.slice[i], first_kept)) ++i;
  p.moves.resize(p.slice.size() - i + 1);  // written field by field, as in plan_sink
  auto* out = p.moves.data();
  handle anchor = i == 0 ? dest : p.slice[i - 1];
  for (; i < p.slice.size(); ++i) {
    out->op = p.slice[i];
    out->where = move_position::after;
    out->anchor = anchor;
    ++out;
    anchor = p.slice[i];
  }
  *out = {op, move_position::after, anchor};
  return p;
}

template <class G>
repair_plan<op_handle_t<G>> plan_hoist(const G& g, op_handle_t<G> op, op_handle_t<G> dest) {
  block_scratch<G> scratch(g);
  return plan_hoist(scratch, g, op, dest);
}

/// Performs the moves of an accepted plan, in order; a refused plan changes nothing.
/// @pre the IR has not changed since the plan was made.
/// Complexity: O(moves) IR moves (O(1) amortized each on the reference IR).
template <class G>
void apply_repair(G& g, const repair_plan<op_handle_t<G>>& plan) {
  static_assert(require_reschedulable_ir<G>());
  if (plan.ok()) apply_moves(g, std::span<const op_move<op_handle_t<G>>>(plan.moves));
}

}  // namespace neuronrw
