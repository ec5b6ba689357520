// Shared by the block_view and dense_block_view tests (tests/adapters/boost_graph_view/ on the
// reference IR and examples/custom_ir's IR, tests/adapters/mlir/ on MLIR): a brute-force dataflow
// matrix of one block, the checks of Boost's topological_sort and lengauer_tarjan_dominator_tree
// against it (through either view), and the dense view checked against brute force and the
// block_view.
// Header-only and exception-free, so the MLIR test (built with -fno-exceptions) includes it too.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <set>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/graph/dominator_tree.hpp>
#include <boost/graph/topological_sort.hpp>

#include <neuronrw/adapters/boost_graph_view.hpp>

#include <doctest/doctest.h>

namespace neuronrw_test::view_checks {

inline constexpr std::size_t npos = static_cast<std::size_t>(-1);

/// adj[a][b] = the number of uses, by b or by the ops nested in b, of values a (≠ b) defines;
/// indices are block positions. The test's own brute force fills it from the IR directly.
struct dataflow_matrix {
  std::vector<std::vector<std::size_t>> adj;

  /// Vertices reachable from s without passing through `removed` (npos: none).
  std::vector<bool> reach(std::size_t s, std::size_t removed = npos) const {
    std::vector<bool> seen(adj.size(), false);
    if (s == removed) return seen;
    std::vector<std::size_t> stack{s};
    seen[s] = true;
    while (!stack.empty()) {
      const std::size_t u = stack.back();
      stack.pop_back();
      for (std::size_t w = 0; w < adj.size(); ++w)
        if (adj[u][w] && !seen[w] && w != removed) seen[w] = true, stack.push_back(w);
    }
    return seen;
  }
  /// BFS discovery order from s, successors in block order (the view's out-edge order).
  std::vector<std::size_t> bfs(std::size_t s) const {
    std::vector<bool> seen(adj.size(), false);
    std::vector<std::size_t> order{s};
    seen[s] = true;
    for (std::size_t k = 0; k < order.size(); ++k)
      for (std::size_t w = 0; w < adj.size(); ++w)
        if (adj[order[k]][w] && !seen[w]) seen[w] = true, order.push_back(w);
    return order;
  }
};

/// The op of vertex `u`: a block_view's vertex is the op, a dense_block_view's its position.
template <class View>
auto op_of(const View& view, const typename View::vertex_descriptor& u) {
  if constexpr (requires { view.op_at(u); })
    return view.op_at(u);
  else
    return u;
}
/// The vertex of the block's i-th op (bf.ops[i]): the op, or (a dense view) i itself.
template <class View, class Brute>
typename View::vertex_descriptor vertex_at(const View& view, const Brute& bf, std::size_t i) {
  if constexpr (requires { view.op_at(i); })
    return i;
  else
    return bf.ops[i];
}

/// Boost's lengauer_tarjan_dominator_tree with dfnum initialised to "unvisited" (the maximum).
/// Boost 1.74's three-argument overload initialises it to 0, so an unreachable predecessor of a
/// reachable op looks like the entry and corrupts the tree (boostorg/graph pull request #97,
/// unmerged); dataflow graphs seen from one op have such predecessors everywhere.
/// Either view (block_view, dense_block_view); idom is indexed by the view's vertex index.
template <class View>
std::vector<typename View::vertex_descriptor> lengauer_tarjan(const View& view, typename View::vertex_descriptor entry) {
  using vertex = typename View::vertex_descriptor;
  const std::size_t n = num_vertices(view);
  const auto index = get(boost::vertex_index, view);
  const vertex null = boost::graph_traits<View>::null_vertex();
  std::vector<std::size_t> dfnum(n, npos);
  std::vector<vertex> parent(n, null), by_dfnum(n, null), idom(n, null);
  boost::lengauer_tarjan_dominator_tree(view, entry, index, boost::make_iterator_property_map(dfnum.begin(), index),
                                        boost::make_iterator_property_map(parent.begin(), index), by_dfnum,
                                        boost::make_iterator_property_map(idom.begin(), index));
  return idom;
}

/// topological_sort through the view: a permutation of the ops in which every edge goes forward.
/// `bf`: a dataflow_matrix with `ops` (in block order) and `pos(op)`.
template <class View, class Brute>
void check_topological_sort(const View& view, const Brute& bf) {
  const std::size_t n = bf.ops.size();
  std::vector<typename View::vertex_descriptor> rev;
  boost::topological_sort(view, std::back_inserter(rev));
  REQUIRE(rev.size() == n);
  std::vector<std::size_t> rank(n, n);
  for (std::size_t k = 0; k < n; ++k) rank[bf.pos(op_of(view, rev[n - 1 - k]))] = k;
  CHECK(std::count(rank.begin(), rank.end(), n) == 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (bf.adj[i][j]) CHECK(rank[i] < rank[j]);
}

/// lengauer_tarjan_dominator_tree through the view, from the first op and (blocks of at most 24
/// ops) from every op, against the dominators found by removing one op at a time.
template <class View, class Brute>
void check_dominators(const View& view, const Brute& bf) {
  const std::size_t n = bf.ops.size();
  const auto null = boost::graph_traits<View>::null_vertex();
  for (std::size_t s = 0; s < n && (s == 0 || n <= 24); ++s) {
    const auto idom = lengauer_tarjan(view, vertex_at(view, bf, s));
    REQUIRE(idom.size() == n);
    const auto reach = bf.reach(s);
    // dom[v]: the ops whose removal cuts v off from s (v itself and s included)
    std::vector<std::set<std::size_t>> dom(n);
    for (std::size_t v = 0; v < n; ++v) {
      if (!reach[v]) continue;
      for (std::size_t u = 0; u < n; ++u)
        if (u == v || !bf.reach(s, u)[v]) dom[v].insert(u);
    }
    for (std::size_t v = 0; v < n; ++v) {
      if (!reach[v] || v == s) {
        CHECK(idom[v] == null);
        continue;
      }
      // the immediate dominator: the strict dominator with the most dominators of its own
      std::size_t best = n;
      for (std::size_t u : dom[v])
        if (u != v && (best == n || dom[u].size() > dom[best].size())) best = u;
      REQUIRE(best != n);
      CHECK(idom[v] == vertex_at(view, bf, best));
    }
  }
}

/// The dense view of the block against brute force `bf` and against the block_view `view` (whose
/// lists the caller checked): vertices 0 .. n-1 with op_at/vertex_of the block order, the
/// identity index, every vertex's out- and in-edge list the block_view's with ops replaced by
/// their positions (same order, same values), edges() in vertex order, BFS's discovery order
/// from vertex 0, topological_sort and the dominators.
template <class G, class Brute>
void check_dense_view(const neuronrw::bgl_view::block_view<G>& view, const Brute& bf) {
  using dense_t = neuronrw::bgl_view::dense_block_view<G>;
  const dense_t dense(view.ir(), view.ir_block());
  const std::size_t n = bf.ops.size();
  REQUIRE(num_vertices(dense) == n);
  static_assert(std::is_same_v<typename dense_t::vertex_descriptor, std::size_t>);
  CHECK(boost::graph_traits<dense_t>::null_vertex() == static_cast<std::size_t>(-1));
  {
    std::size_t i = 0;
    const auto idx = get(boost::vertex_index, dense);
    for (auto [it, end] = vertices(dense); it != end; ++it, ++i) {
      CHECK(*it == i);
      CHECK(get(idx, *it) == i);
      CHECK(get(boost::vertex_index, dense, *it) == i);
      CHECK(dense.op_at(i) == bf.ops[i]);
      CHECK(dense.vertex_of(bf.ops[i]) == i);
    }
    CHECK(i == n);
  }
  auto same = [&](auto dense_edges, auto view_edges) {
    REQUIRE(static_cast<std::size_t>(dense_edges.second - dense_edges.first) ==
            static_cast<std::size_t>(view_edges.second - view_edges.first));
    auto v = view_edges.first;
    for (auto d = dense_edges.first; d != dense_edges.second; ++d, ++v) {
      CHECK(bf.ops[source(*d, dense)] == source(*v, view));
      CHECK(bf.ops[target(*d, dense)] == target(*v, view));
      CHECK(d->value == v->value);
    }
  };
  std::size_t m = 0;
  for (std::size_t i = 0; i < n; ++i) {
    same(out_edges(i, dense), out_edges(bf.ops[i], view));
    same(in_edges(i, dense), in_edges(bf.ops[i], view));
    CHECK(out_degree(i, dense) == out_degree(bf.ops[i], view));
    CHECK(in_degree(i, dense) == in_degree(bf.ops[i], view));
    CHECK(degree(i, dense) == degree(bf.ops[i], view));
    m += out_degree(i, dense);
  }
  {
    std::vector<std::pair<std::size_t, std::size_t>> got, want;
    for (auto [it, end] = edges(dense); it != end; ++it) got.emplace_back(source(*it, dense), target(*it, dense));
    for (auto [it, end] = edges(view); it != end; ++it)
      want.emplace_back(bf.pos(source(*it, view)), bf.pos(target(*it, view)));
    CHECK(got == want);
    CHECK(num_edges(dense) == m);
  }
  if (n == 0) return;
  {
    struct recorder : boost::default_bfs_visitor {
      std::vector<std::size_t>* out;
      void discover_vertex(std::size_t u, const dense_t&) const { out->push_back(u); }
    };
    std::vector<std::size_t> got;
    recorder vis;
    vis.out = &got;
    boost::breadth_first_search(dense, 0, boost::visitor(vis));
    CHECK(got == bf.bfs(0));
  }
  check_topological_sort(dense, bf);
  check_dominators(dense, bf);
}

}  // namespace neuronrw_test::view_checks
