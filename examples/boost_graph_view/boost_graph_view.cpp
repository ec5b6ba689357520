// examples/boost_graph_view — Boost.Graph's own algorithms on a function of the reference IR,
// through neuronrw/adapters/boost_graph_view.hpp (vertex = op, edge = use; no graph is copied):
// the ops a gathered weight reaches (breadth_first_search), an order of the ops
// (topological_sort), the ops every path from the all_gather runs through
// (lengauer_tarjan_dominator_tree), how many uses separate each op from the all_gather (BFS
// through the dense view, vertex = position), and the dataflow in Graphviz's DOT (write_graphviz).
// The same view works on any ordered_ir model: your own IR, or MLIR through its adapter.
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/dominator_tree.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/graph/topological_sort.hpp>

#include <neuronrw/adapters/boost_graph_view.hpp>
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/traits.hpp>

namespace ref = neuronrw::ref;
using view_t = neuronrw::bgl_view::block_view<ref::module>;

constexpr const char* layer = R"(
func.func @layer(%w: tensor<4xf32>, %x: tensor<16xf32>) -> tensor<4xf32> {
  %g = "mhlo.all_gather"(%w) : (tensor<4xf32>) -> tensor<16xf32>
  %y = "mhlo.multiply"(%x, %g) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %z = "mhlo.tanh"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %s = "mhlo.add"(%y, %z) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %r = "mhlo.reduce_scatter"(%s) : (tensor<16xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
})";

struct discovered : boost::default_bfs_visitor {
  std::vector<ref::op_ref>* out;
  void discover_vertex(ref::op_ref op, const view_t&) const { out->push_back(op); }
};

// Records, along BFS's tree edges, how many uses separate each op from the start.
struct hop_counter : boost::default_bfs_visitor {
  std::vector<std::size_t>* hops;
  explicit hop_counter(std::vector<std::size_t>* h) : hops(h) {}
  template <class Edge, class Graph>
  void tree_edge(const Edge& e, const Graph& g) const {
    (*hops)[target(e, g)] = (*hops)[source(e, g)] + 1;
  }
};

int main() {
  auto parsed = ref::parse(layer, "layer.mlir");
  if (!parsed.ok()) return 1;
  const ref::module& m = *parsed.value;
// [view]
  const view_t view(m, m.region_blocks(ref::functions(m).front()).front());

  std::vector<ref::op_ref> reached;
  discovered vis;
  vis.out = &reached;
  boost::breadth_first_search(view, view.ops().front(), boost::visitor(vis));
// [/view]
  std::cout << "reached from the all_gather:";
  for (auto op : reached) std::cout << " " << m.name(op);

  std::vector<ref::op_ref> order;  // reverse topological order
  boost::topological_sort(view, std::back_inserter(order));
  std::cout << "\na topological order:";
  for (auto it = order.rbegin(); it != order.rend(); ++it) std::cout << " " << m.name(*it);

  // the full overload, DFS numbers set to "unvisited" (docs/boost-graph.md)
// [dominators]
  const std::size_t n = num_vertices(view);
  const auto index = get(boost::vertex_index, view);
  std::vector<std::size_t> dfnum(n, static_cast<std::size_t>(-1));
  std::vector<ref::op_ref> parent(n), by_dfnum(n), idom(n);
  boost::lengauer_tarjan_dominator_tree(view, view.ops().front(), index,
                                        boost::make_iterator_property_map(dfnum.begin(), index),
                                        boost::make_iterator_property_map(parent.begin(), index), by_dfnum,
                                        boost::make_iterator_property_map(idom.begin(), index));
// [/dominators]
  std::cout << "\nimmediate dominators:";
  for (auto op : view.ops())
    if (idom[index[op]] != ref::op_ref{}) std::cout << " " << m.name(op) << "<-" << m.name(idom[index[op]]);

  // The dense view: vertex = the op's position (0 .. n-1, as an adjacency_list<vecS, vecS>
  // numbers them), so a plain vector is a property map and an edge names both positions.
// [dense]
  const neuronrw::bgl_view::dense_block_view dense(m, view.ir_block());
  std::vector<std::size_t> hops(num_vertices(dense), 0);
  boost::breadth_first_search(dense, 0, boost::visitor(hop_counter{&hops}));
// [/dense]
  std::cout << "\nuses from the all_gather:";
  for (std::size_t v = 1; v < hops.size(); ++v)
    if (hops[v] != 0) std::cout << " " << m.name(dense.op_at(v)) << "=" << hops[v];

  std::cout << "\n";
  boost::write_graphviz(std::cout, view, [&](std::ostream& os, ref::op_ref op) {
    os << "[label=\"" << m.name(op) << (m.name_hint(op).empty() ? "" : " %") << m.name_hint(op) << "\"]";
  });
}
