// neuronrw/algorithms/ancestry.hpp — where a use "counts" in a block: the ancestor of an op that
// lies in a given block (docs/schedule-fusion.md §"Semantics": a use inside a nested region
// counts as a use by its ancestor op in the block — for the walk, the legality check and the
// repair alike).
//
// Customization points: none. These functions sit under every block algorithm, so they ask for
// exactly what they use and nothing more (not a whole concept layer):
//   is_ancestor_or_self  parent_chain_ir:    op_handle (copyable, ==), null_op, parent_op
//                                            (concepts/ir.hpp requirements 1, 2, 8)
//   ancestor_in_block    block_ancestry_ir:  parent_chain_ir + block_handle (==) and block_of
//                                            (requirement 9), no other ordered_ir requirement
// An IR that falls short gets one message naming the first missing piece
// (require_parent_chain_ir / require_block_ancestry_ir, the same "first missing requirement"
// scheme as concepts/ir.hpp).
#pragma once

#include <concepts>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/detail/requirement_check.hpp>

namespace neuronrw {

namespace ancestry_detail {
// Named after the concepts/ir.hpp requirement each one narrows, so a diagnostic (and the
// generated compile-fail tests) can point at that requirement.
template <class G> concept has_op_handle =
    concepts_detail::has_op_handle<G> && std::copyable<typename ir_traits<G>::op_handle> &&
    std::equality_comparable<typename ir_traits<G>::op_handle>;
template <class G> concept has_block =
    concepts_detail::has_block<G> && std::equality_comparable<typename ir_traits<G>::block_handle>;
}  // namespace ancestry_detail

/// What is_ancestor_or_self uses of G: walk up through parent_op until null_op.
template <class G>
concept parent_chain_ir = concepts_detail::specialized<G> && ancestry_detail::has_op_handle<G> &&
                          concepts_detail::has_null_op<G> && concepts_detail::has_parent_op<G>;

/// What ancestor_in_block uses of G: the parent chain and the block of each op on it.
template <class G>
concept block_ancestry_ir = parent_chain_ir<G> && ancestry_detail::has_block<G>;

#define NEURONRW_ANCESTRY_CHECK(cond, msg) NEURONRW_REQUIREMENT_CHECK(G, cond, msg)

template <class G>
constexpr bool require_parent_chain_ir() {
  if constexpr (false) {
  }
  NEURONRW_ANCESTRY_CHECK(concepts_detail::specialized<G>,
      "neuronrw ancestry (is_ancestor_or_self, ancestor_in_block): this IR has no "
      "neuronrw::ir_traits specialization. Fix: specialize `template <> struct "
      "neuronrw::ir_traits<YourIR>` (see docs/concepts.md) and include it before the call.")
  NEURONRW_ANCESTRY_CHECK(ancestry_detail::has_op_handle<G>,
      "neuronrw ancestry needs read_ir requirement 1 for ops only: ir_traits<G> has no "
      "`using op_handle = ...;` that is copyable and equality-comparable.")
  NEURONRW_ANCESTRY_CHECK(concepts_detail::has_null_op<G>,
      "neuronrw ancestry needs read_ir requirement 2: ir_traits<G> lacks `static op_handle "
      "null_op()`.")
  NEURONRW_ANCESTRY_CHECK(concepts_detail::has_parent_op<G>,
      "neuronrw ancestry needs read_ir requirement 8: ir_traits<G> lacks `static op_handle "
      "parent_op(const G&, op_handle)` (null_op() at top level).")
  else return true;
}

template <class G>
constexpr bool require_block_ancestry_ir() {
  if constexpr (!parent_chain_ir<G>) {
    return require_parent_chain_ir<G>();
  }
  NEURONRW_ANCESTRY_CHECK(ancestry_detail::has_block<G>,
      "neuronrw ancestor_in_block needs ordered_ir requirement 9 (and no other ordered_ir "
      "requirement): ir_traits<G> lacks an equality-comparable `using block_handle = ...;` "
      "and/or `static block_handle block_of(const G&, op_handle)`.")
  else return true;
}

#undef NEURONRW_ANCESTRY_CHECK

/// The op A such that A is `op` or an ancestor of `op` and A lies directly in `block`;
/// ir_traits<G>::null_op() when `op` is not (transitively) inside `block`.
/// Needs block_ancestry_ir only (see the header comment).
/// Complexity: O(nesting depth of op).
template <class G>
op_handle_t<G> ancestor_in_block(const G& g, op_handle_t<G> op, block_handle_t<G> block) {
  static_assert(require_block_ancestry_ir<G>());
  const auto none = ir::traits<G>::null_op();
  for (auto o = op; !(o == none); o = ir::parent_op(g, o))
    if (ir::block_of(g, o) == block) return o;
  return none;
}

/// True when `op` is `ancestor` or nested at any depth inside its region.
/// Needs parent_chain_ir only (see the header comment).
/// Complexity: O(nesting depth of op).
template <class G>
bool is_ancestor_or_self(const G& g, op_handle_t<G> ancestor, op_handle_t<G> op) {
  static_assert(require_parent_chain_ir<G>());
  const auto none = ir::traits<G>::null_op();
  for (auto o = op; !(o == none); o = ir::parent_op(g, o))
    if (o == ancestor) return true;
  return false;
}

}  // namespace neuronrw
