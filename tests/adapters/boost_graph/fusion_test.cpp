// ScheduleFusion on a user's Boost.Graph (include/neuronrw/adapters/boost_graph.hpp, issue 30):
// kinds from op-name strings (XLA's `all-gather` spellings), the operand-number edge map, the
// position write-back policies, make_dataflow_graph / dataflow_graph_t, move construction,
// grouping through a user callback (the adapter's bookkeeping after a group), the end-to-end
// scenario — a listS/listS/bidirectionalS graph with XLA spellings, shuffled edges and slots
// spaced by 10 gets exactly the canonical graph's plan — and DOT through bgl_view::block_view.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphviz.hpp>

#include <neuronrw/adapters/boost_graph.hpp>
#include <neuronrw/adapters/boost_graph_view.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

namespace nr = neuronrw;
namespace bgl = neuronrw::bgl;

namespace {

struct op {
  std::string name;
  int slot = 0;
  std::string label;        // the test's own name for the op
  std::string fusion_kind;  // set on grouping vertices by the callback
};
struct use {
  unsigned result = 0;
  unsigned operand = 0;
};
using graph = boost::adjacency_list<boost::listS, boost::listS, boost::bidirectionalS, op, use>;
using vertex = boost::graph_traits<graph>::vertex_descriptor;

constexpr nr::kind_id ag = nr::kind_id_v<nr::kinds::all_gather>;
constexpr nr::kind_id rs = nr::kind_id_v<nr::kinds::reduce_scatter>;

// The grouping callback of every test here: one vertex named like the grouping op, labelled by
// its members, carrying the request's FusionKind; edges carry (result, operand).
auto contraction(graph& g) {
  return bgl::contract_vertices{[&g](const nr::group_request<vertex, bgl::value<vertex>>& r) {
                                  op o{std::string(r.op_name), 0, "{", ""};
                                  for (std::size_t i = 0; i < r.ops.size(); ++i)
                                    o.label += (i ? "," : "") + g[r.ops[i]].label;
                                  o.label += "}";
                                  for (const auto& a : r.attrs)
                                    if (a.name == "FusionKind")
                                      if (const auto* s = std::get_if<nr::attr::string>(&a.value)) o.fusion_kind = s->value;
                                  return o;
                                },
                                [](std::uint32_t result, std::uint32_t operand) { return use{result, operand}; }};
}

// ------------------------------------------------------------------------------ the scenario
// The block, in canonical order (label: op(operands in operand order)):
//   0 p    = parameter
//   1 g1   = all_gather(p)
//   2 a    = add(p)
//   3 m    = multiply(a, a)
//   4 g2   = all_gather(m)
//   5 u    = add(g1)
//   6 r1   = reduce_scatter(m, g1)      cluster {g1, r1}: u is carried after it
//   7 r2   = reduce_scatter(g2, u)      cluster {g2, r2}
//   8 o    = add(r1, r2)
//   9 g3   = all_gather(p)
//  10 g4   = all_gather(p)
//  11 r3   = reduce_scatter(g4, g3)     cluster {g4, r3}: g4 is the first operand
//  12 v    = add(g3, r3)
//  13 g5   = all_gather(p)
//  14 w    = add(g5)
//  15 r4   = reduce_scatter(g5, w)      refused: non_convex through w
struct spec {
  const char* label;
  const char* canonical;  // snake_case
  const char* xla;        // XLA HLO spelling
  std::vector<int> operands;
};
const std::vector<spec> scenario = {
    {"p", "parameter", "parameter", {}},        {"g1", "all_gather", "all-gather", {0}},
    {"a", "add", "add", {0}},                   {"m", "multiply", "multiply", {2, 2}},
    {"g2", "all_gather", "all-gather", {3}},    {"u", "add", "add", {1}},
    {"r1", "reduce_scatter", "reduce-scatter", {3, 1}}, {"r2", "reduce_scatter", "reduce-scatter", {4, 5}},
    {"o", "add", "add", {6, 7}},                {"g3", "all_gather", "all-gather", {0}},
    {"g4", "all_gather", "all-gather", {0}},    {"r3", "reduce_scatter", "reduce-scatter", {10, 9}},
    {"v", "add", "add", {9, 11}},               {"g5", "all_gather", "all-gather", {0}},
    {"w", "add", "add", {13}},                  {"r4", "reduce_scatter", "reduce-scatter", {13, 14}},
};

struct built {
  graph g;
  std::vector<vertex> v;  // scenario index → vertex
};

// canonical: names snake_case, vertices and edges in order, slots 0, 1, 2; otherwise XLA names,
// vertices and edges inserted in a shuffled order, slots 10, 20, 30 ...
std::unique_ptr<built> make_scenario(bool canonical, std::uint64_t seed = 7) {
  auto b = std::make_unique<built>();
  const std::size_t n = scenario.size();
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::mt19937_64 rng(seed);
  if (!canonical) std::shuffle(order.begin(), order.end(), rng);
  b->v.resize(n);
  for (std::size_t i : order) {
    const auto& s = scenario[i];
    b->v[i] = boost::add_vertex(op{canonical ? s.canonical : s.xla, canonical ? int(i) : 10 * int(i + 1), s.label, ""}, b->g);
  }
  std::vector<std::pair<std::size_t, unsigned>> edges;  // (consumer, operand number)
  for (std::size_t c = 0; c < n; ++c)
    for (unsigned k = 0; k < scenario[c].operands.size(); ++k) edges.emplace_back(c, k);
  if (!canonical) std::shuffle(edges.begin(), edges.end(), rng);
  for (auto [c, k] : edges)
    boost::add_edge(b->v[std::size_t(scenario[c].operands[k])], b->v[c], use{0, k}, b->g);
  return b;
}

std::string label(const graph& g, vertex x) { return x == boost::graph_traits<graph>::null_vertex() ? "null" : g[x].label; }

template <class Plan>
std::string plan_text(const graph& g, const Plan& plan) {
  std::ostringstream os;
  for (const auto& c : plan.clusters) {
    os << "cluster";
    for (auto x : c.ops) os << " " << label(g, x);
    os << " | carried";
    for (auto x : c.carried) os << " " << label(g, x);
    os << " | moves";
    for (const auto& m : c.moves)
      os << " " << label(g, m.op) << (m.where == nr::move_position::before ? "<" : ">") << label(g, m.anchor);
    os << " | in";
    for (const auto& x : c.live_ins) os << " " << label(g, x.op) << "#" << x.index;
    os << " | out";
    for (const auto& x : c.live_outs) os << " " << label(g, x.op) << "#" << x.index;
    os << "\n";
  }
  for (const auto& r : plan.refused)
    os << "refused " << label(g, r.consumer) << " " << nr::to_string(r.code) << " " << label(g, r.op) << "\n";
  return os.str();
}

template <class IR>
std::vector<std::string> order_of(const graph& g, const IR& ir) {
  std::vector<std::string> out;
  for (auto x : nr::ir::ops(ir, 0u)) out.push_back(label(g, x));
  return out;
}
// The graph's own order: vertices by slot.
std::vector<std::pair<int, std::string>> slots(const graph& g) {
  std::vector<std::pair<int, std::string>> out;
  for (auto x : boost::make_iterator_range(boost::vertices(g))) out.emplace_back(g[x].slot, g[x].label);
  std::sort(out.begin(), out.end());
  return out;
}

using strings = std::vector<std::string>;

const char* const expected_plan =
    "cluster g1 r1 | carried u | moves g1<r1 u>r1 | in p#0 m#0 | out g1#0 r1#0\n"
    "cluster g2 r2 | carried | moves g2<r2 | in m#0 u#0 | out r2#0\n"
    "cluster g4 r3 | carried | moves | in p#0 g3#0 | out r3#0\n"
    "refused r4 non_convex w\n";

}  // namespace

