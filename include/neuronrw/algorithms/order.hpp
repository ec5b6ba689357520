// neuronrw/algorithms/order.hpp — order maintenance: O(1) "is a before b" under O(1) amortized
// splices, for many lists at once.
//
// Customization points: none. The reference IR keeps the op order of all its blocks in one
// `order_maintenance`, with op ids as node ids and one list per block.
//
// Why not renumber: MLIR numbers the ops of a block lazily and drops the numbering on every
// splice, so "move an op, then ask an order question" costs O(block size) per step (≈ 11 pairs/s
// at 1M ops, docs/performance.md §"Dependence walk and order queries"). Order-maintenance labels
// are patched locally instead.
//
// Design (Dietz & Sleator 1987, "Two algorithms for maintaining order in a list"; the top level
// follows Bender, Cole, Demaine, Farach-Colton, Zito 2002, "Two simplified algorithms for
// maintaining order in a list", ESA 2002, §2):
//   * Nodes of a list are packed into groups of at most `group_capacity` consecutive nodes
//     (default 64). Each node carries a 32-bit label that orders it inside its group.
//   * Each list is a doubly linked list of groups carrying 63-bit labels. When a new group finds
//     no free label between its neighbours, the smallest aligned label range 2^i around it whose
//     density is at most T^-i (T = 1.4) is relabelled evenly: O(log G) amortized per group insert
//     for G groups (Bender et al., Theorem 1).
//   * A full group is split in halves, so a top-level insert happens at most once per
//     `group_capacity / 2` node inserts into that group; a group whose 32-bit labels run out is
//     relabelled evenly, which costs O(group_capacity) and happens at most once per ~25 inserts
//     into that group (the evenly spread gaps are ≥ 2^32 / (capacity + 1) and each insert at
//     worst halves one of them).
//   Hence insert/move is O(1 + log G / group_capacity) amortized — O(1) for every list that fits
//   in 32-bit ids at the default capacity — and `is_before` is two integer compares.
//
// Storage: nodes and groups live in flat vectors indexed by 32-bit ids; there is no per-node
// allocation. Emptied groups are recycled. Groups are never merged: a sparse group costs memory,
// not time, because splitting only ever happens to full groups.
//
// Failures (no exceptions: this header builds with -fno-exceptions, see detail/assert.hpp):
//   * Preconditions only a bug can break — a group capacity outside [2, 65536], a detached node
//     where an attached one is required, nodes of different lists compared — are NEURONRW_ASSERTs:
//     checked in debug builds, free under NDEBUG.
//   * The 32-bit ids are a limit valid input can reach: a structure holds at most 2^32 - 1 nodes,
//     lists and groups. Creating one more is a NEURONRW_CHECK, on in every build, that prints
//     `order.hpp:LINE: neuronrw: ...` and aborts. An error value was considered and rejected:
//     `add_node` sits on the reference IR's op-creation path, where every caller would have to
//     test a result that only a 4-billion-op module can produce, while a wrapped-around id would
//     silently alias another node and corrupt every later order answer. Such a module needs
//     64 GB for the order structure alone; aborting with the reason is the honest answer.
#pragma once

#include <neuronrw/detail/assert.hpp>
#include <neuronrw/detail/ranges.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <vector>

namespace neuronrw {

/// Tuning knobs of `order_maintenance`. The default is what the reference IR uses; tests shrink
/// the capacity to force group splits and relabelling on small inputs.
struct order_maintenance_options {
  /// Maximum number of nodes per group, 2 ≤ capacity ≤ 65536. Larger groups mean fewer
  /// top-level relabels but longer in-group relabels and splits.
  std::uint32_t group_capacity = 64;
};

/// Many disjoint ordered lists over one dense set of node ids, answering order queries in O(1).
/// See the header comment for the algorithm, its complexity and its references.
class order_maintenance {
 public:
  using node_id = std::uint32_t;
  using list_id = std::uint32_t;
  static constexpr std::uint32_t npos = 0xFFFFFFFFu;

  order_maintenance() noexcept : order_maintenance(order_maintenance_options{}) {}

  /// @pre 2 ≤ opts.group_capacity ≤ 65536 (asserted: the capacity is the caller's constant,
  /// so only a bug puts it outside the range).
  explicit order_maintenance(order_maintenance_options opts) noexcept
      : capacity_(opts.group_capacity),
        stride_(static_cast<std::uint32_t>(label_space / (std::uint64_t{opts.group_capacity} + 1))) {
    NEURONRW_ASSERT(opts.group_capacity >= 2 && opts.group_capacity <= 65536,
                    "order_maintenance: group_capacity must be in [2, 65536]");
  }

  // ---- creation --------------------------------------------------------------------------

