// examples/boost_graph_view — Boost.Graph's own algorithms on a function of the reference IR,
// through neuronrw/adapters/boost_graph_view.hpp (vertex = op, edge = use; no graph is copied):
// the ops a gathered weight reaches (breadth_first_search), an order of the ops
// (topological_sort), the ops every path from the all_gather runs through
// (lengauer_tarjan_dominator_tree), and the dataflow in Graphviz's DOT (write_graphviz).
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

  std::cout << "\n";
  boost::write_graphviz(std::cout, view, [&](std::ostream& os, ref::op_ref op) {
    os << "[label=\"" << m.name(op) << (m.name_hint(op).empty() ? "" : " %") << m.name_hint(op) << "\"]";
  });
}
