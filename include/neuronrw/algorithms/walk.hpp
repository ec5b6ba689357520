// neuronrw/algorithms/walk.hpp — the one region walker: every op nested in a block or an op, at
// any depth, in pre-order or post-order, with a predicate deciding which ops' regions to enter
// (the shape of MLIR's `Operation::walk<WalkOrder>`, over any ordered_ir).
//
// Customization points: none; needs ordered_ir (ops, regions).
//
//   walk<walk_order::pre>(g, block, visit [, descend])     ops of `block` and everything inside
//   walk_inside<walk_order::post>(g, op, visit [, descend]) ops inside op's regions (not op)
//   read_walk(g, block, visit [, descend])                 pre-order, for visitors that only read
//
// `visit(op)` returns void or a walk_action: `advance`, `skip` (pre-order: do not enter this op's
// regions) or `interrupt` (stop the whole walk). `descend(op) -> bool` is asked once for every op
// the walk reaches (pre-order: after visiting it, unless it was skipped), before its regions are
// entered; false keeps the walk out of them (the root of walk_inside is always entered). Both
// walks return false when interrupted.
//
// Order: siblings in block order, an op's regions in region order. Pre-order visits an op before
// the ops nested in it; post-order after them (an inner op before the op that holds it).
//
// The walk keeps an explicit stack (deep nesting cannot exhaust the call stack) and reads the
// children of an op when it enters it, so `visit` may rewrite what it was given (and what lies
// inside it, in post-order) but must not erase or move ops the walk has not reached yet.
// Complexity: O(ops visited + regions entered), one vector of pending ops.
//
// read_walk is walk<walk_order::pre> for a visitor that changes nothing (a planner's scan): it
// steps through each block with next_op, so every op is read once, when it is reached, and its
// stack holds one entry per block entered and not finished. walk reads a block's ops all before
// it visits the first (what lets a visitor move the op it was given), which on an IR whose ops
// are separate nodes (MLIR) reads each op's memory twice.
// Complexity: O(ops visited + regions entered); a vector as deep as the nesting.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/detail/ranges.hpp>

namespace neuronrw {

enum class walk_order : std::uint8_t { pre, post };

enum class walk_action : std::uint8_t {
  advance,    ///< go on
  skip,       ///< pre-order only: do not enter this op's regions
  interrupt,  ///< stop the walk
};

/// The default descend predicate: enter every region.
struct descend_all {
  template <class Op>
  constexpr bool operator()(const Op&) const noexcept {
    return true;
  }
};

namespace walk_detail {

template <class Visit, class Op>
walk_action call_visit(Visit& visit, const Op& o) {
  if constexpr (std::is_void_v<std::invoke_result_t<Visit&, const Op&>>) {
    visit(o);
    return walk_action::advance;
  } else {
    static_assert(std::is_same_v<std::invoke_result_t<Visit&, const Op&>, walk_action>,
                  "neuronrw::walk: the visitor returns void or neuronrw::walk_action");
    return visit(o);
  }
}

}  // namespace walk_detail

/// The walk itself, over any tree of ops: `roots(push)` and `children(op, push)` call `push(x)`
/// for the first-level ops and for the ops nested in op's regions, in order. walk and walk_inside
/// are this over ir::regions / ir::ops; a concrete IR uses it directly where its ir_traits are
/// not declared yet (the reference IR's own rewrites).
/// Complexity: O(ops visited + children pushed), one vector of pending ops.
template <walk_order Order, class Op, class Roots, class Children, class Visit, class Descend = descend_all>
bool walk_tree(Roots&& roots, Children&& children, Visit&& visit, Descend&& descend = {}) {
  if constexpr (Order == walk_order::pre) {
    std::vector<Op> stack;
    auto push = [&stack](const Op& o) { stack.push_back(o); };
    auto push_all = [&](auto&& produce) {  // popping yields them in the order produced
      const std::size_t mark = stack.size();
      produce(push);
      std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(mark), stack.end());
    };
    push_all(roots);
    while (!stack.empty()) {
      const Op o = stack.back();
      stack.pop_back();
      const walk_action a = walk_detail::call_visit(visit, o);
      if (a == walk_action::interrupt) return false;
      if (a == walk_action::skip || !descend(o)) continue;
      push_all([&](auto&& p) { children(o, p); });
    }
  } else {
    std::vector<std::pair<Op, bool>> stack;  // (op, its children already pushed)
    auto push = [&stack](const Op& o) { stack.emplace_back(o, false); };
    auto push_all = [&](auto&& produce) {
      const std::size_t mark = stack.size();
      produce(push);
      std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(mark), stack.end());
    };
    push_all(roots);
    while (!stack.empty()) {
      if (!stack.back().second) {
        stack.back().second = true;
        const Op o = stack.back().first;  // the reference dies with the pushes below
        if (descend(o)) push_all([&](auto&& p) { children(o, p); });
        continue;
      }
      const Op o = stack.back().first;
      stack.pop_back();
      if (walk_detail::call_visit(visit, o) == walk_action::interrupt) return false;
    }
  }
  return true;
}

