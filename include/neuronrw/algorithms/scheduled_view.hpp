// neuronrw/algorithms/scheduled_view.hpp — an order overlay: a read-only view of an IR whose block
// order can be changed without touching the IR. A planner simulates the moves of earlier
// decisions on it, so every later decision is planned against the order those moves produce —
// match-and-move-as-you-go without the mutation (ScheduleFusion's planner does exactly this).
//
// Customization points: none. The view models ordered_ir (and the optional capabilities the
// underlying IR has), so every algorithm of this directory runs on it unchanged.
// Complexity: moving within a block builds that block's overlay once (O(block)); then each move
// and each order query is O(1) amortized (algorithms/order.hpp). Blocks never moved answer from G.
// Threads: the const functions write one memo (the op last stepped to or moved, see index()), so a view
// is read by one thread at a time; planners running in parallel each have their own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include <neuronrw/algorithms/dominance_repair.hpp>
#include <neuronrw/algorithms/order.hpp>
#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/detail/ranges.hpp>

namespace neuronrw {


/// A read-only view of G whose block order can be changed without touching G: the moves a
/// planner simulates land in an order-maintenance overlay (algorithms/order.hpp), built for a
/// block on its first move (O(block)); other blocks answer from G. It models ordered_ir (and
/// indexed_ir when G does), so the algorithm layer runs on it unchanged — the way LLVM's
/// Inverse<G> turns direction into a view instead of a second algorithm.
template <class G>
class scheduled_view {
 public:
  using op = op_handle_t<G>;
  using block = block_handle_t<G>;
  static constexpr std::uint32_t npos = order_maintenance::npos;

  static_assert(require_ordered_ir<G>());

  explicit scheduled_view(const G& g) : g_(&g) {}

  const G& base() const noexcept { return *g_; }

  /// The overlay node of `o`, or npos when o's block has no overlay.
  std::uint32_t local(op o) const {
    if constexpr (indexed_ir<G>) {
      if (o == memo_op_) return memo_node_;
      if (local_.empty()) return npos;
      const std::size_t i = ir::op_index(*g_, o);
      return i < local_.size() ? local_[i] : npos;
    } else {
      auto it = local_.find(o);
      return it == local_.end() ? npos : it->second;
    }
  }

  /// G's op_index of `o` (indexed G only), read from the overlay when `o` is the op the view
  /// last stepped to (next, prev, first) or moved: algorithms step through the view and then test and
  /// set the marks of the op they stand at, so a sweep asks G only about the ops it reaches
  /// through operands. On an IR whose op_index is a lookup (the MLIR adapter's table) that
  /// halves a sweep's lookups; on an array (the reference IR) it costs a compare.
  std::size_t index(op o) const
    requires indexed_ir<G>
  {
    if (o == memo_op_) return index_[memo_node_];
    return ir::op_index(*g_, o);
  }

  bool is_before(op a, op b) const {
    const auto la = local(a);
    if (la == npos) return ir::is_before_in_block(*g_, a, b);
    return order_.is_before(la, local(b));
  }
  op next(op o) const {
    const auto l = local(o);
    if (l == npos) return ir::next_op(*g_, o);
    return step_to(order_.next(l));
  }
  op prev(op o) const {
    const auto l = local(o);
    if (l == npos) return ir::prev_op(*g_, o);
    return step_to(order_.prev(l));
  }
  /// The first op of `b` in the view's order (null when empty).
  op first(block b) const {
    auto&& r = ir::ops(*g_, b);
    auto it = std::ranges::begin(r);
    if (it == std::ranges::end(r)) return ir::null_op<G>();
    const op f = *it;
    const auto l = local(f);
    if (l == npos) return f;
    return step_to(order_.first(order_.list_of(l)));
  }

  /// Simulates a move within one block.
  /// A planner's moves come in chains (each anchored at the op moved before it), so the moved
  /// op is left in the memo: the next move finds its anchor's node without asking G.
  void move(const op_move<op>& m) {
    if (m.op == m.anchor) return;
    auto a = local(m.anchor);
    if (a == npos) {  // the anchor's block has no overlay yet
      overlay(ir::block_of(*g_, m.anchor));
      a = local(m.anchor);
    }
    const auto n = local(m.op);
    if (m.where == move_position::before)
      order_.move_before(n, a);
    else
      order_.move_after(n, a);
    if constexpr (indexed_ir<G>) {
      memo_op_ = m.op;
      memo_node_ = n;
    }
  }

  /// A forward range over the ops of a block in the view's order.
  class op_range {
   public:
    class iterator {
     public:
      using value_type = op;
      using difference_type = std::ptrdiff_t;
      using iterator_category = std::forward_iterator_tag;
      iterator() = default;
      iterator(const scheduled_view* v, op o) : v_(v), o_(o) {}
      op operator*() const { return o_; }
      iterator& operator++() {
        o_ = v_->next(o_);
        return *this;
      }
      iterator operator++(int) {
        auto t = *this;
        ++*this;
        return t;
      }
      friend bool operator==(const iterator& a, const iterator& b) { return a.o_ == b.o_; }

