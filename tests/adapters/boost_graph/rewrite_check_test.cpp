// The rewrite check of ScheduleFusion (include/neuronrw/validate/schedule_fusion.hpp) on the
// Boost.Graph adapter (adapters/boost_graph.hpp), whose grouping is a contraction: the flat form of
// the check (the grouping vertex's operands stand for the live-ins, its results for the live-outs,
// the members are gone). On random multi-result dataflow blocks, on all eight graph
// configurations (vecS / listS × bidirectionalS / directedS × edge direction), with operand
// numbers on the edges and without them (then operand order means nothing, O9):
//   * every correct run passes the check (apply_checked), with no alarm;
//   * every fault below, injected into one run, is caught, with the mismatch code it must give;
//     the test prints the counts per fault kind.
// Faults made by a grouping callback that goes wrong in one way (the contraction's edges):
//   rewire_input     an input edge from another visible value (not a live-in)
//   drop_input       an input edge left out
//   swap_results     two output edges of different live-outs exchange their results
//   drop_use         an output edge left out (its consumer loses an operand)
//   renumber_use     an output edge gets the consumer's last operand number (order changes)
//   stale_use        an output edge from the member it replaced (vecS, where members stay)
//   wrong_kind       the grouping vertex gets another FusionKind
// by the plan:
//   plan_live_in     a live-in taken out of the plan before apply (the vertex lacks the input)
// and by moves after apply (through the adapter):
//   move_unplanned   an op the plan does not move put after its next sibling (unplanned too,
//                    not using it)
//   use_before_def   an op moved before the producer of one of its operands
// Each fault is injected only where it changes the dataflow the test computes from its own DAG.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include <neuronrw/adapters/boost_graph.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>
#include <neuronrw/passes/schedule_fusion/checked.hpp>
#include <neuronrw/validate/schedule_fusion.hpp>

#include "graph_configs.hpp"

namespace nr = neuronrw;
namespace bgl = neuronrw::bgl;

namespace {

enum class fault : std::uint8_t {
  none,
  rewire_input,
  drop_input,
  swap_results,
  drop_use,
  renumber_use,
  stale_use,
  wrong_kind,
  plan_live_in,
  move_unplanned,
  use_before_def,
};
constexpr std::array all_faults = {fault::rewire_input, fault::drop_input,   fault::swap_results, fault::drop_use,
                                   fault::renumber_use, fault::stale_use,    fault::wrong_kind,   fault::plan_live_in,
                                   fault::move_unplanned, fault::use_before_def};
constexpr std::string_view name_of(fault f) {
  switch (f) {
    case fault::none: return "none";
    case fault::rewire_input: return "rewire_input";
    case fault::drop_input: return "drop_input";
    case fault::swap_results: return "swap_results";
    case fault::drop_use: return "drop_use";
    case fault::renumber_use: return "renumber_use";
    case fault::stale_use: return "stale_use";
    case fault::wrong_kind: return "wrong_kind";
    case fault::plan_live_in: return "plan_live_in";
    case fault::move_unplanned: return "move_unplanned";
    case fault::use_before_def: return "use_before_def";
  }
  return "?";
}
constexpr nr::rewrite_fault expected_code(fault f) {
  switch (f) {
    case fault::stale_use:
    case fault::use_before_def: return nr::rewrite_fault::use_before_def;
    case fault::wrong_kind:
    case fault::plan_live_in: return nr::rewrite_fault::plan_not_realized;
    case fault::move_unplanned: return nr::rewrite_fault::moved_unplanned;
    default: return nr::rewrite_fault::operand_changed;
  }
}

// ------------------------------------------------------------------------------ the DAG

enum class k { compute, ag, rs };
struct operand_ref {
  std::size_t producer;
  unsigned result;
  bool operator==(const operand_ref&) const = default;
};
struct dag {
  std::vector<k> kind;
  std::vector<unsigned> results;  // result count
  std::vector<std::vector<operand_ref>> operands;
  std::size_t size() const { return kind.size(); }
};

dag random_dag(std::mt19937_64& rng) {
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  const std::size_t n = 3 + pick(38);
  dag d;
  d.kind.resize(n);
  d.results.resize(n);
  d.operands.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t r = pick(100);
    d.kind[i] = i == 0 ? k::compute : r < 25 ? k::ag : r < 50 ? k::rs : k::compute;
    d.results[i] = d.kind[i] == k::compute && pick(3) == 0 ? 2 : 1;
    const std::size_t arity = i == 0 ? 0 : (d.kind[i] == k::ag ? 1 : 1 + pick(3));
    for (std::size_t j = 0; j < arity; ++j) {
      const std::size_t p = pick(3) == 0 ? pick(i) : i - 1 - pick(std::min<std::size_t>(i, 4));
      d.operands[i].push_back({p, static_cast<unsigned>(pick(d.results[p]))});
    }
  }
  return d;
}

