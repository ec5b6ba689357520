// neuronrw/adapters/boost_graph.hpp — a user's Boost.Graph dataflow graph as a neuronrw IR
// (the first direction; adapters/boost_graph_view.hpp is the other): `neuronrw::bgl::dataflow_graph` makes a graph whose vertices are ops
// and whose edges are def-use links model read_ir, ordered_ir and reschedulable_ir, so the
// dependence walk, the convexity check and the dominance repair (include/neuronrw/algorithms/)
// run on it unchanged.
//
// Opt-in: nothing else in neuronrw includes Boost.Graph. Needs the Boost.Graph headers only.
//
// The model:
//   op        a vertex (op_handle = the graph's vertex_descriptor, null_op = null_vertex())
//   value     (vertex, result index): result `r` of op `v` (value_handle = bgl::value<vertex>)
//   def-use   an edge. `producer_to_consumer` (the default): an edge p → c says c uses a result
//             of p; `consumer_to_producer`: an edge c → p says the same. The result index is
//             read from an edge property map the user names (default: every edge carries
//             result 0, one result per op).
//   kind      a vertex property map whose values convert to kind_id
//             (e.g. kind_id_v<kinds::all_gather>).
//   block     optional vertex property map (any ordered value type): ops with equal values
//             share a block; blocks are numbered 0, 1, ... in increasing value. Default: one
//             block holding every vertex. The graph is flat: no op has regions, parent_op is
//             null, there are no block arguments.
//   position  a vertex property map (any ordered value type) giving each op's place in its
//             block; ties are broken by the order of boost::vertices(g). The block order must
//             respect dominance (producers before users), as for any IR the algorithms run on.
//
// Works for any adjacency_list (vecS, listS, ... vertex storage; directedS or bidirectionalS)
// and other graphs with the same interface (e.g. boost::reverse_graph, which turns one edge
// direction into the other). On a bidirectional graph both operands and users come straight
// from the graph (in_edges for one of them). On a directed graph the adapter builds, once, the
// edges of the missing direction as a flat array (O(V + E)).
// Operand order (what an algorithm reports "first" among several operands, e.g. a repair's
// `dependence`): the graph's edge order — out_edges or in_edges of the op — except on a directed
// graph with producer → consumer edges, where it is the order of vertices(g), then out_edges.
//
// Order and moves: positions are read once, at construction, into an order_maintenance
// structure (include/neuronrw/algorithms/order.hpp, the reference IR's), so is_before_in_block
// is O(1) and move_before / move_after are O(1) amortized. Moves update the position property
// by writing 0, 1, 2, ... back over the blocks they changed: `sync_positions()` does it at any
// time (O(ops of the changed blocks)), and the destructor does it when the position map is
// writable (a boost::writable_property_map_tag category, like bundled properties).
//
// Optional capabilities: op_index (O1) — the vertex index on graphs with integral vertex
// descriptors (vecS), otherwise a dense number given at construction (one hash lookup).
//
// Requirements on the user: the graph's structure (vertices, edges) must not change while a
// dataflow_graph refers to it; property values other than the position may change.
// ADL: this header declares no function named like a Boost.Graph one. The graph's functions
// (out_edges, in_edges, source, target, vertices) are called unqualified and found by ADL when
// the template is instantiated, so this header needs no Boost.Graph header but graph_traits and
// works for any graph type, Boost's or the user's; property maps go through `get`/`put` with
// `using boost::get;` in function scope, so user overloads found by ADL still apply.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <ranges>
#include <span>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <boost/graph/graph_traits.hpp>
#include <boost/property_map/property_map.hpp>

#include <neuronrw/algorithms/order.hpp>
#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/descriptors/kinds.hpp>
#include <neuronrw/detail/assert.hpp>

