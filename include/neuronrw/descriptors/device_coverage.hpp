// neuronrw/descriptors/device_coverage.hpp — the device-coverage lattice (docs/descriptors.md
// §"Lattices", docs/host-programs.md §"2. MaterializeCommDomainScopes"): which device ranks use a
// buffer: ⊥ (none yet), a finite set of ranks, or ⊤ = all ranks (kAll).
//
// Customization points: none; it models bounded_join_semilattice through its static members
// (bottom, top, join, leq, join_all), so lattice::join / lattice::join_all / check_laws apply.
//
// Representation, and why: a canonical list of disjoint, non-adjacent, ascending closed
// intervals [first, last] of ranks. Coverage comes from `device=N` (one point) and from
// `for r in pl.range(a, b)` (one interval), so the common values are one interval whatever the
// rank count: {0..65535} costs 8 bytes, where a sorted rank vector costs 256 KiB and a bitset
// 8 KiB even for {0} (and a bitset needs a world size up front). Up to `inline_intervals`
// intervals live inside the object, so ⊥, ⊤, a point and a range never allocate. Join is a
// linear merge of the two interval lists; leq a linear containment walk; contains a binary
// search. Everything is constexpr (C++20 constexpr std::vector), so lattice laws are checked by
// static_assert.
#pragma once

#include <neuronrw/descriptors/lattice.hpp>
#include <neuronrw/detail/fnv1a.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <vector>

namespace neuronrw {

class device_coverage {
 public:
  using rank_type = std::uint32_t;

  /// Closed interval of ranks, first <= last.
  struct interval {
    rank_type first = 0;
    rank_type last = 0;
    friend constexpr bool operator==(const interval&, const interval&) = default;
  };

  static constexpr std::size_t inline_intervals = 2;

  /// Ascending ranks of a finite coverage; a forward range.
  class rank_iterator {
   public:
    using iterator_concept = std::forward_iterator_tag;
    using iterator_category = std::forward_iterator_tag;
    using value_type = rank_type;
    using difference_type = std::ptrdiff_t;
    using reference = rank_type;

    constexpr rank_iterator() noexcept = default;
    constexpr rank_iterator(const interval* it, const interval* end) noexcept
        : it_(it), end_(end), rank_(it != end ? it->first : 0) {}

    constexpr rank_type operator*() const noexcept { return rank_; }
    constexpr rank_iterator& operator++() noexcept {
      if (rank_ == it_->last) {
        ++it_;
        rank_ = it_ != end_ ? it_->first : 0;
      } else {
        ++rank_;
      }
      return *this;
    }
    constexpr rank_iterator operator++(int) noexcept {
      rank_iterator old = *this;
      ++*this;
      return old;
    }
    friend constexpr bool operator==(const rank_iterator& a, const rank_iterator& b) noexcept {
      return a.it_ == b.it_ && a.rank_ == b.rank_;
    }

   private:
    const interval* it_ = nullptr;
    const interval* end_ = nullptr;
    rank_type rank_ = 0;
  };

  class rank_view {
   public:
    constexpr rank_view() noexcept = default;
    constexpr explicit rank_view(std::span<const interval> s) noexcept : s_(s) {}
    constexpr rank_iterator begin() const noexcept { return {s_.data(), s_.data() + s_.size()}; }
    constexpr rank_iterator end() const noexcept {
      return {s_.data() + s_.size(), s_.data() + s_.size()};
    }

    constexpr bool empty() const noexcept { return s_.empty(); }

   private:
    std::span<const interval> s_;
  };

  // ---- construction -------------------------------------------------------------------------

  /// ⊥: no device uses it (yet). The empty rank set is ⊥: there is one least element.
  constexpr device_coverage() noexcept = default;

  constexpr device_coverage(const device_coverage&) = default;
  constexpr device_coverage& operator=(const device_coverage&) = default;
  // A moved-from coverage is ⊥ (the defaulted move would leave size_ out of step with heap_).
  constexpr device_coverage(device_coverage&& o) noexcept
      : state_(o.state_), size_(o.size_), heap_(std::move(o.heap_)) {
    for (std::size_t i = 0; i < inline_intervals; ++i) inline_[i] = o.inline_[i];
    o.reset();
  }
  constexpr device_coverage& operator=(device_coverage&& o) noexcept {
    if (this != &o) {
      state_ = o.state_;
      size_ = o.size_;
      for (std::size_t i = 0; i < inline_intervals; ++i) inline_[i] = o.inline_[i];
      heap_ = std::move(o.heap_);
      o.reset();
    }
    return *this;
  }
  constexpr ~device_coverage() = default;