  /// A new empty list. O(1) amortized. Aborts (always-on check) past 2^32 - 1 lists.
  list_id create_list() {
    NEURONRW_CHECK(lists_.size() < npos, "order_maintenance: more than 2^32 - 1 lists");
    lists_.push_back(list_rec{});
    return static_cast<list_id>(lists_.size() - 1);
  }

  /// A new detached node; ids are dense 0, 1, 2, ... O(1) amortized. Aborts (always-on check)
  /// past 2^32 - 1 nodes.
  node_id add_node() {
    NEURONRW_CHECK(next_.size() < npos, "order_maintenance: more than 2^32 - 1 nodes");
    prev_.push_back(npos);
    next_.push_back(npos);
    slots_.push_back(slot_rec{});
    return static_cast<node_id>(next_.size() - 1);
  }

  void reserve_nodes(std::size_t n) {
    prev_.reserve(n);
    next_.reserve(n);
    slots_.reserve(n);
    // Groups are at least half full except through detaches; reserve for the common case.
    groups_.reserve(n / (capacity_ / 2) + 1);
  }
  void reserve_lists(std::size_t n) { lists_.reserve(n); }
  /// Gives back the tables' spare capacity (after the last of a batch of creations).
  void shrink_to_fit() {
    prev_.shrink_to_fit();
    next_.shrink_to_fit();
    slots_.shrink_to_fit();
    groups_.shrink_to_fit();
    lists_.shrink_to_fit();
  }

  /// Number of node ids ever added (attached or not).
  std::size_t node_count() const noexcept { return next_.size(); }
  std::size_t list_count() const noexcept { return lists_.size(); }
  /// Number of groups currently holding nodes, over all lists (for tests and tuning).
  std::size_t group_count() const noexcept { return groups_.size() - free_count_; }
  std::uint32_t group_capacity() const noexcept { return capacity_; }

  // ---- mutation (all O(1) amortized) --------------------------------------------------------

  /// @pre l is a list of this structure; n is detached.
  void push_back(list_id l, node_id n) {
    NEURONRW_ASSERT(l < lists_.size() && n < next_.size() && !attached(n),
                    "order_maintenance: needs a list of this structure and a detached node");
    if (lists_[l].first_group == npos)
      start_list(l, n);
    else
      place_after(n, groups_[lists_[l].last_group].last);
  }

  /// @pre l is a list of this structure; n is detached.
  void push_front(list_id l, node_id n) {
    NEURONRW_ASSERT(l < lists_.size() && n < next_.size() && !attached(n),
                    "order_maintenance: needs a list of this structure and a detached node");
    if (lists_[l].first_group == npos)
      start_list(l, n);
    else
      place_before(n, groups_[lists_[l].first_group].first);
  }

  /// @pre n is detached; anchor is attached.
  void insert_before(node_id n, node_id anchor) {
    NEURONRW_ASSERT(n < next_.size() && !attached(n) && attached(anchor),
                    "order_maintenance: insert needs a detached node and an attached anchor");
    place_before(n, anchor);
  }

  /// @pre n is detached; anchor is attached.
  void insert_after(node_id n, node_id anchor) {
    NEURONRW_ASSERT(n < next_.size() && !attached(n) && attached(anchor),
                    "order_maintenance: insert needs a detached node and an attached anchor");
    place_after(n, anchor);
  }

  /// Removes n from its list; n keeps its id and may be attached again. O(1).
  /// @pre n is attached.
  void detach(node_id n) noexcept {
    NEURONRW_ASSERT(attached(n), "order_maintenance: detach needs an attached node");
    const node_id xp = prev_[n], xn = next_[n];
    const std::uint32_t g = slots_[n].group;
    group_rec& gr = groups_[g];
    if (xp != npos) next_[xp] = xn;
    if (xn != npos) prev_[xn] = xp;
    if (gr.first == n) gr.first = gr.count > 1 ? xn : npos;
    if (gr.last == n) gr.last = gr.count > 1 ? xp : npos;
    --gr.count;
    --lists_[gr.list].size;
    prev_[n] = next_[n] = npos;
    slots_[n] = slot_rec{};
    if (gr.count == 0) drop_group(g);
  }

  /// Moves n (attached to any list, or detached) to immediately before anchor, in anchor's list.
  /// n == anchor is a no-op. @pre anchor is attached.
  void move_before(node_id n, node_id anchor) {
    NEURONRW_ASSERT(n < next_.size() && attached(anchor),
                    "order_maintenance: move needs a node of this structure and an attached anchor");
    if (n == anchor) return;
    if (attached(n)) {
      if (next_[n] == anchor) return;
      detach(n);
    }
    place_before(n, anchor);
  }

  /// Moves n (attached to any list, or detached) to immediately after anchor, in anchor's list.
  /// n == anchor is a no-op. @pre anchor is attached.
  void move_after(node_id n, node_id anchor) {
    NEURONRW_ASSERT(n < next_.size() && attached(anchor),
                    "order_maintenance: move needs a node of this structure and an attached anchor");
    if (n == anchor) return;
    if (attached(n)) {
      if (prev_[n] == anchor) return;
      detach(n);
    }
    place_after(n, anchor);
  }

