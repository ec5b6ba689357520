// Tests for neuronrw/adapters/boost_graph_view.hpp: Boost.Graph's own algorithms run through the
// view of a block of the reference IR and of examples/custom_ir's IR, checked against brute force
// computed from the IR directly (not through the view):
//   - the edges are exactly the uses inside the block (nested uses lifted), as a multiset, and
//     out-edges agree with in-edges;
//   - breadth_first_search reaches exactly the ops reachable by brute force;
//   - every edge goes forward in block order, and topological_sort's order is a permutation of
//     the ops in which every edge goes forward;
//   - lengauer_tarjan_dominator_tree, from the block's first op and from every op, equals the
//     dominators computed by removing one op at a time;
//   - write_graphviz writes exactly the expected text for a small function;
//   - dense_block_view (vertex = position) has the same vertices, edge lists (in the same order),
//     BFS order, topological order and dominators, and writes the same graphviz text.
// Random functions come from tests/passes/schedule_fusion_random_function.hpp (collectives, nested
// regions capturing outer values, multi-result ops); every block of them is viewed, nested ones too.
#include <neuronrw/adapters/boost_graph_view.hpp>

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/dominator_tree.hpp>
#include <boost/graph/graph_concepts.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/graph/topological_sort.hpp>

#include <neuronrw/algorithms/walk.hpp>
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#include "custom_ir_traits.hpp"
#include "mini_ir.hpp"
#include "passes/schedule_fusion_random_function.hpp"
#include "view_checks.hpp"

#include <doctest/doctest.h>

namespace {

namespace nr = neuronrw;
namespace ref = neuronrw::ref;
using nr::bgl_view::block_view;

using ref_view = block_view<ref::module>;
BOOST_CONCEPT_ASSERT((boost::BidirectionalGraphConcept<ref_view>));
BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<ref_view>));
BOOST_CONCEPT_ASSERT((boost::EdgeListGraphConcept<ref_view>));
BOOST_CONCEPT_ASSERT((boost::ReadablePropertyMapConcept<boost::property_map<ref_view, boost::vertex_index_t>::const_type,
                                                        ref::op_ref>));
using mini_view = block_view<mini::Module>;
BOOST_CONCEPT_ASSERT((boost::BidirectionalGraphConcept<mini_view>));
BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<mini_view>));
using ref_dense = nr::bgl_view::dense_block_view<ref::module>;
BOOST_CONCEPT_ASSERT((boost::BidirectionalGraphConcept<ref_dense>));
BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<ref_dense>));
BOOST_CONCEPT_ASSERT((boost::EdgeListGraphConcept<ref_dense>));
BOOST_CONCEPT_ASSERT((boost::ReadablePropertyMapConcept<boost::property_map<ref_dense, boost::vertex_index_t>::const_type,
                                                        std::size_t>));
using mini_dense = nr::bgl_view::dense_block_view<mini::Module>;
BOOST_CONCEPT_ASSERT((boost::BidirectionalGraphConcept<mini_dense>));
BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<mini_dense>));

/// The block's dataflow, brute force: adj[a][b] = number of operand slots of b and of the ops
/// nested in b whose value a (≠ b) defines. Positions are block positions.
template <class G>
struct brute_graph : neuronrw_test::view_checks::dataflow_matrix {
  std::vector<nr::op_handle_t<G>> ops;

  brute_graph(const G& g, nr::block_handle_t<G> b) {
    for (auto&& o : nr::ir::ops(g, b)) ops.push_back(o);
    const std::size_t n = ops.size();
    adj.assign(n, std::vector<std::size_t>(n, 0));
    for (std::size_t j = 0; j < n; ++j) {
      std::vector<nr::op_handle_t<G>> subtree{ops[j]};
      nr::walk_inside(g, ops[j], [&](const nr::op_handle_t<G>& x) { subtree.push_back(x); });
      for (auto& x : subtree)
        for (auto&& v : nr::ir::operands(g, x))
          for (std::size_t i = 0; i < n; ++i)
            if (i != j && nr::ir::defining_op(g, v) == ops[i]) ++adj[i][j];
    }
  }
  std::size_t pos(const nr::op_handle_t<G>& o) const {
    return static_cast<std::size_t>(std::find(ops.begin(), ops.end(), o) - ops.begin());
  }
};

