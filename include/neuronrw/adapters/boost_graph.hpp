// neuronrw/adapters/boost_graph.hpp — a user's Boost.Graph dataflow graph as a neuronrw IR
// (the first direction; adapters/boost_graph_view.hpp is the other): `neuronrw::bgl::dataflow_graph` makes a graph whose vertices are ops
// and whose edges are def-use links model read_ir, ordered_ir and reschedulable_ir, so the
// dependence walk, the convexity check, the dominance repair (include/neuronrw/algorithms/) and
// ScheduleFusion's planning run on it unchanged; given a grouping callback it also models
// groupable_ir, and ScheduleFusion applies (docs/boost-graph.md).
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
//             (e.g. kind_id_v<kinds::all_gather>), or kinds_from_names(name_map): op-name
//             strings through op_name_kind / kind_map::lookup (`all-gather`, `AllGather`,
//             `mhlo.all_gather` → all_gather; descriptors/kind_names.hpp).
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
// Operand order (what an algorithm reports "first" among several operands: ScheduleFusion's
// producer, a repair's `dependence`): with an operand-number edge map (operand_numbers{m}),
// increasing operand number (each op's list sorted once, at construction); otherwise the graph's
// edge order — out_edges or in_edges of the op — except on a directed graph with producer →
// consumer edges, where it is the order of vertices(g), then out_edges.
//
// Order and moves: positions are read once, at construction, into an order_maintenance
// structure (include/neuronrw/algorithms/order.hpp, the reference IR's), so is_before_in_block
// is O(1) and move_before / move_after are O(1) amortized. Moves update the position property
// through the write-back policy (position_policy: dense 0, 1, 2 ... — the default —, strided
// 0, k, 2k ..., or between: only moved ops, between their unmoved neighbours' slots, falling back
// to strided when there is no room) over the blocks they changed: `sync_positions()` does it at
// any time (O(ops of the changed blocks)), and the destructor does it when the position map is
// writable (a boost::writable_property_map_tag category, like bundled properties).
//
// Grouping (requirements 14, 15; docs/boost-graph.md §"Grouping"): the user's callback
// `vertex f(Graph&, const group_contraction<vertex>&)` turns a cluster into one new vertex (the
// contraction lists the edges it needs; contract_vertices is a ready one for MutableGraphs) and
// returns it; the adapter then puts it in the first member's place, drops the members from its
// order and numbering, and re-reads the cached edges of it and its neighbours. string_attribute:
// the user's attribute reader, else the attrs of the group_ops request that made the vertex.
// No outlinable_ir: a flat graph has no functions or regions to outline into.
//
// Optional capabilities: op_index (O1) — the vertex index on graphs with integral vertex
// descriptors (vecS), otherwise a dense number given at construction (one hash lookup); a
// grouping vertex gets a fresh number. block_arguments (O4): none, the graph is flat. Without an
// operand-number map, unordered_operands (O9): operand order is edge order, which a grouping
// changes, so the rewrite check compares operands as multisets.
// Checked rewrites: apply_checked (passes/schedule_fusion/checked.hpp) checks a contraction
// with the flat form of the ScheduleFusion check (validate/schedule_fusion.hpp): the grouping
// vertex's operands stand for the live-ins, its results for the live-outs, the members are gone.
//
// Naming it: make_dataflow_graph(g, kinds, positions, options...) (property maps or bundled
// member pointers; options in any order) and dataflow_graph_t<Graph, Args...>, its type.
// Copies: move-constructible (the moved-from adapter refers to no graph and writes nothing
// back), neither copyable nor assignable — two adapters over one graph would each write their
// own order back to the same position property, and a grouping through one would leave the
// other describing vertices that no longer exist.
//
// Requirements on the user: the graph's structure (vertices, edges) must not change while a
// dataflow_graph refers to it, except through its grouping callback; property values other than
// the position may change.
// ADL: this header declares no function named like a Boost.Graph one. The graph's functions
// (out_edges, in_edges, source, target, vertices; add_vertex, add_edge, clear_vertex,
// remove_vertex in contract_vertices) are called unqualified and found by ADL when the template
// is instantiated, so this header needs no Boost.Graph header but graph_traits and works for any
// graph type, Boost's or the user's; property maps go through `get`/`put` with `using boost::get;`
// in function scope, so user overloads found by ADL still apply.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include <boost/graph/graph_traits.hpp>
#include <boost/property_map/property_map.hpp>

#include <neuronrw/algorithms/order.hpp>
#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/concepts/attribute.hpp>
#include <neuronrw/descriptors/kind_names.hpp>
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

/// An op name as a string_view: std::string, std::string_view, const char* (null: "").
inline std::string_view as_name(std::string_view s) noexcept { return s; }
inline std::string_view as_name(const char* s) noexcept { return s ? std::string_view(s) : std::string_view(); }
inline std::string_view as_name(const std::string& s) noexcept { return s; }

template <class BlockMap>
struct block_key {
  using type = typename boost::property_traits<BlockMap>::value_type;
};
template <>
struct block_key<single_block> {
  using type = int;
};

}  // namespace detail

// ------------------------------------------------------------------------------ kinds from names

