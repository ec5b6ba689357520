// neuronrw/algorithms/block_copy_cache.hpp — a cached analysis: a dense copy of one block (its
// ops in order and each op's producers in the block as op indices), made for the dependence
// walk's backward sweep (algorithms/dependence_walk.hpp) and kept while the IR has not changed.
//
// Customization points: none. The cache holds something only on IRs with a dense op numbering
// (O1 indexed_ir) and a mutation counter (O7 versioned_ir); on any other IR it is inert (`get`
// answers nullptr, nothing is allocated) and the walk steps through the IR instead.
//
// Invalidation rule: a copy answers for (IR object, block, version). `get(g, b)` hands it out only
// when all three equal g's address, b and ir::version(g) now, so any mutation the version counts
// (concepts.md O7: a block's op list or order, an op's operands or their defining ops, an op's
// regions, a rollback) retires it on the next `get`; the stale copy is never read. Nothing has to
// be told about a mutation: the version is the whole protocol. `invalidate()` drops the copy (and
// the amortization account) by hand, say before the IR object is destroyed and another takes its
// address — O7 already forbids the two to share version values, so this is a belt, not a need.
//
// When a copy is made (block_copy_policy): `amortized` (the default) once the walks in one block,
// IR and version have swept, without a copy, as many ops as the block holds — the walk reports
// what it swept with `note_swept` — so making a copy never costs more than the walks it serves;
// `always` on the first `get` in a block and version; `never`. The walk's results are the same
// under every policy; only how it steps differs.
//
// Complexity: `get` is O(1) when the copy is current or the policy says not yet; making a copy is
// O(ops of the block + their operands), plus a one-off O(#ops of the IR) growth of the position
// table when one is needed. Memory: about 16 bytes per op of the block, plus 8 per op of the IR
// when the block's op indices are not consecutive (block_copy::consecutive: a block built or
// parsed in order needs no position table); the walk marks the copy's ops in 4 bytes per op of
// its scratch (block_scratch.hpp). One copy at a time:
// a `get` for another block or IR replaces it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/detail/ranges.hpp>

namespace neuronrw {

/// When a block_copy_cache makes a copy (see the header comment): `amortized` (the default) once
/// the walks in a block and version have swept as many ops as the block holds; `always` on every
/// `get` in a block and version without one; `never`. Tests and measurements pick the other two;
/// results are the same either way.
enum class block_copy_policy : std::uint8_t { amortized, always, never };

/// A dense copy of one block: the block's ops in order, each one's producers in the block as
/// positions in the copy (operand order, repeats kept), and whether it has rare ones (defined
/// outside the block, or nested regions). The sweep steps through these arrays instead of
/// prev_op, reads no producer's block, and marks ops at their positions: everything it touches
/// per op is indexed by position, so it reads the copy in block order. Made and owned by
/// block_copy_cache; valid while the cache hands it out.
template <class G>
struct block_copy {
  using op = op_handle_t<G>;
  const void* ir = nullptr;
  std::optional<block_handle_t<G>> block;
  std::uint64_t version = 0;
  bool valid = false;
  std::vector<op> ops;                  ///< the block, in order
  /// ops[i]'s producers are producers[bounds[i] & offset_mask .. bounds[i + 1] & offset_mask);
  /// the top bit of bounds[i + 1] says that ops[i] has rare ones (producers outside the block, or
  /// regions). One array for both, so the sweep reads one stream per op for them
  /// (producers_of and rare_at spell it out).
  std::vector<std::uint32_t> bounds;
  std::vector<std::uint32_t> producers;  ///< positions (in ops) of producers in the block
  static constexpr std::uint32_t rare_bit = std::uint32_t{1} << 31;
  static constexpr std::uint32_t offset_mask = rare_bit - 1;