  static constexpr device_coverage bottom() noexcept { return {}; }
  /// ⊤ = every rank (kAll in the original pass, docs/sources.md §"MaterializeCommDomainScopes").
  static constexpr device_coverage all() noexcept {
    device_coverage c;
    c.state_ = state::all;
    return c;
  }
  static constexpr device_coverage top() noexcept { return all(); }

  static constexpr device_coverage single(rank_type r) {
    device_coverage c;
    c.push_back({r, r});
    return c;
  }

  /// Ranks [start, stop), as `for r in pl.range(start, stop)` visits them; ⊥ when empty.
  static constexpr device_coverage range(rank_type start, rank_type stop) {
    device_coverage c;
    if (start < stop) c.push_back({start, stop - 1});
    return c;
  }

  /// Any ranks, in any order, duplicates allowed. O(n log n).
  template <std::ranges::input_range R>
    requires std::convertible_to<std::ranges::range_value_t<R>, rank_type>
  static constexpr device_coverage from_ranks(R&& ranks) {
    std::vector<interval> points;
    for (auto&& r : ranks) {
      const auto v = static_cast<rank_type>(r);
      points.push_back({v, v});
    }
    return from_intervals(std::move(points));
  }
  static constexpr device_coverage of(std::initializer_list<rank_type> ranks) {
    return from_ranks(ranks);
  }

  // ---- observers ----------------------------------------------------------------------------

  constexpr bool is_bottom() const noexcept { return state_ == state::ranks && size_ == 0; }
  constexpr bool is_all() const noexcept { return state_ == state::all; }
  /// A non-empty finite set of ranks.
  constexpr bool is_ranks() const noexcept { return state_ == state::ranks && size_ > 0; }

  /// ⊤ contains every rank, ⊥ none. O(log intervals).
  constexpr bool contains(rank_type r) const noexcept {
    if (is_all()) return true;
    const auto s = intervals();
    const auto it = std::upper_bound(s.begin(), s.end(), r,
                                     [](rank_type v, const interval& iv) { return v < iv.first; });
    return it != s.begin() && r <= std::prev(it)->last;
  }

  /// Number of ranks; nullopt for ⊤ (which has no finite count). O(intervals).
  constexpr std::optional<std::uint64_t> rank_count() const noexcept {
    if (is_all()) return std::nullopt;
    std::uint64_t n = 0;
    for (const interval& iv : intervals()) n += std::uint64_t{iv.last} - iv.first + 1;
    return n;
  }

  /// The canonical intervals, ascending; empty for ⊥ and ⊤.
  constexpr std::span<const interval> intervals() const noexcept {
    return {size_ <= inline_intervals ? inline_ : heap_.data(), size_};
  }

  /// Ascending ranks. Empty for ⊥, and for ⊤ too: ⊤ has no finite enumeration, test is_all().
  constexpr rank_view ranks() const noexcept { return rank_view(intervals()); }

  // ---- lattice ------------------------------------------------------------------------------

  /// Least upper bound: join(⊤, x) = ⊤, join(⊥, x) = x, join(S1, S2) = S1 ∪ S2.
  /// O(k1 + k2) in the number of intervals.
  static constexpr device_coverage join(const device_coverage& a, const device_coverage& b) {
    if (a.is_all() || b.is_all()) return all();
    if (a.is_bottom()) return b;
    if (b.is_bottom()) return a;
    const auto x = a.intervals();
    const auto y = b.intervals();
    device_coverage out;
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < x.size() || j < y.size()) {
      const bool take_x = j == y.size() || (i < x.size() && x[i].first <= y[j].first);
      out.append_merging(take_x ? x[i++] : y[j++]);
    }
    return out;
  }

