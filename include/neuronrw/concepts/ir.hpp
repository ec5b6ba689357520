// neuronrw/concepts/ir.hpp — the layered IR concepts every algorithm is written against
// (docs/concepts.md).
//
// Customization point: `neuronrw::ir_traits<G>`, one specialization per IR, where G is the type
// of the object an algorithm receives (the reference module, a boost::adjacency_list, an MLIR
// adapter context...). The adapted type is never changed. Like LLVM's GraphTraits, the whole
// interface is one traits class; like Boost.Graph, it is layered so an algorithm asks only for
// what it uses:
//
//   read_ir          1. using op_handle, value_handle (cheap, copyable, ==, hashable via
//                       neuronrw::handle_hash, which defaults to std::hash)
//                    2. static op_handle null_op()               — the "no op" handle
//                    3. static kind_id kind(const G&, op_handle)  — adapter maps ops to kind tags
//                    4. static R operands(const G&, op_handle)    — range of value_handle
//                    5. static op_handle defining_op(const G&, value_handle)  — null_op() for
//                       block arguments
//                    6. static R users(const G&, value_handle)    — range of op_handle
//                    7. static R results(const G&, op_handle)     — range of value_handle
//                    8. static op_handle parent_op(const G&, op_handle) — op owning the region
//                       the op sits in; null_op() at top level
//   ordered_ir       9. using block_handle; static block_handle block_of(const G&, op_handle)
//                   10. static R ops(const G&, block_handle)      — ops of a block, in order
//                   11. static bool is_before_in_block(const G&, op_handle a, op_handle b)
//                   12. static op_handle next_op / prev_op(const G&, op_handle) — null at ends
//                   12b. static R regions(const G&, op_handle) — range of block_handle: the
//                       blocks of the op's regions (empty when it has none). Required, not
//                       optional: an IR with regions that forgot it would get silently wrong
//                       dependences (a use inside a region counts as a use by the region's op).
//   reschedulable_ir 13. static void move_before / move_after(G&, op_handle op, op_handle anchor)
//   groupable_ir    14. static op_handle group_ops(G&, const group_request<op_handle, value_handle>&)
//                   15. static std::optional<std::string> string_attribute(const G&, op_handle,
//                       std::string_view name)  — e.g. a grouping op's FusionKind, unquoted
//   outlinable_ir   16. static R functions(const G&)              — function ops, module order
//                   17. static bool has_attribute(const G&, op_handle, std::string_view)
//                   18. static bool has_symbol(const G&, std::string_view)
//                   19. static op_handle outline_region(G&, const outline_request<op_handle>&)
//                   20. static op_handle replace_op(G&, const replace_request<op_handle>&)
//                   21. static void erase_op(G&, op_handle)
//
// Optional capabilities (detected, used with `if constexpr`; an IR without them still models the
// concepts, and the algorithms fall back to the behaviour named here):
//   O1. `static std::size_t op_index(const G&, op_handle)` and `static std::size_t
//       op_index_bound(const G&)` — a dense numbering of ops, which lets algorithms use flat
//       arrays instead of hash maps (LLVM's GenericDomTree does the same for numbered nodes).
//       Without it: hash maps keyed by handle_hash.
//   O2. `static block_handle argument_block(const G&, value_handle)` — the block a block
//       argument belongs to. Makes live-in and capture detection exact for block arguments used
//       inside nested regions. Without it: a block argument used inside a nested region is taken
//       to belong to that region (true of every reduction or loop body).
//   O3. `static bool is_terminator(const G&, op_handle)` — the op ends its block and never moves
//       (MLIR's IsTerminator trait). Without it: an op is a terminator when its kind is
//       kinds::return_.
//   O4. `static R block_arguments(const G&, block_handle)` — range of value_handle, the block's
//       arguments in order. Lets FusionToComposite refuse a fusion whose region takes another
//       number of arguments than the fusion has operands (outlining would leave uses of the
//       extra arguments dangling). Without it: the region is trusted to match.
//   O5. `static T begin_transaction(G&)`, `static void commit(G&, T)`, `static void rollback(G&,
//       T)` — T a copyable token. Between begin and rollback every mutation the traits perform
//       can be undone: rollback leaves the IR exactly as at begin (same printed text; handles
//       taken before begin valid and meaning the same ops). Lets a pass's gated apply
//       (passes/transaction.hpp) fail part-way and roll back. Without it: the gated apply does not
//       compile; the plain apply is unaffected.
//   O6. `static R operand_defs(const G&, op_handle)` — a contiguous range (std::span-like: data()
//       and size()) of op_handle, the defining op of each operand in operand order, null_op() for
//       a block argument; equal to mapping defining_op over operands(o), kept current by the IR.
//       Saves the dependence walk one dependent load per operand on its hot path. Without it:
//       defining_op(operand) per operand.
//   O7. `static std::uint64_t version(const G&)` and `static std::size_t block_size(const G&,
//       block_handle)` — a mutation counter and a block's op count (O(1)). `version` must take a
//       value it never had before whenever a block's op list or order changes, an op's operands
//       (or their defining ops) change, or an op gains or loses a region — including when a
//       transaction rolls back; it may change on any other mutation too. With O1 it lets the
//       dependence walk keep, in its scratch, a dense copy of a block (order, in-block producers)
//       that it sweeps instead of the IR, rebuilt when the version moves on and only once the
//       walks in that block and version have swept as many ops as the block holds (so at most
//       twice the cost of never building it). Without it: the walk always follows prev_op.
//   O8. `static std::uint64_t op_digest(const G&, op_handle)` — a digest of what the op computes
//       apart from its operands and regions: its name, attributes and result types. Two ops with
//       equal digests are taken to compute the same function of their operands; a clone keeps
//       the digest. Lets the rewrite checks (validate/) tell a decomposition's op from another
//       op of the same kind. Without it: the checks compare kind tags only.
//   O9. `static constexpr bool unordered_operands = true;` — the order in which operands(o) lists
//       an op's operands means nothing and may change when a neighbour is rewired (a graph whose
//       edges carry no operand number). The rewrite checks (validate/) then compare an op's
//       operands as a multiset. Without it: operand order is meaningful and compared position by
//       position.
//   O10. `static void move_run_after(G&, std::span<const op_handle> run, op_handle anchor)` — puts
//       the ops of run, in order, immediately after anchor: the outcome of move_after(run[0],
//       anchor), move_after(run[1], run[0]), ... done at once (ops distinct, none the anchor).
//       apply_moves hands it every chain of eight or more such moves (a repair's carried slice),
//       so an IR whose single moves pay for order labels can place the chain in one go. Without
//       it: move_after per op.
// Every requirement and capability has a forwarding function in namespace `ir`
// (`ir::operands(g, op)`, `ir::argument_block(g, v)` ...): algorithms call those, never the
// traits directly.
//
// docs/concepts.md maps each requirement to the reference IR, MLIR and Boost.Graph.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <neuronrw/concepts/attribute.hpp>  // named_attribute, attribute_value
#include <neuronrw/descriptors/kinds.hpp>
#include <neuronrw/detail/ranges.hpp>
#include <neuronrw/detail/requirement_check.hpp>

