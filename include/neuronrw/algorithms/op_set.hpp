// neuronrw/algorithms/op_set.hpp — a set of ops that is a flat array when the IR numbers its ops
// densely (indexed_ir) and a hash set otherwise. Algorithms use it for "visited" and "in cluster"
// marks so the reference IR gets array speed while any IR still works (LLVM's GenericDomTree
// makes the same choice for numbered nodes).
//
// Customization points: none; uses ir_traits<G>::op_index/op_index_bound when present and
// neuronrw::handle_hash otherwise.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include <neuronrw/concepts/ir.hpp>

namespace neuronrw {

template <class G>
class op_set {
  using op = op_handle_t<G>;

 public:
  explicit op_set(const G& g) : g_(&g) {
    if constexpr (indexed_ir<G>) stamp_.assign(ir::op_index_bound(g), 0);
  }
  /// Inserts; true when `o` was not present. O(1) (amortized for the hash variant).
  bool insert(op o) { return insert_key(key(o)); }
  bool contains(op o) const { return contains_key(key(o)); }
  /// The key of `o` for the *_key functions: its op index (indexed_ir) or `o` itself. A caller
  /// asking several sets of the same IR about one op computes it once: on an IR whose op_index
  /// is a lookup (the MLIR adapter), one lookup instead of one per set.
  using key_type = std::conditional_t<indexed_ir<G>, std::size_t, op>;
  key_type key(op o) const {
    if constexpr (indexed_ir<G>) return ir::op_index(*g_, o); else return o;
  }
  /// contains / insert by key (`key(o)` of a set of the same IR).
  bool contains_key(key_type k) const {
    if constexpr (indexed_ir<G>) return k < stamp_.size() && stamp_[k] == epoch_; else return set_.count(k) != 0;
  }
  bool insert_key(key_type k) {
    if constexpr (indexed_ir<G>) {
      if (k >= stamp_.size()) [[unlikely]]
        grow(k);
      if (stamp_[k] == epoch_) return false;
      stamp_[k] = epoch_;
      ++size_;
      return true;
    } else {
      return set_.insert(k).second;
    }
  }
  bool erase(op o) {
    if constexpr (indexed_ir<G>) {
      auto i = ir::op_index(*g_, o);
      if (i >= stamp_.size() || stamp_[i] != epoch_) return false;
      stamp_[i] = 0;
      --size_;
      return true;
    } else {
      return set_.erase(o) != 0;
    }
  }
  std::size_t size() const noexcept {
    if constexpr (indexed_ir<G>) return size_; else return set_.size();
  }
  /// Empties the set and makes it a set of g's ops (a pooled set reused with another IR of the
  /// same type). Costs what clear() costs.
  void clear(const G& g) {
    g_ = &g;
    clear();
  }
  /// Empties the set. O(1) for the array variant (a new epoch), O(size) otherwise.
  void clear() {
    if constexpr (indexed_ir<G>) {
      if (++epoch_ == 0) {  // wrapped: old stamps could alias the new epoch
        std::fill(stamp_.begin(), stamp_.end(), 0);
        epoch_ = 1;
      }
      size_ = 0;
    } else {
      set_.clear();
    }
  }

 private:
  // Kept out of line so that insert inlines into the repair's and the walk's loops.
  [[gnu::noinline]] void grow(std::size_t i) {
    stamp_.resize(ir::op_index_bound(*g_) > i ? ir::op_index_bound(*g_) : i + 1, 0);
  }
  const G* g_;
  std::vector<std::uint32_t> stamp_;
  std::uint32_t epoch_ = 1;
  std::size_t size_ = 0;
  std::unordered_set<op, handle_hash<op>> set_;
};

}  // namespace neuronrw
