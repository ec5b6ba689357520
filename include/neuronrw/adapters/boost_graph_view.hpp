// neuronrw/adapters/boost_graph_view.hpp — one block of any ordered_ir model seen as a Boost.Graph
// (the second direction; adapters/boost_graph.hpp is the first): boost::breadth_first_search, topological_sort,
// lengauer_tarjan_dominator_tree, write_graphviz ... run on the reference IR, a user's own IR or
// MLIR without an adjacency_list copy. Two views of the same graph:
//
//   neuronrw::bgl_view::block_view view(g, block);        // vertex = the op (its handle)
//   boost::breadth_first_search(view, first_op, boost::visitor(vis));
//
//   neuronrw::bgl_view::dense_block_view dense(g, block);  // vertex = the op's position, 0 .. n-1
//   boost::breadth_first_search(dense, 0, boost::visitor(vis));   // dense.op_at(v): the op
//
// The graph: vertex = op of the block; edge = one use inside the block, producer → consumer. A
// use inside a nested region counts as a use by the op of the block that holds it (as everywhere
// in the library, algorithms/ancestry.hpp); a use of an op's result inside that op's own region
// (graph regions) is no edge. An op using a value twice gives two parallel edges; the edge
// descriptor names the value. Both model IncidenceGraph, BidirectionalGraph, VertexListGraph and
// EdgeListGraph, with the same vertices, edges and edge order.
//
// Which to use: block_view's vertex_descriptor is op_handle_t<G>, so a visitor or a property map
// keyed by op works unchanged, and get(vertex_index, view) is the op's position, looked up per
// call (on an indexed IR one load from the view's table by op index). dense_block_view numbers
// vertices as adjacency_list<vecS, vecS> does: vertex_descriptor is std::size_t, the vertex index
// is the vertex itself (typed_identity_property_map), and an edge (position_edge) holds the two
// positions, so a colour or distance map indexed by vertex costs what it costs on a vecS graph
// (no lookup per edge followed). It numbers the block in its constructor; op_at(v) and
// vertex_of(op) translate.
//
// What the view stores, and why (the concepts let an IR return ranges by value, e.g. a
// std::vector, so an iterator cannot point into them without owning a copy):
//   - on first need, the block's ops in order and an op → position map: a flat array indexed by
//     op_index when the IR has it (indexed_ir, concepts/ir.hpp O1; op_index_bound entries), a hash
//     map (neuronrw::handle_hash) otherwise. O(block) once.
//   - per vertex, its out-edge and in-edge lists, each built the first time out_edges / in_edges
//     asks for that vertex (O(uses of its results), O(operands of it and of its nested ops)), then
//     kept in an append-only pool of edge arrays owned by the view (chunks never move): edge
//     iterators are plain pointers, stable for the life of the view, and a vertex's list is one
//     contiguous array. An algorithm that looks at a part of the block pays for that part only.
//     Where a vertex's two lists are found (16 bytes each) is kept at the op's index when the IR
//     has one and the block holds at least a quarter of its ops (op_index_bound entries; out_edges,
//     called on every step of a BFS or DFS, then needs no position lookup), at its position
//     otherwise (a small block of a large IR).
//     A dense view keeps them at the position, which is the vertex.
// No adjacency_list, no edge list of the whole block unless asked (edges(), num_edges()).
// Out-edges are ordered by consumer position, then by result; in-edges by operand order (the op's
// own operands first, then its nested ops' in walk order): the same graph on every IR.
//
// @pre `users(g, v)` lists one entry per use (as the reference IR, MLIR and examples/custom_ir
// do), so that out-edges and in-edges agree.
// @pre the IR is not changed while the view (or an iterator from it) lives: the view caches what
// it read. Not thread-safe (the caches fill lazily from const calls).
//
// ADL: Boost calls source, target, out_edges, vertices, num_vertices, get ... unqualified. They
// are found in this namespace, the view's own, which holds nothing else: namespace neuronrw has no
// function of those names (the IR's access functions live in neuronrw::ir), so a call neither
// hides Boost's functions nor is hijacked by ours. A block_view's vertex descriptors are the IR's
// handles (and both views are templates over the IR), so Boost's calls also look in the IR's
// namespace: an IR that defines e.g. its own `out_edges(const T&, ...)` there for its handle type
// would take part in overload resolution.
//
// Customization points: none; any ordered_ir model (concepts/ir.hpp) works unchanged.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <span>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <boost/graph/graph_traits.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/graph/properties.hpp>
#include <boost/property_map/property_map.hpp>