     private:
      const scheduled_view* v_ = nullptr;
      op o_ = ir::null_op<G>();
    };
    op_range(const scheduled_view* v, op first) : v_(v), first_(first) {}
    iterator begin() const { return {v_, first_}; }
    iterator end() const { return {v_, ir::null_op<G>()}; }

   private:
    const scheduled_view* v_;
    op first_;
  };

 private:
  // The op of overlay node n (null for npos), remembered with its node as the last op stepped to.
  op step_to(std::uint32_t n) const {
    if (n == npos) return ir::null_op<G>();
    if constexpr (indexed_ir<G>) {
      memo_op_ = ops_[n];
      memo_node_ = n;
    }
    return ops_[n];
  }

  void overlay(block b) {
    {
      auto&& r = ir::ops(*g_, b);
      auto it = std::ranges::begin(r);
      if (it == std::ranges::end(r) || local(*it) != npos) return;
    }
    if constexpr (indexed_ir<G>) {
      if (local_.empty()) local_.assign(ir::op_index_bound(*g_), npos);
    }
    const auto list = order_.create_list();
    for (auto&& o : ir::ops(*g_, b)) {
      const auto n = order_.add_node();
      ops_.push_back(o);
      if constexpr (indexed_ir<G>) {
        const std::size_t i = ir::op_index(*g_, o);
        if (i >= local_.size()) local_.resize(i + 1, npos);
        local_[i] = n;
        index_.push_back(static_cast<std::uint32_t>(i));
      } else {
        local_.emplace(o, n);
      }
      order_.push_back(list, n);
    }
  }

  const G* g_;
  order_maintenance order_;
  std::vector<op> ops_;  // overlay node -> op
  // Indexed G: overlay node -> G's op_index, and the last op stepped to (next, prev, first) or
  // moved, with its node. An op's node never changes once its block has an overlay, and the memo
  // is set only to such ops, so it never goes stale; it starts as the null op, which has no node.
  std::conditional_t<indexed_ir<G>, std::vector<std::uint32_t>, char> index_{};
  mutable op memo_op_ = ir::null_op<G>();
  mutable std::uint32_t memo_node_ = npos;
  std::conditional_t<indexed_ir<G>, std::vector<std::uint32_t>, std::unordered_map<op, std::uint32_t, handle_hash<op>>>
      local_;
};


/// The view models ordered_ir, plus each optional capability G has (op_index, argument_block,
/// is_terminator); everything but the order is G's.
template <class G>
struct ir_traits<scheduled_view<G>> {
  using V = scheduled_view<G>;
  using base = ir_traits<G>;
  using op_handle = typename base::op_handle;
  using value_handle = typename base::value_handle;
  using block_handle = typename base::block_handle;

  static op_handle null_op() { return base::null_op(); }
  static kind_id kind(const V& v, op_handle o) { return base::kind(v.base(), o); }
  static decltype(auto) operands(const V& v, op_handle o) { return base::operands(v.base(), o); }
  static op_handle defining_op(const V& v, value_handle x) { return base::defining_op(v.base(), x); }
  static decltype(auto) users(const V& v, value_handle x) { return base::users(v.base(), x); }
  static decltype(auto) results(const V& v, op_handle o) { return base::results(v.base(), o); }
  static op_handle parent_op(const V& v, op_handle o) { return base::parent_op(v.base(), o); }

  static block_handle block_of(const V& v, op_handle o) { return base::block_of(v.base(), o); }
  static typename V::op_range ops(const V& v, block_handle b) { return {&v, v.first(b)}; }
  static bool is_before_in_block(const V& v, op_handle a, op_handle b) { return v.is_before(a, b); }
  static op_handle next_op(const V& v, op_handle o) { return v.next(o); }
  static op_handle prev_op(const V& v, op_handle o) { return v.prev(o); }
  static decltype(auto) regions(const V& v, op_handle o) { return base::regions(v.base(), o); }

  static std::size_t op_index(const V& v, op_handle o)
    requires indexed_ir<G>
  {
    return v.index(o);
  }
  static std::size_t op_index_bound(const V& v)
    requires indexed_ir<G>
  {
    return base::op_index_bound(v.base());
  }
  static block_handle argument_block(const V& v, value_handle x)
    requires concepts_detail::has_argument_block<G>
  {
    return base::argument_block(v.base(), x);
  }
  static bool is_terminator(const V& v, op_handle o)
    requires concepts_detail::has_is_terminator<G>
  {
    return base::is_terminator(v.base(), o);
  }
};

}  // namespace neuronrw
