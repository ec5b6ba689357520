// The Boost.Graph adapter (include/neuronrw/adapters/boost_graph.hpp), requirement by requirement,
// on every storage/direction configuration the issue names: vecS and listS vertices, directedS
// and bidirectionalS, edges producer → consumer and consumer → producer (and through
// boost::reverse_graph), multi-result ops; then the walk, convexity and repair on it with exact
// expected results.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/reverse_graph.hpp>

#include <neuronrw/adapters/boost_graph.hpp>
#include <neuronrw/algorithms/convexity.hpp>
#include <neuronrw/algorithms/dependence_walk.hpp>
#include <neuronrw/algorithms/dominance_repair.hpp>

#include "graph_configs.hpp"

namespace nr = neuronrw;

namespace {

struct vprop {
  std::string name;
  nr::kind_id kind = 0;
  int pos = 0;
  int block = 0;
};
struct eprop {
  unsigned result = 0;
};

constexpr nr::kind_id compute = nr::kind_id_of("compute");
constexpr nr::kind_id ag = nr::kind_id_v<nr::kinds::all_gather>;
constexpr nr::kind_id rs = nr::kind_id_v<nr::kinds::reduce_scatter>;

using configs = neuronrw_test::bgl::all_configs<vprop, eprop>;
using vec_bidir_c2p = std::tuple_element_t<1, configs>;  // vecS, bidirectionalS, consumer → producer

// The test graph, positions in brackets, vertices inserted in another order than positions:
//   a[0]            compute
//   b[1]            all_gather, two results
//   c[2] = f(b#0)
//   d[3] = f(b#1, a)
//   e[4] = f(c, d)
//   f[5] = rs(e)    reduce_scatter
// plus a second block (block property 1): x[0], y[1] = f(x).
template <class C>
struct fixture {
  using graph = typename C::graph;
  using vertex = typename boost::graph_traits<graph>::vertex_descriptor;
  graph g;
  std::map<std::string, vertex> v;

  fixture() {
    const vprop props[] = {{"d", compute, 3, 0}, {"y", compute, 1, 1}, {"a", compute, 0, 0}, {"f", rs, 5, 0},
                           {"b", ag, 1, 0},      {"x", compute, 0, 1}, {"e", compute, 4, 0}, {"c", compute, 2, 0}};
    for (const auto& p : props) v[p.name] = boost::add_vertex(p, g);
    use("b", 0, "c");
    use("b", 1, "d");
    use("a", 0, "d");
    use("c", 0, "e");
    use("d", 0, "e");
    use("e", 0, "f");
    use("x", 0, "y");
  }
  void use(const std::string& producer, unsigned result, const std::string& consumer) {
    if constexpr (C::p2c)
      boost::add_edge(v[producer], v[consumer], eprop{result}, g);
    else
      boost::add_edge(v[consumer], v[producer], eprop{result}, g);
  }
  auto adapter() {
    return std::make_unique<nr::bgl::dataflow_graph<graph, decltype(boost::get(&vprop::kind, g)),
                                                    decltype(boost::get(&vprop::pos, g)), typename C::direction,
                                                    decltype(boost::get(&eprop::result, g)),
                                                    decltype(boost::get(&vprop::block, g))>>(
        g, boost::get(&vprop::kind, g), boost::get(&vprop::pos, g), typename C::direction{},
        boost::get(&eprop::result, g), boost::get(&vprop::block, g));
  }
  std::string name(vertex x) const { return x == boost::graph_traits<graph>::null_vertex() ? "null" : g[x].name; }
  template <class R>
  std::vector<std::string> names(R&& r) const {
    std::vector<std::string> out;
    for (auto&& x : r) out.push_back(name(x));
    return out;
  }
  template <class R>
  std::multiset<std::string> value_names(R&& r) const {
    std::multiset<std::string> out;
    for (auto&& x : r) out.insert(name(x.op) + "#" + std::to_string(x.index));
    return out;
  }
  std::vector<std::string> order(int block) const {
    std::vector<std::pair<int, std::string>> p;
    for (auto x : boost::make_iterator_range(boost::vertices(g)))
      if (g[x].block == block) p.emplace_back(g[x].pos, g[x].name);
    std::sort(p.begin(), p.end());
    std::vector<std::string> out;
    for (auto& [pos, n] : p) out.push_back(n);
    return out;
  }
};

using strings = std::vector<std::string>;
using bag = std::multiset<std::string>;

}  // namespace