#include <neuronrw/algorithms/ancestry.hpp>
#include <neuronrw/algorithms/walk.hpp>
#include <neuronrw/concepts/ir.hpp>

namespace neuronrw::bgl_view {

/// One def-use edge: `value` (a result of `source`) used by `target` or by an op nested in it.
template <class Op, class Value>
struct use_edge {
  Op source{};
  Op target{};
  Value value{};
  friend bool operator==(const use_edge&, const use_edge&) = default;
};

/// dense_block_view's edge: the same use, its two ends named by their positions in the block.
template <class Value>
struct position_edge {
  std::uint32_t source = 0;
  std::uint32_t target = 0;
  Value value{};
  friend bool operator==(const position_edge&, const position_edge&) = default;
};

template <class G, bool Dense>
class basic_block_view;

/// get(vertex_index, view) of a block_view: the op's position in the block, 0-based.
template <class G>
class position_map : public boost::put_get_helper<std::size_t, position_map<G>> {
 public:
  using key_type = op_handle_t<G>;
  using value_type = std::size_t;
  using reference = std::size_t;
  using category = boost::readable_property_map_tag;

  position_map() = default;
  /// On an indexed IR (O1) the map holds the view's position table itself: a get is then one
  /// load, as a vecS graph's vertex index is none — Boost asks it for every vertex it whitens and
  /// every edge it follows.
  explicit position_map(const basic_block_view<G, false>* v) : view_(v) {
    if constexpr (indexed_ir<G>) {
      g_ = &v->ir();
      table_ = v->position_table();
    }
  }
  std::size_t operator[](const key_type& op) const {
    if constexpr (indexed_ir<G>)
      return table_[ir::op_index(*g_, op)];
    else
      return view_->position(op);
  }

 private:
  const basic_block_view<G, false>* view_ = nullptr;
  const G* g_ = nullptr;                   // indexed_ir only
  const std::uint32_t* table_ = nullptr;  // indexed_ir only: the view's position by op index
};

/// What block_view and dense_block_view share (see the header comment): `Dense` names vertices
/// by block position, otherwise by op handle. Use the two class templates below.
template <class G, bool Dense>
class basic_block_view {
  static_assert(require_ordered_ir<G>());

 public:
  using op = op_handle_t<G>;
  using value = value_handle_t<G>;
  using block = block_handle_t<G>;

  // --- boost::graph_traits reads these
  using vertex_descriptor = std::conditional_t<Dense, std::size_t, op>;
  using edge_descriptor = std::conditional_t<Dense, position_edge<value>, use_edge<op, value>>;
  using directed_category = boost::bidirectional_tag;
  using edge_parallel_category = boost::allow_parallel_edge_tag;
  struct traversal_category : boost::bidirectional_graph_tag,  // (an incidence_graph_tag)
                              boost::vertex_list_graph_tag,
                              boost::edge_list_graph_tag {};
  using vertex_iterator =
      std::conditional_t<Dense, boost::counting_iterator<std::size_t>, typename std::vector<op>::const_iterator>;
  using out_edge_iterator = const edge_descriptor*;
  using in_edge_iterator = out_edge_iterator;
  using vertices_size_type = std::size_t;
  using edges_size_type = std::size_t;
  using degree_size_type = std::size_t;
  class edge_iterator;
  static vertex_descriptor null_vertex() {
    if constexpr (Dense)
      return static_cast<std::size_t>(-1);
    else
      return ir::null_op<G>();
  }