// ------------------------------------------------------------------------------ the graph

struct op {
  std::string name;
  int slot = 0;
  std::size_t id = 0;  // DAG index; grouping vertices: fused + their order of creation
  std::string fusion_kind;
};
struct use {
  unsigned result = 0;
  unsigned operand = 0;
};
constexpr std::size_t fused = 1000;

template <class C>
using graph_of = typename C::graph;

/// What one run injects and what happened.
struct injection {
  fault f = fault::none;
  bool fired = false;  ///< the fault was made (it applies to this run)
};

struct tally {
  std::map<fault, std::size_t> injected, caught, with_code;
  std::size_t runs = 0, clusters = 0, multi_out = 0, unordered_runs = 0;
};

template <class C, bool Numbered>
void run(std::uint64_t seed, fault f, tally& t) {
  using graph = graph_of<C>;
  using vertex = typename boost::graph_traits<graph>::vertex_descriptor;
  constexpr bool dense = std::is_integral_v<vertex>;
  constexpr bool G_bidirectional =
      std::is_convertible_v<typename boost::graph_traits<graph>::traversal_category, boost::bidirectional_graph_tag>;
  std::mt19937_64 rng(seed);
  const dag d = random_dag(rng);
  const std::size_t n = d.size();

  graph g;
  std::vector<vertex> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string name = d.kind[i] == k::ag ? "all-gather" : d.kind[i] == k::rs ? "reduce-scatter" : "add";
    v[i] = boost::add_vertex(op{name, 10 * int(i) + 10, i, ""}, g);
  }
  std::vector<std::pair<std::size_t, unsigned>> edges;
  for (std::size_t c = 0; c < n; ++c)
    for (unsigned j = 0; j < d.operands[c].size(); ++j) edges.emplace_back(c, j);
  std::shuffle(edges.begin(), edges.end(), rng);
  auto link = [&](vertex producer, vertex consumer, use u) {
    if constexpr (C::p2c)
      boost::add_edge(producer, consumer, u, g);
    else
      boost::add_edge(consumer, producer, u, g);
  };
  for (auto [c, j] : edges) link(v[d.operands[c][j].producer], v[c], use{d.operands[c][j].result, j});

  injection inj{f, false};
  std::size_t made = 0;
  std::function<std::vector<vertex>(vertex)> ops_before;  // the block's ops before an op
  // The ops of the plan's clusters. A fault stays away from them: an edge to a member of a
  // cluster grouped later is replaced by that grouping (from its request), which would undo the
  // fault, and an edge from one would give it a use the adapter does not expect.
  std::set<vertex> members;
  // The grouping callback: contract_vertices' steps, with the injected fault.
  auto contract = [&](graph& gr, const bgl::group_contraction<vertex>& c) -> vertex {
    std::vector<bgl::group_edge<vertex>> ins(c.inputs.begin(), c.inputs.end()), outs, outs_to_members;
    for (const auto& e : c.outputs) (members.count(e.consumer) ? outs_to_members : outs).push_back(e);
    std::string kind;
    for (const auto& a : c.request.attrs)
      if (const auto* s = std::get_if<nr::attr::string>(&a.value)) kind = s->value;
    std::optional<std::pair<vertex, bgl::group_edge<vertex>>> stale;
    if (!inj.fired) switch (inj.f) {
        case fault::rewire_input: {
          std::vector<std::pair<vertex, unsigned>> other;
          for (vertex x : ops_before(c.request.ops[0])) {
            if (gr[x].id >= fused || members.count(x)) continue;  // ops of the input, in no cluster
            for (unsigned r = 0; r < d.results[gr[x].id]; ++r)
              if (std::none_of(ins.begin(), ins.end(), [&](auto& e) { return e.producer == x && e.result == r; }))
                other.emplace_back(x, r);
          }
          if (ins.empty() || other.empty()) break;
          auto& e = ins[rng() % ins.size()];
          const auto [x, r] = other[rng() % other.size()];
          e.producer = x;
          e.result = r;
          inj.fired = true;
          break;
        }
        case fault::drop_input:
          if (ins.empty()) break;
          ins.erase(ins.begin() + static_cast<std::ptrdiff_t>(rng() % ins.size()));
          inj.fired = true;
          break;
        case fault::swap_results: {
          // Two uses of different live-outs. Without operand numbers a consumer's operands are a
          // multiset: exchanging two results it uses both of changes nothing, so there the two
          // uses must be by different consumers.
          for (std::size_t a = 0; a < outs.size() && !inj.fired; ++a)
            for (std::size_t b = a + 1; b < outs.size() && !inj.fired; ++b)
              if (outs[a].result != outs[b].result && (Numbered || outs[a].consumer != outs[b].consumer)) {
                std::swap(outs[a].result, outs[b].result);
                inj.fired = true;
              }
          break;
        }
        case fault::drop_use:
          if (outs.empty()) break;
          outs.erase(outs.begin() + static_cast<std::ptrdiff_t>(rng() % outs.size()));
          inj.fired = true;
          break;
        case fault::renumber_use: {
          if constexpr (Numbered) {
            // An output edge whose consumer has a later operand standing for another value: it
            // becomes the last operand.
            for (auto& e : outs) {
              const vertex u = e.consumer;
              if (gr[u].id >= fused) continue;
              const auto& ops = d.operands[gr[u].id];
              bool later_differs = false;
              for (std::size_t j = e.operand + 1; j < ops.size(); ++j) later_differs = later_differs || !(ops[j] == ops[e.operand]);
              if (!later_differs) continue;
              e.operand = static_cast<unsigned>(ops.size());
              inj.fired = true;
              break;
            }
          }
          break;
        }
        case fault::stale_use:
          // Where the members stay (vecS) and the consumer's operands are read from the graph
          // (not from the adapter's cache of a directed graph's in-edges, which the contract
          // lets the callback change only through the new vertex's edges).
          if constexpr (dense && (G_bidirectional || !C::p2c)) {
            if (outs.empty()) break;
            // The live-out's member still produces the value for one consumer.
            const auto& e = outs[rng() % outs.size()];
            const auto& lo = c.request.live_outs[e.result];
            stale.emplace(lo.op, bgl::group_edge<vertex>{lo.op, e.consumer, lo.index, e.operand});
            outs.erase(outs.begin() + (&e - outs.data()));
            inj.fired = true;
          }
          break;
        case fault::wrong_kind:
          kind = "NotTheFusionKind";
          inj.fired = true;
          break;
        default: break;
      }
    const vertex w = boost::add_vertex(op{std::string(c.request.op_name), 0, fused + made++, kind}, gr);
    outs.insert(outs.end(), outs_to_members.begin(), outs_to_members.end());
    for (const auto& list : {std::span<const bgl::group_edge<vertex>>(ins), std::span<const bgl::group_edge<vertex>>(outs)})
      for (const auto& e : list) {
        const auto [from, to] = c.endpoints(e, w);
        boost::add_edge(from, to, use{e.result, e.operand}, gr);
      }
    for (const vertex m : c.request.ops) {
      boost::clear_vertex(m, gr);
      if constexpr (!dense) boost::remove_vertex(m, gr);
    }
    if (stale) {
      const auto [from, to] = c.endpoints(stale->second, w);
      boost::add_edge(from, to, use{stale->second.result, stale->second.operand}, gr);
    }
    return w;
  };
  auto attributes = [](const graph& gr, vertex x, std::string_view name) -> std::optional<std::string> {
    if (name == "FusionKind" && !gr[x].fusion_kind.empty()) return gr[x].fusion_kind;
    return std::nullopt;
  };
  auto kinds = bgl::kinds_from_names(boost::get(&op::name, g));
  auto make = [&] {
    if constexpr (Numbered)
      return bgl::make_dataflow_graph(g, kinds, &op::slot, typename C::direction{}, bgl::result_indices{&use::result},
                                      bgl::operand_numbers{&use::operand}, bgl::grouping{contract},
                                      bgl::attributes{attributes});
    else
      return bgl::make_dataflow_graph(g, kinds, &op::slot, typename C::direction{}, bgl::result_indices{&use::result},
                                      bgl::grouping{contract}, bgl::attributes{attributes});
  };
  auto ir = make();
  using G = decltype(ir);
  static_assert(nr::groupable_ir<G>);
  static_assert(nr::unordered_operands_ir<G> == !Numbered);
  ops_before = [&](vertex x) {
    std::vector<vertex> r;
    for (vertex y = nr::ir::prev_op(ir, x); y != G::null_vertex(); y = nr::ir::prev_op(ir, y)) r.push_back(y);
    return r;
  };
  auto plan = nr::plan_schedule_fusion(ir, ir.blocks());
  if (plan.clusters.empty()) return;
  for (const auto& c : plan.clusters) members.insert(c.ops.begin(), c.ops.end());
  ++t.runs;
  t.clusters += plan.clusters.size();
  t.unordered_runs += !Numbered;
  for (const auto& c : plan.clusters) t.multi_out += c.live_outs.size() > 1;
  const auto fault_free_plan = plan;

  if (f == fault::none) {
    const auto r = nr::apply_checked(ir, plan);
    for (const auto& m : r.check.mismatches) MESSAGE(nr::to_string(m.code) << ": " << m.message << " | had " << m.input_had << " | has " << m.output_has);
    CHECK(r.check.ok());
    CHECK(r.check.ops == n);
    return;
  }
  if (f == fault::plan_live_in) {
    for (auto& c : plan.clusters)
      if (!c.live_ins.empty()) {
        c.live_ins.erase(c.live_ins.begin() + static_cast<std::ptrdiff_t>(rng() % c.live_ins.size()));
        inj.fired = true;
        break;
      }
    if (!inj.fired) return;
  }
  const auto snap = nr::snapshot_schedule_fusion(std::as_const(ir), plan);
  nr::apply_reschedule(ir, plan);
  const auto groups = nr::apply_grouping(ir, plan);
  std::set<vertex> planned;
  for (const auto& c : fault_free_plan.clusters) {
    for (auto x : c.carried) planned.insert(x);
    for (const auto& m : c.moves) planned.insert(m.op);
  }
  auto created = [&](vertex x) { return g[x].id >= fused; };
  auto uses = [&](vertex user, vertex producer) {
    for (auto&& val : nr::ir::operands(ir, user))
      if (val.op == producer) return true;
    return false;
  };
  if (f == fault::move_unplanned) {
    std::vector<vertex> order;
    for (auto x : nr::ir::ops(ir, 0u)) order.push_back(x);
    for (std::size_t i = 0; i + 1 < order.size() && !inj.fired; ++i) {
      const vertex x = order[i], y = order[i + 1];
      if (created(x) || created(y) || planned.count(x) || planned.count(y) || uses(y, x)) continue;
      nr::ir::move_after(ir, x, y);
      inj.fired = true;
    }
  } else if (f == fault::use_before_def) {
    std::vector<vertex> order;
    for (auto x : nr::ir::ops(ir, 0u)) order.push_back(x);
    const std::size_t start = rng() % order.size();
    for (std::size_t s = 0; s < order.size() && !inj.fired; ++s) {
      const vertex u = order[(start + s) % order.size()];
      for (auto&& val : nr::ir::operands(ir, u)) {
        nr::ir::move_before(ir, u, val.op);
        inj.fired = true;
        break;
      }
    }
  }
  if (!inj.fired) return;
  const auto r = nr::check_schedule_fusion(std::as_const(ir), plan, snap, groups);
  ++t.injected[f];
  if (!r.ok()) ++t.caught[f];
  const bool coded = std::any_of(r.mismatches.begin(), r.mismatches.end(), [&](auto& m) { return m.code == expected_code(f); });
  if (coded) ++t.with_code[f];
  if (r.ok() || !coded) {
    MESSAGE("fault " << name_of(f) << " " << std::string(r.ok() ? "missed" : "caught without its code") << " (config "
                     << (seed % 16) << std::string(Numbered ? ", operand numbers" : ", edge order") << ")");
    for (const auto& m : r.mismatches) MESSAGE(nr::to_string(m.code) << ": " << m.message);
  }
}