  /// Places the nodes of `run`, in order, immediately after anchor, in anchor's list: the same
  /// outcome as move_after(run[0], anchor), move_after(run[1], run[0]), ... Each node may be
  /// attached to any list or detached. A short run is moved node by node. A long one is read
  /// once first: every group the run holds whole, as a stretch of at least group_capacity / 4
  /// nodes in the group's own order, keeps its nodes, their links and their labels, and is only
  /// unlinked from its list and linked again after anchor (O(1) per group). The run's other
  /// nodes are detached and packed into fresh groups (three quarters full, labels evenly
  /// spread) between those. Each group placed gets its top-level label in the same pass.
  /// @pre anchor is attached. (A run that repeats a node or holds anchor is allowed: it is
  /// moved node by node, which gives the outcome above.)
  /// Complexity: O(run) reads, plus O(packed nodes + whole groups + group_capacity) writes and
  /// the top-level relabels the placed groups cause (amortized O(log G) each, as for any group
  /// insert), against a split every group_capacity / 2 nodes and a group relabel every ~25
  /// when moved one by one. A run that is whole groups of a list (a repair's carried slice,
  /// which sat together) writes O(run / group_capacity).
  void move_run_after(std::span<const node_id> run, node_id anchor) {
    move_run_after(run, anchor, [](node_id n) { return n; });
  }
  /// The same over any span whose elements `id_of` maps to node ids (a caller's handles).
  template <class T, class IdOf>
  void move_run_after(std::span<const T> run, node_id anchor, IdOf id_of) {
    NEURONRW_ASSERT(attached(anchor), "order_maintenance: move needs an attached anchor");
    auto one_by_one = [&] {
      node_id at = anchor;
      for (const T& e : run) {
        move_after(id_of(e), at);
        at = id_of(e);
      }
    };
    if (run.size() < std::max<std::uint32_t>(4, capacity_ / 4)) return one_by_one();
    const std::size_t m = run.size();
    // 1. Reads only (for a run that can hold a full group): the whole groups, in run order, each
    // marked. A group met whole twice leaves the outcome to single moves, which define it for
    // any sequence; nothing has changed yet. Only the first node of a group can start a whole
    // one: the rest of a group's share of a stretch is skipped with one compare per node. The
    // anchor is never in a whole group (it is not in anchor's group); step 2 finds it anywhere
    // else.
    whole_.clear();
    auto unmark = [&] {
      for (const whole_group& e : whole_) groups_[e.group].count &= ~whole_mark;
    };
    const std::uint32_t anchor_group = slots_[anchor].group;
    const std::uint32_t min_whole = std::max<std::uint32_t>(1, capacity_ / 4);
    for (std::size_t j = 0; j < m && m >= capacity_;) {
      node_id n = id_of(run[j]);
      NEURONRW_ASSERT(n < next_.size(), "order_maintenance: a run holds nodes of this structure");
      const std::uint32_t g = slots_[n].group;
      if (g == npos) {
        ++j;
        continue;
      }
      const std::uint32_t c = groups_[g].count;
      if ((c & whole_mark) != 0) {
        unmark();
        return one_by_one();
      }
      if (groups_[g].first == n && g != anchor_group && c >= min_whole && c <= m - j) {
        std::uint32_t k = 1;
        for (node_id x = n; k < c && id_of(run[j + k]) == next_[x]; ++k) x = next_[x];
        if (k == c) {
          groups_[g].count |= whole_mark;
          whole_.push_back({j, g});
        }
        j += k;
        continue;
      }
      // The rest of g's share of this stretch.
      const node_id last = groups_[g].last;
      for (++j; n != last && j < m && id_of(run[j]) == next_[n]; ++j) n = next_[n];
    }
    // 2. Detach the other nodes, marking each (a detached node's label is 0); nodes that follow
    // each other in a list leave it as one stretch. A node met twice, one of a marked group, or
    // the anchor gives the single moves' outcome again.
    bool distinct = true;
    std::size_t w = 0;
    for (std::size_t i = 0; i < m && distinct;) {
      if (w < whole_.size() && whole_[w].start == i) {
        i += groups_[whole_[w].group].count & ~whole_mark;
        ++w;
        continue;
      }
      const std::size_t stop = w < whole_.size() ? whole_[w].start : m;
      const node_id n = id_of(run[i]);
      NEURONRW_ASSERT(n < next_.size(), "order_maintenance: a run holds nodes of this structure");
      if (n == anchor) {
        distinct = false;
      } else if (!attached(n)) {
        distinct = slots_[n].label == 0;
        slots_[n].label = 1;
        ++i;
      } else if ((groups_[slots_[n].group].count & whole_mark) != 0) {
        distinct = false;
      } else {
        i = detach_stretch(run, i, stop, anchor, id_of);
      }
    }
    if (!distinct) {
      for (const T& e : run)
        if (!attached(id_of(e))) slots_[id_of(e)].label = 0;
      unmark();
      return one_by_one();
    }
    // 3. Unlink the whole groups from their lists; their nodes keep their links inside.
    for (const whole_group& e : whole_) {
      group_rec& hr = groups_[e.group];
      hr.count &= ~whole_mark;
      list_rec& lr = lists_[hr.list];
      if (hr.prev != npos) groups_[hr.prev].next = hr.next; else lr.first_group = hr.next;
      if (hr.next != npos) groups_[hr.next].prev = hr.prev; else lr.last_group = hr.prev;
      const node_id pn = prev_[hr.first], sn = next_[hr.last];
      if (pn != npos) next_[pn] = sn;
      if (sn != npos) prev_[sn] = pn;
      lr.size -= hr.count;
    }
    // 4. Place everything after anchor, in run order. The nodes after anchor in its group (the
    // tail) go to a group of their own, linked after the run's groups, so that those can follow
    // anchor's group. Tail labels stay increasing.
    const std::uint32_t g = anchor_group;
    const list_id l = groups_[g].list;
    const node_id after = next_[anchor];  // the run goes between anchor and `after`
    const bool tail = groups_[g].last != anchor;
    const node_id tail_last = groups_[g].last;
    if (tail) groups_[g].last = anchor;
    const std::uint32_t fill = std::max<std::uint32_t>(1, capacity_ - capacity_ / 4);
    // The groups still to place, tail included: each takes its share of the free labels.
    std::size_t groups_left = tail ? 1 : 0;
    {
      std::size_t i = 0;
      for (const whole_group& e : whole_) {
        groups_left += (e.start - i + fill - 1) / fill + 1;
        i = e.start + groups_[e.group].count;
      }
      groups_left += (m - i + fill - 1) / fill;
    }
    std::uint32_t prev_group = g;
    node_id prev_node = anchor;
    // Packs run[i, end) (detached nodes) into fresh groups, filled evenly.
    auto pack = [&](std::size_t i, const std::size_t end) {
      const std::size_t q = (end - i + fill - 1) / fill;
      for (std::size_t k = 0; k < q; ++k) {
        const auto count = static_cast<std::uint32_t>((end - i + (q - k) - 1) / (q - k));
        const std::uint32_t h = alloc_group(l);
        const std::uint64_t step = label_space / (std::uint64_t{count} + 1);
        std::uint64_t label = step;
        for (std::uint32_t c = 0; c < count; ++c, ++i) {
          const node_id n = id_of(run[i]);
          slots_[n] = {h, static_cast<std::uint32_t>(label)};
          label += step;
          prev_[n] = prev_node;
          next_[prev_node] = n;
          prev_node = n;
        }
        groups_[h].first = id_of(run[i - count]);
        groups_[h].last = id_of(run[i - 1]);
        groups_[h].count = count;
        link_group(h, l, prev_group, groups_[prev_group].next, groups_left--);
        prev_group = h;
      }
    };
    std::size_t i = 0;
    for (const whole_group& e : whole_) {
      pack(i, e.start);
      group_rec& hr = groups_[e.group];
      hr.list = l;
      prev_[hr.first] = prev_node;
      next_[prev_node] = hr.first;
      prev_node = hr.last;
      link_group(e.group, l, prev_group, groups_[prev_group].next, groups_left--);
      prev_group = e.group;
      i = e.start + groups_[e.group].count;
    }
    pack(i, m);
    next_[prev_node] = after;
    if (after != npos) prev_[after] = prev_node;
    lists_[l].size += m;
    if (tail) {
      const std::uint32_t t = alloc_group(l);
      std::uint32_t moved = 0;
      for (node_id n = after;; n = next_[n]) {
        slots_[n].group = t;
        ++moved;
        if (n == tail_last) break;
      }
      groups_[t].first = after;
      groups_[t].last = tail_last;
      groups_[t].count = moved;
      groups_[g].count -= moved;
      link_group(t, l, prev_group, groups_[prev_group].next);
    }
  }

