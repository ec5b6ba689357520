// tests/driver/dot_check.cpp — reads one DOT graph (a file written by `neuronrw-opt --emit-dot`)
// back with boost::read_graphviz, Boost.Graph's own parser, and prints what it parsed: one line
// per node `node <id> <label>` (labels with `\n` as written), then `edges <count>`. Exit 1 with
// the parser's message when the text does not parse. Used by dot_test.py.
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/property_map/dynamic_property_map.hpp>

namespace {
struct node {
  std::string id, label;
};
using graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, node>;
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: dot_check FILE.dot\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  graph g;
  boost::dynamic_properties dp(boost::ignore_other_properties);
  dp.property("node_id", boost::get(&node::id, g));
  dp.property("label", boost::get(&node::label, g));
  try {
    if (!boost::read_graphviz(text, g, dp, "node_id")) {
      std::cerr << "read_graphviz: not a graph\n";
      return 1;
    }
  } catch (const std::exception& e) {
    std::cerr << "read_graphviz: " << e.what() << "\n";
    return 1;
  }
  for (auto [it, end] = boost::vertices(g); it != end; ++it) std::cout << "node " << g[*it].id << " " << g[*it].label << "\n";
  std::cout << "edges " << boost::num_edges(g) << "\n";
  return 0;
}
