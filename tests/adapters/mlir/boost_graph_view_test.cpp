// neuronrw/adapters/boost_graph_view.hpp on MLIR (issue 11, direction 2: "... and (when built)
// MLIR without copying"): the view of a block of a parsed MLIR module, through the MLIR adapter
// (mlir_adapter::ir), its vertices the block's own mlir::Operation*, checked against brute force
// computed with MLIR's API directly (never through the adapter or the view):
//   - the vertices are the block's ops in order, get(vertex_index) their positions;
//   - each op's out-edges are exactly its results' uses (OpOperand lists) lifted to the block
//     with Block::findAncestorOpInBlock, in the documented order (consumer position, then result);
//     its in-edges exactly the operands of it and of the ops nested in it (Operation::walk,
//     pre-order) whose defining op is another op of the block, in that order; the two brute
//     forces give the same multigraph, and edges() / num_edges() agree;
//   - breadth_first_search discovers the ops a brute-force BFS discovers, in the same order;
//   - every edge goes forward in block order, and topological_sort's result is a permutation of
//     the ops in which every edge goes forward;
//   - lengauer_tarjan_dominator_tree from the first op (and, in blocks of up to 24 ops, from
//     every op) equals the dominators found by removing one op at a time;
//   - write_graphviz writes exactly the expected text for a small function (in
//     boost_graph_view_graphviz.cpp: boost/graph/graphviz.hpp needs RTTI, see its header);
//   - dense_block_view (vertex = position) of every checked block: the same edge lists in the
//     same order, BFS order, topological order and dominators (view_checks.hpp).
// Modules: func.func with several blocks, unregistered ops (mhlo.all_gather, test.op) and arith
// ops, scf.for / scf.if bodies using values of the outer block, an op with two results, ops
// using one value twice (directly and from a nested region), a use from another block of the
// function (no edge), a use of an op's result inside its own region (no edge); and 40 of the
// random functions tests/adapters/mlir/random_test.cpp runs (every block of each, nested too).
//
// Exceptions: this TU has LLVM's -fno-exceptions -fno-rtti (mlir_dep). Boost then needs
// BOOST_NO_EXCEPTIONS (boost/config defines it too when exceptions are off; set here before any
// Boost header so it does not depend on that) and the user-defined boost::throw_exception
// overloads that boost/throw_exception.hpp declares under it (1.74: with and without a
// source_location), defined below: print and abort. boost/graph/graphviz.hpp does not compile
// under -fno-rtti (typeid in dynamic_property_map.hpp, xpressive, graphviz.hpp's dynamic writers),
// hence boost_graph_view_graphviz.cpp; everything else here compiles with LLVM's flags.
#ifndef BOOST_NO_EXCEPTIONS
#define BOOST_NO_EXCEPTIONS
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iterator>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <boost/throw_exception.hpp>

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/dominator_tree.hpp>
#include <boost/graph/graph_concepts.hpp>
#include <boost/graph/topological_sort.hpp>

#include <doctest/doctest.h>

#include <neuronrw/adapters/boost_graph_view.hpp>
#include <neuronrw/adapters/mlir/traits.hpp>

#include "adapters/boost_graph_view/view_checks.hpp"
#include "adapters/mlir/boost_graph_view_graphviz.hpp"
#include "adapters/mlir/differential_support.hpp"
#include "adapters/mlir/support.hpp"

namespace boost {
// Declared by boost/throw_exception.hpp under BOOST_NO_EXCEPTIONS, "user defined".
void throw_exception(std::exception const& e) {
  std::fprintf(stderr, "boost::throw_exception under -fno-exceptions: %s\n", e.what());
  std::abort();
}
void throw_exception(std::exception const& e, boost::source_location const& loc) {
  std::fprintf(stderr, "boost::throw_exception under -fno-exceptions: %s (%s:%u)\n", e.what(), loc.file_name(),
               static_cast<unsigned>(loc.line()));
  std::abort();
}
}  // namespace boost