  // ---- queries (all O(1)) -------------------------------------------------------------------

  /// Whether a comes strictly before b. @pre a and b are attached to the same list.
  bool is_before(node_id a, node_id b) const noexcept {
    NEURONRW_ASSERT(attached(a) && attached(b) && list_of(a) == list_of(b),
                    "order_maintenance: is_before compares two nodes of one list");
    const slot_rec& x = slots_[a];
    const slot_rec& y = slots_[b];
    if (x.group == y.group) return x.label < y.label;
    return groups_[x.group].label < groups_[y.group].label;
  }

  bool attached(node_id n) const noexcept { return n < next_.size() && slots_[n].group != npos; }

  /// The list n is in, or npos if n is detached.
  list_id list_of(node_id n) const noexcept {
    const std::uint32_t g = slots_[n].group;
    return g == npos ? npos : groups_[g].list;
  }

  /// First node of l, or npos if l is empty.
  node_id first(list_id l) const noexcept {
    const std::uint32_t g = lists_[l].first_group;
    return g == npos ? npos : groups_[g].first;
  }
  /// Last node of l, or npos if l is empty.
  node_id last(list_id l) const noexcept {
    const std::uint32_t g = lists_[l].last_group;
    return g == npos ? npos : groups_[g].last;
  }
  /// The node after n, or npos at the end (and for a detached n).
  node_id next(node_id n) const noexcept { return next_[n]; }
  /// The node before n, or npos at the front (and for a detached n).
  node_id prev(node_id n) const noexcept { return prev_[n]; }
  std::size_t size(list_id l) const noexcept { return lists_[l].size; }
  bool empty(list_id l) const noexcept { return lists_[l].size == 0; }