TEST_CASE("kinds_from_names: every spelling of a kind, const char* and string_view names, a kinds table") {
  using nr::kind_id_v;
  std::vector<std::string> names = {"all-gather", "AllGather", "all_gather", "mhlo.all_gather", "xla.all-gather",
                                    "reduce-scatter", "ReduceScatter", "stablehlo.reduce_scatter", "ALL_GATHER",
                                    "collective-permute", "add", "mycc.gather_all"};
  auto names_map = boost::make_iterator_property_map(names.begin(), boost::typed_identity_property_map<std::size_t>());
  const auto kinds = bgl::kinds_from_names(names_map);
  const std::vector<nr::kind_id> expect = {ag, ag, ag, ag, ag, rs, rs, rs, ag,
                                           kind_id_v<nr::kinds::collective_permute>, nr::kind_id_of("add"),
                                           nr::kind_id_of("gather_all")};
  for (std::size_t i = 0; i < names.size(); ++i) {
    CAPTURE(names[i]);
    CHECK(get(kinds, i) == expect[i]);
  }
  // Through a kinds table: names it lists take its kind, the others keep the built-in rule.
  nr::kind_map table;
  table.add("mycc.gather_all", "all-gather");
  const auto with_table = bgl::kinds_from_names(names_map, table);
  CHECK(get(with_table, std::size_t{11}) == ag);
  CHECK(get(with_table, std::size_t{0}) == ag);
  CHECK(get(with_table, std::size_t{10}) == nr::kind_id_of("add"));
  // Other string types.
  std::vector<const char*> cstr = {"all-gather", nullptr, "ReduceScatter"};
  const auto k2 = bgl::kinds_from_names(
      boost::make_iterator_property_map(cstr.begin(), boost::typed_identity_property_map<std::size_t>()));
  CHECK(get(k2, std::size_t{0}) == ag);
  CHECK(get(k2, std::size_t{1}) == nr::op_name_kind(""));
  CHECK(get(k2, std::size_t{2}) == rs);
  std::vector<std::string_view> sv = {"reduce-scatter"};
  const auto k3 = bgl::kinds_from_names(
      boost::make_iterator_property_map(sv.begin(), boost::typed_identity_property_map<std::size_t>()));
  CHECK(get(k3, std::size_t{0}) == rs);
  static_assert(std::is_same_v<boost::property_traits<decltype(k3)>::value_type, nr::kind_id>);
}

