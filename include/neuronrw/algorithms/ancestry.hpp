// neuronrw/algorithms/ancestry.hpp — where a use "counts" in a block: the ancestor of an op that
// lies in a given block (SPEC §4.5: a use inside a nested region counts as a use by its ancestor
// op in the block — for the walk, the legality check and the repair alike).
//
// Customization points: none; needs read_ir + ordered_ir (block_of, parent_op).
#pragma once

#include <neuronrw/concepts/ir.hpp>

namespace neuronrw {

/// The op A such that A is `op` or an ancestor of `op` and A lies directly in `block`;
/// ir_traits<G>::null_op() when `op` is not (transitively) inside `block`.
/// Complexity: O(nesting depth of op).
template <class G>
op_handle_t<G> ancestor_in_block(const G& g, op_handle_t<G> op, block_handle_t<G> block) {
  static_assert(require_ordered_ir<G>());
  const auto none = ir::traits<G>::null_op();
  for (auto o = op; !(o == none); o = ir::parent_op(g, o))
    if (ir::block_of(g, o) == block) return o;
  return none;
}

/// True when `op` is `ancestor` or nested at any depth inside its region.
/// Complexity: O(nesting depth of op).
template <class G>
bool is_ancestor_or_self(const G& g, op_handle_t<G> ancestor, op_handle_t<G> op) {
  static_assert(require_read_ir<G>());
  const auto none = ir::traits<G>::null_op();
  for (auto o = op; !(o == none); o = ir::parent_op(g, o))
    if (o == ancestor) return true;
  return false;
}

}  // namespace neuronrw