namespace {

namespace nr = neuronrw;
namespace na = neuronrw::mlir_adapter;
using nr::bgl_view::block_view;
using view_t = block_view<na::ir>;
using edge_t = view_t::edge_descriptor;

BOOST_CONCEPT_ASSERT((boost::BidirectionalGraphConcept<view_t>));
BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<view_t>));
BOOST_CONCEPT_ASSERT((boost::EdgeListGraphConcept<view_t>));
BOOST_CONCEPT_ASSERT((boost::ReadablePropertyMapConcept<boost::property_map<view_t, boost::vertex_index_t>::const_type,
                                                        mlir::Operation*>));
static_assert(std::is_same_v<view_t::vertex_descriptor, mlir::Operation*>);  // MLIR's own handles
static_assert(std::is_same_v<decltype(edge_t::value), mlir::Value>);

/// The block's dataflow from MLIR's API alone. Positions are block positions.
struct brute_graph : neuronrw_test::view_checks::dataflow_matrix {
  std::vector<mlir::Operation*> ops;
  /// adj[a][b]: operand slots of b and of the ops nested in b (Operation::walk) whose value a ≠ b
  /// defines; adj_uses: the same from a's results' use lists lifted by findAncestorOpInBlock.
  std::vector<std::vector<std::size_t>> adj_uses;
  std::vector<std::vector<edge_t>> in, out;  // the exact lists the header documents

  explicit brute_graph(mlir::Block* b) {
    for (auto& o : *b) ops.push_back(&o);
    const std::size_t n = ops.size();
    adj.assign(n, std::vector<std::size_t>(n, 0));
    adj_uses = adj;
    in.resize(n);
    out.resize(n);
    for (std::size_t j = 0; j < n; ++j) {
      ops[j]->walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation* x) {
        for (mlir::Value v : x->getOperands()) {
          mlir::Operation* d = v.getDefiningOp();
          if (!d || d == ops[j] || d->getBlock() != b) continue;
          ++adj[pos(d)][j];
          in[j].push_back(edge_t{d, ops[j], v});
        }
      });
    }
    for (std::size_t i = 0; i < n; ++i) {
      // out-edges: by consumer position, then by result number
      std::vector<std::vector<std::size_t>> count(n, std::vector<std::size_t>(ops[i]->getNumResults(), 0));
      for (mlir::OpResult r : ops[i]->getResults())
        for (mlir::OpOperand& use : r.getUses()) {
          mlir::Operation* a = b->findAncestorOpInBlock(*use.getOwner());
          if (!a || a == ops[i]) continue;
          ++adj_uses[i][pos(a)];
          ++count[pos(a)][r.getResultNumber()];
        }
      for (std::size_t t = 0; t < n; ++t)
        for (unsigned k = 0; k < ops[i]->getNumResults(); ++k)
          for (std::size_t c = 0; c < count[t][k]; ++c) out[i].push_back(edge_t{ops[i], ops[t], ops[i]->getResult(k)});
    }
  }
  std::size_t pos(mlir::Operation* o) const {
    return static_cast<std::size_t>(std::find(ops.begin(), ops.end(), o) - ops.begin());
  }
};