namespace neuronrw::bgl {

/// Edge direction tags: which end of a def-use edge is the producer.
struct producer_to_consumer_t {};
struct consumer_to_producer_t {};
inline constexpr producer_to_consumer_t producer_to_consumer{};
inline constexpr consumer_to_producer_t consumer_to_producer{};

/// Result-index map default: every edge carries result 0 (one result per op).
struct single_result {};
/// Block map default: every vertex lies in block 0.
struct single_block {};

/// A value: result `index` of op `op`.
template <class Vertex>
struct value {
  Vertex op;
  std::uint32_t index = 0;
  friend bool operator==(const value&, const value&) = default;
};

namespace detail {

template <class Map, class Key>
decltype(auto) read(const Map& m, const Key& k) {
  using boost::get;
  return get(m, k);
}

template <class Map, class Key, class V>
void write(Map& m, const Key& k, V&& x) {
  using boost::put;
  put(m, k, std::forward<V>(x));
}

/// A range over [first, last) of some iterator, each element mapped by `Map` (a small functor
/// holding a pointer), optionally skipping the elements for which `Map::keep` is false.
/// Hand-written rather than std::views::transform/filter: Boost's iterators and clang 14's
/// ranges support do not always agree, and this stays trivially copyable.
template <class It, class Map, bool Filter>
class mapped_range : public std::ranges::view_base {
 public:
  class iterator {
   public:
    using value_type = std::remove_cvref_t<std::invoke_result_t<const Map&, std::iter_reference_t<It>>>;
    using difference_type = std::ptrdiff_t;
    using reference = value_type;
    using iterator_category = std::input_iterator_tag;
    using iterator_concept = std::forward_iterator_tag;

    iterator() = default;
    iterator(It cur, It last, Map map) : cur_(cur), last_(last), map_(map) { skip(); }
    value_type operator*() const { return map_(*cur_); }
    iterator& operator++() {
      ++cur_;
      skip();
      return *this;
    }
    iterator operator++(int) {
      iterator t = *this;
      ++*this;
      return t;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.cur_ == b.cur_; }

   private:
    void skip() {
      if constexpr (Filter)
        while (cur_ != last_ && !map_.keep(*cur_)) ++cur_;
    }
    It cur_{};
    It last_{};
    Map map_{};
  };

  mapped_range() = default;
  mapped_range(It first, It last, Map map) : first_(first), last_(last), map_(map) {}
  iterator begin() const { return iterator(first_, last_, map_); }
  iterator end() const { return iterator(last_, last_, map_); }

 private:
  It first_{};
  It last_{};
  Map map_{};
};

/// The results 0 .. count-1 of one op.
template <class Vertex>
class result_range : public std::ranges::view_base {
 public:
  class iterator {
   public:
    using value_type = value<Vertex>;
    using difference_type = std::ptrdiff_t;
    using reference = value_type;
    using iterator_category = std::input_iterator_tag;
    using iterator_concept = std::forward_iterator_tag;
    iterator() = default;
    iterator(Vertex v, std::uint32_t i) : v_(v), i_(i) {}
    value_type operator*() const { return {v_, i_}; }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    iterator operator++(int) {
      iterator t = *this;
      ++i_;
      return t;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.i_ == b.i_; }

   private:
    Vertex v_{};
    std::uint32_t i_ = 0;
  };
  result_range() = default;
  result_range(Vertex v, std::uint32_t count) : v_(v), count_(count) {}
  iterator begin() const { return {v_, 0}; }
  iterator end() const { return {v_, count_}; }

 private:
  Vertex v_{};
  std::uint32_t count_ = 0;
};

template <class BlockMap>
struct block_key {
  using type = typename boost::property_traits<BlockMap>::value_type;
};
template <>
struct block_key<single_block> {
  using type = int;
};

}  // namespace detail

/// A Boost.Graph dataflow graph seen as a neuronrw IR (see the header comment). Holds a
/// reference to the user's graph, copies of the property maps, and the op order.
/// Not copyable or movable: it refers to the graph and writes positions back when destroyed.
template <class Graph, class KindMap, class PositionMap, class Direction = producer_to_consumer_t,
          class ResultIndexMap = single_result, class BlockMap = single_block>
class dataflow_graph {
  using traits = boost::graph_traits<Graph>;
  static constexpr bool from_producer = std::is_same_v<Direction, producer_to_consumer_t>;
  static_assert(from_producer || std::is_same_v<Direction, consumer_to_producer_t>,
                "neuronrw::bgl::dataflow_graph: Direction is producer_to_consumer_t or consumer_to_producer_t");

