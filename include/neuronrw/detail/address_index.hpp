// neuronrw/detail/address_index.hpp — an insert-only map from object addresses to 32-bit numbers,
// laid out so that lookups in address order read the table in order.
//
//   detail::address_index   find(p), try_emplace(p, v), reserve(n), size(), bytes()
//   detail::u64_table       an open-addressing map from non-zero 64-bit keys to 32-bit values
//
// Who uses it: the MLIR adapter's op numbering (adapters/mlir/traits.hpp, ir::op_index), asked
// once or twice per op an algorithm visits. An IR's ops are allocated one after the other while
// it is parsed or built, so a block's ops sit in memory roughly in block order, and the
// algorithms visit a block in order (the dependence walk sweeps it backwards). A general-purpose
// hash table (llvm::DenseMap hashes a pointer to (p >> 4) ^ (p >> 9)) scatters consecutive
// addresses over the table: once the table outgrows the L2 cache, each lookup is a cache miss,
// about three quarters of its time in the profile of ScheduleFusion over the adapter at 100K
// ops (docs/performance.md §"ScheduleFusion over the MLIR adapter").
//
// The table here is paged instead. An address's page (2 KiB) gets a block of 32 slots, one per
// 64-byte granule of the page, the first time an address in it is numbered; a small hash table
// maps page numbers to blocks. A lookup reads the page's entry and the granule's slot. Walking a
// block reads one page entry for a dozen or more ops (mlir::Operation is 64 bytes plus its
// operands, results and regions), so it is usually in cache, and the slots of its ops in order,
// four per cache line. An address whose granule already holds another (two keys less than 64 bytes
// apart; never two live mlir::Operations, which are 64 bytes) goes to an overflow table: still
// correct, one more lookup.
//
// Memory: 512 bytes per page that holds a key, plus the page table. For ops allocated one after
// the other that is about 30 bytes per op, against llvm::DenseMap's 16 to 40. The worst case is
// one key per page, 512 bytes per key: keys 2 KiB or more apart (large ops, or ops allocated
// between other large allocations).
//
// Keys are never null (find(nullptr) answers npos); values are any 32-bit number but npos.
// Nothing is ever erased: an object allocated where another was keeps the old one's number,
// which is what the adapter wants (numbers unique among live ops).
//
// Customization points: none.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

namespace neuronrw::detail {

// An open-addressing table from non-zero 64-bit keys to 32-bit values, hashed at random
// (Fibonacci hashing), load at most 1/2: address_index's page table and overflow.
class u64_table {
 public:
  static constexpr std::uint32_t npos = 0xffffffffu;
  std::uint32_t find(std::uint64_t key) const noexcept {
    if (slots_.empty()) return npos;
    for (std::size_t i = slot_of(key);; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return slots_[i].value;
      if (slots_[i].key == 0) return npos;
    }
  }
  std::pair<std::uint32_t, bool> try_emplace(std::uint64_t key, std::uint32_t v) {
    if (2 * (size_ + 1) > slots_.size()) grow(size_ + 1);
    std::size_t i = slot_of(key);
    for (; slots_[i].key != 0; i = (i + 1) & mask_)
      if (slots_[i].key == key) return {slots_[i].value, false};
    slots_[i] = slot{key, v};
    ++size_;
    return {v, true};
  }
  void reserve(std::size_t n) {
    if (2 * n > slots_.size()) grow(n);
  }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return slots_.capacity() * sizeof(slot); }

 private:
  struct slot {
    std::uint64_t key = 0;  // 0: empty
    std::uint32_t value = 0;
  };
  std::size_t slot_of(std::uint64_t key) const noexcept {
    return static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ull) >> shift_);
  }
  void grow(std::size_t n) {
    const std::size_t capacity = std::bit_ceil(std::max<std::size_t>(16, 2 * n));
    std::vector<slot> old;
    old.swap(slots_);
    slots_.assign(capacity, slot{});
    mask_ = capacity - 1;
    shift_ = 64u - static_cast<unsigned>(std::countr_zero(capacity));
    for (const slot& s : old) {
      if (s.key == 0) continue;
      std::size_t i = slot_of(s.key);
      while (slots_[i].key != 0) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }
  std::vector<slot> slots_;
  std::size_t mask_ = 0;
  unsigned shift_ = 64;
  std::size_t size_ = 0;
};

class address_index {
 public:
  static constexpr std::uint32_t npos = u64_table::npos;
  /// log2 of the bytes per granule: keys at least this far apart never share a slot.
  static constexpr unsigned granule_bits = 6;
  /// log2 of the bytes per page (a block of slots).
  static constexpr unsigned page_bits = 11;
  static constexpr std::size_t slots_per_page = std::size_t{1} << (page_bits - granule_bits);

  /// The number of `p`, or npos when it has none (always for null).
  std::uint32_t find(const void* p) const noexcept {
    const auto key = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p));
    if (key == 0) return npos;
    const std::uint32_t block = pages_.find((key >> page_bits) + 1);
    if (block == npos) return npos;
    const slot& s = slots_[slot_index(block, key)];
    if (s.key == key) return s.value;
    if (s.key == 0 || overflow_.size() == 0) return npos;  // an empty granule: no overflow key either
    return overflow_.find(key);
  }

  /// Gives `p` (non-null) the number `v` (not npos) unless it has one. Returns p's number and
  /// whether it was new.
  std::pair<std::uint32_t, bool> try_emplace(const void* p, std::uint32_t v) {
    const auto key = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p));
    const std::uint64_t page = (key >> page_bits) + 1;
    std::uint32_t block = last_block_;
    if (page != last_page_) {  // numbering in memory order meets a page a dozen times in a row
      bool fresh = false;
      std::tie(block, fresh) = pages_.try_emplace(page, static_cast<std::uint32_t>(slots_.size() / slots_per_page));
      if (fresh) slots_.resize(slots_.size() + slots_per_page);
      last_page_ = page;
      last_block_ = block;
    }
    slot& s = slots_[slot_index(block, key)];
    if (s.key == key) return {s.value, false};
    if (s.key != 0) {
      const auto r = overflow_.try_emplace(key, v);
      size_ += r.second;
      return r;
    }
    s = slot{key, v};
    ++size_;
    return {v, true};
  }

  /// Room for `n` keys in all (in pages of their own at worst, from the page table's side).
  void reserve(std::size_t n) { pages_.reserve(pages_.size() + n / 8); }
  std::size_t size() const noexcept { return size_; }
  /// Bytes held by the tables.
  std::size_t bytes() const noexcept { return slots_.capacity() * sizeof(slot) + pages_.bytes() + overflow_.bytes(); }

 private:
  struct slot {
    std::uint64_t key = 0;  // 0: empty
    std::uint32_t value = 0;
  };
  static std::size_t slot_index(std::uint32_t block, std::uint64_t key) noexcept {
    return std::size_t{block} * slots_per_page + static_cast<std::size_t>((key >> granule_bits) & (slots_per_page - 1));
  }

  u64_table pages_;     // page number + 1 -> block
  std::vector<slot> slots_;  // block * slots_per_page + granule in the page -> key and number
  u64_table overflow_;  // keys whose granule held another key first
  std::size_t size_ = 0;
  std::uint64_t last_page_ = 0;  // the page of the last try_emplace (0: none; pages are stored + 1)
  std::uint32_t last_block_ = 0;
};

}  // namespace neuronrw::detail