/// A readable property map: vertex → kind_id, from a vertex property map of op-name strings
/// (std::string, std::string_view or const char*; a null const char* reads as ""). The kind is
/// `table->lookup(name)` when a kind_map is given, else `op_name_kind(name)`: XLA's `all-gather`,
/// `AllGather`, `all_gather`, `mhlo.all_gather` are all kinds::all_gather (the rule:
/// descriptors/kind_names.hpp). Made by kinds_from_names. Holds a copy of the name map and a
/// pointer to the table: the table must outlive every copy of the map (and the adapter holding it).
template <class NameMap>
class names_kind_map {
 public:
  using key_type = typename boost::property_traits<NameMap>::key_type;
  using value_type = kind_id;
  using reference = kind_id;
  using category = boost::readable_property_map_tag;

  names_kind_map() = default;
  explicit names_kind_map(NameMap names, const kind_map* table = nullptr) : names_(names), table_(table) {}

  /// The kind of the op named `name` (what get() answers for a vertex with that name).
  kind_id kind_of(std::string_view name) const noexcept { return table_ ? table_->lookup(name) : op_name_kind(name); }
  const NameMap& names() const noexcept { return names_; }
  const kind_map* table() const noexcept { return table_; }

  friend kind_id get(const names_kind_map& m, const key_type& k) {
    return m.kind_of(detail::as_name(detail::read(m.names_, k)));
  }

 private:
  NameMap names_{};
  const kind_map* table_ = nullptr;
};

/// The kind map of a graph whose ops carry their names: `kinds_from_names(boost::get(&op::name, g))`.
template <class NameMap>
names_kind_map<NameMap> kinds_from_names(NameMap names) {
  return names_kind_map<NameMap>(names);
}
/// The same through a run-time table (a kinds file): names it lists take its kind, the others
/// the built-in rule. `table` must outlive the map.
template <class NameMap>
names_kind_map<NameMap> kinds_from_names(NameMap names, const kind_map& table) {
  return names_kind_map<NameMap>(names, &table);
}

// ------------------------------------------------------------------------------ write-back

/// How moves (and groupings) are written back to the position property (sync_positions and the
/// destructor). Only blocks a move or a grouping changed are written.
///   dense()        0, 1, 2, ... over the changed block (the default; any position type).
///   strided(k)     0, k, 2k, ... over the changed block.
///   between(k)     only the moved ops (and new grouping vertices) get a new slot, strictly
///                  between the slots of their unmoved neighbours, evenly spread; a run before the
///                  first unmoved op counts down from its slot by k, after the last one counts up
///                  by k. When a gap has no room (integral slots closer than the run needs, or a
///                  slot would leave the position type's range), or no op of the block stayed
///                  put, the whole block is renumbered as strided(k).
/// strided and between need an arithmetic position type (integral slots are computed in
/// long long, floating ones in long double).
struct position_policy {
  enum class mode : std::uint8_t { dense, strided, between };
  mode how = mode::dense;
  long long stride = 1;
  static constexpr position_policy dense() noexcept { return {mode::dense, 1}; }
  static constexpr position_policy strided(long long k) noexcept { return {mode::strided, k}; }
  static constexpr position_policy between(long long k) noexcept { return {mode::between, k}; }
  friend constexpr bool operator==(const position_policy&, const position_policy&) = default;
};

// ------------------------------------------------------------------------------ grouping

/// Operand-number map default: operands come in the graph's edge order (see the header comment).
struct edge_order {};
/// Grouping default: the adapter cannot group (it models reschedulable_ir, not groupable_ir).
struct no_grouping {};
/// Attribute-reader default: string_attribute answers from the attributes of the groups this
/// adapter made (the group_request's `attrs`), nothing else.
struct no_attributes {};

/// One def-use edge the grouping vertex must get. In `inputs` the consumer is null_vertex()
/// (it stands for the new vertex): the new vertex uses result `result` of `producer` as its
/// operand number `operand` (the live-in's index). In `outputs` the producer is null_vertex():
/// `consumer` uses result `result` of the new vertex (the live-out's index) as its operand
/// number `operand` (the number the replaced use had).
template <class Vertex>
struct group_edge {
  Vertex producer;
  Vertex consumer;
  std::uint32_t result = 0;
  std::uint32_t operand = 0;
};

/// What the grouping callback receives: the request (requirement 14: ops contiguous, in block
/// order, one block; live_ins, live_outs, op_name, terminator_name, attrs), and the edges that
/// give the grouping vertex the request's meaning, worked out by the adapter.
template <class Vertex>
struct group_contraction {
  const group_request<Vertex, value<Vertex>>& request;
  std::span<const group_edge<Vertex>> inputs;   ///< one per live-in, in order
  std::span<const group_edge<Vertex>> outputs;  ///< one per use of a live-out outside the run
  bool producer_to_consumer = true;             ///< the graph's edge direction
  Vertex null_vertex;
  /// The graph edge's source and target for `e` once the new vertex is `w` (oriented as the
  /// adapter's Direction says).
  std::pair<Vertex, Vertex> endpoints(const group_edge<Vertex>& e, Vertex w) const {
    const Vertex p = e.producer == null_vertex ? w : e.producer;
    const Vertex c = e.consumer == null_vertex ? w : e.consumer;
    return producer_to_consumer ? std::pair{p, c} : std::pair{c, p};
  }
};

