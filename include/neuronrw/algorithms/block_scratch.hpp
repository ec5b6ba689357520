// neuronrw/algorithms/block_scratch.hpp — the reusable memory of the block algorithms (the
// dependence walk, the convexity check, the dominance repair) and of the passes that call them,
// so that repeated calls in a large function cost O(window), not O(#ops).
//
// A block_scratch is the one object a pass keeps. It is a composition of three rooms that do not
// share storage:
//   - mark_pool<G>   per-call op_set marks, handed out as leases: every live lease is a set of
//                    its own, so no two algorithms (nor an algorithm and the pass around it) can
//                    hold the same marks, whatever order they run in. A lease goes back to the
//                    pool when it ends; the pool grows to the most leases ever live at once
//                    (three: convexity's), so memory is what the old shared slots took.
//   - walk_scratch<G> the dependence walk's own typed buffers (its dense marks, its sweep buffer,
//                    its partition list); nothing else touches them.
//   - block_copy_cache<G> (block_copy_cache.hpp) the cached dense block copy: an analysis with its
//                    own invalidation (the IR's version), not per-walk state.
// and one buffer, the dominance repair's (repair_buffer): the planners collect a slice in it
// and copy it to the plan once, instead of growing the plan's vector op by op.
//
// Customization points: none. mark_pool needs read_ir (op_set), block_scratch block handles too
// (ordered_ir, as the algorithms it serves). Uses op_index/op_index_bound when present.
// A scratch must not be shared by concurrent calls. Results never point into it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include <neuronrw/algorithms/block_copy_cache.hpp>
#include <neuronrw/algorithms/op_set.hpp>
#include <neuronrw/concepts/ir.hpp>

namespace neuronrw {

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

/// A pool of op_set marks handed out as leases. Every live lease owns a distinct set, cleared
/// when taken; ending a lease (its destructor) returns the set for the next `take`. Sets are
/// made on demand, so the pool holds as many as were ever live at once, and a pass and the
/// algorithms it calls can hold marks at the same time without naming slots.
/// @pre the pool outlives its leases (they are meant to live for one call).
template <class G>
class mark_pool {
 public:
  /// A set of the pool, held until the lease ends. Move-only; an empty (default or moved-from)
  /// lease holds nothing.
  class lease {
   public:
    lease() = default;
    lease(lease&& o) noexcept : pool_(std::exchange(o.pool_, nullptr)), set_(std::exchange(o.set_, nullptr)) {}
    lease& operator=(lease&& o) noexcept {
      if (this != &o) {
        release();
        pool_ = std::exchange(o.pool_, nullptr);
        set_ = std::exchange(o.set_, nullptr);
      }
      return *this;
    }
    lease(const lease&) = delete;
    lease& operator=(const lease&) = delete;
    ~lease() { release(); }

    op_set<G>& operator*() const noexcept { return *set_; }
    op_set<G>* operator->() const noexcept { return set_; }
    explicit operator bool() const noexcept { return set_ != nullptr; }

   private:
    friend class mark_pool;
    lease(mark_pool* p, op_set<G>* s) noexcept : pool_(p), set_(s) {}
    void release() noexcept {
      if (set_ != nullptr) pool_->give_back(set_);
      pool_ = nullptr;
      set_ = nullptr;
    }
    mark_pool* pool_ = nullptr;
    op_set<G>* set_ = nullptr;
  };

  mark_pool() = default;
  // Leases point into the pool: moving it while they live would strand them, so it moves only
  // as part of a whole scratch between calls (no lease live). A move keeps the sets in place.
  mark_pool(mark_pool&&) = default;
  mark_pool& operator=(mark_pool&&) = default;
  mark_pool(const mark_pool&) = delete;
  mark_pool& operator=(const mark_pool&) = delete;

  /// An empty set of g's ops, distinct from the set of every other live lease of this pool.
  /// Complexity: O(1) when a set is free (clearing an indexed set is O(1)); otherwise one new set,
  /// O(#ops of g) on indexed IRs.
  [[nodiscard]] lease take(const G& g) {
    if (free_.empty()) {
      sets_.emplace_back(g);  // a deque: the sets already leased stay where they are
      free_.reserve(sets_.size());  // so give_back never allocates
      return lease(this, &sets_.back());
    }
    op_set<G>* s = free_.back();
    free_.pop_back();
    s->clear(g);
    return lease(this, s);
  }

  /// Sets made so far: the most leases live at once.
  std::size_t sets_made() const noexcept { return sets_.size(); }
  /// Leases live now.
  std::size_t live() const noexcept { return sets_.size() - free_.size(); }

 private:
  void give_back(op_set<G>* s) noexcept { free_.push_back(s); }
  std::deque<op_set<G>> sets_;
  std::vector<op_set<G>*> free_;
};

/// The dependence walk's own memory (algorithms/dependence_walk.hpp): nothing else uses it.
template <class G>
class walk_scratch {
 public:
  using op = op_handle_t<G>;
  /// Dense marks for indexed IRs, reset for g's current op numbering (untouched otherwise).
  dense_marks& fresh_marks(const G& g) {
    if constexpr (indexed_ir<G>) marks_.reset(ir::op_index_bound(g));
    (void)g;
    return marks_;
  }
  /// Dense marks for the ops of a dense block copy (block_copy_cache.hpp), at their positions,
  /// reset for a block of n ops. The walk over a copy marks the block's ops here, so that its
  /// sweep tests the marks in block order, as it reads the copy.
  dense_marks& fresh_position_marks(std::size_t n) {
    position_marks_.reset(n);
    return position_marks_;
  }
  /// The backward sweep's buffer: not cleared, its size is its usable capacity (the sweep grows
  /// it when full), so a reused buffer costs no fill per walk.
  std::vector<op>& sweep_buffer() noexcept { return swept_; }
  /// The ops of one partition of a walk's result (the walk clears it); its capacity survives
  /// across calls.
  std::vector<op>& partition_list() noexcept { return found_; }