  /// The positions of the in-block producers of ops[i], in operand order, repeats kept.
  std::span<const std::uint32_t> producers_of(std::size_t i) const noexcept {
    const std::uint32_t b = bounds[i] & offset_mask, e = bounds[i + 1] & offset_mask;
    return {producers.data() + b, producers.data() + e};
  }
  /// Whether ops[i] has producers outside the block or regions.
  bool rare_at(std::size_t i) const noexcept { return (bounds[i + 1] & rare_bit) != 0; }
  /// Where an op is, by op index: its position, for the ops of the copy whose entry carries the
  /// copy's stamp; other entries are left from earlier copies (another stamp) or never written.
  /// Position and stamp share a cache line, so placing an op reads one line.
  struct place {
    std::uint32_t position = 0;
    std::uint32_t stamp = 0;
  };
  /// Written only when the block's op indices are not consecutive (see `consecutive`).
  std::vector<place> where;
  std::uint32_t stamp = 0;  ///< this copy's stamp (never 0 for a made copy)
  /// Whether ops[i] has op index first_index + i for every i, as a block that was built or parsed
  /// op after op and not reordered since has: a position is then its op index minus
  /// first_index, computed, not read from `where` (one cache miss fewer at the head of a walk
  /// in a large block).
  bool consecutive = false;
  std::size_t first_index = 0;

  /// The position of the op with index k, if it is in the copy.
  [[gnu::always_inline]] std::optional<std::uint32_t> position_of(std::size_t k) const noexcept {
    if (consecutive) {
      const std::size_t p = k - first_index;  // wraps past ops.size() when k < first_index
      if (p < ops.size()) return static_cast<std::uint32_t>(p);
      return std::nullopt;
    }
    if (k >= where.size()) return std::nullopt;
    const place w = where[k];
    if (w.stamp != stamp) return std::nullopt;
    return w.position;
  }
};

/// The cached dense copy of one block, with its policy, its amortization account and its
/// version-based invalidation (see the header comment for the rule and the costs).
/// Not thread-safe: one cache per thread (a block_scratch holds one).
template <class G>
class block_copy_cache {
 public:
  /// True when the cache can hold a copy for G at all (O1 and O7); otherwise every `get` is null.
  static constexpr bool enabled = indexed_ir<G> && versioned_ir<G>;

  /// When copies are made (see block_copy_policy). Changing the policy keeps a current copy.
  void set_policy(block_copy_policy p) noexcept { policy_ = p; }
  block_copy_policy policy() const noexcept { return policy_; }
  /// Copies made so far (tests and measurements).
  std::size_t copies_made() const noexcept { return copies_made_; }

