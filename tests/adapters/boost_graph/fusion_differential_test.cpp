// ScheduleFusion end to end on random Boost.Graph dataflow blocks (include/neuronrw/adapters/
// boost_graph.hpp with a contracting grouping callback), checked against a brute-force model
// written here from docs/schedule-fusion.md §"Semantics" alone, in the spirit of
// differential_test.cpp:
//   * the model plans: each reduce_scatter in block order takes the first all_gather among its
//     operands (operand order) not claimed by an earlier cluster; refused non_convex when an
//     operand other than the producer is reachable from the producer in the DAG, splits_cluster
//     when it is reachable only once earlier clusters count as one node each; no_producer_operand /
//     producer_claimed otherwise. The plan's clusters and refusal codes must be exactly these.
//   * after plan + apply: the graph has one vertex per cluster instead of its two members; the
//     written-back slots (strided 10) are 0, 10, 20 ... and every edge of the graph goes forward
//     (dominance); ops no move touched keep their relative order; each fused vertex's operands
//     (by operand number) are the cluster's live-ins and its uses are exactly the uses the
//     members' results had outside the cluster (same consumer, same operand number, result =
//     live-out index), all computed from the original DAG.
// Graphs: boost::adjacency_list<listS, listS, bidirectionalS>, XLA op names ("all-gather",
// "reduce-scatter", "add", ...), vertices and edges inserted in shuffled order, operand numbers
// on the edges, slots spaced by 10; 400 seeds, 2 .. 60 ops.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include <neuronrw/adapters/boost_graph.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

namespace nr = neuronrw;
namespace bgl = neuronrw::bgl;

namespace {

enum class k { compute, ag, rs };

struct dag {
  std::vector<k> kind;
  std::vector<std::vector<std::size_t>> operands;  // producers, in operand order (one result per op)
  std::size_t size() const { return kind.size(); }
};

dag random_dag(std::mt19937_64& rng) {
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  const std::size_t n = 2 + pick(59);
  dag d;
  d.kind.resize(n);
  d.operands.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t r = pick(100);
    d.kind[i] = i == 0 ? k::compute : r < 25 ? k::ag : r < 50 ? k::rs : k::compute;
    const std::size_t arity = i == 0 ? 0 : (d.kind[i] == k::ag ? 1 : 1 + pick(3));
    for (std::size_t j = 0; j < arity; ++j)
      d.operands[i].push_back(pick(3) == 0 ? pick(i) : i - 1 - pick(std::min<std::size_t>(i, 4)));
  }
  return d;
}

// ------------------------------------------------------------------------------ the model

struct model_result {
  std::vector<std::pair<std::size_t, std::size_t>> clusters;  // (producer, consumer)
  std::vector<std::pair<std::size_t, nr::schedule_refusal>> refused;  // (consumer, code)
};