 private:
  dense_marks marks_;
  dense_marks position_marks_;
  std::vector<op> swept_;
  std::vector<op> found_;
};

/// Deprecated: the named mark slots of the old block_scratch::fresh, several names per slot.
/// Marks come from block_scratch::marks().take(g) now, one distinct set per lease.
enum class [[deprecated("take marks with block_scratch::marks().take(g)")]] scratch_mark : std::uint8_t {
  walk_seen = 0,
  walk_queued = 1,
  walk_partition = 2,
  convex_member = 0,
  convex_reached = 1,
  convex_feeds = 2,
  repair_carried = 0,
  pass_carried = 0,
};
/// Deprecated: the named lists of the old block_scratch::list / buffer (the walk's own now).
enum class [[deprecated("the walk's lists are block_scratch::walk()'s")]] scratch_list : std::uint8_t {
  walk_found = 0,
  walk_swept = 1,
};

/// Reusable memory for the block algorithms (dependence walk, convexity, dominance repair) and
/// the passes that call them; see the header comment for its three rooms.
///
/// Why it exists: on an indexed IR an op_set is a flat array over every op of the IR, so
/// building one costs O(#ops) while clearing one is O(1). A pass that runs these algorithms for
/// many candidates in a large function keeps one scratch and pays O(window) per call; the
/// overloads without a scratch build a fresh one (fine for one-off calls and small IRs). Nothing
/// is built up front: marks on their first lease, the walk's arrays on the first walk, the block
/// copy when its policy says. A scratch must not be shared by concurrent calls.
template <class G>
class block_scratch {
 public:
  /// g is the IR the scratch is first used with (kept only for the deprecated `fresh`); the
  /// scratch may be used with other IRs of type G too.
  explicit block_scratch(const G& g) : g_(&g) {}

  /// Per-call marks: each algorithm (and a pass between algorithm calls) takes its own.
  mark_pool<G>& marks() noexcept { return marks_; }
  /// The dependence walk's own buffers.
  walk_scratch<G>& walk() noexcept { return walk_; }
  /// The cached dense block copy (an analysis, invalidated by the IR's version).
  block_copy_cache<G>& block_copies() noexcept { return copies_; }
  const block_copy_cache<G>& block_copies() const noexcept { return copies_; }

  /// The dominance repair's slice buffer (plan_sink, plan_hoist; nothing else touches it). Not
  /// cleared: its size is its usable capacity, which the planner grows when full, so a reused
  /// buffer costs no fill and no reallocation per call.
  std::vector<op_handle_t<G>>& repair_buffer() noexcept { return repair_; }

  /// block_copies().set_policy / policy / copies_made, spelled on the scratch.
  void set_copy_policy(block_copy_policy p) noexcept { copies_.set_policy(p); }
  block_copy_policy copy_policy() const noexcept { return copies_.policy(); }
  std::size_t copies_made() const noexcept { return copies_.copies_made(); }

  // ------------------------------------------------------------ deprecated (one release)
  // The old slots. They keep their old meaning (names with equal values share a set) but no
  // longer alias the marks the algorithms take, which come from marks().
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  /// The mark set named `m`, cleared.
  [[deprecated("use marks().take(g): a lease of a set no other caller holds")]] op_set<G>& fresh(scratch_mark m) {
    auto& s = legacy_[static_cast<std::size_t>(m)];
    if (!s) s.emplace(*g_);
    s->clear();
    return *s;
  }
  /// The op list named `l`, cleared: walk_found is walk().partition_list(), walk_swept
  /// walk().sweep_buffer().
  [[deprecated("use walk().partition_list() or walk().sweep_buffer()")]] std::vector<op_handle_t<G>>& list(
      scratch_list l) {
    auto& v = l == scratch_list::walk_found ? walk_.partition_list() : walk_.sweep_buffer();
    v.clear();
    return v;
  }
  /// The op list named `l`, not cleared.
  [[deprecated("use walk().partition_list() or walk().sweep_buffer()")]] std::vector<op_handle_t<G>>& buffer(
      scratch_list l) {
    return l == scratch_list::walk_found ? walk_.partition_list() : walk_.sweep_buffer();
  }
#pragma GCC diagnostic pop
  [[deprecated("use walk().fresh_marks(g)")]] dense_marks& fresh_dense(const G& g) { return walk_.fresh_marks(g); }
  [[deprecated("use block_copies().get(g, b)")]] const block_copy<G>* dense_copy(const G& g, block_handle_t<G> b) {
    return copies_.get(g, b);
  }
  [[deprecated("use block_copies().note_swept(g, b, n)")]] void note_swept(const G& g, block_handle_t<G> b,
                                                                          std::size_t n) noexcept {
    copies_.note_swept(g, b, n);
  }

 private:
  const G* g_;
  mark_pool<G> marks_;
  walk_scratch<G> walk_;
  block_copy_cache<G> copies_;
  std::vector<op_handle_t<G>> repair_;
  std::optional<op_set<G>> legacy_[3];  // the deprecated fresh's slots, made on first use
};

}  // namespace neuronrw
