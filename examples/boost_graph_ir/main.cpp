// A user's Boost.Graph dataflow graph as a neuronrw IR (include/neuronrw/adapters/boost_graph.hpp):
// the graph keeps its own vertex and edge types; the adapter is told which properties hold each
// op's kind and position and each edge's result index. The program walks the dependences of a
// reduce_scatter, finds that {all_gather, reduce_scatter} is not convex, and sinks the
// all_gather next to its first user with the dominance repair; the moves land in `position`.
#include <iostream>
#include <string>

#include <boost/graph/adjacency_list.hpp>

#include <neuronrw/adapters/boost_graph.hpp>
#include <neuronrw/algorithms/convexity.hpp>
#include <neuronrw/algorithms/dependence_walk.hpp>
#include <neuronrw/algorithms/dominance_repair.hpp>

namespace nr = neuronrw;

// [bgl-graph]
struct op {
  std::string name;
  nr::kind_id kind = 0;
  int position = 0;
};
struct use {
  unsigned result = 0;  // which result of the producer the consumer reads
};
using graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, op, use>;
// [/bgl-graph]

int main() {
  graph g;
  const nr::kind_id compute = nr::kind_id_of("compute");
  auto add = [&](const char* name, nr::kind_id kind) {
    return boost::add_vertex(op{name, kind, static_cast<int>(boost::num_vertices(g))}, g);
  };
  const auto w = add("weight", compute), ag = add("all_gather", nr::kind_id_v<nr::kinds::all_gather>);
  const auto x = add("input", compute), h = add("split", compute);  // split has two results
  const auto y = add("matmul", compute), t = add("scale", compute), d = add("grad", compute);
  const auto rs = add("reduce_scatter", nr::kind_id_v<nr::kinds::reduce_scatter>);
  for (auto [from, to, result] : {std::tuple{w, ag, 0u}, {x, h, 0u}, {ag, y, 0u}, {h, y, 0u}, {h, t, 1u},
                                  {y, d, 0u}, {t, d, 0u}, {d, rs, 0u}})
    boost::add_edge(from, to, use{result}, g);  // producer → consumer

  auto print = [&](const char* what, const auto& ops) {
    std::cout << what << ":";
    for (auto v : ops) std::cout << " " << g[v].name;
    std::cout << "\n";
  };
  {
// [bgl-adapter]
    nr::bgl::dataflow_graph ir(g, boost::get(&op::kind, g), boost::get(&op::position, g),
                               nr::bgl::producer_to_consumer, boost::get(&use::result, g));
    static_assert(nr::reschedulable_ir<decltype(ir)>);
// [/bgl-adapter]

    const auto walk = nr::dependence_walk(ir, rs);
    print("walk from reduce_scatter", walk.ops);
    print("boundary", walk.boundary);

    const auto convex = nr::check_convexity(ir, ag, rs);
    std::cout << "{all_gather, reduce_scatter} convex: " << (convex.convex ? "yes" : "no") << ", through "
              << g[convex.offending].name << "\n";

    const auto plan = nr::plan_sink(ir, ag, y, y);  // all_gather to just before matmul
    std::cout << "sink all_gather before matmul: " << nr::to_string(plan.refusal) << ", " << plan.moves.size()
              << " move(s)\n";
    nr::apply_repair(ir, plan);
    print("block order", nr::ir::ops(ir, 0u));
  }  // the adapter writes the new order back to `position` here
  std::cout << "positions:";
  for (auto v : boost::make_iterator_range(boost::vertices(g))) std::cout << " " << g[v].name << "=" << g[v].position;
  std::cout << "\n";
}
