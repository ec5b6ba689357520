// The differential test of the Boost.Graph adapter (direction 1), on 1,200 random DAGs
// (fixed seeds) spread over the eight storage/direction configurations: chains, wide fan-in,
// diamonds and random dataflow, collectives sprinkled in, multi-result ops, vertices inserted in
// another order than their positions.
//   * The dependence walk over the adapter (no budget) visits exactly the vertices
//     boost::breadth_first_search reaches from the start on the reversed graph when edges out of
//     boundary ops (other than the start) are cut, split into ops/boundary, in block order.
//   * The walk with a budget or a window floor, the convexity verdict (with its offending op and
//     path end points) and dominance-repair plans (sink and hoist: refusal, slice, moves) equal
//     the reference IR's on a ref::module with the same ops; accepted plans are applied to both
//     and later checks run on the moved orders; at the end the adapter's written-back position
//     property equals the reference IR's order.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/graph/reverse_graph.hpp>

#include <neuronrw/adapters/boost_graph.hpp>
#include <neuronrw/algorithms/convexity.hpp>
#include <neuronrw/algorithms/dependence_walk.hpp>
#include <neuronrw/algorithms/dominance_repair.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#include "graph_configs.hpp"

namespace nr = neuronrw;

namespace {

// ------------------------------------------------------------------------------ random DAGs

struct dag {
  std::vector<std::string> name;  // op name (its kind on both sides)
  std::vector<unsigned> results;  // number of results
  std::vector<std::vector<std::pair<std::size_t, unsigned>>> operands;  // (producer, result index)
  std::size_t size() const { return name.size(); }
};

const char* const collectives[] = {"mhlo.all_gather", "mhlo.reduce_scatter", "mhlo.all_reduce", "mhlo.all_to_all",
                                   "mhlo.collective_permute"};

dag random_dag(std::mt19937_64& rng, int shape) {
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  const std::size_t n = 2 + pick(shape == 1 ? 40 : 60);
  dag d;
  d.name.resize(n);
  d.results.resize(n);
  d.operands.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    d.name[i] = pick(100) < 15 ? collectives[pick(5)] : (pick(2) ? "foo.add" : "foo.mul");
    d.results[i] = pick(100) < 20 ? 2 + static_cast<unsigned>(pick(2)) : 1;
  }
  auto use = [&](std::size_t consumer, std::size_t producer) {
    d.operands[consumer].emplace_back(producer, static_cast<unsigned>(pick(d.results[producer])));
  };
  switch (shape) {
    case 0:  // chain, with an occasional skip edge
      for (std::size_t i = 1; i < n; ++i) {
        use(i, i - 1);
        if (i > 2 && pick(4) == 0) use(i, pick(i - 1));
      }
      break;
    case 1: {  // wide fan-in: many sources, a few wide sinks, sinks chained
      const std::size_t sources = 1 + n / 2;
      for (std::size_t i = sources; i < n; ++i) {
        const std::size_t width = 2 + pick(sources);
        for (std::size_t k = 0; k < width; ++k) use(i, pick(sources));
        if (i > sources) use(i, i - 1);
      }
      break;
    }
    case 2:  // diamonds: split into 2-3 branches, merge, repeat
      for (std::size_t i = 1; i < n;) {
        const std::size_t top = i - 1, branches = 2 + pick(2);
        std::size_t b = 0;
        for (; b < branches && i < n; ++b, ++i) use(i, top);
        if (i < n) {
          for (std::size_t k = 1; k <= b; ++k) use(i, i - k);
          ++i;
        }
      }
      break;
    default:  // random dataflow, biased to recent producers; some ops without operands
      for (std::size_t i = 1; i < n; ++i) {
        const std::size_t k = pick(4);
        for (std::size_t j = 0; j < k; ++j) use(i, pick(3) == 0 ? pick(i) : i - 1 - pick(std::min<std::size_t>(i, 5)));
      }
  }
  return d;
}

// ------------------------------------------------------------------------------ the two IRs

struct vprop {
  std::size_t id = 0;  // op index in the DAG (its initial position)
  nr::kind_id kind = 0;
  std::size_t pos = 0;
};
struct eprop {
  unsigned result = 0;
};

using configs = neuronrw_test::bgl::all_configs<vprop, eprop>;

struct ref_side {
  nr::ref::module m;
  nr::ref::block_ref body;
  std::vector<nr::ref::op_ref> op;  // DAG index → op
  std::vector<std::size_t> index;   // op id → DAG index