TEST_CASE("operand numbers: operands follow the operand-number map, not the edge order") {
  graph g;
  const auto x = boost::add_vertex(op{"all-gather", 0, "x", ""}, g), y = boost::add_vertex(op{"all-gather", 1, "y", ""}, g);
  const auto z = boost::add_vertex(op{"add", 2, "z", ""}, g), c = boost::add_vertex(op{"reduce-scatter", 3, "c", ""}, g);
  // c = reduce_scatter(y, z, x, y): edges added in another order
  boost::add_edge(x, c, use{0, 2}, g);
  boost::add_edge(y, c, use{0, 3}, g);
  boost::add_edge(z, c, use{0, 1}, g);
  boost::add_edge(y, c, use{0, 0}, g);
  auto names = [&](auto&& r) {
    strings out;
    for (auto&& val : r) out.push_back(g[val.op].label);
    return out;
  };
  auto numbered = bgl::make_dataflow_graph(g, bgl::kinds_from_names(boost::get(&op::name, g)), &op::slot,
                                           bgl::operand_numbers{&use::operand});
  static_assert(decltype(numbered)::numbered_operands);
  CHECK(names(nr::ir::operands(numbered, c)) == strings{"y", "z", "x", "y"});
  auto by_edges = bgl::make_dataflow_graph(g, bgl::kinds_from_names(boost::get(&op::name, g)), &op::slot);
  CHECK(names(nr::ir::operands(by_edges, c)) == strings{"x", "y", "z", "y"});
  // The planner takes the first all_gather operand: y with the map, x by edge order.
  const auto p1 = nr::plan_schedule_fusion(numbered, numbered.blocks());
  const auto p2 = nr::plan_schedule_fusion(by_edges, by_edges.blocks());
  REQUIRE(p1.clusters.size() == 1);
  REQUIRE(p2.clusters.size() == 1);
  CHECK(label(g, p1.clusters[0].producer()) == "y");
  CHECK(label(g, p2.clusters[0].producer()) == "x");

  // Also on a directed graph whose edges point consumer → producer.
  using dgraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, op, use>;
  dgraph d(4);
  std::vector<nr::kind_id> dkinds(4, 0);
  boost::add_edge(3, 0, use{0, 2}, d);
  boost::add_edge(3, 1, use{0, 3}, d);
  boost::add_edge(3, 2, use{0, 1}, d);
  boost::add_edge(3, 1, use{0, 0}, d);
  for (std::size_t i = 0; i < 4; ++i) d[i].slot = int(i);
  auto dd = bgl::make_dataflow_graph(
      d, boost::make_iterator_property_map(dkinds.begin(), boost::get(boost::vertex_index, d)), &op::slot,
      bgl::consumer_to_producer, bgl::operand_numbers{&use::operand});
  std::vector<std::size_t> ops;
  for (auto&& val : nr::ir::operands(dd, std::size_t{3})) ops.push_back(val.op);
  CHECK(ops == std::vector<std::size_t>{1, 2, 0, 1});
}