/// Edges, BFS, topological order and dominators of one block: the view against brute force.
template <class G>
void check_block(const G& g, nr::block_handle_t<G> b) {
  using op = nr::op_handle_t<G>;
  const brute_graph<G> bf(g, b);
  const block_view<G> view(g, b);
  const std::size_t n = bf.ops.size();

  // vertices and the index map
  REQUIRE(num_vertices(view) == n);
  {
    std::size_t i = 0;
    auto idx = get(boost::vertex_index, view);
    for (auto [it, end] = vertices(view); it != end; ++it, ++i) {
      CHECK(*it == bf.ops[i]);
      CHECK(get(idx, *it) == i);
    }
  }

  // edges: the multiset from out-edges, from in-edges and from edges() equal brute force
  std::vector<std::vector<std::size_t>> from_out(n, std::vector<std::size_t>(n, 0)), from_in = from_out,
                                                                               from_all = from_out;
  for (std::size_t i = 0; i < n; ++i) {
    for (auto [it, end] = out_edges(bf.ops[i], view); it != end; ++it) {
      CHECK(source(*it, view) == bf.ops[i]);
      CHECK(nr::ir::defining_op(g, it->value) == bf.ops[i]);
      ++from_out[i][bf.pos(target(*it, view))];
    }
    for (auto [it, end] = in_edges(bf.ops[i], view); it != end; ++it) {
      CHECK(target(*it, view) == bf.ops[i]);
      ++from_in[bf.pos(source(*it, view))][i];
    }
  }
  std::size_t m = 0;
  for (auto [it, end] = edges(view); it != end; ++it, ++m) ++from_all[bf.pos(source(*it, view))][bf.pos(target(*it, view))];
  CHECK(from_out == bf.adj);
  CHECK(from_in == bf.adj);
  CHECK(from_all == bf.adj);
  CHECK(num_edges(view) == m);

  // every edge goes forward in block order
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) CHECK(bf.adj[i][j] == 0);
  if (n == 0) return;

  // BFS from the first op reaches what brute force reaches
  {
    std::vector<op> reached;
    struct recorder : boost::default_bfs_visitor {
      std::vector<op>* out;
      void discover_vertex(const op& u, const block_view<G>&) const { out->push_back(u); }
    };
    recorder vis;
    vis.out = &reached;
    boost::breadth_first_search(view, bf.ops[0], boost::visitor(vis));
    auto want = bf.reach(0);
    std::vector<bool> got(n, false);
    for (auto& o : reached) got[bf.pos(o)] = true;
    CHECK(got == want);
    CHECK(reached.size() == static_cast<std::size_t>(std::count(want.begin(), want.end(), true)));
  }

  neuronrw_test::view_checks::check_topological_sort(view, bf);

  neuronrw_test::view_checks::check_dominators(view, bf);

  // the dense view: the same graph, vertices named by position
  neuronrw_test::view_checks::check_dense_view(view, bf);
}

/// The function body and every nested block of a reference-IR module.
std::vector<ref::block_ref> all_blocks(const ref::module& m) {
  std::vector<ref::block_ref> bs;
  nr::walk(m, m.body(), [&](ref::op_ref o) {
    for (auto b : m.region_blocks(o)) bs.push_back(b);
  });
  return bs;
}

std::optional<ref::module> parse(std::string_view text) {
  auto r = ref::parse(text, "test.mlir");
  REQUIRE(r.ok());
  return std::move(r.value);
}

constexpr std::string_view small_function = R"(module {
  func.func @f(%w: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
    %g = "mhlo.all_gather"(%w) : (tensor<4xf32>) -> tensor<4xf32>
    %d = "mhlo.dot"(%x, %g) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %a = "mhlo.add"(%d, %d) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %r = "mhlo.reduce"(%a) ({
    ^bb0(%p: tensor<4xf32>):
      %s = "mhlo.add"(%p, %g) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      "mhlo.return"(%s) : (tensor<4xf32>) -> ()
    }) : (tensor<4xf32>) -> tensor<4xf32>
    %rs = "mhlo.reduce_scatter"(%r) : (tensor<4xf32>) -> tensor<4xf32>
    return %rs : tensor<4xf32>
  }
})";

ref::block_ref function_body(const ref::module& m) {
  return m.region_blocks(ref::functions(m).front()).front();
}