  /// A dense view numbers the block's ops here (O(block)); a block_view on first need.
  basic_block_view(const G& g, block b) : g_(&g), block_(b) {
    if constexpr (Dense) index();
  }

  const G& ir() const noexcept { return *g_; }
  block ir_block() const noexcept { return block_; }

  /// The ops of the block, in order.
  const std::vector<op>& ops() const {
    index();
    return ops_;
  }
  /// The position of op `o` in the block. @pre `o` is an op of the block. O(1) after the first call.
  std::size_t position(op o) const {
    if (!indexed_) [[unlikely]]
      index();
    if constexpr (indexed_ir<G>) {
      return pos_by_index_[ir::op_index(*g_, o)];
    } else {
      return pos_by_handle_.find(o)->second;
    }
  }
  /// The position of each op by op index (indexed_ir only; entries of other ops are 0). Valid
  /// for the life of the view.
  const std::uint32_t* position_table() const
    requires indexed_ir<G>
  {
    index();
    return pos_by_index_.data();
  }
  /// The out-edges of vertex `u`: ordered by consumer position, then by result.
  /// @pre `u` is a vertex of the view (an op of the block; a dense view: a position < its size).
  std::span<const edge_descriptor> out_edge_list(vertex_descriptor u) const {
    const std::size_t p = slot_of(u);
    if (out_[p].first == nullptr) [[unlikely]] out_[p] = store(make_out_edges(u));
    return {out_[p].first, out_[p].last};
  }
  /// The in-edges of vertex `u`: its own operands first, then its nested ops' in walk order.
  /// @pre as out_edge_list.
  std::span<const edge_descriptor> in_edge_list(vertex_descriptor u) const {
    const std::size_t p = slot_of(u);
    if (in_[p].first == nullptr) [[unlikely]] in_[p] = store(make_in_edges(u));
    return {in_[p].first, in_[p].last};
  }

  /// Every edge: the vertices in order, the out-edges of each.
  class edge_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = edge_descriptor;
    using difference_type = std::ptrdiff_t;
    using pointer = const edge_descriptor*;
    using reference = const edge_descriptor&;

    edge_iterator() = default;
    edge_iterator(const basic_block_view* v, std::size_t vertex) : view_(v), vertex_(vertex) { settle(); }
    reference operator*() const { return current()[edge_]; }
    pointer operator->() const { return &current()[edge_]; }
    edge_iterator& operator++() {
      ++edge_;
      settle();
      return *this;
    }
    edge_iterator operator++(int) {
      edge_iterator t = *this;
      ++*this;
      return t;
    }
    friend bool operator==(const edge_iterator& a, const edge_iterator& b) {
      return a.vertex_ == b.vertex_ && a.edge_ == b.edge_;
    }

   private:
    std::span<const edge_descriptor> current() const { return view_->out_edge_list(view_->vertex_at(vertex_)); }
    void settle() {  // skip to the next edge, or to the end (vertex_ == number of ops, edge_ 0)
      const std::size_t n = view_->ops().size();
      while (vertex_ < n && edge_ == current().size()) {
        ++vertex_;
        edge_ = 0;
      }
    }
    const basic_block_view* view_ = nullptr;
    std::size_t vertex_ = 0;
    std::size_t edge_ = 0;
  };

 private:
  /// One vertex's edge list: a slice of the pool, [first, last); first == nullptr: not built
  /// yet (an empty list points at `no_edges_`).
  struct edge_slot {
    const edge_descriptor* first = nullptr;
    const edge_descriptor* last = nullptr;
  };