TEST_CASE("write-back policies: dense, strided, between (with its fallback)") {
  // a b c d e at slots 10 20 30 40 50
  auto make = [](graph& g, std::vector<vertex>& v) {
    const char* labels[] = {"a", "b", "c", "d", "e"};
    for (int i = 0; i < 5; ++i) v.push_back(boost::add_vertex(op{"add", 10 * (i + 1), labels[i], ""}, g));
  };
  auto run = [&](bgl::position_policy p, auto&& moves) {
    graph g;
    std::vector<vertex> v;
    make(g, v);
    {
      auto ir = bgl::make_dataflow_graph(g, bgl::kinds_from_names(boost::get(&op::name, g)), &op::slot, p);
      CHECK(ir.write_back() == p);
      moves(ir, v);
    }  // the destructor writes back
    return slots(g);
  };
  using sl = std::vector<std::pair<int, std::string>>;
  auto move_d_after_a = [](auto& ir, auto& v) { nr::ir::move_after(ir, v[3], v[0]); };
  CHECK(run(bgl::position_policy::dense(), move_d_after_a) == sl{{0, "a"}, {1, "d"}, {2, "b"}, {3, "c"}, {4, "e"}});
  CHECK(run(bgl::position_policy::strided(10), move_d_after_a) ==
        sl{{0, "a"}, {10, "d"}, {20, "b"}, {30, "c"}, {40, "e"}});
  // between: only d gets a slot, between a (10) and b (20)
  CHECK(run(bgl::position_policy::between(10), move_d_after_a) ==
        sl{{10, "a"}, {15, "d"}, {20, "b"}, {30, "c"}, {50, "e"}});
  // two moved ops in one gap: 10 < 13 < 16 < 20
  CHECK(run(bgl::position_policy::between(10),
            [](auto& ir, auto& v) {
              nr::ir::move_after(ir, v[3], v[0]);
              nr::ir::move_after(ir, v[4], v[3]);
            }) == sl{{10, "a"}, {13, "d"}, {16, "e"}, {20, "b"}, {30, "c"}});
  // moved to the front / the end: counted from the neighbour by the stride
  CHECK(run(bgl::position_policy::between(10), [](auto& ir, auto& v) { nr::ir::move_before(ir, v[4], v[0]); }) ==
        sl{{0, "e"}, {10, "a"}, {20, "b"}, {30, "c"}, {40, "d"}});
  CHECK(run(bgl::position_policy::between(10), [](auto& ir, auto& v) { nr::ir::move_after(ir, v[0], v[4]); }) ==
        sl{{20, "b"}, {30, "c"}, {40, "d"}, {50, "e"}, {60, "a"}});
  // no room: 11 moved ops cannot fit between 10 and 20 ... here: slots 1 apart
  {
    graph g;
    std::vector<vertex> v;
    for (int i = 0; i < 4; ++i) v.push_back(boost::add_vertex(op{"add", 100 + i, std::string(1, char('a' + i)), ""}, g));
    {
      auto ir = bgl::make_dataflow_graph(g, bgl::kinds_from_names(boost::get(&op::name, g)), &op::slot,
                                         bgl::position_policy::between(10));
      nr::ir::move_after(ir, v[3], v[0]);  // between 100 and 101: no integer slot
      ir.sync_positions();
      CHECK(slots(g) == sl{{0, "a"}, {10, "d"}, {20, "b"}, {30, "c"}});  // the fallback: strided(10)
      nr::ir::move_after(ir, v[1], v[2]);  // a d c b: b lands after c (30) → 40
      ir.sync_positions();
      CHECK(slots(g) == sl{{0, "a"}, {10, "d"}, {30, "c"}, {40, "b"}});
      ir.set_write_back(bgl::position_policy::dense());
      nr::ir::move_before(ir, v[1], v[0]);
    }
    CHECK(slots(g) == sl{{0, "b"}, {1, "a"}, {2, "d"}, {3, "c"}});
  }
  // floating slots: always room between distinct neighbours
  {
    using fgraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
    fgraph g(3);
    std::vector<double> pos = {1.0, 2.0, 3.0};
    std::vector<nr::kind_id> kinds(3, 0);
    auto idx = boost::get(boost::vertex_index, g);
    {
      auto ir = bgl::make_dataflow_graph(g, boost::make_iterator_property_map(kinds.begin(), idx),
                                         boost::make_iterator_property_map(pos.begin(), idx),
                                         bgl::position_policy::between(1));
      nr::ir::move_after(ir, std::size_t{2}, std::size_t{0});
    }
    CHECK(pos == std::vector<double>{1.0, 2.0, 1.5});
  }
}

