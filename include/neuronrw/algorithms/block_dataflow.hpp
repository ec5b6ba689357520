// neuronrw/algorithms/block_dataflow.hpp — producers and consumers of an op *within one block*,
// with uses inside nested regions counted for their ancestor op in the block (docs/schedule-fusion.md §"Semantics"), plus
// the reusable scratch (`block_scratch`, with `dense_marks` for indexed IRs) that the walk, the
// convexity check and the dominance repair share so that repeated calls cost O(window), not
// O(#ops).
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

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ranges>
#include <type_traits>
#include <utility>
#include <vector>

#include <neuronrw/algorithms/ancestry.hpp>
#include <neuronrw/algorithms/op_set.hpp>
#include <neuronrw/concepts/ir.hpp>

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
// the nesting depth; no allocation beyond what the IR's own ranges do.
template <class G, class F>
bool nested_producers(const G& g, op_handle_t<G> x, op_handle_t<G> root, block_handle_t<G> block, F& f) {
  for (auto&& b : ir::regions(g, x)) {
    for (auto&& inner : ir::ops(g, b)) {
      for (auto&& v : ir::operands(g, inner)) {
        const auto d = ir::defining_op(g, v);
        if (ir::is_null<G>(d)) continue;
        const auto a = ancestor_in_block(g, d, block);
        if (ir::is_null<G>(a) || a == root) continue;
        if (!call(f, a)) return false;
      }
      if (!nested_producers(g, inner, root, block, f)) return false;
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
  for (auto&& v : ir::operands(g, op)) {
    const auto d = ir::defining_op(g, v);
    if (ir::is_null<G>(d)) continue;
    // Fast path: the common case is a producer directly in the block.
    const auto a = ir::block_of(g, d) == block ? d : ancestor_in_block(g, d, block);
    if (ir::is_null<G>(a) || a == op) continue;
    if (!dataflow_detail::call(f, a)) return false;
  }
  auto&& rs = ir::regions(g, op);
  if (std::ranges::begin(rs) == std::ranges::end(rs)) return true;
  return dataflow_detail::nested_producers(g, op, op, block, f);
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

/// Epoch-stamped marks over a dense op numbering, with a branch-free test-and-set.
///
/// Why not op_set here: op_set's insert returns early when the op is already present, and a
/// walk over a dense dataflow graph asks "seen before?" with close to even odds, so that branch
/// mispredicts about once per edge; measured on the reference IR (bench/walk_bench.cpp) that
/// costs 2-3x of the whole walk. test_and_set stores unconditionally and returns the old state
/// as data, so callers can fold it into arithmetic.
class dense_marks {
 public:
  /// Forgets every mark and makes room for indices < bound. O(1) amortized (a new epoch).
  void reset(std::size_t bound) {
    if (++epoch_ == 0) {  // wrapped: old stamps could alias the new epoch
      std::fill(stamp_.begin(), stamp_.end(), 0u);
      epoch_ = 1;
    }
    if (stamp_.size() < bound) stamp_.resize(bound, 0u);
  }
  /// Marks i; true when it was not marked. @pre i < the bound of the last reset.
  bool test_and_set(std::size_t i) noexcept {
    const std::uint32_t old = stamp_[i];
    stamp_[i] = epoch_;
    return old != epoch_;
  }
  bool test(std::size_t i) const noexcept { return stamp_[i] == epoch_; }

  /// The marks as two plain values, for hot loops: a compiler must assume a store through
  /// stamp_ may change epoch_ (both are uint32_t) and reloads it after every mark; a local copy
  /// stays in a register. Valid until the next reset.
  struct view {
    std::uint32_t* stamp;
    std::uint32_t epoch;
    bool test_and_set(std::size_t i) const noexcept {
      const std::uint32_t old = stamp[i];
      stamp[i] = epoch;
      return old != epoch;
    }
    bool test(std::size_t i) const noexcept { return stamp[i] == epoch; }
  };
  view raw() noexcept { return {stamp_.data(), epoch_}; }

 private:
  std::vector<std::uint32_t> stamp_;
  std::uint32_t epoch_ = 0;
};

/// The named marks and lists of a block_scratch: each algorithm takes the ones named after its
/// own use. Names that share a slot (equal values) are never live at once: an algorithm holds its
/// marks only while it runs and calls no other algorithm of the scratch meanwhile (the dependence
/// walk, the convexity check and the dominance repair run one after the other on one scratch).
enum class scratch_mark : std::uint8_t {
  walk_seen = 0,        ///< dependence_walk: ops met
  walk_queued = 1,      ///< dependence_walk: ops queued by the breadth-first phase
  walk_partition = 2,   ///< dependence_walk: ops of one partition of the result
  convex_member = 0,    ///< check_convexity: the cluster's members
  convex_reached = 1,   ///< check_convexity: reachable from a member
  convex_feeds = 2,     ///< check_convexity: transitive producers of a member
  repair_carried = 0,   ///< plan_sink / plan_hoist: the slice carried along
  pass_carried = 0,     ///< a pass's own slice bookkeeping between algorithm calls
};
enum class scratch_list : std::uint8_t {
  walk_found = 0,  ///< dependence_walk: ops of the current partition
  walk_swept = 1,  ///< dependence_walk: ops taken by the backward sweep
};

/// When a block_scratch makes dense block copies for the dependence walk (IRs with O1 and O7):
/// `amortized` (the default) once the walks in a block and version have swept as many ops as the
/// block holds; `always` on every walk in a block and version without one; `never`. Tests and
/// measurements pick the other two; the results are the same either way.
enum class block_copy_policy : std::uint8_t { amortized, always, never };

/// A dense copy of one block, made for the dependence walk's backward sweep on an IR with a
/// dense numbering (O1) and a mutation counter (O7): the block's ops in order, each one's
/// producers in the block as op indices (operand order, repeats kept), and whether it has rare
/// ones (defined outside the block, or nested regions). The sweep then steps through arrays
/// instead of prev_op, and reads no producer's block. Valid while the IR's version is the one it
/// was made at; the walk checks that on every call.
template <class G>
struct block_copy {
  using op = op_handle_t<G>;
  const void* ir = nullptr;
  std::optional<block_handle_t<G>> block;
  std::uint64_t version = 0;
  bool valid = false;
  std::vector<op> ops;                  ///< the block, in order
  std::vector<std::uint32_t> index;     ///< op_index(ops[i])
  std::vector<std::uint32_t> first;     ///< ops[i]'s producers: producers[first[i] .. first[i+1])
  std::vector<std::uint32_t> producers; ///< op indices of producers in the block
  std::vector<std::uint8_t> rare;       ///< ops[i] has producers outside the block or regions
  std::vector<std::uint32_t> position;  ///< by op index; meaningful for ops of the copy only

  /// The position of the op with index k, if it is in the copy.
  std::optional<std::uint32_t> position_of(std::size_t k) const noexcept {
    if (k >= position.size()) return std::nullopt;
    const std::uint32_t p = position[k];
    if (p >= index.size() || index[p] != k) return std::nullopt;
    return p;
  }
};

/// Reusable marks for the block algorithms (dependence walk, convexity, dominance repair).
///
/// Why it exists: on an indexed IR an op_set is a flat array over every op of the IR, so
/// building one costs O(#ops) while clearing one is O(1). A pass that runs these algorithms for
/// many candidates in a large function keeps one scratch and pays O(window) per call; the
/// overloads without a scratch build a fresh one (fine for one-off calls and small IRs).
/// Each algorithm clears the marks it uses on entry; results never point into the scratch.
/// A scratch must not be shared by concurrent calls.
template <class G>
class block_scratch {
 public:
  explicit block_scratch(const G& g) : marks_{op_set<G>(g), op_set<G>(g), op_set<G>(g)} {}

  /// The mark set named `m`, cleared.
  op_set<G>& fresh(scratch_mark m) {
    auto& s = marks_[static_cast<std::size_t>(m)];
    s.clear();
    return s;
  }
  /// Dense marks for indexed IRs, reset for the IR's current op numbering.
  dense_marks& fresh_dense(const G& g) {
    if constexpr (indexed_ir<G>) dense_.reset(ir::op_index_bound(g));
    return dense_;
  }

  /// The op list named `l`, cleared; its capacity survives across calls.
  std::vector<op_handle_t<G>>& list(scratch_list l) {
    auto& v = lists_[static_cast<std::size_t>(l)];
    v.clear();
    return v;
  }

  /// The op list named `l` as a buffer: not cleared, its size is its usable capacity (a caller
  /// writing by index grows it when full), so a reused buffer costs no fill per call.
  std::vector<op_handle_t<G>>& buffer(scratch_list l) { return lists_[static_cast<std::size_t>(l)]; }

  /// When dense block copies are made (see block_copy_policy).
  void set_copy_policy(block_copy_policy p) noexcept { policy_ = p; }
  block_copy_policy copy_policy() const noexcept { return policy_; }
  /// Dense copies made so far (tests and measurements).
  std::size_t copies_made() const noexcept { return copies_made_; }

  /// The dense copy of block b of g at g's current version, made now if the policy says so;
  /// nullptr when there is none (the IR lacks O1 or O7, the policy says not yet, or the IR is
  /// too large for 32-bit indices).
  const block_copy<G>* dense_copy(const G& g, block_handle_t<G> b) {
    if constexpr (indexed_ir<G> && versioned_ir<G>) {
      if (policy_ == block_copy_policy::never) return nullptr;
      const std::uint64_t v = ir::version(g);
      if (copy_.valid && copy_.ir == &g && copy_.version == v && *copy_.block == b) return &copy_;
      if (debt_ir_ != &g || debt_version_ != v || !debt_block_ || !(*debt_block_ == b)) {
        debt_ir_ = &g;
        debt_version_ = v;
        debt_block_ = b;
        debt_ = 0;
      }
      if (policy_ == block_copy_policy::amortized && debt_ < ir::block_size(g, b)) return nullptr;
      return make_copy(g, b, v) ? &copy_ : nullptr;
    } else {
      (void)g, (void)b;
      return nullptr;
    }
  }
  /// Counts n ops swept in block b of g without a copy, towards the amortized policy's threshold.
  void note_swept(const G& g, block_handle_t<G> b, std::size_t n) noexcept {
    if constexpr (indexed_ir<G> && versioned_ir<G>) {
      if (debt_ir_ == &g && debt_block_ && *debt_block_ == b && debt_version_ == ir::version(g)) debt_ += n;
    } else {
      (void)g, (void)b, (void)n;
    }
  }

 private:
  bool make_copy(const G& g, block_handle_t<G> b, std::uint64_t v) {
    auto& c = copy_;
    c.valid = false;
    const std::size_t bound = ir::op_index_bound(g);
    if (bound >= std::uint32_t(-1)) return false;
    c.ops.clear();
    c.index.clear();
    c.first.clear();
    c.producers.clear();
    c.rare.clear();
    if (c.position.size() < bound) c.position.resize(bound);
    for (auto&& o : ir::ops(g, b)) {
      const std::size_t k = ir::op_index(g, o);
      c.position[k] = static_cast<std::uint32_t>(c.ops.size());
      c.ops.push_back(o);
      c.index.push_back(static_cast<std::uint32_t>(k));
    }
    c.first.reserve(c.ops.size() + 1);
    c.rare.reserve(c.ops.size());
    c.first.push_back(0);
    for (const auto& o : c.ops) {
      bool outside = false;
      auto producer = [&](const op_handle_t<G>& d) {
        if (ir::is_null<G>(d)) return;
        if (!(ir::block_of(g, d) == b)) {
          outside = true;
          return;
        }
        c.producers.push_back(static_cast<std::uint32_t>(ir::op_index(g, d)));
      };
      if constexpr (operand_defs_ir<G>) {
        for (auto&& d : ir::traits<G>::operand_defs(g, o)) producer(d);
      } else {
        for (auto&& val : ir::operands(g, o)) producer(ir::defining_op(g, val));
      }
      if (c.producers.size() >= std::uint32_t(-1)) return false;
      c.first.push_back(static_cast<std::uint32_t>(c.producers.size()));
      c.rare.push_back(static_cast<std::uint8_t>(outside || !std::ranges::empty(ir::regions(g, o))));
    }
    c.ir = &g;
    c.block = b;
    c.version = v;
    c.valid = true;
    ++copies_made_;
    return true;
  }

  static constexpr std::size_t mark_count = 3;
  static constexpr std::size_t list_count = 2;
  op_set<G> marks_[mark_count];
  dense_marks dense_;
  std::vector<op_handle_t<G>> lists_[list_count];
  block_copy_policy policy_ = block_copy_policy::amortized;
  block_copy<G> copy_;
  std::size_t copies_made_ = 0;
  // The amortized policy's account: ops swept without a copy in this block, IR and version.
  const void* debt_ir_ = nullptr;
  std::optional<block_handle_t<G>> debt_block_;
  std::uint64_t debt_version_ = 0;
  std::size_t debt_ = 0;
};

}  // namespace neuronrw