template <bool Numbered>
void all_configs(std::uint64_t seed, fault f, tally& t) {
  using configs = neuronrw_test::bgl::all_configs<op, use>;
  for (std::size_t c = 0; c < std::tuple_size_v<configs>; ++c)
    neuronrw_test::bgl::with_config<configs>(c, [&]<class C>() { run<C, Numbered>(seed * 16 + c, f, t); });
}

}  // namespace

TEST_CASE("The ScheduleFusion check on Boost.Graph contractions: no alarm on correct runs, every injected fault caught") {
  tally t;
  constexpr std::uint64_t seeds = 60;
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    CAPTURE(seed);
    all_configs<true>(seed, fault::none, t);
    all_configs<false>(seed, fault::none, t);
  }
  const std::size_t correct_runs = t.runs;
  MESSAGE("correct runs checked: " << correct_runs << " (" << t.unordered_runs << " without operand numbers), clusters "
                                   << t.clusters << " (" << t.multi_out << " with several live-outs), alarms: 0 expected");
  CHECK(correct_runs > 500);
  CHECK(t.multi_out > 50);
  for (const fault f : all_faults)
    for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
      CAPTURE(seed);
      CAPTURE(name_of(f));
      all_configs<true>(seed + 1000, f, t);
      all_configs<false>(seed + 1000, f, t);
    }
  for (const fault f : all_faults) {
    MESSAGE(name_of(f) << ": injected " << t.injected[f] << ", caught " << t.caught[f] << ", with its code "
                       << t.with_code[f]);
    CHECK(t.injected[f] >= 40);
    CHECK(t.caught[f] == t.injected[f]);
    CHECK(t.with_code[f] == t.injected[f]);
  }
}