TEST_CASE("make_dataflow_graph and dataflow_graph_t name the adapter; it moves, and a moved-from one writes nothing") {
  auto b = make_scenario(true);
  graph& g = b->g;
  using kinds_t = decltype(bgl::kinds_from_names(boost::get(&op::name, g)));
  using ir_t = bgl::dataflow_graph_t<graph, kinds_t, decltype(&op::slot), bgl::operand_numbers<decltype(&use::operand)>>;
  static_assert(std::is_same_v<ir_t, bgl::dataflow_graph<graph, kinds_t, decltype(boost::get(&op::slot, g)),
                                                         bgl::producer_to_consumer_t, bgl::single_result,
                                                         bgl::single_block, decltype(boost::get(&use::operand, g))>>);
  static_assert(std::is_move_constructible_v<ir_t>);
  static_assert(!std::is_copy_constructible_v<ir_t>);
  static_assert(nr::reschedulable_ir<ir_t> && !nr::groupable_ir<ir_t>);
  ir_t made = bgl::make_dataflow_graph(g, bgl::kinds_from_names(boost::get(&op::name, g)), &op::slot,
                                       bgl::operand_numbers{&use::operand});
  // The same as the constructor with every map spelled.
  ir_t spelled(g, bgl::kinds_from_names(boost::get(&op::name, g)), boost::get(&op::slot, g), bgl::producer_to_consumer,
               {}, {}, boost::get(&use::operand, g));
  CHECK(order_of(g, made) == order_of(g, spelled));
  nr::ir::move_after(made, b->v[0], b->v[1]);  // p after g1: not valid dataflow, but a move
  std::optional<ir_t> moved;
  moved.emplace(std::move(made));
  CHECK(order_of(g, *moved)[0] == "g1");
  CHECK(order_of(g, *moved)[1] == "p");
  { ir_t gone(std::move(*moved)); }  // writes back once, here
  CHECK(g[b->v[0]].slot == 1);
  CHECK(g[b->v[1]].slot == 0);
  g[b->v[0]].slot = 0;
  g[b->v[1]].slot = 1;
  moved.reset();  // moved-from: writes nothing
  CHECK(g[b->v[0]].slot == 0);
  CHECK(g[b->v[1]].slot == 1);
}