TEST_CASE_TEMPLATE_DEFINE("boost_graph adapter: read, ordered, reschedulable requirements", C, requirements) {
  fixture<C> fx;
  auto dgp = fx.adapter();
  auto& dg = *dgp;
  using G = std::remove_cvref_t<decltype(dg)>;
  static_assert(nr::reschedulable_ir<G>);
  static_assert(nr::indexed_ir<G>);
  auto& v = fx.v;

  SUBCASE("read: kinds, operands with result indices, users per result, results") {
    CHECK(nr::ir::kind(dg, v["b"]) == ag);
    CHECK(nr::ir::kind(dg, v["f"]) == rs);
    CHECK(nr::ir::kind(dg, v["e"]) == compute);
    CHECK(fx.value_names(nr::ir::operands(dg, v["d"])) == bag{"a#0", "b#1"});
    CHECK(fx.value_names(nr::ir::operands(dg, v["e"])) == bag{"c#0", "d#0"});
    CHECK(fx.value_names(nr::ir::operands(dg, v["a"])).empty());
    CHECK(fx.value_names(nr::ir::results(dg, v["b"])) == bag{"b#0", "b#1"});
    CHECK(fx.value_names(nr::ir::results(dg, v["f"])) == bag{"f#0"});
    using value = nr::value_handle_t<G>;
    CHECK(fx.names(nr::ir::users(dg, value{v["b"], 0})) == strings{"c"});
    CHECK(fx.names(nr::ir::users(dg, value{v["b"], 1})) == strings{"d"});
    CHECK(fx.names(nr::ir::users(dg, value{v["f"], 0})).empty());
    CHECK(nr::ir::defining_op(dg, value{v["b"], 1}) == v["b"]);
    CHECK(nr::ir::is_null<G>(nr::ir::parent_op(dg, v["c"])));
    CHECK(std::ranges::empty(nr::ir::regions(dg, v["c"])));
    CHECK(nr::handle_hash<value>{}(value{v["b"], 0}) != nr::handle_hash<value>{}(value{v["b"], 1}));
  }

  SUBCASE("ordered: blocks from the block property, order from the position property") {
    const auto b0 = dg.block(0), b1 = dg.block(1);
    CHECK(b0 != b1);
    CHECK(dg.block(7) == nr::order_maintenance::npos);
    CHECK(dg.block_count() == 2);
    CHECK(nr::ir::block_of(dg, v["c"]) == b0);
    CHECK(nr::ir::block_of(dg, v["y"]) == b1);
    CHECK(fx.names(nr::ir::ops(dg, b0)) == strings{"a", "b", "c", "d", "e", "f"});
    CHECK(fx.names(nr::ir::ops(dg, b1)) == strings{"x", "y"});
    CHECK(nr::ir::is_before_in_block(dg, v["a"], v["f"]));
    CHECK_FALSE(nr::ir::is_before_in_block(dg, v["e"], v["d"]));
    CHECK(fx.name(nr::ir::next_op(dg, v["c"])) == "d");
    CHECK(fx.name(nr::ir::prev_op(dg, v["c"])) == "b");
    CHECK(fx.name(nr::ir::next_op(dg, v["f"])) == "null");
    CHECK(fx.name(nr::ir::prev_op(dg, v["a"])) == "null");
    CHECK(fx.name(nr::ir::prev_op(dg, v["x"])) == "null");
    // op_index: dense and unique
    std::set<std::size_t> idx;
    for (auto x : boost::make_iterator_range(boost::vertices(fx.g))) {
      CHECK(nr::ir::op_index(dg, x) < nr::ir::op_index_bound(dg));
      idx.insert(nr::ir::op_index(dg, x));
    }
    CHECK(idx.size() == 8);
  }

  SUBCASE("reschedulable: moves change the order at once and the position property on sync") {
    nr::ir::move_after(dg, v["c"], v["d"]);
    nr::ir::move_before(dg, v["y"], v["x"]);
    CHECK(fx.names(nr::ir::ops(dg, dg.block(0))) == strings{"a", "b", "d", "c", "e", "f"});
    CHECK(nr::ir::is_before_in_block(dg, v["d"], v["c"]));
    CHECK(fx.order(0) == strings{"a", "b", "c", "d", "e", "f"});  // not written back yet
    dg.sync_positions();
    CHECK(fx.order(0) == strings{"a", "b", "d", "c", "e", "f"});
    CHECK(fx.order(1) == strings{"y", "x"});
    CHECK(fx.g[v["d"]].pos == 2);
    CHECK(fx.g[v["c"]].pos == 3);
    nr::ir::move_before(dg, v["a"], v["f"]);
    dgp.reset();  // the destructor writes the last move back
    CHECK(fx.order(0) == strings{"b", "d", "c", "e", "a", "f"});
  }

  SUBCASE("the dependence walk stops at the all_gather; both results count") {
    const auto r = nr::dependence_walk(dg, v["f"], {.budget = std::nullopt});
    CHECK(r.complete());
    CHECK(fx.names(r.ops) == strings{"a", "c", "d", "e"});
    CHECK(fx.names(r.boundary) == strings{"b"});
    const auto r2 = nr::dependence_walk<nr::boundary_set<>>(dg, v["e"], {.budget = std::nullopt});
    CHECK(fx.names(r2.ops) == strings{"a", "b", "c", "d"});
    const auto r3 = nr::dependence_walk(dg, v["e"], {.budget = 1});
    CHECK(r3.status == nr::walk_status::budget_exceeded);
    CHECK(r3.visited_count == 2);
  }

  SUBCASE("convexity: {b, f} is not convex through c; {c, d, e} is") {
    const auto r = nr::check_convexity(dg, v["b"], v["f"]);
    CHECK_FALSE(r.convex);
    CHECK(fx.name(r.offending) == "c");
    CHECK(fx.name(r.from_member) == "b");
    CHECK(fx.name(r.to_member) == "f");
    const nr::op_handle_t<G> cluster[] = {v["e"], v["c"], v["d"]};
    CHECK(nr::check_convexity(dg, std::span<const nr::op_handle_t<G>>(cluster)).convex);
    const nr::op_handle_t<G> gap[] = {v["a"], v["e"]};
    const auto g2 = nr::check_convexity(dg, std::span<const nr::op_handle_t<G>>(gap));
    CHECK_FALSE(g2.convex);
    CHECK(fx.name(g2.offending) == "d");
  }

  SUBCASE("dominance repair: hoist d to just after a carries b; sink a refuses") {
    const auto h = nr::plan_hoist(dg, v["d"], v["a"]);
    REQUIRE(h.ok());
    CHECK(fx.names(h.slice) == strings{"b"});
    REQUIRE(h.moves.size() == 1);
    CHECK(fx.name(h.moves[0].op) == "d");
    CHECK(fx.name(h.moves[0].anchor) == "b");
    nr::apply_repair(dg, h);
    CHECK(fx.names(nr::ir::ops(dg, dg.block(0))) == strings{"a", "b", "d", "c", "e", "f"});
    const auto s = nr::plan_sink(dg, v["a"], v["e"], v["f"]);
    CHECK(s.refusal == nr::repair_refusal::slice_feeds_range);
    CHECK(fx.name(s.offending) == "e");
    CHECK(fx.name(s.dependence) == "d");
    const auto s2 = nr::plan_sink(dg, v["c"], v["f"], v["f"]);  // c feeds e only: e comes along
    REQUIRE(s2.refusal == nr::repair_refusal::slice_feeds_range);
    const auto s3 = nr::plan_sink(dg, v["b"], v["c"], v["c"]);  // d uses b#1 and must follow c
    REQUIRE(s3.ok());
    nr::apply_repair(dg, s3);
    CHECK(fx.names(nr::ir::ops(dg, dg.block(0))) == strings{"a", "b", "c", "d", "e", "f"});
    dg.sync_positions();
    CHECK(fx.order(0) == strings{"a", "b", "c", "d", "e", "f"});
  }
}