 public:
  /// True when the graph lists in-edges (operands and users then both come from the graph).
  static constexpr bool bidirectional =
      std::is_convertible_v<typename traits::traversal_category, boost::bidirectional_graph_tag>;
  using graph_type = Graph;
  using vertex = typename traits::vertex_descriptor;
  using edge = typename traits::edge_descriptor;
  using value_handle = value<vertex>;
  using block_handle = order_maintenance::list_id;
  using position_type = typename boost::property_traits<PositionMap>::value_type;
  static constexpr bool dense_vertices = std::is_integral_v<vertex>;

  dataflow_graph(Graph& g, KindMap kinds, PositionMap positions, Direction = {}, ResultIndexMap results = {},
                 BlockMap blocks = {})
      : g_(&g), kinds_(kinds), positions_(positions), results_(results), blocks_(blocks) {
    build_order();
    build_missing_direction();
  }
  dataflow_graph(const dataflow_graph&) = delete;
  dataflow_graph& operator=(const dataflow_graph&) = delete;

  ~dataflow_graph() {
    if constexpr (writable_positions) sync_positions();
  }

  Graph& graph() const noexcept { return *g_; }

  // ---------------------------------------------------------------- read
  static vertex null_vertex() { return traits::null_vertex(); }

  kind_id kind(vertex v) const { return static_cast<kind_id>(detail::read(kinds_, v)); }

  std::uint32_t result_index(const edge& e) const {
    if constexpr (std::is_same_v<ResultIndexMap, single_result>) {
      (void)e;
      return 0;
    } else {
      return static_cast<std::uint32_t>(detail::read(results_, e));
    }
  }

  /// The values op `v` uses, one per def-use edge.
  auto operands(vertex v) const {
    if constexpr (from_producer && bidirectional) {
      auto [f, l] = in_edges(v, *g_);
      return detail::mapped_range<decltype(f), edge_to_value<false>, false>(f, l, {this});
    } else if constexpr (from_producer) {
      return missing_range<link_to_value>(v, {this, 0});
    } else {
      auto [f, l] = out_edges(v, *g_);
      return detail::mapped_range<decltype(f), edge_to_value<true>, false>(f, l, {this});
    }
  }

  /// The ops using value `x`, one per def-use edge.
  auto users(value_handle x) const {
    if constexpr (from_producer) {
      auto [f, l] = out_edges(x.op, *g_);
      return detail::mapped_range<decltype(f), edge_to_user<true>, true>(f, l, {this, x.index});
    } else if constexpr (bidirectional) {
      auto [f, l] = in_edges(x.op, *g_);
      return detail::mapped_range<decltype(f), edge_to_user<false>, true>(f, l, {this, x.index});
    } else {
      return missing_range<link_to_user>(x.op, {this, x.index});
    }
  }

  /// Results 0 .. k-1 where k is one more than the largest result index on v's outgoing
  /// def-use edges (at least 1). O(users of v).
  detail::result_range<vertex> results(vertex v) const {
    std::uint32_t count = 1;
    auto bump = [&](std::uint32_t r) { count = std::max(count, r + 1); };
    if constexpr (from_producer) {
      auto [f, l] = out_edges(v, *g_);
      for (; f != l; ++f) bump(result_index(*f));
    } else if constexpr (bidirectional) {
      auto [f, l] = in_edges(v, *g_);
      for (; f != l; ++f) bump(result_index(*f));
    } else {
      const std::uint32_t n = node(v);
      for (std::uint32_t i = missing_offsets_[n]; i < missing_offsets_[n + 1]; ++i) bump(missing_[i].result);
    }
    return {v, count};
  }

