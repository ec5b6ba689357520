// neuronrw/algorithms/convexity.hpp — is a set of ops of one block convex (no op outside it lies
// on a dependence path between two of its members)? The legality check of ScheduleFusion
// (docs/schedule-fusion.md §"Semantics", legality), in O(window).
//
// Customization points: none; needs ordered_ir (op_set's array path on indexed IRs).
//
// Why O(window) suffices: every dependence path between two ops of a block runs through ops of
// that block positioned between them (a producer precedes its user), so only the ops strictly
// between the first and the last member can be on a violating path. Paths through ops of any
// kind count, other collectives included, and uses inside nested regions count for their
// ancestor in the block (docs/schedule-fusion.md §"Semantics").
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include <neuronrw/algorithms/block_dataflow.hpp>
#include <neuronrw/algorithms/block_scratch.hpp>
#include <neuronrw/algorithms/op_set.hpp>
#include <neuronrw/concepts/ir.hpp>

namespace neuronrw {

/// Result of a convexity check: plain data.
template <class Op>
struct convexity_result {
  bool convex = true;
  /// The first op in block order that is outside the set and both reachable from a member and a
  /// transitive producer of a member; null when convex.
  Op offending{};
  /// A member the offending op is reachable from (the earliest such) and a member it feeds (the
  /// latest such): one violating path runs from_member → ... → offending → ... → to_member.
  /// Null when convex.
  Op from_member{};
  Op to_member{};
};

/// Convexity of a cluster of ops of one block (any order, duplicates allowed).
/// @pre every op of `cluster` lies in one block; the cluster is non-empty.
/// Complexity: O(k log k) order queries to sort the k members, plus one forward and one backward
/// sweep over the ops between the first and last member, each reading the producers (nested
/// included) of the ops it passes: O(window + their operands). With a reused scratch nothing
/// depends on the size of the function.
/// Source: docs/schedule-fusion.md §"Semantics" (added to the original compiler's pass, which would build a cyclic
/// fusion here: docs/sources.md §"Where we differ").
template <class G>
convexity_result<op_handle_t<G>> check_convexity(block_scratch<G>& scratch, const G& g,
                                                 std::span<const op_handle_t<G>> cluster) {
  static_assert(require_ordered_ir<G>());
  using op = op_handle_t<G>;
  convexity_result<op> r{true, ir::null_op<G>(), ir::null_op<G>(), ir::null_op<G>()};
  if (cluster.empty()) return r;
  const auto block = ir::block_of(g, cluster.front());
  op first = cluster.front(), last = cluster.front();
  for (const op& o : cluster) {
    if (ir::is_before_in_block(g, o, first)) first = o;
    if (ir::is_before_in_block(g, last, o)) last = o;
  }
  if (first == last) return r;

  // Three marks of its own, leased from the scratch for this call.
  const auto member_lease = scratch.marks().take(g), reached_lease = scratch.marks().take(g),
             feeds_lease = scratch.marks().take(g);
  op_set<G>& member = *member_lease;
  op_set<G>& reached = *reached_lease;  // reachable from a member (members included)
  op_set<G>& feeds = *feeds_lease;      // transitive producer of a member
  for (const op& o : cluster) member.insert(o);

  // Forward: X is reached when one of its producers is a member or reached. Members are seeded
  // as they are passed, so paths through intermediate members count too.
  // Each op's key is computed once for the three sets (op_set::key: one op_index).
  reached.insert(first);
  for (op x = ir::next_op(g, first); !(x == last); x = ir::next_op(g, x)) {
    const auto kx = member.key(x);
    if (member.contains_key(kx)) {
      reached.insert_key(kx);
      continue;
    }
    for_each_producer_in_block(g, x, block, [&](op p) {
      if (!reached.contains(p)) return true;
      reached.insert_key(kx);
      return false;
    });
  }
  // Backward: producers of members and of feeding ops feed. The last offender found is the
  // first in block order.
  for (op x = last; !(x == first); x = ir::prev_op(g, x)) {
    const auto kx = member.key(x);
    const bool is_member = member.contains_key(kx);
    if (!is_member && !feeds.contains_key(kx)) continue;
    if (!is_member && reached.contains_key(kx)) {
      r.convex = false;
      r.offending = x;
    }
    for_each_producer_in_block(g, x, block, [&](op p) { feeds.insert(p); });
  }
  if (r.convex) return r;

  // Name one violating path's end points (rarely needed, so computed only on failure): the
  // earliest member the offender is reachable from, the latest member it feeds. Reuses the
  // marks: `reached` becomes "reaches the offender" backward, `feeds` "fed by it" forward.
  op_set<G>& back = reached;
  back.clear();
  back.insert(r.offending);
  for (op x = r.offending; !(x == first); x = ir::prev_op(g, x)) {
    if (!back.contains(x)) continue;
    if (!(x == r.offending) && member.contains(x)) r.from_member = x;
    for_each_producer_in_block(g, x, block, [&](op p) { back.insert(p); });
  }
  if (back.contains(first)) r.from_member = first;
  op_set<G>& fwd = feeds;
  fwd.clear();
  fwd.insert(r.offending);
  for (op x = ir::next_op(g, r.offending);; x = ir::next_op(g, x)) {
    for_each_producer_in_block(g, x, block, [&](op p) {
      if (!fwd.contains(p)) return true;
      fwd.insert(x);
      if (member.contains(x)) r.to_member = x;
      return false;
    });
    if (x == last) break;
  }
  return r;
}

template <class G>
convexity_result<op_handle_t<G>> check_convexity(const G& g, std::span<const op_handle_t<G>> cluster) {
  block_scratch<G> scratch(g);
  return check_convexity(scratch, g, cluster);
}

/// Convexity of {producer, consumer} (docs/schedule-fusion.md's [all_gather, reduce_scatter]).
/// @pre producer and consumer lie in one block.
/// Complexity: O(window between them + the operands of its ops).
template <class G>
convexity_result<op_handle_t<G>> check_convexity(block_scratch<G>& scratch, const G& g, op_handle_t<G> producer,
                                                 op_handle_t<G> consumer) {
  const op_handle_t<G> pair[2] = {producer, consumer};
  return check_convexity(scratch, g, std::span<const op_handle_t<G>>(pair, 2));
}

template <class G>
convexity_result<op_handle_t<G>> check_convexity(const G& g, op_handle_t<G> producer, op_handle_t<G> consumer) {
  block_scratch<G> scratch(g);
  return check_convexity(scratch, g, producer, consumer);
}

}  // namespace neuronrw