  explicit ref_side(const dag& d) {
    const auto t = m.intern_type("tensor<4xf32>");
    auto f = m.create_op("func.func", {}, {});
    m.make_function(f).sym_name = "f";
    m.push_back(m.body(), f);
    body = m.add_region(f);
    for (std::size_t i = 0; i < d.size(); ++i) {
      std::vector<nr::ref::value_ref> vals;
      for (auto [p, r] : d.operands[i]) vals.push_back(m.result(op[p], r));
      const std::vector<nr::ref::type_ref> types(d.results[i], t);
      auto o = m.create_op(d.name[i], vals, types);
      m.push_back(body, o);
      op.push_back(o);
      if (index.size() <= o.id) index.resize(o.id + 1, 0);
      index[o.id] = i;
    }
  }
  std::vector<std::size_t> ids(const std::vector<nr::ref::op_ref>& ops) const {
    std::vector<std::size_t> r;
    for (auto o : ops) r.push_back(index[o.id]);
    return r;
  }
  std::size_t id(nr::ref::op_ref o) const { return o.valid() ? index[o.id] : static_cast<std::size_t>(-1); }
  std::vector<std::size_t> order() const {
    std::vector<std::size_t> r;
    for (auto o : m.ops(body)) r.push_back(index[o.id]);
    return r;
  }
};

template <class C>
struct bgl_side {
  using graph = typename C::graph;
  using vertex = typename boost::graph_traits<graph>::vertex_descriptor;
  using adapter = nr::bgl::dataflow_graph<graph, decltype(boost::get(&vprop::kind, std::declval<graph&>())),
                                          decltype(boost::get(&vprop::pos, std::declval<graph&>())),
                                          typename C::direction,
                                          decltype(boost::get(&eprop::result, std::declval<graph&>()))>;
  graph g;
  std::vector<vertex> v;  // DAG index → vertex
  std::optional<adapter> dg;

  bgl_side(const dag& d, const ref_side& ref, std::mt19937_64& rng) {
    std::vector<std::size_t> perm(d.size());
    std::iota(perm.begin(), perm.end(), std::size_t{0});
    std::shuffle(perm.begin(), perm.end(), rng);  // insertion order ≠ position
    v.resize(d.size());
    for (std::size_t i : perm) v[i] = boost::add_vertex(vprop{i, ref.m.kind(ref.op[i]), i}, g);
    for (std::size_t c = 0; c < d.size(); ++c)
      for (auto [p, r] : d.operands[c]) {
        if constexpr (C::p2c)
          boost::add_edge(v[p], v[c], eprop{r}, g);
        else
          boost::add_edge(v[c], v[p], eprop{r}, g);
      }
    dg.emplace(g, boost::get(&vprop::kind, g), boost::get(&vprop::pos, g), typename C::direction{},
               boost::get(&eprop::result, g));
  }
  std::size_t id(vertex x) const {
    return x == boost::graph_traits<graph>::null_vertex() ? static_cast<std::size_t>(-1) : g[x].id;
  }
  std::vector<std::size_t> ids(const std::vector<vertex>& ops) const {
    std::vector<std::size_t> r;
    for (auto o : ops) r.push_back(id(o));
    return r;
  }
  std::vector<std::size_t> order() const {
    std::vector<std::size_t> r;
    for (auto o : nr::ir::ops(*dg, 0u)) r.push_back(id(o));
    return r;
  }
};

// ------------------------------------------------------------------------------ the oracle

using oracle_graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;

bool is_boundary(nr::kind_id k) { return nr::default_boundary_set::contains(k); }

// Edges of the reversed graph (consumer → producer) leaving a boundary op other than the start
// are cut: the walk meets a boundary op but does not expand it.
struct cut_boundary {
  const std::vector<nr::kind_id>* kind = nullptr;
  const boost::reverse_graph<oracle_graph>* rg = nullptr;
  std::size_t start = 0;
  template <class E>
  bool operator()(const E& e) const {
    const auto u = boost::source(e, *rg);
    return u == start || !is_boundary((*kind)[u]);
  }
};

struct discover_recorder : boost::default_bfs_visitor {
  std::vector<std::size_t>* seen;
  explicit discover_recorder(std::vector<std::size_t>* s) : seen(s) {}
  template <class V, class G>
  void discover_vertex(V u, const G&) const { seen->push_back(u); }
};