TEST_CASE("grouping: the adapter's order, numbering and edges after a group") {
  auto b = make_scenario(false);
  graph& g = b->g;
  auto& v = b->v;
  auto ir = bgl::make_dataflow_graph(g, bgl::kinds_from_names(boost::get(&op::name, g)), &op::slot,
                                     bgl::result_indices{&use::result}, bgl::operand_numbers{&use::operand},
                                     bgl::grouping{contraction(g)});
  using G = decltype(ir);
  static_assert(nr::groupable_ir<G>);
  static_assert(!nr::outlinable_ir<G>);
  // Group {a, m} (contiguous): live-in p, live-out m (used by g2 and r1).
  const vertex members[] = {v[2], v[3]};
  const bgl::value<vertex> ins[] = {{v[0], 0}}, outs[] = {{v[3], 0}};
  const nr::named_attribute attrs[] = {{"FusionKind", nr::attr::string{"Test"}}};
  const nr::group_request<vertex, bgl::value<vertex>> req{members, ins, outs, "mhlo.fusion", "mhlo.return", attrs};
  const std::size_t before = nr::ir::op_index_bound(ir);
  const vertex f = nr::ir::group_ops(ir, req);
  CHECK(g[f].label == "{a,m}");
  CHECK(g[f].fusion_kind == "Test");
  CHECK(nr::ir::kind(ir, f) == nr::kind_id_v<nr::kinds::fusion>);
  CHECK(boost::num_vertices(g) == scenario.size() - 1);
  CHECK(order_of(g, ir) == strings{"p", "g1", "{a,m}", "g2", "u", "r1", "r2", "o", "g3", "g4", "r3", "v", "g5", "w", "r4"});
  CHECK(nr::ir::is_before_in_block(ir, v[1], f));
  CHECK(nr::ir::is_before_in_block(ir, f, v[4]));
  CHECK_FALSE(nr::ir::is_before_in_block(ir, v[4], f));
  CHECK(label(g, nr::ir::next_op(ir, f)) == "g2");
  CHECK(label(g, nr::ir::prev_op(ir, f)) == "g1");
  CHECK(label(g, nr::ir::next_op(ir, v[1])) == "{a,m}");
  CHECK(label(g, nr::ir::prev_op(ir, v[4])) == "{a,m}");
  CHECK(nr::ir::block_of(ir, f) == 0u);
  CHECK(nr::ir::op_index(ir, f) == before);  // a fresh number
  CHECK(nr::ir::op_index_bound(ir) == before + 1);
  // edges: f uses p; g2 and r1 use f#0 (r1 as its operand 0, as it used m)
  strings f_ops, r1_ops, f_users;
  for (auto&& x : nr::ir::operands(ir, f)) f_ops.push_back(label(g, x.op));
  for (auto&& x : nr::ir::operands(ir, v[6])) r1_ops.push_back(label(g, x.op));
  for (auto u : nr::ir::users(ir, bgl::value<vertex>{f, 0})) f_users.push_back(label(g, u));
  std::sort(f_users.begin(), f_users.end());
  CHECK(f_ops == strings{"p"});
  CHECK(r1_ops == strings{"{a,m}", "g1"});
  CHECK(f_users == strings{"g2", "r1"});
  CHECK(std::ranges::distance(nr::ir::results(ir, f)) == 1);
  CHECK(nr::ir::string_attribute(ir, f, "FusionKind") == std::optional<std::string>("Test"));
  CHECK_FALSE(nr::ir::string_attribute(ir, f, "other").has_value());
  CHECK_FALSE(nr::ir::string_attribute(ir, v[0], "FusionKind").has_value());
  // moves around the new vertex, and its slot on write-back (dense: its place)
  nr::ir::move_before(ir, v[1], f);
  CHECK(label(g, nr::ir::next_op(ir, f)) == "g2");
  nr::ir::move_after(ir, v[1], f);
  ir.sync_positions();
  CHECK(g[f].slot == 1);
  CHECK(g[v[1]].slot == 2);
  CHECK(g[v[0]].slot == 0);
  // And the planner runs on the grouped graph: r1's first all_gather operand is g1.
  const auto plan = nr::plan_schedule_fusion(ir, ir.blocks());
  REQUIRE(plan.clusters.size() == 3);
  CHECK(label(g, plan.clusters[0].producer()) == "g1");
}