TEST_CASE("boost_graph_view: the edges of a small function, write_graphviz exact") {
  auto m = parse(small_function);
  const auto body = function_body(*m);
  const ref_view view(*m, body);
  auto name = [&](ref::op_ref o) { return std::string(m->name(o)); };

  std::ostringstream os;
  boost::write_graphviz(
      os, view, [&](std::ostream& out, ref::op_ref o) { out << "[label=\"" << name(o) << "\"]"; },
      [&](std::ostream& out, const ref_view::edge_descriptor& e) { out << "[label=\"" << m->value_index(e.value) << "\"]"; });
  // %d uses %g, the reduce uses %a and (inside its region) %g, the add uses %d twice
  CHECK(os.str() ==
        "digraph G {\n"
        "0[label=\"mhlo.all_gather\"];\n"
        "1[label=\"mhlo.dot\"];\n"
        "2[label=\"mhlo.add\"];\n"
        "3[label=\"mhlo.reduce\"];\n"
        "4[label=\"mhlo.reduce_scatter\"];\n"
        "5[label=\"func.return\"];\n"
        "0->1 [label=\"0\"];\n"
        "0->3 [label=\"0\"];\n"
        "1->2 [label=\"0\"];\n"
        "1->2 [label=\"0\"];\n"
        "2->3 [label=\"0\"];\n"
        "3->4 [label=\"0\"];\n"
        "4->5 [label=\"0\"];\n"
        "}\n");
  // the dense view writes the same text (its vertices are the positions graphviz numbers by)
  const nr::bgl_view::dense_block_view dense(*m, body);
  std::ostringstream dense_os;
  boost::write_graphviz(
      dense_os, dense, [&](std::ostream& out, std::size_t v) { out << "[label=\"" << name(dense.op_at(v)) << "\"]"; },
      [&](std::ostream& out, const ref_dense::edge_descriptor& e) { out << "[label=\"" << m->value_index(e.value) << "\"]"; });
  CHECK(dense_os.str() == os.str());
  CHECK(in_degree(3, dense) == 2);
  CHECK(out_degree(0, dense) == 2);
  CHECK(degree(2, dense) == 3);
  CHECK(in_degree(view.ops()[3], view) == 2);
  CHECK(out_degree(view.ops()[0], view) == 2);
  CHECK(degree(view.ops()[2], view) == 3);
  check_block(*m, body);

  // the reduce's own block: the add uses the block argument (no edge) and nothing else
  const ref_view inner(*m, m->region_blocks(view.ops()[3]).front());
  CHECK(num_vertices(inner) == 2);
  CHECK(num_edges(inner) == 1);
}

TEST_CASE("boost_graph_view: BFS, topological_sort and dominators on random reference-IR functions") {
  for (std::uint32_t seed = 1; seed <= 150; ++seed) {
    CAPTURE(seed);
    sf_random::generator gen(seed);
    for (auto b : all_blocks(gen.m)) check_block(gen.m, b);
  }
}

TEST_CASE("boost_graph_view: examples/custom_ir's IR (no op_index: the hash-map index)") {
  static_assert(!nr::indexed_ir<mini::Module>);
  mini::Module mod;
  auto& f = *mod.functions.emplace_back(std::make_unique<mini::Function>());
  f.name = "layer";
  auto& b = f.entry;
  auto& w = mini::add_param(b, "%w", "f32[4]");
  auto& x = mini::add_param(b, "%x", "f32[4]");
  auto* g = mini::emit(b, "all-gather", {&w}, {{"%g", "f32[16]"}}, {}).results[0].get();
  auto* d = mini::emit(b, "dot", {&x, g}, {{"%d", "f32[16]"}}, {}).results[0].get();
  auto* e = mini::emit(b, "exp", {&x}, {{"%e", "f32[4]"}}, {}).results[0].get();
  auto* s = mini::emit(b, "add", {d, e, d}, {{"%s", "f32[16]"}}, {}).results[0].get();
  auto* r = mini::emit(b, "reduce-scatter", {s}, {{"%r", "f32[4]"}}, {}).results[0].get();
  mini::emit(b, "return", {r, g}, {}, {});
  check_block(mod, &b);

  const mini_view view(mod, &b);
  std::ostringstream os;
  boost::write_graphviz(os, view, [](std::ostream& out, mini::Instr* i) { out << "[label=\"" << i->opcode << "\"]"; });
  CHECK(os.str() ==
        "digraph G {\n"
        "0[label=\"all-gather\"];\n1[label=\"dot\"];\n2[label=\"exp\"];\n3[label=\"add\"];\n"
        "4[label=\"reduce-scatter\"];\n5[label=\"return\"];\n"
        "0->1 ;\n0->5 ;\n1->3 ;\n1->3 ;\n2->3 ;\n3->4 ;\n4->5 ;\n"
        "}\n");
}

}  // namespace
