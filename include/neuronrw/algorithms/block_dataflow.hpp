// neuronrw/algorithms/block_dataflow.hpp — producers and consumers of an op *within one block*,
// with uses inside nested regions counted for their ancestor op in the block (docs/schedule-fusion.md §"Semantics").
// Includes algorithms/block_scratch.hpp, the reusable memory (`block_scratch`: per-call marks,
// the walk's buffers, the cached dense block copy) the block algorithms take, so that repeated
// calls cost O(window), not O(#ops).
//
// Customization points: none; needs ordered_ir. Uses op_index/op_index_bound when present
// (through op_set).
//
// Definitions (B a block, X an op of B):
//   producers(X in B) = { ancestor_in_block(defining_op(v), B) : v an operand of X or of any op
//                         nested (any depth) in X's regions } \ {X, null}
//   consumers(X in B) = { ancestor_in_block(u, B) : u a user of a result of X } \ {X, null}
// A use inside a region counts for the region's op because that op cannot move past the value's
// definition without its region's body doing so too.
#pragma once

#include <concepts>
#include <cstddef>
#include <type_traits>
#include <vector>

#include <neuronrw/algorithms/ancestry.hpp>
#include <neuronrw/algorithms/block_scratch.hpp>
#include <neuronrw/algorithms/op_set.hpp>
#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/detail/function_ref.hpp>
#include <neuronrw/detail/ranges.hpp>

