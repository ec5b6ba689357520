// ScheduleFusion end to end on a user's own Boost.Graph (include/neuronrw/adapters/boost_graph.hpp,
// docs/boost-graph.md): an adjacency_list<listS, listS, bidirectionalS> whose vertices carry XLA
// opcode strings ("all-gather") and schedule slots spaced by 10, and whose edges carry the result
// and operand numbers — inserted in any order. The adapter reads kinds from the opcode strings,
// operand order from the operand numbers, groups each cluster by contracting it into one new
// vertex, and writes the new schedule back keeping the spacing. Then the block is drawn in DOT.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphviz.hpp>

#include <neuronrw/adapters/boost_graph.hpp>
#include <neuronrw/adapters/boost_graph_view.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

namespace nr = neuronrw;
namespace bgl = neuronrw::bgl;

// [bgl-fusion-graph]
struct instr {
  std::string opcode;       // "all-gather", "reduce-scatter", "add", ...
  int slot = 0;             // schedule slot: 10, 20, 30 ...
  std::string fusion_kind;  // set on the vertices grouping makes
};
struct operand_link {
  unsigned result = 0;   // which result of the producer
  unsigned operand = 0;  // which operand of the consumer
};
using hlo_graph = boost::adjacency_list<boost::listS, boost::listS, boost::bidirectionalS, instr, operand_link>;
using vertex = boost::graph_traits<hlo_graph>::vertex_descriptor;
// [/bgl-fusion-graph]

int main() {
  hlo_graph g;
  auto add = [&](const char* opcode, int slot) { return boost::add_vertex(instr{opcode, slot, {}}, g); };
  const auto p = add("parameter", 10), ag = add("all-gather", 20), x = add("add", 30), y = add("multiply", 40);
  const auto rs = add("reduce-scatter", 50), out = add("add", 60);
  // Edges in no particular order: the operand numbers say which operand each one is.
  boost::add_edge(ag, rs, operand_link{0, 1}, g);  // rs = reduce-scatter(y, ag)
  boost::add_edge(y, rs, operand_link{0, 0}, g);
  boost::add_edge(p, ag, operand_link{0, 0}, g);   // ag = all-gather(p)
  boost::add_edge(p, x, operand_link{0, 0}, g);    // x = add(p)
  boost::add_edge(x, y, operand_link{0, 0}, g);    // y = multiply(x, x)
  boost::add_edge(x, y, operand_link{0, 1}, g);
  boost::add_edge(rs, out, operand_link{0, 0}, g);  // out = add(rs)

  {
// [bgl-fusion-adapter]
    // How a cluster becomes a vertex: one new vertex named like the grouping op ("mhlo.fusion",
    // kind fusion) carrying the FusionKind; the adapter says which edges it needs.
    auto contract = bgl::contract_vertices{
        [](const nr::group_request<vertex, bgl::value<vertex>>& r) {
          instr fused{std::string(r.op_name), 0, {}};
          for (const auto& a : r.attrs)
            if (const auto* s = std::get_if<nr::attr::string>(&a.value)) fused.fusion_kind = s->value;
          return fused;
        },
        [](std::uint32_t result, std::uint32_t operand) { return operand_link{result, operand}; }};
    auto ir = bgl::make_dataflow_graph(g, bgl::kinds_from_names(boost::get(&instr::opcode, g)), &instr::slot,
                                       bgl::result_indices{&operand_link::result},
                                       bgl::operand_numbers{&operand_link::operand}, bgl::grouping{contract},
                                       bgl::position_policy::strided(10));
    static_assert(nr::groupable_ir<decltype(ir)>);
// [/bgl-fusion-adapter]

// [bgl-fusion-run]
    const auto plan = nr::plan_schedule_fusion(ir, ir.blocks());  // reads only
    std::cout << "clusters: " << plan.clusters.size() << ", moves: " << plan.clusters[0].moves.size() << "\n";
    const std::vector<vertex> fusions = nr::apply(ir, plan);  // the moves, then the groupings
    std::cout << "fusion: " << g[fusions[0]].opcode << " FusionKind=" << g[fusions[0]].fusion_kind << "\n";
// [/bgl-fusion-run]

// [bgl-fusion-dot]
    const nr::bgl_view::block_view view(ir, ir.blocks().front());  // vertex_index = place in the block
    boost::write_graphviz(std::cout, view, [&](std::ostream& os, vertex v) {
      os << "[label=\"" << g[v].opcode << "\"]";
    });
// [/bgl-fusion-dot]
  }  // the adapter writes the schedule back: 0, 10, 20 ...
  std::cout << "schedule:";
  std::vector<std::pair<int, std::string>> order;
  for (auto v : boost::make_iterator_range(boost::vertices(g))) order.emplace_back(g[v].slot, g[v].opcode);
  std::sort(order.begin(), order.end());
  for (const auto& [slot, opcode] : order) std::cout << " " << slot << ":" << opcode;
  std::cout << "\n";
}