/// A ready grouping callback for a MutableGraph: adds one vertex with the bundle
/// `make_vertex(request)`, one edge per group_edge with the bundle `make_edge(result, operand)`,
/// then clears the members' edges and removes them (`remove_vertex`) — except on graphs with
/// integral vertex descriptors (vecS), where removing a vertex renumbers the later ones: there
/// the members stay as isolated vertices, outside every block of the adapter.
template <class MakeVertex, class MakeEdge>
struct contract_vertices {
  MakeVertex make_vertex;
  MakeEdge make_edge;
  template <class Graph, class Vertex>
  Vertex operator()(Graph& g, const group_contraction<Vertex>& c) const {
    const Vertex w = add_vertex(make_vertex(c.request), g);
    for (const auto& list : {c.inputs, c.outputs})
      for (const auto& e : list) {
        const auto [from, to] = c.endpoints(e, w);
        add_edge(from, to, make_edge(e.result, e.operand), g);
      }
    for (const Vertex m : c.request.ops) {
      clear_vertex(m, g);
      if constexpr (!std::is_integral_v<Vertex>) remove_vertex(m, g);
    }
    return w;
  }
};
template <class MakeVertex, class MakeEdge>
contract_vertices(MakeVertex, MakeEdge) -> contract_vertices<MakeVertex, MakeEdge>;

// ------------------------------------------------------------------------------ the adapter

/// A Boost.Graph dataflow graph seen as a neuronrw IR (see the header comment). Holds a
/// pointer to the user's graph, copies of the property maps and callbacks, and the op order.
/// Move-constructible, neither copyable nor assignable (see the header comment, "Copies").
template <class Graph, class KindMap, class PositionMap, class Direction = producer_to_consumer_t,
          class ResultIndexMap = single_result, class BlockMap = single_block, class OperandIndexMap = edge_order,
          class Grouper = no_grouping, class AttributeReader = no_attributes>
class dataflow_graph {
  using traits = boost::graph_traits<Graph>;
  static constexpr bool from_producer = std::is_same_v<Direction, producer_to_consumer_t>;
  static_assert(from_producer || std::is_same_v<Direction, consumer_to_producer_t>,
                "neuronrw::bgl::dataflow_graph: Direction is producer_to_consumer_t or consumer_to_producer_t");

 public:
  /// True when the graph lists in-edges (operands and users then both come from the graph).
  static constexpr bool bidirectional =
      std::is_convertible_v<typename traits::traversal_category, boost::bidirectional_graph_tag>;
  /// True when an operand-number edge map orders each op's operands.
  static constexpr bool numbered_operands = !std::is_same_v<OperandIndexMap, edge_order>;
  /// True when a grouping callback was given: the adapter then models groupable_ir.
  static constexpr bool groupable = !std::is_same_v<Grouper, no_grouping>;
  using graph_type = Graph;
  using vertex = typename traits::vertex_descriptor;
  using edge = typename traits::edge_descriptor;
  using value_handle = value<vertex>;
  using block_handle = order_maintenance::list_id;
  using position_type = typename boost::property_traits<PositionMap>::value_type;
  static constexpr bool dense_vertices = std::is_integral_v<vertex>;

  dataflow_graph(Graph& g, KindMap kinds, PositionMap positions, Direction = {}, ResultIndexMap results = {},
                 BlockMap blocks = {}, OperandIndexMap operand_numbers = {}, Grouper grouper = {},
                 AttributeReader attributes = {}, position_policy write_back = {})
      : g_(&g),
        kinds_(kinds),
        positions_(positions),
        results_(results),
        blocks_(blocks),
        operand_numbers_(operand_numbers),
        grouper_(std::move(grouper)),
        attributes_(std::move(attributes)) {
    set_write_back(write_back);
    build_order();
    build_in_links();
    build_operand_table();
  }
  dataflow_graph(const dataflow_graph&) = delete;
  dataflow_graph& operator=(const dataflow_graph&) = delete;
  dataflow_graph& operator=(dataflow_graph&&) = delete;
  /// The moved-from adapter refers to no graph and writes nothing back; destroy it.
  dataflow_graph(dataflow_graph&& o) noexcept(std::is_nothrow_move_constructible_v<KindMap> &&
                                              std::is_nothrow_move_constructible_v<PositionMap> &&
                                              std::is_nothrow_move_constructible_v<Grouper> &&
                                              std::is_nothrow_move_constructible_v<AttributeReader>)
      : g_(std::exchange(o.g_, nullptr)),
        kinds_(std::move(o.kinds_)),
        positions_(std::move(o.positions_)),
        results_(std::move(o.results_)),
        blocks_(std::move(o.blocks_)),
        operand_numbers_(std::move(o.operand_numbers_)),
        grouper_(std::move(o.grouper_)),
        attributes_(std::move(o.attributes_)),
        write_back_(o.write_back_),
        order_(std::move(o.order_)),
        vertex_of_(std::move(o.vertex_of_)),
        node_of_(std::move(o.node_of_)),
        block_ids_(std::move(o.block_ids_)),
        dirty_(std::move(o.dirty_)),
        moved_(std::move(o.moved_)),
        any_dirty_(std::exchange(o.any_dirty_, false)),
        in_(std::move(o.in_)),
        ops_(std::move(o.ops_)),
        group_attrs_(std::move(o.group_attrs_)),
        group_results_(std::move(o.group_results_)),
        stamp_(std::move(o.stamp_)),
        epoch_(o.epoch_) {}

  ~dataflow_graph() {
    if constexpr (writable_positions)
      if (g_) sync_positions();
  }

  Graph& graph() const noexcept { return *g_; }