TEST_CASE_TEMPLATE_APPLY(requirements, configs);

TEST_CASE("boost_graph adapter: a reverse_graph view turns consumer→producer edges around") {
  // Edges stored consumer → producer; the reversed view reads them producer → consumer.
  fixture<vec_bidir_c2p> fx;
  // Over `graph&`, not the default `const graph&`, so that the position map is writable.
  boost::reverse_graph<vec_bidir_c2p::graph, vec_bidir_c2p::graph&> rg(fx.g);
  nr::bgl::dataflow_graph dg(rg, boost::get(&vprop::kind, rg), boost::get(&vprop::pos, rg), nr::bgl::producer_to_consumer,
                             boost::get(&eprop::result, rg), boost::get(&vprop::block, rg));
  static_assert(nr::reschedulable_ir<decltype(dg)>);
  auto& v = fx.v;
  CHECK(fx.value_names(nr::ir::operands(dg, v["d"])) == bag{"a#0", "b#1"});
  using value = nr::value_handle_t<decltype(dg)>;
  CHECK(fx.names(nr::ir::users(dg, value{v["b"], 1})) == strings{"d"});
  const auto r = nr::dependence_walk(dg, v["f"], {.budget = std::nullopt});
  CHECK(fx.names(r.ops) == strings{"a", "c", "d", "e"});
  CHECK(fx.names(r.boundary) == strings{"b"});
  nr::ir::move_after(dg, v["c"], v["d"]);
  dg.sync_positions();
  CHECK(fx.order(0) == strings{"a", "b", "d", "c", "e", "f"});
}