/// Edges, BFS, topological order and dominators of one block: the view against brute force.
/// Returns the number of edges.
std::size_t check_block(const na::ir& g, mlir::Block* b) {
  const brute_graph bf(b);
  const view_t view(g, b);
  const std::size_t n = bf.ops.size();
  REQUIRE(&view.ir() == &g);
  REQUIRE(view.ir_block() == b);

  // the two brute forces agree (uses inside the block, nested ones lifted)
  REQUIRE(bf.adj == bf.adj_uses);

  // vertices: the block's own ops, in order; the index map is the position
  REQUIRE(num_vertices(view) == n);
  {
    std::size_t i = 0;
    const auto idx = get(boost::vertex_index, view);
    for (auto [it, end] = vertices(view); it != end; ++it, ++i) {
      CHECK(*it == bf.ops[i]);
      CHECK(get(idx, *it) == i);
      CHECK(get(boost::vertex_index, view, *it) == i);
    }
    CHECK(i == n);
  }

  // out-edges and in-edges: exactly the documented lists; edges() the out-edges in vertex order
  std::vector<edge_t> all_want;
  for (std::size_t i = 0; i < n; ++i) {
    const auto [ob, oe] = out_edges(bf.ops[i], view);
    const std::vector<edge_t> out(ob, oe);
    CHECK(out == bf.out[i]);
    CHECK(out_degree(bf.ops[i], view) == bf.out[i].size());
    const auto [ib, ie] = in_edges(bf.ops[i], view);
    const std::vector<edge_t> in(ib, ie);
    CHECK(in == bf.in[i]);
    CHECK(in_degree(bf.ops[i], view) == bf.in[i].size());
    CHECK(degree(bf.ops[i], view) == bf.in[i].size() + bf.out[i].size());
    for (const auto& e : out) {
      CHECK(source(e, view) == bf.ops[i]);
      CHECK(e.value.getDefiningOp() == bf.ops[i]);
    }
    for (const auto& e : in) CHECK(target(e, view) == bf.ops[i]);
    all_want.insert(all_want.end(), bf.out[i].begin(), bf.out[i].end());
  }
  const auto [eb, ee] = edges(view);
  const std::vector<edge_t> all(eb, ee);
  CHECK(all == all_want);
  CHECK(num_edges(view) == all_want.size());

  // every edge goes forward in block order
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) CHECK(bf.adj[i][j] == 0);
  if (n == 0) return 0;

  // BFS from the first op: the brute-force discovery order
  {
    struct recorder : boost::default_bfs_visitor {
      std::vector<std::size_t>* out;
      const brute_graph* bf;
      void discover_vertex(mlir::Operation* u, const view_t&) const { out->push_back(bf->pos(u)); }
    };
    std::vector<std::size_t> got;
    recorder vis;
    vis.out = &got;
    vis.bf = &bf;
    boost::breadth_first_search(view, bf.ops[0], boost::visitor(vis));
    CHECK(got == bf.bfs(0));
  }

  neuronrw_test::view_checks::check_topological_sort(view, bf);

  neuronrw_test::view_checks::check_dominators(view, bf);

  // the dense view (vertex = position): the same lists, BFS, topological order and dominators
  neuronrw_test::view_checks::check_dense_view(view, bf);
  return all_want.size();
}

/// Every block under `root` (its own regions' blocks included).
std::vector<mlir::Block*> all_blocks(mlir::Operation* root) {
  std::vector<mlir::Block*> bs;
  root->walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation* o) {
    for (mlir::Region& r : o->getRegions())
      for (mlir::Block& b : r) bs.push_back(&b);
  });
  return bs;
}

mlir::func::FuncOp function(mlir::ModuleOp m, std::string_view name) {
  for (auto f : m.getOps<mlir::func::FuncOp>())
    if (f.getSymName() == llvm::StringRef(name.data(), name.size())) return f;
  return {};
}

std::string op_name(mlir::Operation* o) { return o->getName().getStringRef().str(); }