  // ---------------------------------------------------------------- ordered
  block_handle block_of(vertex v) const {
    if constexpr (std::is_same_v<BlockMap, single_block>) {
      (void)v;
      return 0;
    } else {
      return order_.list_of(node(v));
    }
  }
  /// The block holding the ops whose block property equals `b`; npos when there is none.
  template <class B>
  block_handle block(const B& b) const {
    if constexpr (std::is_same_v<BlockMap, single_block>) {
      (void)b;
      return 0;
    } else {
      auto it = block_ids_.find(b);
      return it == block_ids_.end() ? order_maintenance::npos : it->second;
    }
  }
  std::size_t block_count() const noexcept { return order_.list_count(); }

  auto ops(block_handle b) const {
    auto nodes = order_.nodes(b);
    return detail::mapped_range<order_maintenance::iterator, node_to_vertex, false>(nodes.begin(), nodes.end(),
                                                                                    {this});
  }
  bool is_before(vertex a, vertex b) const { return order_.is_before(node(a), node(b)); }
  vertex next(vertex v) const { return vertex_at(order_.next(node(v))); }
  vertex prev(vertex v) const { return vertex_at(order_.prev(node(v))); }

  // ---------------------------------------------------------------- reschedulable
  /// O(1) amortized; the position property is written back by sync_positions().
  void move_before(vertex v, vertex anchor) {
    NEURONRW_ASSERT(order_.list_of(node(v)) == order_.list_of(node(anchor)),
                    "neuronrw::bgl::dataflow_graph: moves stay within one block");
    order_.move_before(node(v), node(anchor));
    mark_dirty(node(anchor));
  }
  void move_after(vertex v, vertex anchor) {
    NEURONRW_ASSERT(order_.list_of(node(v)) == order_.list_of(node(anchor)),
                    "neuronrw::bgl::dataflow_graph: moves stay within one block");
    order_.move_after(node(v), node(anchor));
    mark_dirty(node(anchor));
  }

  /// Writes positions 0, 1, 2, ... (in block order) to the position property of every op of
  /// each block a move changed since the last sync. O(ops of those blocks).
  /// @pre the position map is writable.
  void sync_positions() {
    static_assert(writable_positions, "neuronrw::bgl::dataflow_graph: the position map is not writable");
    if (!any_dirty_) return;
    for (block_handle b = 0; b < dirty_.size(); ++b) {
      if (!dirty_[b]) continue;
      dirty_[b] = 0;
      std::size_t i = 0;
      for (auto n : order_.nodes(b)) detail::write(positions_, vertex_of_[n], static_cast<position_type>(i++));
    }
    any_dirty_ = false;
  }

  // ---------------------------------------------------------------- op_index (O1)
  std::size_t op_index(vertex v) const { return node(v); }
  std::size_t op_index_bound() const noexcept { return vertex_of_.size(); }

 private:
  // Writable, and not an lvalue map of const references (e.g. the maps of a
  // boost::reverse_graph<G> over `const G&`, which Boost tags lvalue all the same).
  using position_category = typename boost::property_traits<PositionMap>::category;
  using position_reference = typename boost::property_traits<PositionMap>::reference;
  static constexpr bool writable_positions =
      std::is_convertible_v<position_category, boost::writable_property_map_tag> &&
      (!std::is_convertible_v<position_category, boost::lvalue_property_map_tag> ||
       (std::is_lvalue_reference_v<position_reference> &&
        !std::is_const_v<std::remove_reference_t<position_reference>>));

  // The def-use edges of the direction the graph cannot list (directed graphs only), per node.
  struct link {
    vertex other;
    std::uint32_t result;
  };