namespace neuronrw {

namespace dataflow_detail {

// Callbacks may return void (visit everything) or something bool-like (false = stop early).
template <class F, class Op>
bool call(F& f, Op o) {
  if constexpr (std::is_void_v<std::invoke_result_t<F&, Op>>) {
    f(o);
    return true;
  } else {
    return static_cast<bool>(f(o));
  }
}

// Producers contributed by the operands of the ops nested in `x`'s regions. Recursion depth is
// the nesting depth; no allocation beyond what the IR's own ranges do. The rare path (ops with
// regions), so the callback is type-erased: one instantiation per IR, not one per caller.
template <class G>
[[gnu::noinline]] bool nested_producers(const G& g, op_handle_t<G> x, op_handle_t<G> root, block_handle_t<G> block,
                                        detail::function_ref<bool(op_handle_t<G>)> f) {
  for (auto&& b : ir::regions(g, x)) {
    for (auto&& inner : ir::ops(g, b)) {
      for (auto&& v : ir::operands(g, inner)) {
        const auto d = ir::defining_op(g, v);
        if (ir::is_null<G>(d)) continue;
        const auto a = ancestor_in_block(g, d, block);
        if (ir::is_null<G>(a) || a == root) continue;
        if (!f(a)) return false;
      }
      if (!nested_producers<G>(g, inner, root, block, f)) return false;
    }
  }
  return true;
}

}  // namespace dataflow_detail

/// Calls `f(p)` for every p in producers(op in block), once per contributing operand (so a
/// producer may be reported more than once; callers that need a set dedupe with their own
/// marks). `f` may return bool: false stops the enumeration.
/// Returns false when `f` stopped it, true otherwise.
/// @pre op lies in `block`.
/// Complexity: O(operands of op + Σ over nested ops of (operands × nesting depth)); no
/// allocation when op has no regions (on IRs whose ranges do not allocate).
/// Source: docs/schedule-fusion.md §"Semantics" (nested uses count for their ancestor in the block).
template <class G, class F>
bool for_each_producer_in_block(const G& g, op_handle_t<G> op, block_handle_t<G> block, F&& f) {
  static_assert(require_ordered_ir<G>());
  auto visit = [&](const op_handle_t<G>& d) {
    if (ir::is_null<G>(d)) return true;
    // Fast path: the common case is a producer directly in the block.
    const auto a = ir::block_of(g, d) == block ? d : ancestor_in_block(g, d, block);
    if (ir::is_null<G>(a) || a == op) return true;
    return dataflow_detail::call(f, a);
  };
  if constexpr (operand_defs_ir<G>) {
    // O6: the defining ops at hand, one load fewer per operand on this hot path.
    for (const auto& d : ir::traits<G>::operand_defs(g, op))
      if (!visit(d)) return false;
  } else {
    for (auto&& v : ir::operands(g, op))
      if (!visit(ir::defining_op(g, v))) return false;
  }
  auto&& rs = ir::regions(g, op);
  if (std::ranges::begin(rs) == std::ranges::end(rs)) return true;
  return dataflow_detail::nested_producers<G>(g, op, op, block, [&f](op_handle_t<G> a) { return dataflow_detail::call(f, a); });
}

namespace dataflow_detail {

// Calls f(d) for the defining op d of each operand of op itself (not of nested ops), null ones
// skipped, with no block test; false from f stops. See first_producer_in.
template <class G, class F>
bool for_each_direct_def(const G& g, op_handle_t<G> op, F&& f) {
  if constexpr (operand_defs_ir<G>) {
    for (const auto& d : ir::traits<G>::operand_defs(g, op))
      if (!ir::is_null<G>(d) && !(d == op) && !call(f, d)) return false;
  } else {
    for (auto&& v : ir::operands(g, op)) {
      const auto d = ir::defining_op(g, v);
      if (!ir::is_null<G>(d) && !(d == op) && !call(f, d)) return false;
    }
  }
  return true;
}

}  // namespace dataflow_detail

namespace dataflow_detail {

// first_producer_in's rare path: the producers of the ops nested in op's regions.
template <class G>
[[gnu::noinline]] op_handle_t<G> first_nested_producer_in(const G& g, op_handle_t<G> op, block_handle_t<G> block,
                                                          const op_set<G>& marks) {
  op_handle_t<G> found = ir::null_op<G>();
  nested_producers<G>(g, op, op, block, [&](op_handle_t<G> a) {
    if (!marks.contains(a)) return true;
    found = a;
    return false;
  });
  return found;
}

}  // namespace dataflow_detail

/// The first p of producers(op in block), in for_each_producer_in_block's order, that `marks`
/// holds; null when there is none. For a set of ops of the block: then the defining op of one of
/// op's own operands needs no block test. In a block that respects dominance it is an op of the
/// block or lies outside all of them (in an enclosing block), never nested in one, so the set
/// alone answers. That saves the producer's block, a load per operand, on the repair's and the
/// planner's hot loops; operands of nested ops go through ancestor_in_block as usual.
/// @pre op lies in `block`, which respects dominance; `marks` holds only ops of `block`.
/// Complexity: as for_each_producer_in_block.
template <class G>
[[gnu::always_inline]] inline op_handle_t<G> first_producer_in(const G& g, op_handle_t<G> op,
                                                               block_handle_t<G> block, const op_set<G>& marks) {
  static_assert(require_ordered_ir<G>());
  // The operands' loop written out (no callback): it is the whole of the common case, and a
  // closure for the nested path would be set up on every call. always_inline: it is called once
  // per window op from large functions (plan_sink, the planner), where GCC's unit-growth limit
  // otherwise leaves it a call.
  if constexpr (operand_defs_ir<G>) {
    for (const auto& d : ir::traits<G>::operand_defs(g, op))
      if (!ir::is_null<G>(d) && !(d == op) && marks.contains(d)) return d;
  } else {
    for (auto&& v : ir::operands(g, op)) {
      const auto d = ir::defining_op(g, v);
      if (!ir::is_null<G>(d) && !(d == op) && marks.contains(d)) return d;
    }
  }
  auto&& rs = ir::regions(g, op);
  if (std::ranges::begin(rs) == std::ranges::end(rs)) return ir::null_op<G>();
  return dataflow_detail::first_nested_producer_in(g, op, block, marks);
}

/// Inserts producers(op in block) into `marks`, and possibly defining ops outside the block too
/// (of op's own operands; see first_producer_in for why no block test is needed). For a set that
/// is then asked only about ops of the block, this is producers(op in block) one load per operand
/// cheaper.
/// @pre op lies in `block`, which respects dominance.
/// Complexity: as for_each_producer_in_block.
template <class G>
void insert_producers(const G& g, op_handle_t<G> op, block_handle_t<G> block, op_set<G>& marks) {
  static_assert(require_ordered_ir<G>());
  auto add = [&](const op_handle_t<G>& d) { marks.insert(d); };
  dataflow_detail::for_each_direct_def(g, op, add);
  auto&& rs = ir::regions(g, op);
  if (std::ranges::begin(rs) == std::ranges::end(rs)) return;
  dataflow_detail::nested_producers<G>(g, op, op, block, [&](op_handle_t<G> a) {
    marks.insert(a);
    return true;
  });
}

/// Calls `f(c)` for every c in consumers(op in block), once per use (duplicates possible, as
/// above). `f` may return bool: false stops the enumeration. Returns false when stopped.
/// @pre op lies in `block`.
/// Complexity: O(Σ over uses of op's results of the user's nesting depth below the block).
/// Source: docs/schedule-fusion.md §"Semantics".
template <class G, class F>
bool for_each_consumer_in_block(const G& g, op_handle_t<G> op, block_handle_t<G> block, F&& f) {
  static_assert(require_ordered_ir<G>());
  for (auto&& r : ir::results(g, op)) {
    for (auto&& u : ir::users(g, r)) {
      const auto a = ancestor_in_block(g, u, block);
      if (ir::is_null<G>(a) || a == op) continue;
      if (!dataflow_detail::call(f, a)) return false;
    }
  }
  return true;
}

/// producers(op in block) as a duplicate-free vector in first-seen order (operand order, then
/// nested ops in block order). For diagnostics and tests; hot paths use the callback form.
/// Complexity: O(p²) in the number p of reported producers (they are few per op).
template <class G>
std::vector<op_handle_t<G>> producers_in_block(const G& g, op_handle_t<G> op, block_handle_t<G> block) {
  std::vector<op_handle_t<G>> r;
  for_each_producer_in_block(g, op, block, [&](op_handle_t<G> p) {
    for (const auto& q : r)
      if (q == p) return;
    r.push_back(p);
  });
  return r;
}

/// consumers(op in block) as a duplicate-free vector in use-list order. See producers_in_block.
template <class G>
std::vector<op_handle_t<G>> consumers_in_block(const G& g, op_handle_t<G> op, block_handle_t<G> block) {
  std::vector<op_handle_t<G>> r;
  for_each_consumer_in_block(g, op, block, [&](op_handle_t<G> c) {
    for (const auto& q : r)
      if (q == c) return;
    r.push_back(c);
  });
  return r;
}

}  // namespace neuronrw