namespace walk_detail {

template <walk_order Order, class G, class Visit, class Descend, class Roots>
bool run(const G& g, Roots&& roots, Visit& visit, Descend& descend) {
  using op = op_handle_t<G>;
  auto children = [&g](const op& o, auto&& push) {
    for (auto&& b : ir::regions(g, o))
      for (auto&& x : ir::ops(g, b)) push(x);
  };
  auto firsts = [&g, &roots](auto&& push) {
    for (auto&& b : roots)
      for (auto&& x : ir::ops(g, b)) push(x);
  };
  return walk_tree<Order, op>(firsts, children, visit, descend);
}

}  // namespace walk_detail

/// Visits every op of `root` and every op nested in them, in `Order`. Returns false when `visit`
/// interrupted the walk.
/// Complexity: O(ops visited + regions entered).
template <walk_order Order = walk_order::pre, class G, class Visit, class Descend = descend_all>
bool walk(const G& g, block_handle_t<G> root, Visit&& visit, Descend&& descend = {}) {
  static_assert(require_ordered_ir<G>());
  const block_handle_t<G> roots[] = {root};
  return walk_detail::run<Order>(g, roots, visit, descend);
}

/// Visits the ops of `root` and every op nested in them in pre-order, as walk<walk_order::pre>
/// does, stepping through each block with next_op (see the header comment). Returns false when
/// `visit` interrupted the walk.
/// @pre `visit` and `descend` change nothing in g (walk is the one for visitors that rewrite).
/// Complexity: O(ops visited + regions entered).
template <class G, class Visit, class Descend = descend_all>
bool read_walk(const G& g, block_handle_t<G> root, Visit&& visit, Descend&& descend = {}) {
  static_assert(require_ordered_ir<G>());
  using op = op_handle_t<G>;
  std::vector<op> stack;  // per block entered and not finished, the next op to visit in it
  auto push_firsts = [&](auto&& blocks) {  // popping yields the blocks in order
    const std::size_t mark = stack.size();
    for (auto&& b : blocks) {
      auto&& r = ir::ops(g, b);
      auto it = std::ranges::begin(r);
      if (it != std::ranges::end(r)) stack.push_back(*it);
    }
    std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(mark), stack.end());
  };
  const block_handle_t<G> roots[] = {root};
  push_firsts(roots);
  while (!stack.empty()) {
    const op o = stack.back();
    const op nx = ir::next_op(g, o);
    if (ir::is_null<G>(nx))
      stack.pop_back();
    else
      stack.back() = nx;
    const walk_action a = walk_detail::call_visit(visit, o);
    if (a == walk_action::interrupt) return false;
    if (a == walk_action::skip || !descend(o)) continue;
    push_firsts(ir::regions(g, o));
  }
  return true;
}

/// Visits every op nested (at any depth) in the regions of `root`, not `root` itself, in `Order`.
/// Returns false when `visit` interrupted the walk.
/// Complexity: O(ops visited + regions entered).
template <walk_order Order = walk_order::pre, class G, class Visit, class Descend = descend_all>
bool walk_inside(const G& g, op_handle_t<G> root, Visit&& visit, Descend&& descend = {}) {
  static_assert(require_ordered_ir<G>());
  return walk_detail::run<Order>(g, ir::regions(g, root), visit, descend);
}

}  // namespace neuronrw