model_result model(const dag& d) {
  const std::size_t n = d.size();
  std::vector<std::vector<std::size_t>> users(n);
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t p : d.operands[c]) users[p].push_back(c);
  std::vector<std::size_t> rep(n);  // op → its cluster's first member, or itself
  std::iota(rep.begin(), rep.end(), std::size_t{0});
  std::vector<bool> claimed(n, false);
  model_result out;
  // Reachable from `from` over users; `merged`: an op reached reaches its whole cluster too.
  auto reach = [&](std::size_t from, bool merged) {
    std::vector<bool> seen(n, false);
    std::vector<std::size_t> stack{from};
    seen[from] = true;
    while (!stack.empty()) {
      const std::size_t x = stack.back();
      stack.pop_back();
      std::vector<std::size_t> next = users[x];
      if (merged)
        for (std::size_t y = 0; y < n; ++y)
          if (rep[y] == rep[x] && y != x) next.push_back(y);
      for (std::size_t y : next)
        if (!seen[y]) {
          seen[y] = true;
          stack.push_back(y);
        }
    }
    return seen;
  };
  for (std::size_t c = 0; c < n; ++c) {
    if (d.kind[c] != k::rs) continue;
    std::size_t producer = n;
    bool some_claimed = false;
    for (std::size_t p : d.operands[c]) {
      if (d.kind[p] != k::ag) continue;
      if (claimed[p]) {
        some_claimed = true;
        continue;
      }
      producer = p;
      break;
    }
    if (producer == n) {
      out.refused.emplace_back(c, some_claimed ? nr::schedule_refusal::producer_claimed
                                               : nr::schedule_refusal::no_producer_operand);
      continue;
    }
    auto feeds = [&](const std::vector<bool>& r) {
      for (std::size_t y : d.operands[c])
        if (y != producer && r[y]) return true;
      return false;
    };
    if (feeds(reach(producer, false))) {
      out.refused.emplace_back(c, nr::schedule_refusal::non_convex);
      continue;
    }
    if (feeds(reach(producer, true))) {
      out.refused.emplace_back(c, nr::schedule_refusal::splits_cluster);
      continue;
    }
    out.clusters.emplace_back(producer, c);
    claimed[producer] = claimed[c] = true;
    rep[c] = producer;
  }
  return out;
}

// ------------------------------------------------------------------------------ the graph

struct op {
  std::string name;
  int slot = 0;
  std::size_t id = 0;  // DAG index; grouping vertices: fused_base + cluster index
};
struct use {
  unsigned operand = 0;
  unsigned result = 0;
};
using graph = boost::adjacency_list<boost::listS, boost::listS, boost::bidirectionalS, op, use>;
using vertex = boost::graph_traits<graph>::vertex_descriptor;
constexpr std::size_t fused_base = 1000;

struct tally {
  std::size_t dags = 0, candidates = 0, clusters = 0, non_convex = 0, splits = 0, claimed = 0, carried = 0;
};