  void index() const {
    if (indexed_) return;
    indexed_ = true;
    for (auto&& o : ir::ops(*g_, block_)) ops_.push_back(o);
    if constexpr (indexed_ir<G>) {
      pos_by_index_.assign(ir::op_index_bound(*g_), 0);
      for (std::size_t i = 0; i < ops_.size(); ++i)
        pos_by_index_[ir::op_index(*g_, ops_[i])] = static_cast<std::uint32_t>(i);
      // Slots at the op index cost 32 bytes per op of the IR: worth it when the block holds a
      // good part of the IR (a function's body), not for a small nested block of a large one.
      slots_by_index_ = !Dense && ops_.size() * slot_share >= pos_by_index_.size();
    } else {
      pos_by_handle_.reserve(ops_.size());
      for (std::size_t i = 0; i < ops_.size(); ++i) pos_by_handle_.emplace(ops_[i], i);
    }
    out_.resize(slot_bound());
    in_.resize(slot_bound());
  }

  vertex_descriptor vertex_at(std::size_t i) const {
    if constexpr (Dense)
      return i;
    else
      return ops_[i];
  }
  op op_of(vertex_descriptor u) const {
    if constexpr (Dense)
      return ops_[u];
    else
      return u;
  }

  /// A dense view's vertex is its position; a block_view does not need it (0).
  static std::size_t dense_position([[maybe_unused]] const vertex_descriptor& u) {
    if constexpr (Dense)
      return u;
    else
      return 0;
  }

  // Where a vertex's edge lists are kept: a dense view's at its position (the vertex itself);
  // a block_view's at its op index when the IR has one and the block holds at least
  // 1/slot_share of its ops (no position lookup on the way to an out-edge list: out_edges is on
  // every BFS/DFS step), at its position otherwise (the slots then cost 32 bytes per op of the
  // block, not of the IR).
  static constexpr std::size_t slot_share = 4;
  std::size_t slot_of(vertex_descriptor u) const {
    if constexpr (Dense) {
      return u;
    } else if constexpr (indexed_ir<G>) {
      if (!indexed_) [[unlikely]]
        index();
      const std::size_t k = ir::op_index(*g_, u);
      return slots_by_index_ ? k : pos_by_index_[k];
    } else {
      return position(u);
    }
  }
  std::size_t slot_bound() const { return slots_by_index_ ? pos_by_index_.size() : ops_.size(); }

  /// The edge from `from` (at position `from_pos`; a block_view does not need it) to `to`.
  static edge_descriptor make_edge(op from, std::size_t from_pos, op to, std::size_t to_pos, value v) {
    if constexpr (Dense)
      return {static_cast<std::uint32_t>(from_pos), static_cast<std::uint32_t>(to_pos), v};
    else
      return {from, to, v};
  }

  /// Copies `es` to the pool; the slot stays valid for the life of the view.
  edge_slot store(const std::vector<edge_descriptor>& es) const {
    edge_slot slot;
    if (es.empty()) {
      slot.first = slot.last = &no_edges_;
      return slot;
    }
    if (es.size() > room_) {  // a new chunk, twice the last (up to 64K edges), or just this list
      const std::size_t size = std::max(es.size(), next_chunk_);
      next_chunk_ = std::min<std::size_t>(next_chunk_ * 2, std::size_t{1} << 16);
      chunks_.push_back(std::make_unique<edge_descriptor[]>(size));
      free_ = chunks_.back().get();
      room_ = size;
    }
    slot.first = free_;
    free_ = std::copy(es.begin(), es.end(), free_);
    slot.last = free_;
    room_ -= es.size();
    return slot;
  }

  /// Built in reused scratch vectors: no allocation per vertex once they have grown.
  const std::vector<edge_descriptor>& make_out_edges(vertex_descriptor u) const {
    const op o = op_of(u);
    const std::size_t o_pos = dense_position(u);
    auto& es = keyed_scratch_;
    es.clear();
    std::uint32_t result = 0;
    for (auto&& r : ir::results(*g_, o)) {
      for (auto&& user : ir::users(*g_, r)) {
        const op a = ancestor_in_block(*g_, op(user), block_);
        if (a == ir::null_op<G>() || a == o) continue;
        const std::size_t a_pos = position(a);
        es.push_back({static_cast<std::uint32_t>(a_pos), result, make_edge(o, o_pos, a, a_pos, value(r))});
      }
      ++result;
    }
    // Equal keys are equal edges (same source, target and value), so an unstable sort gives the
    // same list as a stable one.
    std::sort(es.begin(), es.end(), [](const keyed& x, const keyed& y) {
      return x.target_pos != y.target_pos ? x.target_pos < y.target_pos : x.result < y.result;
    });
    auto& out = edge_scratch_;
    out.clear();
    for (auto& k : es) out.push_back(k.e);
    return out;
  }