  /// The write-back policy (see position_policy); default dense(). Takes effect at the next sync.
  /// @pre strided / between only with an arithmetic position type, and a stride > 0.
  void set_write_back(position_policy p) {
    NEURONRW_ASSERT(p.how == position_policy::mode::dense || (std::is_arithmetic_v<position_type> && p.stride > 0),
                    "neuronrw::bgl::dataflow_graph: strided and between write-back need an arithmetic "
                    "position type and a positive stride");
    write_back_ = p;
  }
  position_policy write_back() const noexcept { return write_back_; }

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
  /// The edge's operand number (0 without an operand-number map).
  std::uint32_t operand_number(const edge& e) const {
    if constexpr (numbered_operands) {
      return static_cast<std::uint32_t>(detail::read(operand_numbers_, e));
    } else {
      (void)e;
      return 0;
    }
  }

  /// The values op `v` uses, one per def-use edge; in operand-number order when the adapter has
  /// an operand-number map (ties: edge order), else in edge order (see the header comment).
  auto operands(vertex v) const {
    if constexpr (numbered_operands) {
      return table_range<link_to_value>(ops_, v, {this, 0});
    } else if constexpr (from_producer && bidirectional) {
      auto [f, l] = in_edges(v, *g_);
      return detail::mapped_range<decltype(f), edge_to_value<false>, false>(f, l, {this});
    } else if constexpr (from_producer) {
      return table_range<link_to_value>(in_, v, {this, 0});
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
      return table_range<link_to_user>(in_, x.op, {this, x.index});
    }
  }