// BFS from `start` on the reversed graph minus the cut edges; returns (ops, boundary) ordered
// by `rank` (the current block position of each op).
std::pair<std::vector<std::size_t>, std::vector<std::size_t>> oracle_walk(const oracle_graph& og,
                                                                          const std::vector<nr::kind_id>& kind,
                                                                          std::size_t start,
                                                                          const std::vector<std::size_t>& rank) {
  boost::reverse_graph<oracle_graph> rg(og);
  cut_boundary keep{&kind, &rg, start};
  boost::filtered_graph<boost::reverse_graph<oracle_graph>, cut_boundary> fg(rg, keep);
  std::vector<std::size_t> seen;
  boost::breadth_first_search(fg, start, boost::visitor(discover_recorder(&seen)));
  std::vector<std::size_t> ops, boundary;
  for (std::size_t u : seen)
    if (u != start) (is_boundary(kind[u]) ? boundary : ops).push_back(u);
  auto by_rank = [&](std::size_t a, std::size_t b) { return rank[a] < rank[b]; };
  std::sort(ops.begin(), ops.end(), by_rank);
  std::sort(boundary.begin(), boundary.end(), by_rank);
  return {ops, boundary};
}

// ------------------------------------------------------------------------------ one DAG

struct tally {
  std::size_t dags = 0, walks = 0, nonempty_walks = 0, boundary_hits = 0, convexity = 0, nonconvex = 0,
              repairs = 0, applied = 0;
};