  /// a ⊑ b: ⊥ ⊑ everything, everything ⊑ ⊤, ⊤ ⋢ any finite set, S1 ⊑ S2 iff S1 ⊆ S2.
  /// O(k1 + k2).
  static constexpr bool leq(const device_coverage& a, const device_coverage& b) noexcept {
    if (b.is_all() || a.is_bottom()) return true;
    if (a.is_all()) return false;
    const auto x = a.intervals();
    const auto y = b.intervals();
    std::size_t j = 0;
    for (const interval& iv : x) {
      while (j < y.size() && y[j].last < iv.first) ++j;
      if (j == y.size() || y[j].first > iv.first || y[j].last < iv.last) return false;
    }
    return true;
  }

  /// The join of many coverages in one pass: O(T log T) for T intervals in total, where a fold
  /// of pairwise joins is O(n * T) (n scattered points would make it quadratic).
  template <std::ranges::input_range R>
    requires std::same_as<std::ranges::range_value_t<R>, device_coverage>
  static constexpr device_coverage join_all(R&& coverages) {
    std::vector<interval> all_intervals;
    for (const device_coverage& c : coverages) {
      if (c.is_all()) return all();
      const auto s = c.intervals();
      all_intervals.insert(all_intervals.end(), s.begin(), s.end());
    }
    return from_intervals(std::move(all_intervals));
  }

  /// In-place join with one rank / another coverage.
  constexpr device_coverage& insert(rank_type r) { return *this = join(*this, single(r)); }
  constexpr device_coverage& join_with(const device_coverage& other) {
    return *this = join(*this, other);
  }

  friend constexpr bool operator==(const device_coverage& a, const device_coverage& b) noexcept {
    return a.state_ == b.state_ && std::ranges::equal(a.intervals(), b.intervals());
  }

 private:
  enum class state : std::uint8_t { ranks, all };

  constexpr void reset() noexcept {
    state_ = state::ranks;
    size_ = 0;
    heap_.clear();
  }

  constexpr void push_back(interval iv) {
    if (size_ < inline_intervals) {
      inline_[size_++] = iv;
      return;
    }
    if (size_ == inline_intervals) heap_.assign(inline_, inline_ + inline_intervals);
    heap_.push_back(iv);
    ++size_;
  }

  constexpr interval& back() noexcept {
    return size_ <= inline_intervals ? inline_[size_ - 1] : heap_.back();
  }

  // Appends an interval that starts at or after the current back's start, coalescing overlap
  // and adjacency so the representation stays canonical (equality is then element-wise).
  constexpr void append_merging(interval iv) {
    if (size_ > 0) {
      interval& b = back();
      const bool touches = b.last == std::numeric_limits<rank_type>::max() || iv.first <= b.last + 1;
      if (touches) {
        if (iv.last > b.last) b.last = iv.last;
        return;
      }
    }
    push_back(iv);
  }

  static constexpr device_coverage from_intervals(std::vector<interval> v) {
    std::ranges::sort(v, [](const interval& a, const interval& b) { return a.first < b.first; });
    device_coverage out;
    for (const interval& iv : v) out.append_merging(iv);
    return out;
  }

  state state_ = state::ranks;
  std::uint32_t size_ = 0;                 // number of intervals
  interval inline_[inline_intervals]{};    // the intervals while size_ <= inline_intervals
  std::vector<interval> heap_;             // all the intervals once size_ > inline_intervals
};

/// "bottom", "all", or the ascending ranks as "{0, 1, 2}". O(ranks).
inline std::string to_string(const device_coverage& c) {
  if (c.is_all()) return "all";
  if (c.is_bottom()) return "bottom";
  std::string out = "{";
  bool first = true;
  for (device_coverage::rank_type r : c.ranks()) {
    if (!first) out += ", ";
    first = false;
    out += std::to_string(r);
  }
  out += '}';
  return out;
}

/// Hash consistent with ==, for grouping allocations by exact coverage. O(intervals).
constexpr std::size_t hash_value(const device_coverage& c) noexcept {
  detail::fnv1a_64 h(c.is_all() ? 0x9e3779b97f4a7c15ull : 0x51ed270b27a3e5d1ull);
  for (const device_coverage::interval& iv : c.intervals()) h.mix(iv.first).mix(iv.last);
  return static_cast<std::size_t>(h.value());
}

}  // namespace neuronrw