  const std::vector<edge_descriptor>& make_in_edges(vertex_descriptor u) const {
    const op o = op_of(u);
    const std::size_t o_pos = dense_position(u);
    auto& in = edge_scratch_;
    in.clear();
    auto add_uses_of = [&](const op& user) {
      for (auto&& v : ir::operands(*g_, user)) {
        const op d = ir::defining_op(*g_, value(v));
        if (d == ir::null_op<G>() || d == o || !(ir::block_of(*g_, d) == block_)) continue;
        in.push_back(make_edge(d, Dense ? position(d) : 0, o, o_pos, value(v)));
      }
    };
    add_uses_of(o);
    walk_inside(*g_, o, add_uses_of);
    return in;
  }

  struct keyed {
    std::uint32_t target_pos, result;
    edge_descriptor e;
  };

  const G* g_;
  block block_;
  mutable bool indexed_ = false;
  mutable bool slots_by_index_ = false;  // block_view on an indexed_ir: out_/in_ at op indices (see slot_of)
  mutable std::vector<op> ops_;
  mutable std::vector<std::uint32_t> pos_by_index_;                        // indexed_ir
  mutable std::unordered_map<op, std::size_t, handle_hash<op>> pos_by_handle_;  // otherwise
  mutable std::vector<edge_slot> out_, in_;
  static inline const edge_descriptor no_edges_{};  // where an empty list points
  // The edge pool: chunks never move, so slots and iterators stay valid.
  mutable std::vector<std::unique_ptr<edge_descriptor[]>> chunks_;
  mutable edge_descriptor* free_ = nullptr;
  mutable std::size_t room_ = 0, next_chunk_ = 256;
  mutable std::vector<keyed> keyed_scratch_;
  mutable std::vector<edge_descriptor> edge_scratch_;
};

/// The Boost.Graph view of one block of `G`, vertex = op handle (see the header comment). Holds
/// a reference to the IR.
template <class G>
class block_view : public basic_block_view<G, false> {
 public:
  using basic_block_view<G, false>::basic_block_view;
};

template <class G, class B>
block_view(const G&, B) -> block_view<G>;

/// The Boost.Graph view of one block of `G`, vertex = the op's position in the block (0 .. n-1,
/// as adjacency_list<vecS, vecS> numbers its vertices; see the header comment). Holds a
/// reference to the IR.
template <class G>
class dense_block_view : public basic_block_view<G, true> {
 public:
  using basic_block_view<G, true>::basic_block_view;

  /// The op at position `v`. @pre v < num_vertices(view).
  op_handle_t<G> op_at(std::size_t v) const { return this->ops()[v]; }
  /// The vertex of op `o`: its position. @pre `o` is an op of the block.
  std::size_t vertex_of(const op_handle_t<G>& o) const { return this->position(o); }
};

template <class G, class B>
dense_block_view(const G&, B) -> dense_block_view<G>;

// ------------------------------------------------------------------- the Boost.Graph functions
// (found by ADL on the views and their edges; see the header comment)

template <class G, bool D>
std::pair<typename basic_block_view<G, D>::vertex_iterator, typename basic_block_view<G, D>::vertex_iterator>
vertices(const basic_block_view<G, D>& v) {
  if constexpr (D)
    return {boost::counting_iterator<std::size_t>(0), boost::counting_iterator<std::size_t>(v.ops().size())};
  else
    return {v.ops().begin(), v.ops().end()};
}
template <class G, bool D>
std::size_t num_vertices(const basic_block_view<G, D>& v) {
  return v.ops().size();
}