  // ---- iteration ----------------------------------------------------------------------------

  /// Bidirectional iterator over the node ids of one list. Invalidated only when the node it
  /// points at is detached or moved (like a std::list iterator); other splices are harmless.
  class iterator {
   public:
    using value_type = node_id;
    using difference_type = std::ptrdiff_t;
    using reference = node_id;
    using iterator_concept = std::bidirectional_iterator_tag;
    // A prvalue reference makes this only a legacy input iterator.
    using iterator_category = std::input_iterator_tag;

    iterator() = default;
    node_id operator*() const noexcept { return cur_; }
    iterator& operator++() noexcept {
      cur_ = om_->next(cur_);
      return *this;
    }
    iterator operator++(int) noexcept {
      iterator t = *this;
      ++*this;
      return t;
    }
    iterator& operator--() noexcept {
      cur_ = cur_ == npos ? om_->last(list_) : om_->prev(cur_);
      return *this;
    }
    iterator operator--(int) noexcept {
      iterator t = *this;
      --*this;
      return t;
    }
    friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.cur_ == b.cur_; }

   private:
    friend class order_maintenance;
    iterator(const order_maintenance* om, list_id l, node_id cur) noexcept : om_(om), list_(l), cur_(cur) {}
    const order_maintenance* om_ = nullptr;
    list_id list_ = npos;
    node_id cur_ = npos;
  };

  /// The nodes of one list in order, as a cheap view (a std::ranges::bidirectional_range).
  // view_base rather than view_interface: clang 14 checks view_interface's constrained members
  // while node_range is still incomplete and rejects the class.
  class node_range : public std::ranges::view_base {
   public:
    node_range() = default;
    iterator begin() const noexcept { return {om_, list_, om_ ? om_->first(list_) : npos}; }
    iterator end() const noexcept { return {om_, list_, npos}; }
    bool empty() const noexcept { return !om_ || om_->empty(list_); }
    std::size_t size() const noexcept { return om_ ? om_->size(list_) : 0; }

   private:
    friend class order_maintenance;
    node_range(const order_maintenance* om, list_id l) noexcept : om_(om), list_(l) {}
    const order_maintenance* om_ = nullptr;
    list_id list_ = npos;
  };

  node_range nodes(list_id l) const noexcept { return {this, l}; }

  /// Full consistency check of links, counts and label order. O(total size); for tests.
  bool invariants_hold() const {
    std::size_t attached_total = 0;
    for (list_id l = 0; l < lists_.size(); ++l) {
      const list_rec& lr = lists_[l];
      std::size_t seen = 0;
      std::uint32_t pg = npos;
      node_id pn = npos;
      for (std::uint32_t g = lr.first_group; g != npos; pg = g, g = groups_[g].next) {
        const group_rec& gr = groups_[g];
        if (gr.list != l || gr.prev != pg || gr.count == 0 || gr.count > capacity_) return false;
        if (gr.label >= top_space) return false;
        if (pg != npos && groups_[pg].label >= gr.label) return false;
        if (gr.first == npos || prev_[gr.first] != pn) return false;
        node_id n = gr.first;
        for (std::uint32_t k = 0; k < gr.count; ++k) {
          if (n == npos || slots_[n].group != g || prev_[n] != pn) return false;
          if (k > 0 && slots_[pn].label >= slots_[n].label) return false;
          if (k + 1 == gr.count && gr.last != n) return false;
          pn = n;
          n = next_[n];
        }
        seen += gr.count;
      }
      if (pg != lr.last_group || seen != lr.size) return false;
      if (pn != npos && next_[pn] != npos) return false;
      attached_total += seen;
    }
    std::size_t flagged = 0;
    for (const slot_rec& x : slots_) flagged += x.group != npos;
    std::size_t free_seen = 0;
    for (std::uint32_t g = free_head_; g != npos && free_seen <= groups_.size(); g = groups_[g].next) {
      if (groups_[g].count != 0) return false;
      ++free_seen;
    }
    return flagged == attached_total && free_seen == free_count_;
  }

