// Convexity (SPEC §4.4) on the reference IR and the archetype IR: pairs and clusters, paths
// through other collectives and nested regions, the exact offending op and path end points, and
// a randomized comparison with brute-force reachability.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <neuronrw/algorithms/block_dataflow.hpp>
#include <neuronrw/algorithms/convexity.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#include "algorithms/block_program.hpp"
#include "archetype/archetype_ir.hpp"

namespace nr = neuronrw;
using block_test::program;
using block_test::strings;

TEST_CASE_TEMPLATE("an all_gather feeding a reduce_scatter directly, with unrelated compute between", G,
                   nr::ref::module, nr::archetype::ir) {
  program<G> p(R"(
    ag = mhlo.all_gather %0
    u = foo.u %1
    v = foo.v ag
    w = foo.w u v
    rs = mhlo.reduce_scatter ag u
    ret = func.return rs w
  )");
  // v and w are reachable from ag but feed nothing in the cluster; u feeds rs but is not reached.
  auto r = nr::check_convexity(p.g, p["ag"], p["rs"]);
  CHECK(r.convex);
  CHECK(p.label(r.offending) == "<null>");
  CHECK(p.label(r.from_member) == "<null>");
}

TEST_CASE_TEMPLATE("a path through another collective makes the pair non-convex", G, nr::ref::module,
                   nr::archetype::ir) {
  program<G> p(R"(
    ag = mhlo.all_gather %0
    u = foo.u %1
    v = foo.v ag
    w = foo.w ag
    ar = mhlo.all_reduce w
    rs = mhlo.reduce_scatter ag u ar
    ret = func.return rs v
  )");
  auto r = nr::check_convexity(p.g, p["ag"], p["rs"]);
  CHECK_FALSE(r.convex);
  CHECK(p.label(r.offending) == "w");  // ar is on the path too, but w comes first
  CHECK(p.label(r.from_member) == "ag");
  CHECK(p.label(r.to_member) == "rs");

  nr::block_scratch<G> scratch(p.g);
  for (int i = 0; i < 2; ++i) {
    auto s = nr::check_convexity(scratch, p.g, p["ag"], p["rs"]);
    CHECK(p.label(s.offending) == "w");
    CHECK(nr::check_convexity(scratch, p.g, p["ag"], p["w"]).convex);
  }
}

TEST_CASE_TEMPLATE("a use inside a nested region puts its ancestor on the path", G, nr::ref::module,
                   nr::archetype::ir) {
  program<G> p(R"(
    ag = mhlo.all_gather %0
    n = foo.n %1
    r = foo.region n {
      i = foo.use ag
    }
    rs = mhlo.reduce_scatter ag r
  )");
  auto c = nr::check_convexity(p.g, p["ag"], p["rs"]);
  CHECK_FALSE(c.convex);
  CHECK(p.label(c.offending) == "r");

  program<G> q(R"(
    ag = mhlo.all_gather %0
    n = foo.n ag
    rs = mhlo.reduce_scatter ag {
      i = foo.use n
    }
  )");
  // The consumer's nested use of n counts as rs using n.
  auto d = nr::check_convexity(q.g, q["ag"], q["rs"]);
  CHECK_FALSE(d.convex);
  CHECK(q.label(d.offending) == "n");
}

TEST_CASE_TEMPLATE("clusters of several ops", G, nr::ref::module, nr::archetype::ir) {
  program<G> p(R"(
    ag = mhlo.all_gather %0
    x = foo.x %1
    rs = mhlo.reduce_scatter ag
    y = foo.y rs
    z = foo.z x
    g1 = mhlo.get_tuple_element rs
    g2 = mhlo.get_tuple_element y
  )");
  using op = nr::op_handle_t<G>;
  // Members in any order; paths through a member are fine.
  std::vector<op> ok{p["g1"], p["ag"], p["rs"]};
  CHECK(nr::check_convexity(p.g, ok).convex);
  std::vector<op> chain{p["ag"], p["rs"], p["y"], p["g2"]};
  CHECK(nr::check_convexity(p.g, chain).convex);
  // y lies on rs → y → g2.
  std::vector<op> bad{p["ag"], p["rs"], p["g1"], p["g2"]};
  auto r = nr::check_convexity(p.g, bad);
  CHECK_FALSE(r.convex);
  CHECK(p.label(r.offending) == "y");
  CHECK(p.label(r.from_member) == "ag");  // the earliest member y is reachable from
  CHECK(p.label(r.to_member) == "g2");
  // A single op, duplicates, an empty cluster.
  std::vector<op> one{p["x"], p["x"]};
  CHECK(nr::check_convexity(p.g, one).convex);
  CHECK(nr::check_convexity(p.g, std::vector<op>{}).convex);
}

namespace {

template <class G>
void random_convexity(std::mt19937& rng, const program<G>& p) {
  using op = nr::op_handle_t<G>;
  std::vector<op> top;
  for (auto&& o : nr::ir::ops(p.g, p.body)) top.push_back(o);
  const std::size_t n = top.size();
  // reach[i][j]: a dependence path from top[i] to top[j] (i before j).
  std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
  std::map<std::string, std::size_t> pos;
  for (std::size_t i = 0; i < n; ++i) pos[p.label(top[i])] = i;
  for (std::size_t j = 0; j < n; ++j)
    for (auto d : nr::producers_in_block(p.g, top[j], p.body)) {
      const std::size_t i = pos[p.label(d)];
      reach[i][j] = true;
      for (std::size_t k = 0; k < n; ++k)
        if (reach[k][i]) reach[k][j] = true;
    }
  nr::block_scratch<G> scratch(p.g);
  for (int t = 0; t < 12; ++t) {
    std::set<std::size_t> members;
    const std::size_t k = 1 + rng() % 4;
    for (std::size_t m = 0; m < k; ++m) members.insert(rng() % n);
    std::vector<op> cluster;
    for (auto m : members) cluster.push_back(top[m]);
    std::shuffle(cluster.begin(), cluster.end(), rng);
    std::string expected = "<null>";
    for (std::size_t x = *members.begin() + 1; x < *members.rbegin() && expected == "<null>"; ++x) {
      if (members.count(x)) continue;
      bool from = false, to = false;
      for (auto m : members) from = from || reach[m][x], to = to || reach[x][m];
      if (from && to) expected = p.label(top[x]);
    }
    auto r = nr::check_convexity(scratch, p.g, cluster);
    CHECK(r.convex == (expected == "<null>"));
    CHECK(p.label(r.offending) == expected);
    if (!r.convex) {
      const std::size_t x = pos[expected], f = pos[p.label(r.from_member)], to = pos[p.label(r.to_member)];
      CHECK(members.count(f) == 1);
      CHECK(members.count(to) == 1);
      CHECK(reach[f][x]);
      CHECK(reach[x][to]);
      for (auto m : members) {
        if (reach[m][x]) CHECK(f <= m);
        if (reach[x][m]) CHECK(m <= to);
      }
    }
  }
}

}  // namespace

TEST_CASE_TEMPLATE("randomized: convexity equals brute-force reachability", G, nr::ref::module, nr::archetype::ir) {
  std::mt19937 rng(4242);
  for (int round = 0; round < 60; ++round) {
    program<G> p(block_test::random_program(rng, 8 + rng() % 30));
    random_convexity(rng, p);
  }
}