  /// Results 0 .. k-1 where k is one more than the largest result index on v's outgoing
  /// def-use edges (at least 1). O(users of v).
  /// A grouping vertex has exactly its group's live-outs as results (none when it has none).
  detail::result_range<vertex> results(vertex v) const {
    std::uint32_t count = 1;
    if (!group_results_.empty()) {
      const std::uint32_t n = node(v);
      if (n < group_results_.size() && group_results_[n] != no_group) count = group_results_[n];
    }
    auto bump = [&](std::uint32_t r) { count = std::max(count, r + 1); };
    if constexpr (from_producer) {
      auto [f, l] = out_edges(v, *g_);
      for (; f != l; ++f) bump(result_index(*f));
    } else if constexpr (bidirectional) {
      auto [f, l] = in_edges(v, *g_);
      for (; f != l; ++f) bump(result_index(*f));
    } else {
      for (const link& k : in_.get(node(v))) bump(k.result);
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
  /// Every block, 0 .. block_count()-1: the roots to plan over (plan_schedule_fusion(ir,
  /// ir.blocks())).
  std::vector<block_handle> blocks() const {
    std::vector<block_handle> r(order_.list_count());
    for (block_handle b = 0; b < r.size(); ++b) r[b] = b;
    return r;
  }

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
    mark_moved(node(v));
  }
  void move_after(vertex v, vertex anchor) {
    NEURONRW_ASSERT(order_.list_of(node(v)) == order_.list_of(node(anchor)),
                    "neuronrw::bgl::dataflow_graph: moves stay within one block");
    order_.move_after(node(v), node(anchor));
    mark_moved(node(v));
  }

  /// Writes the order of every block a move or a grouping changed since the last sync to the
  /// position property, as the write-back policy says (default: 0, 1, 2, ...).
  /// O(ops of those blocks). @pre the position map is writable.
  void sync_positions() {
    static_assert(writable_positions, "neuronrw::bgl::dataflow_graph: the position map is not writable");
    if (!any_dirty_) return;
    for (block_handle b = 0; b < dirty_.size(); ++b) {
      if (!dirty_[b]) continue;
      dirty_[b] = 0;
      write_block(b);
      for (auto n : order_.nodes(b)) moved_[n] = 0;
    }
    any_dirty_ = false;
  }

  // ---------------------------------------------------------------- groupable (with a callback)
  /// Requirement 14 through the grouping callback: computes the contraction's edges, calls
  /// `grouper(graph, contraction)`, which returns the new vertex, and updates the adapter: the
  /// new vertex takes the first member's place in its block, the members leave the order, the
  /// op numbering, the cached in-links and operand lists of the new vertex and its neighbours
  /// are re-read, and `request.attrs` are kept for string_attribute. O(edges of the members and
  /// of their neighbours). @pre request.ops non-empty, contiguous, in block order, one block.
  vertex group(const group_request<vertex, value_handle>& req)
    requires groupable
  {
    NEURONRW_ASSERT(!req.ops.empty(), "neuronrw::bgl::dataflow_graph: group_ops of no op");
    // Without a result-index map every edge carries result 0: a second live-out would be read
    // as the first, and the users of one would silently use the other.
    NEURONRW_CHECK((!std::is_same_v<ResultIndexMap, single_result> || req.live_outs.size() <= 1),
                   "neuronrw::bgl::dataflow_graph: a grouping with more than one live-out "
                   "needs a result-index edge map (bgl::result_indices{m}); without one every edge is read as "
                   "result 0");
    const std::size_t k = req.ops.size();
    std::vector<std::uint32_t> members(k);
    for (std::size_t i = 0; i < k; ++i) members[i] = node(req.ops[i]);
    for (std::size_t i = 1; i < k; ++i)
      NEURONRW_ASSERT(order_.next(members[i - 1]) == members[i],
                      "neuronrw::bgl::dataflow_graph: group_ops needs contiguous ops in block order");
    // By descriptor, not node: after the callback a removed member has no node any more.
    auto is_member = [&](vertex x) { return std::find(req.ops.begin(), req.ops.end(), x) != req.ops.end(); };

    std::vector<group_edge<vertex>> inputs, outputs;
    for (std::size_t i = 0; i < req.live_ins.size(); ++i)
      inputs.push_back({req.live_ins[i].op, null_vertex(), req.live_ins[i].index, static_cast<std::uint32_t>(i)});
    // Outside users of the members, once each, in member order then user order.
    std::vector<vertex> outside;
    const std::uint32_t user_epoch = next_epoch();
    for (const vertex m : req.ops)
      for (const value_handle r : results(m))
        for (const vertex u : users(r))
          if (!is_member(u) && stamp_[node(u)] != user_epoch) {
            stamp_[node(u)] = user_epoch;
            outside.push_back(u);
          }
    for (const vertex u : outside)
      for_each_numbered_operand(u, [&](value_handle x, std::uint32_t operand) {
        if (!is_member(x.op)) return;
        std::size_t out = req.live_outs.size();
        for (std::size_t j = 0; j < req.live_outs.size(); ++j)
          if (req.live_outs[j] == x) out = j;
        NEURONRW_ASSERT(out < req.live_outs.size(),
                        "neuronrw::bgl::dataflow_graph: a use outside the group of a value that is not a live-out");
        outputs.push_back({null_vertex(), u, static_cast<std::uint32_t>(out), operand});
      });
    // The neighbours whose cached lists change: the live-ins' producers and the outside users.
    std::vector<vertex> neighbours;
    const std::uint32_t nb_epoch = next_epoch();
    auto add_neighbour = [&](vertex x) {
      if (stamp_[node(x)] != nb_epoch) {
        stamp_[node(x)] = nb_epoch;
        neighbours.push_back(x);
      }
    };
    for (const auto& e : inputs) add_neighbour(e.producer);
    for (const vertex u : outside) add_neighbour(u);

    const block_handle b = order_.list_of(members[0]);
    const group_contraction<vertex> c{req, inputs, outputs, from_producer, null_vertex()};
    const vertex w = grouper_(*g_, c);

    // The op numbering: members out, the new vertex in (its own node).
    std::uint32_t wn;
    if constexpr (dense_vertices) {
      NEURONRW_ASSERT(static_cast<std::size_t>(w) >= vertex_of_.size(),
                      "neuronrw::bgl::dataflow_graph: with integral vertex descriptors the grouping callback "
                      "must add the grouping vertex and remove no vertex (removing renumbers the later ones)");
      wn = static_cast<std::uint32_t>(w);
      NEURONRW_CHECK(static_cast<std::size_t>(w) < order_maintenance::npos,
                     "neuronrw::bgl::dataflow_graph: more than 2^32 - 1 vertices");
      grow_nodes(static_cast<std::size_t>(w) + 1);
      vertex_of_[wn] = w;
    } else {
      for (const vertex m : req.ops) node_of_.erase(m);
      for (const std::uint32_t m : members) vertex_of_[m] = null_vertex();
      wn = static_cast<std::uint32_t>(vertex_of_.size());
      grow_nodes(vertex_of_.size() + 1);
      vertex_of_[wn] = w;
      const bool fresh = node_of_.emplace(w, wn).second;
      NEURONRW_ASSERT(fresh, "neuronrw::bgl::dataflow_graph: the grouping callback returned an existing vertex");
      (void)fresh;
    }
    // The order: the new vertex where the first member was.
    order_.insert_before(wn, members[0]);
    for (const std::uint32_t m : members) order_.detach(m);
    dirty_[b] = 1;
    any_dirty_ = true;
    moved_[wn] = 1;

    // Cached edges: the members have none; the new vertex's and its neighbours' are re-read.
    if constexpr (!bidirectional) {
      for (const std::uint32_t m : members) in_.set(m, {});
      // Links out of the new vertex, to each neighbour.
      std::vector<link> from_w;
      std::vector<vertex> from_w_target;
      {
        auto [ef, el] = out_edges(w, *g_);
        for (; ef != el; ++ef) {
          from_w.push_back(link{w, result_index(*ef), operand_number(*ef)});
          from_w_target.push_back(target(*ef, *g_));
        }
      }
      std::vector<link> into_w;
      for (const vertex x : neighbours) {
        auto [ef, el] = out_edges(x, *g_);
        for (; ef != el; ++ef)
          if (target(*ef, *g_) == w) into_w.push_back(link{x, result_index(*ef), operand_number(*ef)});
        std::vector<link> kept;
        for (const link& l : in_.get(node(x)))
          if (!is_member(l.other)) kept.push_back(l);
        for (std::size_t i = 0; i < from_w.size(); ++i)
          if (from_w_target[i] == x) kept.push_back(from_w[i]);
        in_.set(node(x), std::move(kept));
      }
      in_.set(wn, std::move(into_w));
    }
    if constexpr (numbered_operands) {
      for (const std::uint32_t m : members) ops_.set(m, {});
      ops_.set(wn, operand_links(w));
      for (const vertex x : neighbours) ops_.set(node(x), operand_links(x));
    }
    if (group_results_.size() <= wn) group_results_.resize(std::size_t(wn) + 1, no_group);
    group_results_[wn] = static_cast<std::uint32_t>(req.live_outs.size());
    // The request's string attributes, for string_attribute.
    std::vector<std::pair<std::string, std::string>> kept_attrs;
    for (const named_attribute& a : req.attrs)
      if (const auto* s = std::get_if<attr::string>(&a.value)) kept_attrs.emplace_back(std::string(a.name), s->value);
    if (!kept_attrs.empty()) group_attrs_[wn] = std::move(kept_attrs);
    return w;
  }

  /// Requirement 15: the attribute reader's answer when it gives one, else the string value of
  /// attribute `name` of the group_ops request that made `v` (nullopt for other ops).
  std::optional<std::string> string_attribute(vertex v, std::string_view name) const {
    if constexpr (!std::is_same_v<AttributeReader, no_attributes>)
      if (auto r = attributes_(std::as_const(*g_), v, name)) return r;
    auto it = group_attrs_.find(node(v));
    if (it == group_attrs_.end()) return std::nullopt;
    for (const auto& [n, s] : it->second)
      if (n == name) return s;
    return std::nullopt;
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

  // A def-use edge cached by the adapter: the other end, the result index, the operand number.
  struct link {
    vertex other;
    std::uint32_t result;
    std::uint32_t operand;
  };
  // Per node, a list of links: a flat CSR array built at construction, and lists replaced after
  // groupings (a node's replaced list wins).
  struct link_table {
    std::vector<std::uint32_t> offsets;
    std::vector<link> flat;
    std::vector<std::vector<link>> replaced;
    std::vector<std::uint8_t> is_replaced;
    std::span<const link> get(std::uint32_t n) const {
      if (n < is_replaced.size() && is_replaced[n]) return replaced[n];
      if (std::size_t(n) + 1 < offsets.size()) return {flat.data() + offsets[n], flat.data() + offsets[n + 1]};
      return {};
    }
    void set(std::uint32_t n, std::vector<link> l) {
      if (n >= is_replaced.size()) {
        const std::size_t size = std::max<std::size_t>(std::size_t(n) + 1, offsets.size());
        replaced.resize(size);
        is_replaced.resize(size, 0);
      }
      replaced[n] = std::move(l);
      is_replaced[n] = 1;
    }
    void build(const std::vector<std::vector<link>>& per_node) {
      offsets.assign(per_node.size() + 1, 0);
      for (std::size_t i = 0; i < per_node.size(); ++i)
        offsets[i + 1] = offsets[i] + static_cast<std::uint32_t>(per_node[i].size());
      flat.clear();
      flat.reserve(offsets.back());
      for (const auto& l : per_node) flat.insert(flat.end(), l.begin(), l.end());
    }
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
  auto table_range(const link_table& t, vertex v, Map map) const {
    const std::span<const link> l = t.get(node(v));
    constexpr bool filter = std::is_same_v<Map, link_to_user>;
    return detail::mapped_range<const link*, Map, filter>(l.data(), l.data() + l.size(), map);
  }

  // f(value, operand number) for each operand of u, in operands(u) order; without an
  // operand-number map the number is the operand's place in that order.
  template <class F>
  void for_each_numbered_operand(vertex u, F&& f) const {
    if constexpr (numbered_operands) {
      for (const link& l : ops_.get(node(u))) f(value_handle{l.other, l.result}, l.operand);
    } else {
      std::uint32_t i = 0;
      for (const value_handle x : operands(u)) f(x, i++);
    }
  }

  // v's operands as links, sorted by operand number (stable: edge order breaks ties).
  std::vector<link> operand_links(vertex v) const {
    std::vector<link> l;
    if constexpr (from_producer && bidirectional) {
      auto [f, e] = in_edges(v, *g_);
      for (; f != e; ++f) l.push_back(link{source(*f, *g_), result_index(*f), operand_number(*f)});
    } else if constexpr (from_producer) {
      const auto in = in_.get(node(v));
      l.assign(in.begin(), in.end());
    } else {
      auto [f, e] = out_edges(v, *g_);
      for (; f != e; ++f) l.push_back(link{target(*f, *g_), result_index(*f), operand_number(*f)});
    }
    std::stable_sort(l.begin(), l.end(), [](const link& a, const link& b) { return a.operand < b.operand; });
    return l;
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

  void mark_moved(order_maintenance::node_id n) {
    dirty_[order_.list_of(n)] = 1;
    moved_[n] = 1;
    any_dirty_ = true;
  }
  std::uint32_t next_epoch() {
    if (++epoch_ == 0) {  // wrapped: clear the stamps once
      std::fill(stamp_.begin(), stamp_.end(), 0u);
      epoch_ = 1;
    }
    return epoch_;
  }
  // Nodes 0 .. n-1 exist (order nodes, vertex_of_, per-node marks).
  void grow_nodes(std::size_t n) {
    while (order_.node_count() < n) order_.add_node();
    if (vertex_of_.size() < n) vertex_of_.resize(n, null_vertex());
    if (moved_.size() < n) moved_.resize(n, 0);
    if (stamp_.size() < n) stamp_.resize(n, 0);
  }

  // Writes block b's positions as the policy says.
  void write_block(block_handle b) {
    if constexpr (std::is_arithmetic_v<position_type>) {
      if (write_back_.how == position_policy::mode::between && write_between(b)) return;
      if (write_back_.how != position_policy::mode::dense) {
        long long i = 0;
        for (auto n : order_.nodes(b))
          detail::write(positions_, vertex_of_[n], static_cast<position_type>(i++ * write_back_.stride));
        return;
      }
    }
    std::size_t i = 0;
    for (auto n : order_.nodes(b)) detail::write(positions_, vertex_of_[n], static_cast<position_type>(i++));
  }

  // The between policy: false (nothing written) when some run of moved ops has no room.
  bool write_between(block_handle b) {
    using calc = std::conditional_t<std::is_floating_point_v<position_type>, long double, long long>;
    struct slot {
      std::uint32_t node;
      bool moved;
      calc pos;
    };
    std::vector<slot> s;
    bool any_unmoved = false;
    for (auto n : order_.nodes(b)) {
      const bool m = moved_[n] != 0;
      calc p{};
      if (!m) p = static_cast<calc>(detail::read(positions_, vertex_of_[n]));
      any_unmoved |= !m;
      s.push_back({n, m, p});
    }
    if (!any_unmoved) return false;
    const calc stride = static_cast<calc>(write_back_.stride);
    const calc lowest = static_cast<calc>(std::numeric_limits<position_type>::lowest());
    const calc highest = static_cast<calc>(std::numeric_limits<position_type>::max());
    // Plan every run first, write only when all fit.
    std::vector<calc> out(s.size());
    for (std::size_t i = 0; i < s.size();) {
      if (!s[i].moved) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < s.size() && s[j].moved) ++j;
      const std::size_t len = j - i;
      const bool has_lo = i > 0, has_hi = j < s.size();
      for (std::size_t r = 0; r < len; ++r) {
        calc v;
        if (has_lo && has_hi) {
          const calc lo = s[i - 1].pos, hi = s[j].pos;
          const calc step = (hi - lo) / static_cast<calc>(len + 1);
          if (!(step > 0)) return false;
          v = lo + step * static_cast<calc>(r + 1);
          if (!(v > lo && v < hi)) return false;
        } else if (has_hi) {
          v = s[j].pos - stride * static_cast<calc>(len - r);
          if (v < lowest) return false;
        } else {
          v = s[i - 1].pos + stride * static_cast<calc>(r + 1);
          if (v > highest) return false;
        }
        out[i + r] = v;
      }
      i = j;
    }
    for (std::size_t i = 0; i < s.size(); ++i)
      if (s[i].moved) detail::write(positions_, vertex_of_[s[i].node], static_cast<position_type>(out[i]));
    return true;
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
    grow_nodes(bound);

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

  // Directed graphs: the in-links (the edges into each node: operands when edges point
  // producer → consumer, users otherwise), in vertices(g) order, then out_edges order.
  void build_in_links() {
    if constexpr (!bidirectional) {
      std::vector<std::vector<link>> per_node(vertex_of_.size());
      auto [vf, vl] = vertices(*g_);
      for (auto it = vf; it != vl; ++it) {
        auto [ef, el] = out_edges(*it, *g_);
        for (; ef != el; ++ef)
          per_node[node(target(*ef, *g_))].push_back(link{*it, result_index(*ef), operand_number(*ef)});
      }
      in_.build(per_node);
    }
  }

  // With an operand-number map: each node's operands, sorted by number.
  void build_operand_table() {
    if constexpr (numbered_operands) {
      std::vector<std::vector<link>> per_node(vertex_of_.size());
      auto [vf, vl] = vertices(*g_);
      for (auto it = vf; it != vl; ++it) per_node[node(*it)] = operand_links(*it);
      ops_.build(per_node);
    }
  }

  Graph* g_;
  KindMap kinds_;
  PositionMap positions_;
  [[no_unique_address]] ResultIndexMap results_;
  [[no_unique_address]] BlockMap blocks_;
  [[no_unique_address]] OperandIndexMap operand_numbers_;
  [[no_unique_address]] Grouper grouper_;
  [[no_unique_address]] AttributeReader attributes_;
  position_policy write_back_;
  order_maintenance order_;
  std::vector<vertex> vertex_of_;                       // node id → vertex
  std::unordered_map<vertex, std::uint32_t> node_of_;   // vertex → node id (non-integral vertices)
  std::map<typename detail::block_key<BlockMap>::type, block_handle, std::less<>> block_ids_;
  std::vector<std::uint8_t> dirty_;  // per block: moved or grouped since the last sync
  std::vector<std::uint8_t> moved_;  // per node: moved or made by a grouping since the last sync
  bool any_dirty_ = false;
  link_table in_;   // directed graphs: in-links
  link_table ops_;  // with an operand-number map: operands by number
  std::unordered_map<std::uint32_t, std::vector<std::pair<std::string, std::string>>> group_attrs_;  // lookups only
  static constexpr std::uint32_t no_group = order_maintenance::npos;
  std::vector<std::uint32_t> group_results_;  // per node: a grouping vertex's live-out count, else no_group
  std::vector<std::uint32_t> stamp_;  // per node: scratch marks of group()
  std::uint32_t epoch_ = 0;
};

// ------------------------------------------------------------------------------ naming it

/// Options of make_dataflow_graph, in any order after (g, kinds, positions). A property map may
/// be given as a bundled member pointer (`&op::position`): the maker calls get(&op::position, g).
template <class M> struct result_indices { M map; };      ///< edge → result index
template <class M> struct operand_numbers { M map; };     ///< edge → operand number
template <class M> struct blocks_from { M map; };         ///< vertex → block key
template <class F> struct grouping { F callback; };       ///< vertex(Graph&, const group_contraction<vertex>&)
template <class F> struct attributes { F callback; };     ///< optional<string>(const Graph&, vertex, string_view)
template <class M> result_indices(M) -> result_indices<M>;
template <class M> operand_numbers(M) -> operand_numbers<M>;
template <class M> blocks_from(M) -> blocks_from<M>;
template <class F> grouping(F) -> grouping<F>;
template <class F> attributes(F) -> attributes<F>;

namespace detail {

template <template <class> class W, class T> struct is_option : std::false_type {};
template <template <class> class W, class X> struct is_option<W, W<X>> : std::true_type {};

template <class T>
constexpr bool known_option = is_option<result_indices, T>::value || is_option<operand_numbers, T>::value ||
                              is_option<blocks_from, T>::value || is_option<grouping, T>::value ||
                              is_option<attributes, T>::value || std::is_same_v<T, producer_to_consumer_t> ||
                              std::is_same_v<T, consumer_to_producer_t> || std::is_same_v<T, position_policy>;

// The payload of the first option of wrapper W, else `fallback`.
template <template <class> class W, class Fallback>
Fallback pick(Fallback fallback) {
  return fallback;
}
template <template <class> class W, class Fallback, class First, class... Rest>
auto pick(Fallback fallback, const First& first, const Rest&... rest) {
  if constexpr (is_option<W, First>::value) {
    if constexpr (requires { first.map; })
      return first.map;
    else
      return first.callback;
  } else {
    return pick<W>(fallback, rest...);
  }
}
// The first argument of type T, else `fallback`.
template <class T>
T pick_plain(T fallback) {
  return fallback;
}
template <class T, class First, class... Rest>
T pick_plain(T fallback, const First& first, const Rest&... rest) {
  if constexpr (std::is_same_v<First, T>)
    return first;
  else
    return pick_plain(fallback, rest...);
}
template <class... A>
using direction_of = std::conditional_t<(std::is_same_v<A, consumer_to_producer_t> || ...), consumer_to_producer_t,
                                        producer_to_consumer_t>;

// A property map, or a bundled member pointer turned into one.
template <class Graph, class M>
auto as_map(Graph& g, M m) {
  if constexpr (std::is_member_object_pointer_v<M>) {
    using boost::get;
    return get(m, g);
  } else {
    return m;
  }
}

}  // namespace detail

/// The adapter over `g` with a kind map and a position map (property maps or bundled member
/// pointers) and options in any order: a direction tag, result_indices{m}, operand_numbers{m},
/// blocks_from{m}, grouping{f}, attributes{f}, a position_policy. Defaults as the class's.
template <class Graph, class Kinds, class Positions, class... Options>
auto make_dataflow_graph(Graph& g, Kinds kinds, Positions positions, Options... options) {
  static_assert((detail::known_option<Options> && ...),
                "neuronrw::bgl::make_dataflow_graph: an option is a direction tag, result_indices{m}, "
                "operand_numbers{m}, blocks_from{m}, grouping{f}, attributes{f} or a position_policy");
  auto k = detail::as_map(g, kinds);
  auto p = detail::as_map(g, positions);
  auto r = detail::as_map(g, detail::pick<result_indices>(single_result{}, options...));
  auto b = detail::as_map(g, detail::pick<blocks_from>(single_block{}, options...));
  auto o = detail::as_map(g, detail::pick<operand_numbers>(edge_order{}, options...));
  auto gr = detail::pick<grouping>(no_grouping{}, options...);
  auto at = detail::pick<attributes>(no_attributes{}, options...);
  using D = detail::direction_of<Options...>;
  return dataflow_graph<Graph, decltype(k), decltype(p), D, decltype(r), decltype(b), decltype(o), decltype(gr),
                        decltype(at)>(g, k, p, D{}, r, b, o, std::move(gr), std::move(at),
                                      detail::pick_plain(position_policy::dense(), options...));
}

/// The type make_dataflow_graph(g, args...) returns, for a graph of type Graph:
/// `bgl::dataflow_graph_t<graph, decltype(&op::kind), decltype(&op::position)>`.
template <class Graph, class... Args>
using dataflow_graph_t = decltype(make_dataflow_graph(std::declval<Graph&>(), std::declval<Args>()...));

}  // namespace neuronrw::bgl

template <class V>
struct neuronrw::handle_hash<neuronrw::bgl::value<V>> {
  std::size_t operator()(const neuronrw::bgl::value<V>& x) const noexcept {
    return std::hash<V>{}(x.op) * 31u + x.index;
  }
};

template <class Graph, class K, class P, class D, class R, class B, class O, class Gr, class A>
struct neuronrw::ir_traits<neuronrw::bgl::dataflow_graph<Graph, K, P, D, R, B, O, Gr, A>> {
  using G = bgl::dataflow_graph<Graph, K, P, D, R, B, O, Gr, A>;
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
  /// A flat graph: no op has regions, no block has arguments (O4, empty).
  static std::span<const block_handle> regions(const G&, op_handle) noexcept { return {}; }
  static std::span<const value_handle> block_arguments(const G&, block_handle) noexcept { return {}; }
  /// O9: without an operand-number map, the operand order is the graph's edge order, which a
  /// grouping changes; it carries no meaning.
  static constexpr bool unordered_operands = !G::numbered_operands;

  // reschedulable
  static void move_before(G& g, op_handle o, op_handle anchor) { g.move_before(o, anchor); }
  static void move_after(G& g, op_handle o, op_handle anchor) { g.move_after(o, anchor); }

  // groupable, with a grouping callback (make_dataflow_graph(..., bgl::grouping{f}))
  static op_handle group_ops(G& g, const group_request<op_handle, value_handle>& r)
    requires G::groupable
  {
    return g.group(r);
  }
  static std::optional<std::string> string_attribute(const G& g, op_handle o, std::string_view name)
    requires G::groupable
  {
    return g.string_attribute(o, name);
  }

  // optional: dense numbering
  static std::size_t op_index(const G& g, op_handle o) { return g.op_index(o); }
  static std::size_t op_index_bound(const G& g) { return g.op_index_bound(); }
};