 private:
  // A node is three columns: its next and previous neighbours in the whole list (across groups)
  // and its slot (group and label). A forward scan reads only next_, a backward one only prev_,
  // an order query only slots_: 4 or 8 bytes per node, not a record holding all three.
  struct slot_rec {
    std::uint32_t group = npos;  // npos ⇔ detached
    std::uint32_t label = 0;     // order inside the group
  };
  struct group_rec {
    std::uint64_t label = 0;  // order among the groups of the list, < top_space
    std::uint32_t prev = npos;
    std::uint32_t next = npos;
    node_id first = npos;
    node_id last = npos;
    std::uint32_t count = 0;
    list_id list = npos;
  };
  struct list_rec {
    std::uint32_t first_group = npos;
    std::uint32_t last_group = npos;
    std::size_t size = 0;
  };

  static constexpr std::uint64_t label_space = std::uint64_t{1} << 32;  // in-group labels
  static constexpr int top_bits = 63;  // 2^63 keeps every range size representable in uint64
  static constexpr std::uint64_t top_space = std::uint64_t{1} << top_bits;

  // Bender et al.'s overflow thresholds: a range of 2^i labels may hold at most (2/T)^i items.
  // T = 1.4 leaves (2/1.4)^63 ≈ 5.7e9 > 2^32 groups in the whole space, so the search below
  // always succeeds, while T < 2 keeps relabelling O(log G) amortized.
  static constexpr std::array<std::uint64_t, top_bits + 1> top_threshold = [] {
    std::array<std::uint64_t, top_bits + 1> t{};
    double c = 1.0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      t[i] = static_cast<std::uint64_t>(c);
      c *= 2.0 / 1.4;
    }
    return t;
  }();

  // Detaches the stretch of run that starts at run[i] (attached, in no marked group): run[i],
  // then each run[j], j < stop, that follows run[j - 1] in its list, is not `anchor` and is in
  // no marked (whole) group, marking each node (label 1) for move_run_after. Returns the index
  // after the stretch. One pass: the run is compared with the list while the nodes are
  // detached, with one link update at each end and one count update per group.
  template <class T, class IdOf>
  std::size_t detach_stretch(std::span<const T> run, std::size_t i, std::size_t stop, node_id anchor,
                             IdOf& id_of) noexcept {
    node_id n = id_of(run[i]);
    const node_id p = prev_[n];
    const list_id l = groups_[slots_[n].group].list;
    std::size_t j = i;
    node_id s;  // the node after the stretch, once known
    while (true) {
      // One group's share of the stretch: seg_first .. n.
      const std::uint32_t g = slots_[n].group;
      const node_id seg_first = n;
      std::uint32_t c = 0;
      node_id nx;
      bool end;
      while (true) {
        nx = next_[n];
        slots_[n] = {npos, 1};
        prev_[n] = next_[n] = npos;
        ++c;
        ++j;
        end = j == stop || nx == npos || nx == anchor || id_of(run[j]) != nx;
        if (end || slots_[nx].group != g) break;
        n = nx;
      }
      s = nx;
      group_rec& gr = groups_[g];
      gr.count -= c;
      if (gr.count == 0) {
        drop_group(g);
      } else {
        // Groups are contiguous: what is left of g precedes the stretch, or (its last share)
        // follows it.
        if (gr.first == seg_first) gr.first = s;
        if (gr.last == n) gr.last = p;
      }
      if (end || (groups_[slots_[nx].group].count & whole_mark) != 0) break;
      n = nx;
    }
    if (p != npos) next_[p] = s;
    if (s != npos) prev_[s] = p;
    lists_[l].size -= j - i;
    return j;
  }

  // -- groups ---------------------------------------------------------------------------------

  std::uint32_t alloc_group(list_id l) {
    std::uint32_t g;
    if (free_head_ != npos) {
      g = free_head_;
      free_head_ = groups_[g].next;
      --free_count_;
    } else {
      // At most one group per node, so the node check above already bounds this; kept because
      // a wrapped group id would corrupt silently.
      NEURONRW_CHECK(groups_.size() < npos, "order_maintenance: more than 2^32 - 1 groups");
      groups_.push_back(group_rec{});
      g = static_cast<std::uint32_t>(groups_.size() - 1);
    }
    groups_[g] = group_rec{};
    groups_[g].list = l;
    return g;
  }

  // Unlinks an emptied group from its list and recycles it. The free list is threaded through
  // `next` so that detach never allocates and can stay noexcept.
  void drop_group(std::uint32_t g) noexcept {
    group_rec& gr = groups_[g];
    list_rec& lr = lists_[gr.list];
    if (gr.prev != npos) groups_[gr.prev].next = gr.next; else lr.first_group = gr.next;
    if (gr.next != npos) groups_[gr.next].prev = gr.prev; else lr.last_group = gr.prev;
    gr = group_rec{};
    gr.next = free_head_;
    free_head_ = g;
    ++free_count_;
  }

  // Links group x between p and s (adjacent groups of list l; either may be npos) and labels it.
  // `share`: x is the first of `share` groups about to go between p and s, in order, so it takes
  // the first 1 / (share + 1) of the free labels (share 1: the middle), which spreads a run of
  // groups evenly over the gap.
  void link_group(std::uint32_t x, list_id l, std::uint32_t p, std::uint32_t s, std::size_t share = 1) {
    group_rec& xr = groups_[x];
    xr.prev = p;
    xr.next = s;
    list_rec& lr = lists_[l];
    if (p != npos) groups_[p].next = x; else lr.first_group = x;
    if (s != npos) groups_[s].prev = x; else lr.last_group = x;
    const std::uint64_t lo = p == npos ? 0 : groups_[p].label + 1;
    const std::uint64_t hi = s == npos ? top_space : groups_[s].label;  // exclusive
    if (lo < hi)
      xr.label = lo + (hi - lo) / (share + 1);
    else
      relabel_top(x);
  }

  // Bender et al. 2002, §2: find the smallest aligned range of 2^i labels around x's neighbour
  // that is not overflowing once x joins it, and spread its items evenly over that range. The
  // walk grows incrementally, so finding the range costs O(items in it), as does relabelling.
  void relabel_top(std::uint32_t x) {
    const std::uint32_t anchor = groups_[x].prev != npos ? groups_[x].prev : groups_[x].next;
    NEURONRW_ASSERT(anchor != npos, "order_maintenance: a new group has a neighbour");
    const std::uint64_t v = groups_[anchor].label;
    std::uint32_t left = anchor, right = anchor;
    std::uint64_t count = 1;  // items in the range, x excluded (its label is not set yet)
    auto before = [&](std::uint32_t g) {
      const std::uint32_t q = groups_[g].prev;
      return q == x ? groups_[x].prev : q;
    };
    auto after = [&](std::uint32_t g) {
      const std::uint32_t q = groups_[g].next;
      return q == x ? groups_[x].next : q;
    };
    for (int i = 1; i <= top_bits; ++i) {
      const std::uint64_t span = std::uint64_t{1} << i;
      const std::uint64_t base = v & ~(span - 1);
      for (std::uint32_t q = before(left); q != npos && groups_[q].label >= base; q = before(q)) {
        left = q;
        ++count;
      }
      for (std::uint32_t q = after(right); q != npos && groups_[q].label - base < span; q = after(q)) {
        right = q;
        ++count;
      }
      if (count + 1 > top_threshold[static_cast<std::size_t>(i)]) continue;
      // x sits inside [left, right] or right next to one end of it.
      if (groups_[left].prev == x) left = x;
      if (groups_[right].next == x) right = x;
      const std::uint64_t step = span / (count + 1);
      std::uint64_t label = base;
      for (std::uint32_t g = left;; g = groups_[g].next) {
        groups_[g].label = label;
        label += step;
        if (g == right) break;
      }
      return;
    }
    // Unreachable: the whole space holds (2/1.4)^63 > 2^32 groups, and there are fewer groups
    // than that. Reaching it is a bug; going on would leave x unlabelled, so stop in every build.
    ::neuronrw::detail::check_failed(__FILE__, __LINE__, "relabel_top found a range",
                                     "order_maintenance: top-level label space exhausted");
  }

  // Spreads the labels of g evenly over the in-group label space. O(count).
  void relabel_group(std::uint32_t g) noexcept {
    const group_rec& gr = groups_[g];
    const std::uint64_t step = label_space / (std::uint64_t{gr.count} + 1);
    std::uint64_t label = step;
    node_id n = gr.first;
    for (std::uint32_t k = 0; k < gr.count; ++k, n = next_[n]) {
      slots_[n].label = static_cast<std::uint32_t>(label);
      label += step;
    }
  }

  // Moves the upper half of the full group g into a fresh group right after it.
  void split(std::uint32_t g) {
    const std::uint32_t h = alloc_group(groups_[g].list);
    const std::uint32_t keep = groups_[g].count / 2;
    node_id m = groups_[g].first;
    for (std::uint32_t k = 0; k < keep; ++k) m = next_[m];
    group_rec& hr = groups_[h];
    hr.first = m;
    hr.last = groups_[g].last;
    hr.count = groups_[g].count - keep;
    for (node_id n = m;; n = next_[n]) {
      slots_[n].group = h;
      if (n == hr.last) break;
    }
    groups_[g].last = prev_[m];
    groups_[g].count = keep;
    link_group(h, groups_[g].list, g, groups_[g].next);
    relabel_group(g);
    relabel_group(h);
  }

  // Creates a group holding only n, linked between groups p and s of list l.
  void single_node_group(node_id n, list_id l, std::uint32_t p, std::uint32_t s, std::uint32_t label) {
    const std::uint32_t g = alloc_group(l);
    const node_id pn = p == npos ? npos : groups_[p].last;
    const node_id sn = s == npos ? npos : groups_[s].first;
    slots_[n] = {g, label};
    prev_[n] = pn;
    next_[n] = sn;
    if (pn != npos) next_[pn] = n;
    if (sn != npos) prev_[sn] = n;
    groups_[g].first = groups_[g].last = n;
    groups_[g].count = 1;
    ++lists_[l].size;
    link_group(g, l, p, s);
  }

  void start_list(list_id l, node_id n) { single_node_group(n, l, npos, npos, static_cast<std::uint32_t>(label_space / 2)); }

  // -- nodes ----------------------------------------------------------------------------------

  // Links n into the non-full, non-empty group g between a and b (neighbours inside g, npos at
  // the group's edges). Edge inserts step by stride_ instead of halving so that a group built by
  // appending (the common way to build a block) is filled without any relabel.
  void link_into(node_id n, std::uint32_t g, node_id a, node_id b) noexcept {
    group_rec& gr = groups_[g];
    const node_id pn = a != npos ? a : prev_[b];
    const node_id sn = b != npos ? b : next_[a];
    slot_rec& x = slots_[n];
    x.group = g;
    prev_[n] = pn;
    next_[n] = sn;
    if (pn != npos) next_[pn] = n;
    if (sn != npos) prev_[sn] = n;
    if (a == npos) gr.first = n;
    if (b == npos) gr.last = n;
    ++gr.count;
    ++lists_[gr.list].size;

    const std::uint64_t lo = a == npos ? 0 : std::uint64_t{slots_[a].label} + 1;
    const std::uint64_t hi = b == npos ? label_space : slots_[b].label;  // exclusive
    if (lo >= hi) {
      relabel_group(g);
      return;
    }
    std::uint64_t label = lo + (hi - lo) / 2;
    if (b == npos && hi - lo > stride_)
      label = lo - 1 + stride_;
    else if (a == npos && hi - lo > stride_)
      label = hi - stride_;
    x.label = static_cast<std::uint32_t>(label);
  }

  void place_after(node_id n, node_id a) {
    std::uint32_t g = slots_[a].group;
    const bool at_edge = groups_[g].last == a;
    if (groups_[g].count < capacity_) return link_into(n, g, a, at_edge ? npos : next_[a]);
    if (at_edge) {
      // Spill into the next group's front (or start a new last group) rather than split: keeps
      // groups full when a list is built by appending.
      const std::uint32_t s = groups_[g].next;
      if (s == npos)
        return single_node_group(n, groups_[g].list, g, npos, stride_);
      if (groups_[s].count < capacity_) return link_into(n, s, npos, groups_[s].first);
    }
    split(g);
    g = slots_[a].group;
    link_into(n, g, a, groups_[g].last == a ? npos : next_[a]);
  }

  void place_before(node_id n, node_id b) {
    std::uint32_t g = slots_[b].group;
    const bool at_edge = groups_[g].first == b;
    if (groups_[g].count < capacity_) return link_into(n, g, at_edge ? npos : prev_[b], b);
    if (at_edge) {
      const std::uint32_t p = groups_[g].prev;
      if (p == npos)
        return single_node_group(n, groups_[g].list, npos, g, static_cast<std::uint32_t>(label_space - stride_));
      if (groups_[p].count < capacity_) return link_into(n, p, groups_[p].last, npos);
    }
    split(g);
    g = slots_[b].group;
    link_into(n, g, groups_[g].first == b ? npos : prev_[b], b);
  }

  // move_run_after's scratch: the groups a run holds whole, in run order, by the index of their
  // first node in the run. Kept between calls only for its capacity.
  struct whole_group {
    std::size_t start;
    std::uint32_t group;
  };
  // Set in a whole group's count while move_run_after runs (counts are at most 65536).
  static constexpr std::uint32_t whole_mark = std::uint32_t{1} << 31;

  std::uint32_t capacity_;
  std::uint32_t stride_;  // in-group label step for edge inserts: capacity_ of them fit
  std::vector<node_id> next_, prev_;
  std::vector<slot_rec> slots_;
  std::vector<group_rec> groups_;
  std::uint32_t free_head_ = npos;  // recycled groups, linked through group_rec::next
  std::size_t free_count_ = 0;
  std::vector<list_rec> lists_;
  std::vector<whole_group> whole_;
};

static_assert(std::ranges::bidirectional_range<order_maintenance::node_range>);
static_assert(std::ranges::view<order_maintenance::node_range>);
static_assert(std::ranges::sized_range<order_maintenance::node_range>);

}  // namespace neuronrw