TEST_CASE("grouping on a directed vecS graph: members stay as isolated vertices outside every block") {
  using dgraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, op, use>;
  for (const bool p2c : {true, false}) {
    CAPTURE(p2c);
    dgraph g;
    const char* names[] = {"parameter", "all-gather", "add", "reduce-scatter", "add"};
    for (int i = 0; i < 5; ++i) boost::add_vertex(op{names[i], i, std::string(1, char('a' + i)), ""}, g);
    auto edge = [&](std::size_t p, std::size_t c, unsigned k) {
      if (p2c)
        boost::add_edge(p, c, use{0, k}, g);
      else
        boost::add_edge(c, p, use{0, k}, g);
    };
    edge(0, 1, 0);  // b = all_gather(a)
    edge(0, 2, 0);  // c = add(a)
    edge(2, 3, 0);  // d = reduce_scatter(c, b)
    edge(1, 3, 1);
    edge(3, 4, 0);  // e = add(d)
    auto run = [&](auto dir) {
      auto ir = bgl::make_dataflow_graph(
          g, bgl::kinds_from_names(boost::get(&op::name, g)), &op::slot, dir, bgl::operand_numbers{&use::operand},
          bgl::grouping{bgl::contract_vertices{[](const auto& r) { return op{std::string(r.op_name), 0, "F", ""}; },
                                               [](std::uint32_t res, std::uint32_t k) { return use{res, k}; }}},
          bgl::position_policy::strided(10));
      const auto plan = nr::schedule_fusion(ir, ir.blocks());
      REQUIRE(plan.clusters.size() == 1);
      strings order;
      for (auto x : nr::ir::ops(ir, 0u)) order.push_back(g[x].label);
      CHECK(order == strings{"a", "c", "F", "e"});
      const std::size_t f = 5;
      CHECK(g[f].label == "F");
      std::vector<std::size_t> f_ops, e_ops, f_users;
      for (auto&& x : nr::ir::operands(ir, f)) f_ops.push_back(x.op);
      for (auto&& x : nr::ir::operands(ir, std::size_t{4})) e_ops.push_back(x.op);
      for (auto u : nr::ir::users(ir, bgl::value<std::size_t>{f, 0})) f_users.push_back(u);
      CHECK(f_ops == std::vector<std::size_t>{0, 2});  // live-ins: b's a, then d's c
      CHECK(e_ops == std::vector<std::size_t>{5});
      CHECK(f_users == std::vector<std::size_t>{4});
      std::vector<std::size_t> c_users;
      for (auto u : nr::ir::users(ir, bgl::value<std::size_t>{2, 0})) c_users.push_back(u);
      CHECK(c_users == std::vector<std::size_t>{5});
    };
    if (p2c)
      run(bgl::producer_to_consumer);
    else
      run(bgl::consumer_to_producer);
    CHECK(boost::num_vertices(g) == 6);
    CHECK(boost::out_degree(1, g) == 0);  // b and d: isolated
    CHECK(boost::out_degree(3, g) == 0);
    CHECK(g[0].slot == 0);
    CHECK(g[2].slot == 10);
    CHECK(g[5].slot == 20);
    CHECK(g[4].slot == 30);
  }
}

TEST_CASE("ScheduleFusion on a Boost.Graph: XLA spellings, shuffled edges and spaced slots plan as the canonical graph") {
  auto canon = make_scenario(true);
  std::string canonical_plan;
  {
    auto ir = bgl::make_dataflow_graph(canon->g, bgl::kinds_from_names(boost::get(&op::name, canon->g)), &op::slot);
    const auto plan = nr::plan_schedule_fusion(ir, ir.blocks());
    canonical_plan = plan_text(canon->g, plan);
    CHECK(canonical_plan == expected_plan);
  }
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    CAPTURE(seed);
    auto b = make_scenario(false, seed);
    auto ir = bgl::make_dataflow_graph(b->g, bgl::kinds_from_names(boost::get(&op::name, b->g)), &op::slot,
                                       bgl::operand_numbers{&use::operand});
    const auto plan = nr::plan_schedule_fusion(ir, ir.blocks());
    CHECK(plan_text(b->g, plan) == canonical_plan);
  }
  // Without the operand-number map the shuffled graph may pick another producer for r3.
  bool differs = false;
  for (std::uint64_t seed = 1; seed <= 20 && !differs; ++seed) {
    auto b = make_scenario(false, seed);
    auto ir = bgl::make_dataflow_graph(b->g, bgl::kinds_from_names(boost::get(&op::name, b->g)), &op::slot);
    differs = plan_text(b->g, nr::plan_schedule_fusion(ir, ir.blocks())) != canonical_plan;
  }
  CHECK(differs);
}