  /// The copy of block b of g at g's current version, made now if the policy says so; nullptr
  /// when there is none (the IR lacks O1 or O7, the policy says not yet, or the IR is too large
  /// for 32-bit indices). Valid until the next non-const call on the cache.
  /// Complexity: O(1), or a copy's making (header comment).
  const block_copy<G>* get(const G& g, block_handle_t<G> b) {
    if constexpr (enabled) {
      if (policy_ == block_copy_policy::never) return nullptr;
      const std::uint64_t v = ir::version(g);
      if (current(g, b, v)) return &copy_;
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

  /// Whether a copy of block b of g at g's current version is held (what `get` would return
  /// without making one). Never makes one. O(1).
  bool holds(const G& g, block_handle_t<G> b) const noexcept {
    if constexpr (enabled)
      return current(g, b, ir::version(g));
    else
      return (void)g, (void)b, false;
  }

  /// The copy held for g at g's current version, whatever its block, or nullptr (also under the
  /// `never` policy). Never makes one. Lets a walk from an op find the op's block and position
  /// in the copy (block_copy::position_of) without reading the IR. O(1).
  const block_copy<G>* held(const G& g) const noexcept {
    if constexpr (enabled) {
      if (policy_ == block_copy_policy::never || !copy_.valid || copy_.ir != &g) return nullptr;
      return copy_.version == ir::version(g) ? &copy_ : nullptr;
    } else {
      return (void)g, nullptr;
    }
  }

  /// Counts n ops swept in block b of g without a copy, towards the amortized policy's threshold.
  /// Counts only towards the account `get` last opened (same IR, block and version). O(1).
  void note_swept(const G& g, block_handle_t<G> b, std::size_t n) noexcept {
    if constexpr (enabled) {
      if (debt_ir_ == &g && debt_block_ && *debt_block_ == b && debt_version_ == ir::version(g)) debt_ += n;
    } else {
      (void)g, (void)b, (void)n;
    }
  }

  /// Drops the copy and the account; the memory is kept for the next copy. O(1).
  void invalidate() noexcept {
    copy_.valid = false;
    copy_.ir = nullptr;
    copy_.block.reset();
    debt_ir_ = nullptr;
    debt_block_.reset();
    debt_ = 0;
  }

 private:
  bool current(const G& g, block_handle_t<G> b, std::uint64_t v) const noexcept {
    return copy_.valid && copy_.ir == &g && copy_.version == v && *copy_.block == b;
  }

  bool make_copy(const G& g, block_handle_t<G> b, std::uint64_t v) {
    auto& c = copy_;
    c.valid = false;
    const std::size_t bound = ir::op_index_bound(g);
    if (bound >= std::uint32_t(-1)) return false;
    c.ops.clear();
    c.bounds.clear();
    c.producers.clear();
    // The ops first, checking whether their indices are consecutive; only when they are not is
    // each op's position written to `where` (by index), in a second pass over the ops.
    // (The indices are kept for that pass: on some IRs an op_index is a lookup.)
    c.consecutive = true;
    c.first_index = 0;
    indices_.clear();
    for (auto&& o : ir::ops(g, b)) {
      const std::size_t k = ir::op_index(g, o);
      if (c.ops.empty())
        c.first_index = k;
      else if (k != c.first_index + c.ops.size())
        c.consecutive = false;
      c.ops.push_back(o);
      indices_.push_back(static_cast<std::uint32_t>(k));  // k < bound < 2^32 - 1
    }
    if (!c.consecutive) {
      if (c.where.size() < bound) c.where.resize(bound);
      if (++c.stamp == 0) {  // wrapped: an entry left from 2^32 copies ago could pass for this one's
        std::fill(c.where.begin(), c.where.end(), typename block_copy<G>::place{});
        c.stamp = 1;
      }
      for (std::size_t i = 0; i < indices_.size(); ++i)
        c.where[indices_[i]] = {static_cast<std::uint32_t>(i), c.stamp};
    }
    c.bounds.reserve(c.ops.size() + 1);
    c.bounds.push_back(0);
    for (const auto& o : c.ops) {
      bool outside = false;
      auto producer = [&](const op_handle_t<G>& d) {
        if (ir::is_null<G>(d)) return;
        if (!(ir::block_of(g, d) == b)) {
          outside = true;
          return;
        }
        c.producers.push_back(*c.position_of(ir::op_index(g, d)));  // d is in the block: placed above
      };
      if constexpr (operand_defs_ir<G>) {
        for (auto&& d : ir::traits<G>::operand_defs(g, o)) producer(d);
      } else {
        for (auto&& val : ir::operands(g, o)) producer(ir::defining_op(g, val));
      }
      if (c.producers.size() > block_copy<G>::offset_mask) return false;
      const bool rare = outside || !std::ranges::empty(ir::regions(g, o));
      c.bounds.push_back(static_cast<std::uint32_t>(c.producers.size()) | (rare ? block_copy<G>::rare_bit : 0));
    }
    c.ir = &g;
    c.block = b;
    c.version = v;
    c.valid = true;
    ++copies_made_;
    return true;
  }

  block_copy_policy policy_ = block_copy_policy::amortized;
  block_copy<G> copy_;
  std::vector<std::uint32_t> indices_;  // make_copy's scratch: the op index of each op of the copy
  std::size_t copies_made_ = 0;
  // The amortized policy's account: ops swept without a copy in this block, IR and version.
  const void* debt_ir_ = nullptr;
  std::optional<block_handle_t<G>> debt_block_;
  std::uint64_t debt_version_ = 0;
  std::size_t debt_ = 0;
};

}  // namespace neuronrw