  template <bool OtherIsTarget>
  struct edge_to_value {
    const dataflow_graph* d = nullptr;
    value_handle operator()(const edge& e) const {
      return {OtherIsTarget ? target(e, *d->g_) : source(e, *d->g_), d->result_index(e)};
    }
  };
  template <bool OtherIsTarget>
  struct edge_to_user {
    const dataflow_graph* d = nullptr;
    std::uint32_t want = 0;
    vertex operator()(const edge& e) const {
      return OtherIsTarget ? target(e, *d->g_) : source(e, *d->g_);
    }
    bool keep(const edge& e) const { return d->result_index(e) == want; }
  };
  struct link_to_value {
    const dataflow_graph* d = nullptr;
    std::uint32_t want = 0;
    value_handle operator()(const link& l) const { return {l.other, l.result}; }
  };
  struct link_to_user {
    const dataflow_graph* d = nullptr;
    std::uint32_t want = 0;
    vertex operator()(const link& l) const { return l.other; }
    bool keep(const link& l) const { return l.result == want; }
  };
  struct node_to_vertex {
    const dataflow_graph* d = nullptr;
    vertex operator()(order_maintenance::node_id n) const { return d->vertex_of_[n]; }
  };

  template <class Map>
  auto missing_range(vertex v, Map map) const {
    const std::uint32_t n = node(v);
    const link* base = missing_.data();
    constexpr bool filter = std::is_same_v<Map, link_to_user>;
    return detail::mapped_range<const link*, Map, filter>(base + missing_offsets_[n], base + missing_offsets_[n + 1],
                                                          map);
  }

  std::uint32_t node(vertex v) const {
    if constexpr (dense_vertices) {
      return static_cast<std::uint32_t>(v);
    } else {
      auto it = node_of_.find(v);
      NEURONRW_ASSERT(it != node_of_.end(), "neuronrw::bgl::dataflow_graph: a vertex of another graph");
      return it->second;
    }
  }
  vertex vertex_at(order_maintenance::node_id n) const { return n == order_maintenance::npos ? null_vertex() : vertex_of_[n]; }

  void mark_dirty(order_maintenance::node_id n) {
    dirty_[order_.list_of(n)] = 1;
    any_dirty_ = true;
  }

  // Nodes: one per vertex (per possible index on integral descriptors); lists: one per block.
  void build_order() {
    auto [vf, vl] = vertices(*g_);
    std::size_t bound = 0;
    if constexpr (dense_vertices) {
      for (auto it = vf; it != vl; ++it) bound = std::max<std::size_t>(bound, static_cast<std::size_t>(*it) + 1);
      vertex_of_.assign(bound, null_vertex());
      for (auto it = vf; it != vl; ++it) vertex_of_[static_cast<std::size_t>(*it)] = *it;
    } else {
      for (auto it = vf; it != vl; ++it) {
        node_of_.emplace(*it, static_cast<std::uint32_t>(vertex_of_.size()));
        vertex_of_.push_back(*it);
      }
      bound = vertex_of_.size();
    }
    NEURONRW_CHECK(bound < order_maintenance::npos, "neuronrw::bgl::dataflow_graph: more than 2^32 - 1 vertices");
    order_.reserve_nodes(bound);
    for (std::size_t i = 0; i < bound; ++i) order_.add_node();

    struct entry {
      block_handle block;
      position_type pos;
      std::uint32_t rank;  // vertices(g) order, the tie-break
      std::uint32_t node;
    };
    std::vector<entry> entries;
    std::uint32_t rank = 0;
    if constexpr (std::is_same_v<BlockMap, single_block>) {
      order_.create_list();
      for (auto it = vf; it != vl; ++it) entries.push_back({0, detail::read(positions_, *it), rank++, node(*it)});
    } else {
      for (auto it = vf; it != vl; ++it) block_ids_.emplace(detail::read(blocks_, *it), 0);
      for (auto& [b, id] : block_ids_) id = order_.create_list();
      for (auto it = vf; it != vl; ++it)
        entries.push_back({block_ids_.find(detail::read(blocks_, *it))->second, detail::read(positions_, *it), rank++,
                           node(*it)});
    }
    std::sort(entries.begin(), entries.end(), [](const entry& a, const entry& b) {
      if (a.block != b.block) return a.block < b.block;
      if (a.pos < b.pos) return true;
      if (b.pos < a.pos) return false;
      return a.rank < b.rank;
    });
    for (const entry& e : entries) order_.push_back(e.block, e.node);
    dirty_.assign(order_.list_count(), 0);
  }