TEST_CASE("ScheduleFusion on a Boost.Graph end to end: strided keeps the spacing, between renumbers only moved ops") {
  const strings final_order = {"p", "a", "m", "{g1,r1}", "u", "{g2,r2}", "o", "g3", "{g4,r3}", "v", "g5", "w", "r4"};
  for (const auto policy : {bgl::position_policy::strided(10), bgl::position_policy::between(10)}) {
    auto b = make_scenario(false, 3);
    graph& g = b->g;
    {
      auto ir = bgl::make_dataflow_graph(g, bgl::kinds_from_names(boost::get(&op::name, g)), &op::slot,
                                         bgl::result_indices{&use::result}, bgl::operand_numbers{&use::operand},
                                         bgl::grouping{contraction(g)}, policy);
      // Plan, then apply: the plan's text first, as the members' descriptors die in the apply.
      const auto plan = nr::plan_schedule_fusion(ir, ir.blocks());
      CHECK(plan_text(g, plan) == expected_plan);
      const auto groups = nr::apply(ir, plan);
      REQUIRE(groups.size() == 3);
      CHECK(g[groups[0]].label == "{g1,r1}");
      CHECK(g[groups[2]].label == "{g4,r3}");
      CHECK(order_of(g, ir) == final_order);
      for (auto x : nr::ir::ops(ir, 0u))
        if (g[x].name == "mhlo.fusion") {
          CHECK(g[x].fusion_kind == plan.fusion_kind);
          CHECK(nr::ir::string_attribute(ir, x, "FusionKind") == std::optional<std::string>(plan.fusion_kind));
        }
    }
    std::vector<std::pair<int, std::string>> expect;
    if (policy.how == bgl::position_policy::mode::strided) {
      for (std::size_t i = 0; i < final_order.size(); ++i) expect.emplace_back(10 * int(i), final_order[i]);
    } else {
      // Unmoved ops keep their slots (index + 1) * 10; the fusions (new) and u (carried) get
      // slots between their unmoved neighbours: {g1,r1}, u, {g2,r2} form one run between m (40)
      // and o (90): 52, 64, 76 (step 50 / 4 = 12); {g4,r3} between g3 (100) and v (130): 115.
      expect = {{10, "p"}, {30, "a"}, {40, "m"}, {52, "{g1,r1}"}, {64, "u"}, {76, "{g2,r2}"}, {90, "o"},
                {100, "g3"}, {115, "{g4,r3}"}, {130, "v"}, {140, "g5"}, {150, "w"}, {160, "r4"}};
    }
    CHECK(slots(g) == expect);
    // Every def-use edge goes forward in the written-back order.
    for (auto e : boost::make_iterator_range(boost::edges(g))) CHECK(g[boost::source(e, g)].slot < g[boost::target(e, g)].slot);
  }
}

TEST_CASE("DOT of a user's graph: bgl_view::block_view over the adapter, boost::write_graphviz") {
  auto b = make_scenario(false, 5);
  graph& g = b->g;
  // The result-index map: {g1,r1} has two results (without it both would be read as result 0).
  auto ir = bgl::make_dataflow_graph(g, bgl::kinds_from_names(boost::get(&op::name, g)), &op::slot,
                                     bgl::operand_numbers{&use::operand}, bgl::result_indices{&use::result},
                                     bgl::grouping{contraction(g)});
  nr::schedule_fusion(ir, ir.blocks());
  const nr::bgl_view::block_view view(ir, 0u);
  std::ostringstream dot;
  boost::write_graphviz(dot, view, [&](std::ostream& os, vertex x) { os << "[label=\"" << g[x].label << "\"]"; });
  CHECK(dot.str() ==
        "digraph G {\n"
        "0[label=\"p\"];\n1[label=\"a\"];\n2[label=\"m\"];\n3[label=\"{g1,r1}\"];\n4[label=\"u\"];\n"
        "5[label=\"{g2,r2}\"];\n6[label=\"o\"];\n7[label=\"g3\"];\n8[label=\"{g4,r3}\"];\n9[label=\"v\"];\n"
        "10[label=\"g5\"];\n11[label=\"w\"];\n12[label=\"r4\"];\n"
        "0->1 ;\n0->3 ;\n0->7 ;\n0->8 ;\n0->10 ;\n1->2 ;\n1->2 ;\n2->3 ;\n2->5 ;\n3->4 ;\n3->6 ;\n4->5 ;\n"
        "5->6 ;\n7->8 ;\n7->9 ;\n8->9 ;\n10->11 ;\n10->12 ;\n11->12 ;\n"
        "}\n");
}