TEST_CASE("boost_graph adapter: defaults — one block, one result per op, a read-only position map") {
  using graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  graph g(4);
  boost::add_edge(0, 2, g);
  boost::add_edge(1, 2, g);
  boost::add_edge(2, 3, g);
  std::vector<nr::kind_id> kinds = {compute, ag, compute, rs};
  std::vector<double> pos = {0.5, 0.25, 2.0, 3.0};  // 1 comes first
  auto kmap = boost::make_iterator_property_map(kinds.begin(), boost::get(boost::vertex_index, g));
  auto pmap = boost::make_iterator_property_map(pos.begin(), boost::get(boost::vertex_index, g));
  nr::bgl::dataflow_graph dg(g, kmap, pmap);
  using G = decltype(dg);
  static_assert(nr::reschedulable_ir<G>);
  std::vector<std::size_t> order;
  for (auto x : nr::ir::ops(dg, 0u)) order.push_back(x);
  CHECK(order == std::vector<std::size_t>{1, 0, 2, 3});
  const auto r = nr::dependence_walk(dg, std::size_t{3}, {.budget = std::nullopt});
  CHECK(r.ops == std::vector<std::size_t>{0, 2});
  CHECK(r.boundary == std::vector<std::size_t>{1});
  nr::ir::move_after(dg, std::size_t{1}, std::size_t{0});
  dg.sync_positions();
  CHECK(pos == std::vector<double>{0, 1, 2, 3});
}