  // Directed graphs: the def-use edges of the direction out_edges cannot give, as a CSR array
  // indexed by node (operands when edges point producer → consumer, users otherwise).
  void build_missing_direction() {
    if constexpr (!bidirectional) {
      const std::size_t n = vertex_of_.size();
      missing_offsets_.assign(n + 1, 0);
      auto [vf, vl] = vertices(*g_);
      for (auto it = vf; it != vl; ++it) {
        auto [ef, el] = out_edges(*it, *g_);
        for (; ef != el; ++ef) ++missing_offsets_[node(target(*ef, *g_)) + 1];
      }
      for (std::size_t i = 0; i < n; ++i) missing_offsets_[i + 1] += missing_offsets_[i];
      std::vector<std::uint32_t> fill(missing_offsets_.begin(), missing_offsets_.end() - 1);
      missing_.resize(missing_offsets_[n]);
      for (auto it = vf; it != vl; ++it) {
        auto [ef, el] = out_edges(*it, *g_);
        for (; ef != el; ++ef) missing_[fill[node(target(*ef, *g_))]++] = link{*it, result_index(*ef)};
      }
    }
  }

  Graph* g_;
  KindMap kinds_;
  PositionMap positions_;
  [[no_unique_address]] ResultIndexMap results_;
  [[no_unique_address]] BlockMap blocks_;
  order_maintenance order_;
  std::vector<vertex> vertex_of_;                       // node id → vertex
  std::unordered_map<vertex, std::uint32_t> node_of_;   // vertex → node id (non-integral vertices)
  std::map<typename detail::block_key<BlockMap>::type, block_handle, std::less<>> block_ids_;
  std::vector<std::uint8_t> dirty_;  // per block: moved since the last sync
  bool any_dirty_ = false;
  std::vector<std::uint32_t> missing_offsets_;
  std::vector<link> missing_;
};

}  // namespace neuronrw::bgl

template <class V>
struct neuronrw::handle_hash<neuronrw::bgl::value<V>> {
  std::size_t operator()(const neuronrw::bgl::value<V>& x) const noexcept {
    return std::hash<V>{}(x.op) * 31u + x.index;
  }
};

template <class Graph, class K, class P, class D, class R, class B>
struct neuronrw::ir_traits<neuronrw::bgl::dataflow_graph<Graph, K, P, D, R, B>> {
  using G = bgl::dataflow_graph<Graph, K, P, D, R, B>;
  using op_handle = typename G::vertex;
  using value_handle = typename G::value_handle;
  using block_handle = typename G::block_handle;

  // read
  static op_handle null_op() { return G::null_vertex(); }
  static kind_id kind(const G& g, op_handle o) { return g.kind(o); }
  static auto operands(const G& g, op_handle o) { return g.operands(o); }
  static op_handle defining_op(const G&, value_handle v) { return v.op; }
  static auto users(const G& g, value_handle v) { return g.users(v); }
  static auto results(const G& g, op_handle o) { return g.results(o); }
  static op_handle parent_op(const G&, op_handle) { return null_op(); }

  // ordered
  static block_handle block_of(const G& g, op_handle o) { return g.block_of(o); }
  static auto ops(const G& g, block_handle b) { return g.ops(b); }
  static bool is_before_in_block(const G& g, op_handle a, op_handle b) { return g.is_before(a, b); }
  static op_handle next_op(const G& g, op_handle o) { return g.next(o); }
  static op_handle prev_op(const G& g, op_handle o) { return g.prev(o); }
  /// A flat graph: no op has regions.
  static std::span<const block_handle> regions(const G&, op_handle) noexcept { return {}; }

  // reschedulable
  static void move_before(G& g, op_handle o, op_handle anchor) { g.move_before(o, anchor); }
  static void move_after(G& g, op_handle o, op_handle anchor) { g.move_after(o, anchor); }

  // optional: dense numbering
  static std::size_t op_index(const G& g, op_handle o) { return g.op_index(o); }
  static std::size_t op_index_bound(const G& g) { return g.op_index_bound(); }
};