namespace neuronrw {

/// The one customization point. The primary template is deliberately empty: an IR without a
/// specialization fails the concepts below with a message naming this template.
template <class G>
struct ir_traits {
  using neuronrw_unspecialized = void;
};

/// Hash of a handle. Defaults to std::hash; specialize for handles without one
/// (e.g. mlir::Value, whose hash lives in llvm::DenseMapInfo).
template <class H>
struct handle_hash : std::hash<H> {};

/// Requirement 14: replace the contiguous run `ops` of one block by one grouping op whose single
/// one-block region holds them (moved, not cloned). The region's block takes one argument per
/// live-in; uses of live-ins inside the moved ops (also in their nested regions) are rewired to
/// those arguments; the region ends with `terminator_name` returning the live-outs; uses of
/// live-outs outside the run are rewired to the group's results; the group op carries `attrs`.
template <class Op, class Value>
struct group_request {
  std::span<const Op> ops;            ///< @pre contiguous, in block order, same block
  std::span<const Value> live_ins;    ///< group operands, in order
  std::span<const Value> live_outs;   ///< group results, in order
  std::string_view op_name;           ///< e.g. "mhlo.fusion"
  std::string_view terminator_name;   ///< e.g. "mhlo.return"
  std::span<const named_attribute> attrs;
};

/// Requirement 19: create a private function `symbol` at the end of the module whose signature
/// is (operand types of `region_owner`) -> (result types of `region_owner`), whose body is a
/// clone of region_owner's region with its terminator turned into the function return, and that
/// carries `attrs`. Returns the function op.
template <class Op>
struct outline_request {
  Op region_owner;
  std::string_view symbol;
  std::span<const named_attribute> attrs;
};

/// Requirement 20: create an op named `op_name` just before `old`, with old's operands and result
/// types and `attrs`, and rewire every use of old's results to the new op's results. `old` is
/// left in place (without uses) for the caller to erase.
template <class Op>
struct replace_request {
  Op old;
  std::string_view op_name;
  std::span<const named_attribute> attrs;
};

template <class G>
using op_handle_t = typename ir_traits<std::remove_cvref_t<G>>::op_handle;
template <class G>
using value_handle_t = typename ir_traits<std::remove_cvref_t<G>>::value_handle;
template <class G>
using block_handle_t = typename ir_traits<std::remove_cvref_t<G>>::block_handle;

namespace concepts_detail {

template <class R, class E>
concept range_of = std::ranges::input_range<R> && std::convertible_to<std::ranges::range_value_t<R>, E>;

template <class H>
concept handle = std::copyable<H> && std::equality_comparable<H> && requires(const H& h) {
  { handle_hash<H>{}(h) } -> std::convertible_to<std::size_t>;
};

// --- one named requirement each, so diagnostics can point at the one that failed -------------
template <class G> concept specialized = !requires { typename ir_traits<G>::neuronrw_unspecialized; };
template <class G> concept has_op_handle = requires { typename ir_traits<G>::op_handle; };
template <class G> concept has_value_handle = requires { typename ir_traits<G>::value_handle; };
template <class G> concept handles_regular =
    handle<typename ir_traits<G>::op_handle> && handle<typename ir_traits<G>::value_handle>;
template <class G> concept has_null_op = requires {
  { ir_traits<G>::null_op() } -> std::same_as<typename ir_traits<G>::op_handle>;
};
template <class G> concept has_kind = requires(const G& g, typename ir_traits<G>::op_handle o) {
  { ir_traits<G>::kind(g, o) } -> std::convertible_to<kind_id>;
};
template <class G> concept has_operands = requires(const G& g, typename ir_traits<G>::op_handle o) {
  { ir_traits<G>::operands(g, o) } -> range_of<typename ir_traits<G>::value_handle>;
};
template <class G> concept has_defining_op = requires(const G& g, typename ir_traits<G>::value_handle v) {
  { ir_traits<G>::defining_op(g, v) } -> std::same_as<typename ir_traits<G>::op_handle>;
};
template <class G> concept has_users = requires(const G& g, typename ir_traits<G>::value_handle v) {
  { ir_traits<G>::users(g, v) } -> range_of<typename ir_traits<G>::op_handle>;
};
template <class G> concept has_results = requires(const G& g, typename ir_traits<G>::op_handle o) {
  { ir_traits<G>::results(g, o) } -> range_of<typename ir_traits<G>::value_handle>;
};
template <class G> concept has_parent_op = requires(const G& g, typename ir_traits<G>::op_handle o) {
  { ir_traits<G>::parent_op(g, o) } -> std::same_as<typename ir_traits<G>::op_handle>;
};

template <class G> concept has_block = requires(const G& g, typename ir_traits<G>::op_handle o) {
  typename ir_traits<G>::block_handle;
  { ir_traits<G>::block_of(g, o) } -> std::same_as<typename ir_traits<G>::block_handle>;
};
template <class G> concept has_block_ops = requires(const G& g, typename ir_traits<G>::block_handle b) {
  { ir_traits<G>::ops(g, b) } -> range_of<typename ir_traits<G>::op_handle>;
};
template <class G> concept has_is_before = requires(const G& g, typename ir_traits<G>::op_handle o) {
  { ir_traits<G>::is_before_in_block(g, o, o) } -> std::convertible_to<bool>;
};
template <class G> concept has_next_prev = requires(const G& g, typename ir_traits<G>::op_handle o) {
  { ir_traits<G>::next_op(g, o) } -> std::same_as<typename ir_traits<G>::op_handle>;
  { ir_traits<G>::prev_op(g, o) } -> std::same_as<typename ir_traits<G>::op_handle>;
};

template <class G> concept has_regions = requires(const G& g, typename ir_traits<G>::op_handle o) {
  { ir_traits<G>::regions(g, o) } -> range_of<typename ir_traits<G>::block_handle>;
};

template <class G> concept has_moves = requires(G& g, typename ir_traits<G>::op_handle o) {
  ir_traits<G>::move_before(g, o, o);
  ir_traits<G>::move_after(g, o, o);
};

template <class G> concept has_group_ops = requires(
    G& g, const group_request<typename ir_traits<G>::op_handle, typename ir_traits<G>::value_handle>& r) {
  { ir_traits<G>::group_ops(g, r) } -> std::same_as<typename ir_traits<G>::op_handle>;
};
template <class G> concept has_string_attribute = requires(const G& g, typename ir_traits<G>::op_handle o) {
  { ir_traits<G>::string_attribute(g, o, std::string_view{}) } -> std::same_as<std::optional<std::string>>;
};

template <class G> concept has_functions = requires(const G& g) {
  { ir_traits<G>::functions(g) } -> range_of<typename ir_traits<G>::op_handle>;
};
template <class G> concept has_attribute_query = requires(const G& g, typename ir_traits<G>::op_handle o) {
  { ir_traits<G>::has_attribute(g, o, std::string_view{}) } -> std::convertible_to<bool>;
  { ir_traits<G>::has_symbol(g, std::string_view{}) } -> std::convertible_to<bool>;
};
template <class G> concept has_outline = requires(
    G& g, const outline_request<typename ir_traits<G>::op_handle>& o,
    const replace_request<typename ir_traits<G>::op_handle>& r, typename ir_traits<G>::op_handle op) {
  { ir_traits<G>::outline_region(g, o) } -> std::same_as<typename ir_traits<G>::op_handle>;
  { ir_traits<G>::replace_op(g, r) } -> std::same_as<typename ir_traits<G>::op_handle>;
  ir_traits<G>::erase_op(g, op);
};

template <class G> concept has_op_index = requires(const G& g, typename ir_traits<G>::op_handle o) {
  { ir_traits<G>::op_index(g, o) } -> std::convertible_to<std::size_t>;
  { ir_traits<G>::op_index_bound(g) } -> std::convertible_to<std::size_t>;
};
template <class G> concept has_argument_block = requires(const G& g, typename ir_traits<G>::value_handle v) {
  { ir_traits<G>::argument_block(g, v) } -> std::same_as<typename ir_traits<G>::block_handle>;
};
template <class G> concept has_is_terminator = requires(const G& g, typename ir_traits<G>::op_handle o) {
  { ir_traits<G>::is_terminator(g, o) } -> std::convertible_to<bool>;
};
template <class G> concept has_block_arguments = requires(const G& g, typename ir_traits<G>::block_handle b) {
  { ir_traits<G>::block_arguments(g, b) } -> range_of<typename ir_traits<G>::value_handle>;
};
template <class G> concept has_operand_defs = requires(const G& g, typename ir_traits<G>::op_handle o) {
  { ir_traits<G>::operand_defs(g, o) } -> std::ranges::contiguous_range;
  requires std::same_as<std::ranges::range_value_t<decltype(ir_traits<G>::operand_defs(g, o))>,
                        typename ir_traits<G>::op_handle>;
};
template <class G> concept has_version = requires(const G& g, typename ir_traits<G>::block_handle b) {
  { ir_traits<G>::version(g) } -> std::convertible_to<std::uint64_t>;
  { ir_traits<G>::block_size(g, b) } -> std::convertible_to<std::size_t>;
};
template <class G> concept has_op_digest = requires(const G& g, typename ir_traits<G>::op_handle o) {
  { ir_traits<G>::op_digest(g, o) } -> std::convertible_to<std::uint64_t>;
};
template <class G> concept has_move_run = requires(G& g, typename ir_traits<G>::op_handle o,
                                                   std::span<const typename ir_traits<G>::op_handle> run) {
  ir_traits<G>::move_run_after(g, run, o);
};
template <class G> concept has_begin_transaction = requires(G& g) { ir_traits<G>::begin_transaction(g); };
template <class G> concept has_transaction =
    has_begin_transaction<G> &&  // first, so the token's type below is only asked when it exists
    requires(G& g, decltype(ir_traits<G>::begin_transaction(std::declval<G&>())) t) {
      requires std::copyable<decltype(t)>;
      ir_traits<G>::commit(g, t);
      ir_traits<G>::rollback(g, t);
    };

}  // namespace concepts_detail

// ------------------------------------------------------------------------------ the concepts
template <class G>
concept read_ir = concepts_detail::specialized<G> && concepts_detail::has_op_handle<G> &&
                  concepts_detail::has_value_handle<G> && concepts_detail::handles_regular<G> &&
                  concepts_detail::has_null_op<G> && concepts_detail::has_kind<G> &&
                  concepts_detail::has_operands<G> && concepts_detail::has_defining_op<G> &&
                  concepts_detail::has_users<G> && concepts_detail::has_results<G> &&
                  concepts_detail::has_parent_op<G>;

template <class G>
concept ordered_ir = read_ir<G> && concepts_detail::has_block<G> && concepts_detail::has_block_ops<G> &&
                     concepts_detail::has_is_before<G> && concepts_detail::has_next_prev<G> &&
                     concepts_detail::has_regions<G>;

template <class G>
concept reschedulable_ir = ordered_ir<G> && concepts_detail::has_moves<G>;

template <class G>
concept groupable_ir = reschedulable_ir<G> && concepts_detail::has_group_ops<G> &&
                       concepts_detail::has_string_attribute<G>;

template <class G>
concept outlinable_ir = groupable_ir<G> && concepts_detail::has_functions<G> &&
                        concepts_detail::has_attribute_query<G> && concepts_detail::has_outline<G>;

/// Optional capability O1: the IR numbers its ops densely (see the header comment).
template <class G>
concept indexed_ir = read_ir<G> && concepts_detail::has_op_index<G>;

/// Optional capability O2: the IR tells the block of a block argument.
template <class G>
concept argument_block_ir = ordered_ir<G> && concepts_detail::has_argument_block<G>;

/// Optional capability O3: the IR marks its terminators itself.
template <class G>
concept terminator_aware_ir = read_ir<G> && concepts_detail::has_is_terminator<G>;

/// Optional capability O4: the IR lists a block's arguments.
template <class G>
concept block_arguments_ir = ordered_ir<G> && concepts_detail::has_block_arguments<G>;

/// Optional capability O5: the IR can undo what its traits did since a transaction began.
template <class G>
concept transactional_ir = read_ir<G> && concepts_detail::has_transaction<G>;

/// Optional capability O6: the IR keeps each operand's defining op at hand.
template <class G>
concept operand_defs_ir = read_ir<G> && concepts_detail::has_operand_defs<G>;

/// Optional capability O7: the IR counts its mutations and knows its blocks' sizes.
template <class G>
concept versioned_ir = ordered_ir<G> && concepts_detail::has_version<G>;

/// O8: the IR digests what an op computes (name, attributes, result types).
template <class G>
concept digest_ir = read_ir<G> && concepts_detail::has_op_digest<G>;

/// O9: the IR's operand order carries no meaning.
template <class G>
concept unordered_operands_ir = read_ir<G> && requires { requires bool(ir_traits<G>::unordered_operands); };

/// O10: the IR places a chain of moves after one anchor at once.
template <class G>
concept run_move_ir = reschedulable_ir<G> && concepts_detail::has_move_run<G>;

// ------------------------------------------------------------------------------ diagnostics
// An algorithm starts with `static_assert(neuronrw::require_read_ir<G>())` (or ordered, ...).
// When G falls short, exactly one static_assert fires: the first requirement missing, with the
// fix. (A `requires` clause would instead report an unsatisfied conjunction deep in the
// compiler's own words.)
#define NEURONRW_IR_CHECK(cond, msg) NEURONRW_REQUIREMENT_CHECK(G, cond, msg)

template <class G>
constexpr bool require_read_ir() {
  if constexpr (false) {
  }
  NEURONRW_IR_CHECK(concepts_detail::specialized<G>,
      "neuronrw: this IR has no neuronrw::ir_traits specialization. Fix: specialize "
      "`template <> struct neuronrw::ir_traits<YourIR>` (see docs/concepts.md) and include it "
      "before calling the algorithm.")
  NEURONRW_IR_CHECK(concepts_detail::has_op_handle<G>,
      "neuronrw read_ir requirement 1: ir_traits<G> has no `using op_handle = ...;`.")
  NEURONRW_IR_CHECK(concepts_detail::has_value_handle<G>,
      "neuronrw read_ir requirement 1: ir_traits<G> has no `using value_handle = ...;`.")
  NEURONRW_IR_CHECK(concepts_detail::handles_regular<G>,
      "neuronrw read_ir requirement 1: op_handle and value_handle must be copyable, "
      "equality-comparable and hashable. Fix: give them operator== and a std::hash "
      "specialization, or specialize neuronrw::handle_hash<H>.")
  NEURONRW_IR_CHECK(concepts_detail::has_null_op<G>,
      "neuronrw read_ir requirement 2: ir_traits<G> lacks `static op_handle null_op()`.")
  NEURONRW_IR_CHECK(concepts_detail::has_kind<G>,
      "neuronrw read_ir requirement 3: ir_traits<G> lacks `static kind_id kind(const G&, "
      "op_handle)`. Fix: map each op to a tag id once, e.g. kind_id_v<neuronrw::kinds::all_gather> "
      "(include <neuronrw/descriptors/kinds.hpp>).")
  NEURONRW_IR_CHECK(concepts_detail::has_operands<G>,
      "neuronrw read_ir requirement 4: ir_traits<G> lacks `static auto operands(const G&, "
      "op_handle)` returning a range of value_handle.")
  NEURONRW_IR_CHECK(concepts_detail::has_defining_op<G>,
      "neuronrw read_ir requirement 5: ir_traits<G> lacks `static op_handle defining_op(const G&, "
      "value_handle)` (null_op() for block arguments).")
  NEURONRW_IR_CHECK(concepts_detail::has_users<G>,
      "neuronrw read_ir requirement 6: ir_traits<G> lacks `static auto users(const G&, "
      "value_handle)` returning a range of op_handle.")
  NEURONRW_IR_CHECK(concepts_detail::has_results<G>,
      "neuronrw read_ir requirement 7: ir_traits<G> lacks `static auto results(const G&, "
      "op_handle)` returning a range of value_handle.")
  NEURONRW_IR_CHECK(concepts_detail::has_parent_op<G>,
      "neuronrw read_ir requirement 8: ir_traits<G> lacks `static op_handle parent_op(const G&, "
      "op_handle)` (null_op() at top level).")
  else return true;
}

template <class G>
constexpr bool require_ordered_ir() {
  if constexpr (!read_ir<G>) {
    return require_read_ir<G>();
  }
  NEURONRW_IR_CHECK(concepts_detail::has_block<G>,
      "neuronrw ordered_ir requirement 9: ir_traits<G> lacks `using block_handle = ...;` and "
      "`static block_handle block_of(const G&, op_handle)`.")
  NEURONRW_IR_CHECK(concepts_detail::has_block_ops<G>,
      "neuronrw ordered_ir requirement 10: ir_traits<G> lacks `static auto ops(const G&, "
      "block_handle)` returning the block's ops in order.")
  NEURONRW_IR_CHECK(concepts_detail::has_is_before<G>,
      "neuronrw ordered_ir requirement 11: ir_traits<G> lacks `static bool "
      "is_before_in_block(const G&, op_handle, op_handle)`. Fix: answer from positions or "
      "order labels (neuronrw/algorithms/order.hpp gives O(1) ones).")
  NEURONRW_IR_CHECK(concepts_detail::has_next_prev<G>,
      "neuronrw ordered_ir requirement 12: ir_traits<G> lacks `static op_handle next_op(const G&, "
      "op_handle)` and/or `prev_op` (null_op() at the ends of the block).")
  NEURONRW_IR_CHECK(concepts_detail::has_regions<G>,
      "neuronrw ordered_ir requirement 12b: ir_traits<G> lacks `static auto regions(const G&, "
      "op_handle)` returning the blocks of the op's regions (an empty range when ops have none).")
  else return true;
}

template <class G>
constexpr bool require_reschedulable_ir() {
  if constexpr (!ordered_ir<G>) {
    return require_ordered_ir<G>();
  }
  NEURONRW_IR_CHECK(concepts_detail::has_moves<G>,
      "neuronrw reschedulable_ir requirement 13: ir_traits<G> lacks `static void move_before(G&, "
      "op_handle op, op_handle anchor)` and/or `move_after` (moves within one block).")
  else return true;
}

template <class G>
constexpr bool require_groupable_ir() {
  if constexpr (!reschedulable_ir<G>) {
    return require_reschedulable_ir<G>();
  }
  NEURONRW_IR_CHECK(concepts_detail::has_group_ops<G>,
      "neuronrw groupable_ir requirement 14: ir_traits<G> lacks `static op_handle group_ops(G&, "
      "const neuronrw::group_request<op_handle, value_handle>&)`.")
  NEURONRW_IR_CHECK(concepts_detail::has_string_attribute<G>,
      "neuronrw groupable_ir requirement 15: ir_traits<G> lacks `static std::optional<std::string> "
      "string_attribute(const G&, op_handle, std::string_view name)`.")
  else return true;
}

template <class G>
constexpr bool require_outlinable_ir() {
  if constexpr (!groupable_ir<G>) {
    return require_groupable_ir<G>();
  }
  NEURONRW_IR_CHECK(concepts_detail::has_functions<G>,
      "neuronrw outlinable_ir requirement 16: ir_traits<G> lacks `static auto functions(const G&)` "
      "returning the module's function ops in order.")
  NEURONRW_IR_CHECK(concepts_detail::has_attribute_query<G>,
      "neuronrw outlinable_ir requirements 17-18: ir_traits<G> lacks `static bool "
      "has_attribute(const G&, op_handle, std::string_view)` and/or `static bool has_symbol(const "
      "G&, std::string_view)`.")
  NEURONRW_IR_CHECK(concepts_detail::has_outline<G>,
      "neuronrw outlinable_ir requirements 19-21: ir_traits<G> lacks `outline_region(G&, const "
      "outline_request<op_handle>&)`, `replace_op(G&, const replace_request<op_handle>&)` and/or "
      "`erase_op(G&, op_handle)`.")
  else return true;
}

#undef NEURONRW_IR_CHECK

// ------------------------------------------------------------------------------ access
// Thin forwarding functions so algorithms read as `ir::operands(g, op)`; they live in their own
// namespace so they never hijack (or get hijacked by) ADL calls of Boost.Graph functions.
namespace ir {
template <class G> using traits = ir_traits<std::remove_cvref_t<G>>;

template <class G> auto null_op() { return traits<G>::null_op(); }
template <class G> kind_id kind(const G& g, op_handle_t<G> o) { return traits<G>::kind(g, o); }
template <class G> decltype(auto) operands(const G& g, op_handle_t<G> o) { return traits<G>::operands(g, o); }
template <class G> auto defining_op(const G& g, value_handle_t<G> v) { return traits<G>::defining_op(g, v); }
template <class G> decltype(auto) users(const G& g, value_handle_t<G> v) { return traits<G>::users(g, v); }
template <class G> decltype(auto) results(const G& g, op_handle_t<G> o) { return traits<G>::results(g, o); }
template <class G> auto parent_op(const G& g, op_handle_t<G> o) { return traits<G>::parent_op(g, o); }
template <class G> auto block_of(const G& g, op_handle_t<G> o) { return traits<G>::block_of(g, o); }
template <class G> decltype(auto) ops(const G& g, block_handle_t<G> b) { return traits<G>::ops(g, b); }
template <class G> bool is_before_in_block(const G& g, op_handle_t<G> a, op_handle_t<G> b) {
  return traits<G>::is_before_in_block(g, a, b);
}
template <class G> auto next_op(const G& g, op_handle_t<G> o) { return traits<G>::next_op(g, o); }
template <class G> auto prev_op(const G& g, op_handle_t<G> o) { return traits<G>::prev_op(g, o); }
template <class G> decltype(auto) regions(const G& g, op_handle_t<G> o) { return traits<G>::regions(g, o); }
template <class G> void move_before(G& g, op_handle_t<G> o, op_handle_t<G> anchor) { traits<G>::move_before(g, o, anchor); }
template <class G> void move_after(G& g, op_handle_t<G> o, op_handle_t<G> anchor) { traits<G>::move_after(g, o, anchor); }
/// O10: run[0] after anchor, run[1] after run[0], ...: the IR's move_run_after when it has one,
/// else one move_after per op.
template <class G> void move_run_after(G& g, std::span<const op_handle_t<G>> run, op_handle_t<G> anchor) {
  if constexpr (concepts_detail::has_move_run<G>) {
    traits<G>::move_run_after(g, run, anchor);
  } else {
    for (const auto& o : run) {
      traits<G>::move_after(g, o, anchor);
      anchor = o;
    }
  }
}
template <class G> bool is_null(op_handle_t<G> o) { return o == traits<G>::null_op(); }

// groupable_ir, outlinable_ir
template <class G> auto group_ops(G& g, const group_request<op_handle_t<G>, value_handle_t<G>>& r) {
  return traits<G>::group_ops(g, r);
}
/// Requirement 15; nullopt on an IR without it (an ordered IR that cannot group has no grouping
/// ops to carry attributes: planning asks only to recognise fusions, and every algorithm that
/// needs real answers requires groupable_ir).
template <class G> std::optional<std::string> string_attribute(const G& g, op_handle_t<G> o, std::string_view name) {
  if constexpr (concepts_detail::has_string_attribute<std::remove_cvref_t<G>>) {
    return traits<G>::string_attribute(g, o, name);
  } else {
    (void)g;
    (void)o;
    (void)name;
    return std::nullopt;
  }
}
template <class G> decltype(auto) functions(const G& g) { return traits<G>::functions(g); }
template <class G> bool has_attribute(const G& g, op_handle_t<G> o, std::string_view name) {
  return traits<G>::has_attribute(g, o, name);
}
template <class G> bool has_symbol(const G& g, std::string_view name) { return traits<G>::has_symbol(g, name); }
template <class G> auto outline_region(G& g, const outline_request<op_handle_t<G>>& r) {
  return traits<G>::outline_region(g, r);
}
template <class G> auto replace_op(G& g, const replace_request<op_handle_t<G>>& r) { return traits<G>::replace_op(g, r); }
template <class G> void erase_op(G& g, op_handle_t<G> o) { traits<G>::erase_op(g, o); }

// optional capabilities
template <class G> std::size_t op_index(const G& g, op_handle_t<G> o) { return traits<G>::op_index(g, o); }
template <class G> std::size_t op_index_bound(const G& g) { return traits<G>::op_index_bound(g); }
template <class G> std::uint64_t version(const G& g) { return traits<G>::version(g); }
template <class G> std::size_t block_size(const G& g, block_handle_t<G> b) { return traits<G>::block_size(g, b); }

/// O2: the block `v` is an argument of, or nullopt when the IR cannot tell (see the header
/// comment). @pre v is a block argument (defining_op(g, v) is null).
template <class G> std::optional<block_handle_t<G>> argument_block(const G& g, value_handle_t<G> v) {
  if constexpr (concepts_detail::has_argument_block<std::remove_cvref_t<G>>)
    return traits<G>::argument_block(g, v);
  else
    return std::nullopt;
}

/// O4: the number of arguments of block `b`, or nullopt when the IR does not say.
template <class G> std::optional<std::size_t> num_block_arguments(const G& g, block_handle_t<G> b) {
  if constexpr (concepts_detail::has_block_arguments<std::remove_cvref_t<G>>) {
    std::size_t n = 0;
    for (auto&& v : traits<G>::block_arguments(g, b)) {
      (void)v;
      ++n;
    }
    return n;
  } else {
    return std::nullopt;
  }
}

/// O8: the op's digest, or nullopt when the IR has none (the checks then compare kinds only).
template <class G> std::optional<std::uint64_t> op_digest(const G& g, op_handle_t<G> o) {
  if constexpr (concepts_detail::has_op_digest<std::remove_cvref_t<G>>)
    return static_cast<std::uint64_t>(traits<G>::op_digest(g, o));
  else
    return std::nullopt;
}

/// O3: true when `o` terminates its block: the IR's answer when it has one, else kind == return_.
template <class G> bool is_terminator(const G& g, op_handle_t<G> o) {
  if constexpr (concepts_detail::has_is_terminator<std::remove_cvref_t<G>>)
    return traits<G>::is_terminator(g, o);
  else
    return traits<G>::kind(g, o) == kind_id_v<kinds::return_>;
}
}  // namespace ir

}  // namespace neuronrw