void run(std::uint64_t seed, tally& t) {
  std::mt19937_64 rng(seed);
  const dag d = random_dag(rng);
  const std::size_t n = d.size();
  const model_result expect = model(d);

  graph g;
  std::vector<vertex> v(n);
  std::vector<std::size_t> perm(n);
  std::iota(perm.begin(), perm.end(), std::size_t{0});
  std::shuffle(perm.begin(), perm.end(), rng);
  const char* const compute_names[] = {"add", "multiply", "Negate", "stablehlo.dot"};
  for (std::size_t i : perm) {
    const std::string name = d.kind[i] == k::ag ? (rng() % 2 ? "all-gather" : "AllGather")
                             : d.kind[i] == k::rs ? (rng() % 2 ? "reduce-scatter" : "xla.reduce-scatter")
                                                  : compute_names[rng() % 4];
    v[i] = boost::add_vertex(op{name, 10 * int(i) + 10, i}, g);
  }
  std::vector<std::pair<std::size_t, unsigned>> edges;
  for (std::size_t c = 0; c < n; ++c)
    for (unsigned j = 0; j < d.operands[c].size(); ++j) edges.emplace_back(c, j);
  std::shuffle(edges.begin(), edges.end(), rng);
  for (auto [c, j] : edges) boost::add_edge(v[d.operands[c][j]], v[c], use{j, 0}, g);

  std::size_t made = 0;
  auto ir = bgl::make_dataflow_graph(
      g, bgl::kinds_from_names(boost::get(&op::name, g)), &op::slot, bgl::operand_numbers{&use::operand},
      bgl::result_indices{&use::result}, bgl::position_policy::strided(10),
      bgl::grouping{bgl::contract_vertices{
          [&](const nr::group_request<vertex, bgl::value<vertex>>& r) {
            return op{std::string(r.op_name), 0, fused_base + made++};
          },
          [](std::uint32_t result, std::uint32_t operand) { return use{operand, result}; }}});
  static_assert(nr::groupable_ir<decltype(ir)>);
  const auto plan = nr::plan_schedule_fusion(ir, ir.blocks());
  ++t.dags;
  t.candidates += plan.candidates();

  // 1. The plan is the model's.
  std::vector<std::pair<std::size_t, std::size_t>> got;
  for (const auto& c : plan.clusters) {
    REQUIRE(c.ops.size() == 2);
    got.emplace_back(g[c.ops[0]].id, g[c.ops[1]].id);
    t.carried += !c.carried.empty();
  }
  CHECK(got == expect.clusters);
  std::vector<std::pair<std::size_t, nr::schedule_refusal>> refused;
  for (const auto& r : plan.refused) refused.emplace_back(g[r.consumer].id, r.code);
  CHECK(refused == expect.refused);
  t.clusters += got.size();
  for (auto& [c, code] : expect.refused) {
    (void)c;
    t.non_convex += code == nr::schedule_refusal::non_convex;
    t.splits += code == nr::schedule_refusal::splits_cluster;
    t.claimed += code == nr::schedule_refusal::producer_claimed;
  }
  if (got != expect.clusters) return;

  // What the model expects of the groups, from the DAG: member → cluster, live-ins, outside uses.
  std::vector<std::size_t> cluster_of(n, plan.none);
  std::set<std::size_t> moved;
  for (std::size_t i = 0; i < got.size(); ++i) cluster_of[got[i].first] = cluster_of[got[i].second] = i;
  for (const auto& c : plan.clusters)
    for (const auto& m : c.moves) moved.insert(g[m.op].id);
  std::vector<std::size_t> original_unmoved;
  for (std::size_t i = 0; i < n; ++i)
    if (cluster_of[i] == plan.none && !moved.count(i)) original_unmoved.push_back(i);

  nr::apply(ir, plan);
  ir.sync_positions();
  REQUIRE(made == got.size());

  // 2. One vertex per cluster instead of its members; slots 0, 10, 20 ... in the adapter's order
  //    (strided write-back), or untouched (10, 20, ...) when no cluster changed the block.
  CHECK(boost::num_vertices(g) == n - got.size());
  std::vector<vertex> order;
  for (auto x : nr::ir::ops(ir, 0u)) order.push_back(x);
  REQUIRE(order.size() == boost::num_vertices(g));
  for (std::size_t i = 0; i < order.size(); ++i) CHECK(g[order[i]].slot == 10 * int(i) + (got.empty() ? 10 : 0));
  // 3. Dominance: every edge goes forward.
  for (auto e : boost::make_iterator_range(boost::edges(g)))
    CHECK(g[boost::source(e, g)].slot < g[boost::target(e, g)].slot);
  // 4. Ops no move touched keep their relative order.
  std::vector<std::size_t> final_unmoved;
  for (auto x : order)
    if (g[x].id < fused_base && !moved.count(g[x].id)) final_unmoved.push_back(g[x].id);
  CHECK(final_unmoved == original_unmoved);
  // 5. Each fused vertex: operands = live-ins, uses = the members' outside uses.
  // Cluster i's vertex is made (fused_base + made) last first: apply groups the last cluster first.
  auto fused_id = [&](std::size_t i) { return fused_base + (got.size() - 1 - i); };
  auto now = [&](std::size_t op_id) {  // what an original op is now: itself or its cluster's vertex
    return cluster_of[op_id] == plan.none ? op_id : fused_id(cluster_of[op_id]);
  };
  // live-ins of each cluster: P's operands then C's, each once, those defined outside it
  std::vector<std::vector<std::size_t>> ins_of(got.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    for (std::size_t m : {got[i].first, got[i].second})
      for (std::size_t x : d.operands[m])
        if (cluster_of[x] != i && std::find(ins_of[i].begin(), ins_of[i].end(), x) == ins_of[i].end())
          ins_of[i].push_back(x);
  for (std::size_t i = 0; i < got.size(); ++i) {
    const auto [p, c] = got[i];
    const auto& ins = ins_of[i];
    // live-outs: members used outside, in member order; each use of one becomes a use of the
    // fused vertex: by an op outside every cluster at the same operand number, by another
    // cluster once, at its live-in's number
    std::vector<std::size_t> outs;
    std::multiset<std::tuple<std::size_t, unsigned, unsigned>> uses;  // (consumer now, operand, result)
    for (std::size_t m : {p, c}) {
      std::set<std::size_t> clusters_using;
      for (std::size_t u = 0; u < n; ++u)
        for (unsigned j = 0; j < d.operands[u].size(); ++j) {
          if (d.operands[u][j] != m || cluster_of[u] == i) continue;
          if (outs.empty() || outs.back() != m) outs.push_back(m);
          const auto result = static_cast<unsigned>(outs.size() - 1);
          if (cluster_of[u] == plan.none) {
            uses.emplace(u, j, result);
          } else if (clusters_using.insert(cluster_of[u]).second) {
            const auto& their = ins_of[cluster_of[u]];
            const auto at = static_cast<unsigned>(std::find(their.begin(), their.end(), m) - their.begin());
            uses.emplace(fused_id(cluster_of[u]), at, result);
          }
        }
    }
    vertex f{};
    for (auto x : order)
      if (g[x].id == fused_id(i)) f = x;
    REQUIRE(g[f].name == "mhlo.fusion");
    CHECK(nr::ir::kind(ir, f) == nr::kind_id_v<nr::kinds::fusion>);
    CHECK(nr::ir::string_attribute(ir, f, "FusionKind") == std::optional<std::string>(plan.fusion_kind));
    std::vector<std::pair<std::size_t, unsigned>> f_ins;  // (op now, operand number)
    for (auto e : boost::make_iterator_range(boost::in_edges(f, g))) f_ins.emplace_back(g[boost::source(e, g)].id, g[e].operand);
    std::sort(f_ins.begin(), f_ins.end(), [](auto& a, auto& b) { return a.second < b.second; });
    std::vector<std::pair<std::size_t, unsigned>> want_ins;
    for (unsigned j = 0; j < ins.size(); ++j) want_ins.emplace_back(now(ins[j]), j);
    CHECK(f_ins == want_ins);
    std::multiset<std::tuple<std::size_t, unsigned, unsigned>> f_uses;
    for (auto e : boost::make_iterator_range(boost::out_edges(f, g)))
      f_uses.emplace(g[boost::target(e, g)].id, g[e].operand, g[e].result);
    CHECK(f_uses == uses);
    CHECK(static_cast<std::size_t>(std::ranges::distance(nr::ir::results(ir, f))) == outs.size());
  }
  // 6. The adapter's operand lists agree with the graph's edges, by operand number.
  for (auto x : order) {
    std::vector<std::pair<unsigned, std::size_t>> from_graph;
    for (auto e : boost::make_iterator_range(boost::in_edges(x, g))) from_graph.emplace_back(g[e].operand, g[boost::source(e, g)].id);
    std::sort(from_graph.begin(), from_graph.end());
    std::vector<std::pair<unsigned, std::size_t>> from_ir;
    unsigned j = 0;
    for (auto&& val : nr::ir::operands(ir, x)) from_ir.emplace_back(j++, g[val.op].id);
    CHECK(from_ir == from_graph);
  }
}

}  // namespace

TEST_CASE("ScheduleFusion on random Boost.Graph blocks = the brute-force model; apply keeps dominance and rewires") {
  tally t;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    CAPTURE(seed);
    run(seed, t);
  }
  MESSAGE("dags " << t.dags << ", candidates " << t.candidates << ", clusters " << t.clusters << " (" << t.carried
                  << " carrying ops), refused non_convex " << t.non_convex << ", splits_cluster " << t.splits
                  << ", producer_claimed " << t.claimed);
  CHECK(t.dags == 400);
  CHECK(t.clusters > 400);
  CHECK(t.carried > 50);
  CHECK(t.non_convex > 20);
  CHECK(t.claimed > 20);
  CHECK(t.splits > 0);
}