// @main: several blocks; unregistered (mhlo.all_gather, test.*) and arith ops; %p has two results
// used by one op (both) and elsewhere; %sq uses %p#1 twice; the scf.for body uses %p#0 and %g of
// the outer block, the scf.if's else region uses %p#0 twice; %u uses only a block argument;
// ^bb1 uses %g (another block: no edge in the entry block's view).
constexpr std::string_view kMain = R"mlir(
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %g = "mhlo.all_gather"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %p:2 = "test.op"(%g, %b) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %sq = "test.op"(%p#1, %p#1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %both = "test.op"(%p#1, %p#0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %loop = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %sq) -> (tensor<4xf32>) {
    %t = "test.op"(%acc, %p#0, %g) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    scf.yield %t : tensor<4xf32>
  }
  %cond = arith.cmpi slt, %c0, %n : index
  %sel = scf.if %cond -> (tensor<4xf32>) {
    scf.yield %loop : tensor<4xf32>
  } else {
    %z = "test.op"(%p#0, %p#0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    scf.yield %z : tensor<4xf32>
  }
  %u = "test.unused"(%b) : (tensor<4xf32>) -> tensor<4xf32>
  %s = "test.op"(%sel, %both, %u) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  "test.br"(%s)[^bb1] : (tensor<4xf32>) -> ()
^bb1(%x: tensor<4xf32>):
  %w = "test.op"(%x, %g) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %w : tensor<4xf32>
}

func.func @small(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %g = "mhlo.all_gather"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %p:2 = "test.op"(%g, %g) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %p#1) -> (tensor<4xf32>) {
    %t = "test.op"(%acc, %p#0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    scf.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @graph_region(%b: tensor<4xf32>) -> tensor<4xf32> {
  %h = "test.op"(%b) : (tensor<4xf32>) -> tensor<4xf32>
  %q = "test.region"(%h) ({
    "test.inner"(%b, %h) : (tensor<4xf32>, tensor<4xf32>) -> ()
    "test.yield"() : () -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %q : tensor<4xf32>
}
)mlir";

}  // namespace

TEST_CASE("boost_graph_view on MLIR: the entry block of a function with nested regions and several blocks") {
  auto ctx = mlir_test::make_context();
  std::string errors;
  auto m = mlir_test::parse(*ctx, kMain, &errors);
  REQUIRE_MESSAGE(m, errors);
  const na::ir g(m->getOperation());
  auto f = function(*m, "main");
  REQUIRE(f);
  REQUIRE(f.getBody().getBlocks().size() == 2);
  mlir::Block* entry = &f.getBody().front();
  const view_t view(g, entry);

  // the vertices, by name
  std::vector<std::string> names;
  for (auto [it, end] = vertices(view); it != end; ++it) names.push_back(op_name(*it));
  CHECK(names == std::vector<std::string>{"arith.constant", "arith.constant", "mhlo.all_gather", "test.op", "test.op",
                                          "test.op", "scf.for", "arith.cmpi", "scf.if", "test.unused", "test.op",
                                          "test.br"});
  const auto& ops = view.ops();
  REQUIRE(ops.size() == 12);
  // a few edges spelled out (positions): the for (6) takes %c0, %c1 (0, 1), %sq (4) and, from its
  // body, %p#0 (3) and %g (2); the if (8) takes %cond (7), %loop (6) from its then region and %p#0
  // twice from its else region; %sq (4) uses %p#1 twice; %both (5) uses both results of %p
  auto in_positions = [&](std::size_t v) {
    std::vector<std::size_t> r;
    for (auto [it, end] = in_edges(ops[v], view); it != end; ++it) r.push_back(view.position(source(*it, view)));
    return r;
  };
  CHECK(in_positions(6) == std::vector<std::size_t>{0, 1, 4, 3, 2});
  CHECK(in_positions(8) == std::vector<std::size_t>{7, 6, 3, 3});
  CHECK(in_positions(4) == std::vector<std::size_t>{3, 3});
  CHECK(in_positions(5) == std::vector<std::size_t>{3, 3});
  CHECK(in_positions(9).empty());   // %u uses a block argument only
  CHECK(in_positions(0).empty());
  std::vector<unsigned> p_out_results;
  std::vector<std::size_t> p_out_targets;
  for (auto [it, end] = out_edges(ops[3], view); it != end; ++it) {
    p_out_targets.push_back(view.position(target(*it, view)));
    p_out_results.push_back(mlir::cast<mlir::OpResult>(it->value).getResultNumber());
  }
  CHECK(p_out_targets == std::vector<std::size_t>{4, 4, 5, 5, 6, 8, 8});
  CHECK(p_out_results == std::vector<unsigned>{1, 1, 0, 1, 0, 0, 0});
  // %g is also used in ^bb1: not an edge of the entry block
  CHECK(out_degree(ops[2], view) == 2);
  CHECK(std::distance(ops[2]->getResult(0).use_begin(), ops[2]->getResult(0).use_end()) == 3);
  CHECK(out_degree(ops[11], view) == 0);

  CHECK(check_block(g, entry) == 19);
  // every block of the module, the entry block again included
  std::size_t blocks = 0;
  for (mlir::Block* b : all_blocks(m->getOperation())) {
    check_block(g, b);
    ++blocks;
  }
  // the module's, @main's two, its for's and its if's two, @small's and its for's, @graph_region's
  // and its test.region's
  CHECK(blocks == 1 + 2 + 1 + 2 + 1 + 1 + 1 + 1);
}

TEST_CASE("boost_graph_view on MLIR: write_graphviz, exact") {
  auto ctx = mlir_test::make_context();
  auto m = mlir_test::parse(*ctx, kMain);
  REQUIRE(m);
  auto f = function(*m, "small");
  REQUIRE(f);
  mlir::Block* body = &f.getBody().front();
  // boost_graph_view_graphviz.cpp: boost::write_graphviz on block_view<mlir_adapter::ir>, with op
  // names as vertex labels and result numbers as edge labels. %p uses %g twice; the for takes
  // %c0, %c1, %p#1 (iter_args) and, in its body, %p#0
  CHECK(bgv_graphviz::write(m->getOperation(), body, true) ==
        "digraph G {\n"
        "0[label=\"arith.constant\"];\n"
        "1[label=\"arith.constant\"];\n"
        "2[label=\"mhlo.all_gather\"];\n"
        "3[label=\"test.op\"];\n"
        "4[label=\"scf.for\"];\n"
        "5[label=\"func.return\"];\n"
        "0->4 [label=\"0\"];\n"
        "1->4 [label=\"0\"];\n"
        "2->3 [label=\"0\"];\n"
        "2->3 [label=\"0\"];\n"
        "3->4 [label=\"0\"];\n"
        "3->4 [label=\"1\"];\n"
        "4->5 [label=\"0\"];\n"
        "}\n");
  // and with the default writers
  CHECK(bgv_graphviz::write(m->getOperation(), body, false) ==
        "digraph G {\n0;\n1;\n2;\n3;\n4;\n5;\n"
        "0->4 ;\n1->4 ;\n2->3 ;\n2->3 ;\n3->4 ;\n3->4 ;\n4->5 ;\n}\n");
  check_block(na::ir(m->getOperation()), body);
}

TEST_CASE("boost_graph_view on MLIR: a use of an op's result inside its own region is no edge") {
  auto ctx = mlir_test::make_context();
  auto m = mlir_test::parse(*ctx, kMain);
  REQUIRE(m);
  auto f = function(*m, "graph_region");
  REQUIRE(f);
  mlir::Block* body = &f.getBody().front();
  mlir::Operation* h = &body->front();
  mlir::Operation* q = h->getNextNode();
  REQUIRE(op_name(q) == "test.region");
  mlir::Operation* inner = &q->getRegion(0).front().front();
  REQUIRE(op_name(inner) == "test.inner");
  // %q used inside its own region (what a graph region allows; MLIR's parser would refuse it in
  // an SSACFG region, so it is made here): the inner op's first operand becomes %q
  inner->setOperand(0, q->getResult(0));
  const na::ir g(m->getOperation());
  const view_t view(g, body);
  CHECK(out_degree(q, view) == 1);  // the return only
  CHECK(in_degree(q, view) == 2);   // %h, as the region's operand and from the inner op
  CHECK(num_edges(view) == 3);
  CHECK(check_block(g, body) == 3);
  CHECK(check_block(g, &q->getRegion(0).front()) == 0);
}

TEST_CASE("boost_graph_view on MLIR: random functions (random_test.cpp's generator), every block") {
  auto ctx = mlir_test::make_context();
  std::size_t blocks = 0, edges = 0, nested = 0;
  for (std::uint32_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    const diff::ref_outcome r = diff::run_ref_random(seed, diff::pipeline::schedule_fusion, {});
    REQUIRE_MESSAGE(r.parsed, r.error);
    std::string errors;
    auto m = mlir_test::parse(*ctx, r.input, &errors);
    REQUIRE_MESSAGE(m, "MLIR cannot parse the generated function:\n" << errors << r.input);
    const na::ir g(m->getOperation());
    for (mlir::Block* b : all_blocks(m->getOperation())) {
      edges += check_block(g, b);
      ++blocks;
      nested += b->getParentOp() && !mlir::isa<mlir::ModuleOp, mlir::func::FuncOp>(b->getParentOp());
    }
  }
  MESSAGE(blocks << " blocks (" << nested << " nested), " << edges << " edges");
  CHECK(nested > 0);
  CHECK(edges > 0);
}
