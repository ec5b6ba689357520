// neuronrw/detail/handle_map.hpp — an insert-only hash map from handles to values whose entries
// are two arrays, with an index table that a new epoch empties in O(1).
//
//   detail::handle_map<K, V, Hash>   find(k), contains(k), try_emplace(k, v),
//                                    insert_or_assign(k, v), size(), clear()
//
// Who uses it: MaterializeCommDomainScopes' per-function facts (every variable's definition,
// which variables are allocations and views), keyed by a host program's variable handles and
// forgotten before the next function. std::unordered_map allocates a node per entry: over one
// host orchestrator of 100K allocations, inserting, rehashing and freeing those nodes (glibc's
// malloc_consolidate and unlink_chunk among them) was most of the plan's time, and grew per
// allocation with the function's size (docs/performance.md §"MaterializeCommDomainScopes").
//
// Layout: keys and values in insertion order (two vectors, no per-entry allocation, any copyable
// K and V: no default constructor needed), and an open-addressing table of 8-byte slots (epoch,
// entry number), linear probing, load at most 1/2, Fibonacci hashing over Hash's value. A slot is
// empty unless its epoch is the map's: clear() starts a new epoch, so forgetting one function's
// facts costs nothing per slot and the next function reuses the memory.
//
// Customization points: Hash (defaults to neuronrw::handle_hash<K>, concepts/ir.hpp).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include <neuronrw/concepts/ir.hpp>

namespace neuronrw::detail {

template <class K, class V, class Hash = handle_hash<K>>
class handle_map {
  static_assert(!std::is_same_v<V, bool>, "handle_map<K, bool>: std::vector<bool> has no element addresses; use char");

 public:
  /// The value of `k`, or null. Valid until the next insertion or clear().
  const V* find(const K& k) const noexcept {
    const std::uint32_t e = entry_of(k);
    return e == none ? nullptr : &values_[e];
  }
  V* find(const K& k) noexcept {
    const std::uint32_t e = entry_of(k);
    return e == none ? nullptr : &values_[e];
  }
  bool contains(const K& k) const noexcept { return entry_of(k) != none; }

  /// Inserts k -> v when k is absent. Returns the value of k and whether it was inserted.
  std::pair<V*, bool> try_emplace(const K& k, V v) {
    if (2 * (keys_.size() + 1) > table_.size()) grow();
    for (std::size_t i = home(k);; i = (i + 1) & mask_) {
      slot& s = table_[i];
      if (s.epoch != epoch_) {
        s = {epoch_, static_cast<std::uint32_t>(keys_.size())};
        keys_.push_back(k);
        values_.push_back(std::move(v));
        return {&values_.back(), true};
      }
      if (keys_[s.entry] == k) return {&values_[s.entry], false};
    }
  }
  /// Inserts k -> v, or replaces k's value.
  void insert_or_assign(const K& k, V v) {
    auto [at, inserted] = try_emplace(k, v);
    if (!inserted) *at = std::move(v);
  }

  std::size_t size() const noexcept { return keys_.size(); }
  bool empty() const noexcept { return keys_.empty(); }
  /// Forgets every entry and keeps the memory: a new epoch, so nothing is done per slot (the
  /// keys' and values' destructors run, which for handles and integers is nothing either).
  void clear() noexcept {
    keys_.clear();
    values_.clear();
    if (++epoch_ == 0) {  // wrapped: old slots could alias the new epoch
      for (slot& s : table_) s.epoch = 0;
      epoch_ = 1;
    }
  }

 private:
  struct slot {
    std::uint32_t epoch = 0;  // 0: never used; an entry only when equal to the map's epoch_
    std::uint32_t entry = 0;  // index into keys_ and values_
  };
  static constexpr std::uint32_t none = 0xffffffffu;

  std::size_t home(const K& k) const noexcept {
    const auto h = static_cast<std::uint64_t>(Hash{}(k)) * 0x9E3779B97F4A7C15ull;
    return static_cast<std::size_t>(h >> shift_);
  }
  std::uint32_t entry_of(const K& k) const noexcept {
    if (keys_.empty()) return none;
    for (std::size_t i = home(k);; i = (i + 1) & mask_) {
      const slot& s = table_[i];
      if (s.epoch != epoch_) return none;
      if (keys_[s.entry] == k) return s.entry;
    }
  }
  // Twice the slots (at least 16), the current entries placed again.
  [[gnu::noinline]] void grow() {
    const std::size_t n = table_.size() < 16 ? 16 : 2 * table_.size();
    table_.assign(n, slot{});
    mask_ = n - 1;
    shift_ = static_cast<unsigned>(64 - std::countr_zero(n));
    epoch_ = 1;
    for (std::uint32_t e = 0; e < keys_.size(); ++e) {
      std::size_t i = home(keys_[e]);
      while (table_[i].epoch == epoch_) i = (i + 1) & mask_;
      table_[i] = {epoch_, e};
    }
  }

  std::vector<K> keys_;
  std::vector<V> values_;
  std::vector<slot> table_;
  std::size_t mask_ = 0;
  unsigned shift_ = 63;  // set by grow(), which runs before the first home()
  std::uint32_t epoch_ = 1;
};

}  // namespace neuronrw::detail