template <class C>
void run_dag(const dag& d, std::uint64_t seed, tally& t) {
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  ref_side ref(d);
  bgl_side<C> b(d, ref, rng);
  auto& dg = *b.dg;
  const std::size_t n = d.size();
  ++t.dags;

  oracle_graph og(n);
  std::vector<nr::kind_id> kind(n);
  for (std::size_t i = 0; i < n; ++i) {
    kind[i] = ref.m.kind(ref.op[i]);
    for (auto [p, r] : d.operands[i]) boost::add_edge(p, i, og);
  }

  nr::block_scratch<nr::ref::module> ref_scratch(ref.m);
  nr::block_scratch<typename bgl_side<C>::adapter> bgl_scratch(dg);

  for (int round = 0; round < 3; ++round) {
    const auto order = ref.order();
    REQUIRE(b.order() == order);
    std::vector<std::size_t> rank(n);
    for (std::size_t k = 0; k < n; ++k) rank[order[k]] = k;

    // Walks: every op as the start in the first round, a few afterwards.
    for (std::size_t s = 0; s < n; ++s) {
      if (round > 0 && pick(4) != 0) continue;
      ++t.walks;
      const auto w = nr::dependence_walk(bgl_scratch, dg, b.v[s], {.budget = std::nullopt});
      const auto [ops, boundary] = oracle_walk(og, kind, s, rank);
      CHECK(w.complete());
      CHECK(b.ids(w.ops) == ops);
      CHECK(b.ids(w.boundary) == boundary);
      t.nonempty_walks += !ops.empty();
      t.boundary_hits += !boundary.empty();
      // Budget and window floor: the same answer as the reference IR.
      nr::walk_options<typename bgl_side<C>::adapter> bo{.budget = pick(6)};
      nr::walk_options<nr::ref::module> ro{.budget = bo.budget};
      if (pick(2)) {
        const std::size_t floor = order[pick(n)];
        bo.window_floor = b.v[floor];
        ro.window_floor = ref.op[floor];
      }
      const auto wb = nr::dependence_walk(bgl_scratch, dg, b.v[s], bo);
      const auto wr = nr::dependence_walk(ref_scratch, ref.m, ref.op[s], ro);
      CHECK(wb.status == wr.status);
      CHECK(wb.visited_count == wr.visited_count);
      CHECK(b.ids(wb.ops) == ref.ids(wr.ops));
      CHECK(b.ids(wb.boundary) == ref.ids(wr.boundary));
    }

    // Convexity of random clusters of 2-4 ops.
    for (int k = 0; k < 6; ++k) {
      const std::size_t size = 2 + pick(3);
      std::vector<typename bgl_side<C>::vertex> bc;
      std::vector<nr::ref::op_ref> rc;
      for (std::size_t j = 0; j < size; ++j) {
        const std::size_t o = pick(n);
        bc.push_back(b.v[o]);
        rc.push_back(ref.op[o]);
      }
      const auto cb = nr::check_convexity(bgl_scratch, dg, std::span<const typename bgl_side<C>::vertex>(bc));
      const auto cr = nr::check_convexity(ref_scratch, ref.m, std::span<const nr::ref::op_ref>(rc));
      ++t.convexity;
      t.nonconvex += !cr.convex;
      CHECK(cb.convex == cr.convex);
      CHECK(b.id(cb.offending) == ref.id(cr.offending));
      CHECK(b.id(cb.from_member) == ref.id(cr.from_member));
      CHECK(b.id(cb.to_member) == ref.id(cr.to_member));
    }

    // Dominance repair: a random sink or hoist, applied to both when accepted.
    for (int k = 0; k < 4 && n >= 3; ++k) {
      std::size_t i = pick(n), j = pick(n), l = pick(n);
      if (rank[i] > rank[j]) std::swap(i, j);
      if (rank[j] > rank[l]) std::swap(j, l);
      if (rank[i] > rank[j]) std::swap(i, j);
      const bool sink = pick(2) == 0;
      auto pb = sink ? nr::plan_sink(bgl_scratch, dg, b.v[i], b.v[j], b.v[l])
                     : nr::plan_hoist(bgl_scratch, dg, b.v[l], b.v[i]);
      auto pr = sink ? nr::plan_sink(ref_scratch, ref.m, ref.op[i], ref.op[j], ref.op[l])
                     : nr::plan_hoist(ref_scratch, ref.m, ref.op[l], ref.op[i]);
      ++t.repairs;
      CHECK(pb.refusal == pr.refusal);
      CHECK(b.id(pb.offending) == ref.id(pr.offending));
      if constexpr (C::p2c && !bgl_side<C>::adapter::bidirectional) {
        // A directed graph with producer → consumer edges lists no in-edges, so the adapter's
        // operand order is its own (vertices(g), then out-edges), not the reference IR's, and
        // `dependence` is the first carried operand in that order: check it is one.
        if (pr.refusal == nr::repair_refusal::slice_feeds_range) {
          const auto z = pb.offending, dep = pb.dependence;
          bool used = false;
          for (auto&& x : nr::ir::operands(dg, z)) used |= x.op == dep;
          CHECK(used);
          CHECK(std::find(pb.slice.begin(), pb.slice.end(), dep) != pb.slice.end());
        }
      } else {
        CHECK(b.id(pb.dependence) == ref.id(pr.dependence));
      }
      CHECK(b.ids(pb.slice) == ref.ids(pr.slice));
      REQUIRE(pb.moves.size() == pr.moves.size());
      for (std::size_t m = 0; m < pb.moves.size(); ++m) {
        CHECK(b.id(pb.moves[m].op) == ref.id(pr.moves[m].op));
        CHECK(b.id(pb.moves[m].anchor) == ref.id(pr.moves[m].anchor));
        CHECK(pb.moves[m].where == pr.moves[m].where);
      }
      if (pr.ok() && !pr.moves.empty()) {
        nr::apply_repair(dg, pb);
        nr::apply_repair(ref.m, pr);
        ++t.applied;
        REQUIRE(b.order() == ref.order());
        break;  // the ranks changed: next round
      }
    }
  }

  // The position property after write-back is the reference IR's order.
  dg.sync_positions();
  const auto order = ref.order();
  for (std::size_t k = 0; k < n; ++k) CHECK(b.g[b.v[order[k]]].pos == k);
}


}  // namespace

TEST_CASE("boost_graph adapter differential: walk = Boost BFS on the reversed graph; convexity and repair = reference IR") {
  constexpr std::uint64_t dags = 1200;
  tally t;
  for (std::uint64_t seed = 1; seed <= dags; ++seed) {
    CAPTURE(seed);
    std::mt19937_64 rng(seed);
    const int shape = static_cast<int>(seed % 4);
    const dag d = random_dag(rng, shape);
    neuronrw_test::bgl::with_config<configs>((seed / 4) % 8, [&]<class C>() { run_dag<C>(d, seed, t); });
  }
  MESSAGE("dags " << t.dags << ", walks " << t.walks << " (" << t.nonempty_walks << " non-empty, " << t.boundary_hits
                  << " meeting a boundary op), convexity checks " << t.convexity << " (" << t.nonconvex
                  << " non-convex), repairs planned " << t.repairs << " (" << t.applied << " applied)");
  // The random graphs exercise what they claim to.
  CHECK(t.dags == dags);
  CHECK(t.nonempty_walks > t.walks / 2);
  CHECK(t.boundary_hits > t.walks / 10);
  CHECK(t.nonconvex > t.convexity / 10);
  CHECK(t.applied > t.dags / 2);
}