TEST_CASE("The flat check's words: a use left on a replaced op, a lost use, a wrong FusionKind") {
  // p → g (all-gather) → r (reduce-scatter) → x; g is also used by y. The cluster {g, r} has
  // live-in p, live-outs g (for y) and r (for x).
  using graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, op, use>;
  using vertex = std::size_t;
  for (const fault f : {fault::none, fault::stale_use, fault::drop_use, fault::wrong_kind}) {
    CAPTURE(name_of(f));
    graph g;
    const char* names[] = {"p", "all-gather", "reduce-scatter", "x", "y"};
    for (std::size_t i = 0; i < 5; ++i) boost::add_vertex(op{names[i], 10 * int(i), i, ""}, g);
    boost::add_edge(0, 1, use{0, 0}, g);
    boost::add_edge(1, 2, use{0, 0}, g);
    boost::add_edge(2, 3, use{0, 0}, g);
    boost::add_edge(1, 4, use{0, 0}, g);
    auto contract = [&](graph& gr, const bgl::group_contraction<vertex>& c) -> vertex {
      const vertex w = boost::add_vertex(op{"fusion", 0, fused, f == fault::wrong_kind ? "Other" : "ScheduleFusion"}, gr);
      for (const auto& e : c.inputs) boost::add_edge(e.producer, w, use{e.result, e.operand}, gr);
      for (const auto& e : c.outputs) {
        if (f == fault::drop_use && e.consumer == 3) continue;
        if (f != fault::stale_use || e.consumer != 4) boost::add_edge(w, e.consumer, use{e.result, e.operand}, gr);
      }
      for (const vertex m : c.request.ops) boost::clear_vertex(m, gr);
      if (f == fault::stale_use) boost::add_edge(1, 4, use{0, 0}, gr);  // y still uses the all-gather
      return w;
    };
    auto ir = bgl::make_dataflow_graph(
        g, bgl::kinds_from_names(boost::get(&op::name, g)), &op::slot, bgl::result_indices{&use::result},
        bgl::operand_numbers{&use::operand}, bgl::grouping{contract},
        bgl::attributes{[](const graph& gr, vertex x, std::string_view name) -> std::optional<std::string> {
          if (name == "FusionKind" && !gr[x].fusion_kind.empty()) return gr[x].fusion_kind;
          return std::nullopt;
        }});
    const auto plan = nr::plan_schedule_fusion(ir, ir.blocks());
    REQUIRE(plan.clusters.size() == 1);
    CHECK(plan.clusters[0].live_outs.size() == 2);
    const auto r = nr::apply_checked(ir, plan, [&](vertex x) { return g[x].name; });
    std::vector<std::string> got;
    for (const auto& m : r.check.mismatches)
      got.push_back(std::string(nr::to_string(m.code)) + " at " + g[m.op].name + ": " + m.message + " | " + m.input_had + " | " +
                    m.output_has);
    std::vector<std::string> want;
    if (f == fault::stale_use)
      want = {"use_before_def at y: operand #0 is a result of an op a grouping op replaced | a use of the grouping op's result | "
              "a use of the replaced op's result"};
    if (f == fault::drop_use)
      want = {"operand_changed at x: the op has another number of operands than in the input | 1 operands | 0 operands"};
    if (f == fault::wrong_kind)
      want = {"plan_not_realized at fusion: cluster #0: the grouping op's FusionKind is not the plan's | FusionKind "
              "ScheduleFusion | FusionKind Other"};
    CHECK(got == want);
    CHECK(r.check.ops == 5);
  }
}