template <class G, bool D>
typename basic_block_view<G, D>::vertex_descriptor source(const typename basic_block_view<G, D>::edge_descriptor& e,
                                                          const basic_block_view<G, D>&) {
  return e.source;
}
template <class G, bool D>
typename basic_block_view<G, D>::vertex_descriptor target(const typename basic_block_view<G, D>::edge_descriptor& e,
                                                          const basic_block_view<G, D>&) {
  return e.target;
}

template <class G, bool D>
std::pair<typename basic_block_view<G, D>::out_edge_iterator, typename basic_block_view<G, D>::out_edge_iterator>
out_edges(const typename basic_block_view<G, D>::vertex_descriptor& u, const basic_block_view<G, D>& v) {
  const auto es = v.out_edge_list(u);
  return {es.data(), es.data() + es.size()};
}
template <class G, bool D>
std::size_t out_degree(const typename basic_block_view<G, D>::vertex_descriptor& u, const basic_block_view<G, D>& v) {
  return v.out_edge_list(u).size();
}
template <class G, bool D>
std::pair<typename basic_block_view<G, D>::in_edge_iterator, typename basic_block_view<G, D>::in_edge_iterator>
in_edges(const typename basic_block_view<G, D>::vertex_descriptor& u, const basic_block_view<G, D>& v) {
  const auto es = v.in_edge_list(u);
  return {es.data(), es.data() + es.size()};
}
template <class G, bool D>
std::size_t in_degree(const typename basic_block_view<G, D>::vertex_descriptor& u, const basic_block_view<G, D>& v) {
  return v.in_edge_list(u).size();
}
template <class G, bool D>
std::size_t degree(const typename basic_block_view<G, D>::vertex_descriptor& u, const basic_block_view<G, D>& v) {
  return v.in_edge_list(u).size() + v.out_edge_list(u).size();
}

template <class G, bool D>
std::pair<typename basic_block_view<G, D>::edge_iterator, typename basic_block_view<G, D>::edge_iterator> edges(
    const basic_block_view<G, D>& v) {
  using it = typename basic_block_view<G, D>::edge_iterator;
  return {it(&v, 0), it(&v, v.ops().size())};
}
template <class G, bool D>
std::size_t num_edges(const basic_block_view<G, D>& v) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < v.ops().size(); ++i) {
    if constexpr (D)
      n += v.out_edge_list(i).size();
    else
      n += v.out_edge_list(v.ops()[i]).size();
  }
  return n;
}

/// A block_view's vertex index: the op's position (position_map); a dense view's: the vertex
/// itself.
template <class G>
position_map<G> get(boost::vertex_index_t, const basic_block_view<G, false>& v) {
  return position_map<G>(&v);
}
template <class G>
boost::typed_identity_property_map<std::size_t> get(boost::vertex_index_t, const basic_block_view<G, true>&) {
  return {};
}
template <class G, bool D>
std::size_t get(boost::vertex_index_t, const basic_block_view<G, D>& v,
                const typename basic_block_view<G, D>::vertex_descriptor& u) {
  if constexpr (D)
    return u;
  else
    return v.position(u);
}

}  // namespace neuronrw::bgl_view

namespace boost {
template <class G, bool D>
struct property_map<neuronrw::bgl_view::basic_block_view<G, D>, vertex_index_t> {
  using type = std::conditional_t<D, typed_identity_property_map<std::size_t>, neuronrw::bgl_view::position_map<G>>;
  using const_type = type;
};
template <class G>
struct property_map<neuronrw::bgl_view::block_view<G>, vertex_index_t>
    : property_map<neuronrw::bgl_view::basic_block_view<G, false>, vertex_index_t> {};
template <class G>
struct property_map<neuronrw::bgl_view::dense_block_view<G>, vertex_index_t>
    : property_map<neuronrw::bgl_view::basic_block_view<G, true>, vertex_index_t> {};
}  // namespace boost
