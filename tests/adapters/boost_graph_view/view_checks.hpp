// Shared by the block_view tests (tests/adapters/boost_graph_view/ on the reference IR and
// examples/custom_ir's IR, tests/adapters/mlir/ on MLIR): a brute-force dataflow matrix of one
// block, and the checks of Boost's topological_sort and lengauer_tarjan_dominator_tree against it.
// Header-only and exception-free, so the MLIR test (built with -fno-exceptions) includes it too.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <set>
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

/// Boost's lengauer_tarjan_dominator_tree with dfnum initialised to "unvisited" (the maximum).
/// Boost 1.74's three-argument overload initialises it to 0, so an unreachable predecessor of a
/// reachable op looks like the entry and corrupts the tree (boostorg/graph pull request #97,
/// unmerged); dataflow graphs seen from one op have such predecessors everywhere.
template <class G>
std::vector<neuronrw::op_handle_t<G>> lengauer_tarjan(const neuronrw::bgl_view::block_view<G>& view,
                                                      neuronrw::op_handle_t<G> entry) {
  using view_t = neuronrw::bgl_view::block_view<G>;
  using op = neuronrw::op_handle_t<G>;
  const std::size_t n = num_vertices(view);
  const auto index = get(boost::vertex_index, view);
  const op null = boost::graph_traits<view_t>::null_vertex();
  std::vector<std::size_t> dfnum(n, npos);
  std::vector<op> parent(n, null), by_dfnum(n, null), idom(n, null);
  boost::lengauer_tarjan_dominator_tree(view, entry, index, boost::make_iterator_property_map(dfnum.begin(), index),
                                        boost::make_iterator_property_map(parent.begin(), index), by_dfnum,
                                        boost::make_iterator_property_map(idom.begin(), index));
  return idom;
}

/// topological_sort through the view: a permutation of the ops in which every edge goes forward.
/// `bf`: a dataflow_matrix with `ops` (in block order) and `pos(op)`.
template <class G, class Brute>
void check_topological_sort(const neuronrw::bgl_view::block_view<G>& view, const Brute& bf) {
  const std::size_t n = bf.ops.size();
  std::vector<neuronrw::op_handle_t<G>> rev;
  boost::topological_sort(view, std::back_inserter(rev));
  REQUIRE(rev.size() == n);
  std::vector<std::size_t> rank(n, n);
  for (std::size_t k = 0; k < n; ++k) rank[bf.pos(rev[n - 1 - k])] = k;
  CHECK(std::count(rank.begin(), rank.end(), n) == 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (bf.adj[i][j]) CHECK(rank[i] < rank[j]);
}

/// lengauer_tarjan_dominator_tree through the view, from the first op and (blocks of at most 24
/// ops) from every op, against the dominators found by removing one op at a time.
template <class G, class Brute>
void check_dominators(const neuronrw::bgl_view::block_view<G>& view, const Brute& bf) {
  const std::size_t n = bf.ops.size();
  const auto null = boost::graph_traits<neuronrw::bgl_view::block_view<G>>::null_vertex();
  for (std::size_t s = 0; s < n && (s == 0 || n <= 24); ++s) {
    const auto idom = lengauer_tarjan(view, bf.ops[s]);
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
      CHECK(idom[v] == bf.ops[best]);
    }
  }
}

}  // namespace neuronrw_test::view_checks
