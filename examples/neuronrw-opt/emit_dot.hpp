// examples/neuronrw-opt/emit_dot.hpp — `neuronrw-opt --emit-dot`: a Graphviz picture of each
// function's dataflow, written by boost::write_graphviz through the Boost.Graph view of the
// function's body (neuronrw/adapters/boost_graph_view.hpp; no graph is copied).
//
// One `digraph` per function (a comment line `// @name` before each, the symbol as MLIR prints it:
// `// @"a\nb"`), its top block only:
//   - a node per op (id = its position in the block), labelled with the op name and result name;
//     collectives filled by kind (all_gather blue, reduce_scatter orange, all_reduce green,
//     all_to_all purple, collective_permute pink);
//   - an edge per use (a use inside a nested region counts as a use by the op holding it);
//   - with a ScheduleFusion plan: one `subgraph cluster_N` per cluster N of the plan whose ops
//     lie in this function. Planned but not applied (the input, a dry run): the cluster's ops.
//     Applied: the fusion op and, as nodes `fN_i`, the ops of its region with their edges. Ops
//     the plan moves are dashed and marked "(moved)"; refused candidates are red and annotated
//     "refused: <code>" (docs/schedule-fusion.md lists the codes).
// write_graphviz writes no subgraphs itself: the clusters are written by its graph-property
// writer, which runs before the nodes. A node belongs to the first subgraph that names it, so the
// later top-level statement giving its attributes leaves it in its cluster.
// Every text taken from the input (symbol and op names, the plan's FusionKind) goes through
// dot_escape.hpp, so a hostile name cannot end a comment, a string or a statement, and the output
// is valid UTF-8; node and subgraph IDs are generated (`3`, `f0_2`, `cluster_0`), never read.
#pragma once

#include <cstddef>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

#include <boost/graph/graphviz.hpp>

#include <neuronrw/adapters/boost_graph_view.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/mlir_string.hpp>
#include <neuronrw/ir/ref/schedule_fusion.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#include "dot_escape.hpp"

namespace neuronrw_opt {

namespace dot_detail {

namespace nr = neuronrw;
namespace ref = neuronrw::ref;
using view = nr::bgl_view::block_view<ref::module>;

inline std::string_view fill_of(nr::kind_id k) {
  if (k == nr::kind_id_v<nr::kinds::all_gather>) return "#9ecae1";
  if (k == nr::kind_id_v<nr::kinds::reduce_scatter>) return "#fdae6b";
  if (k == nr::kind_id_v<nr::kinds::all_reduce>) return "#a1d99b";
  if (k == nr::kind_id_v<nr::kinds::all_to_all>) return "#bcbddc";
  if (k == nr::kind_id_v<nr::kinds::collective_permute>) return "#fa9fb5";
  return {};
}

/// What the plan says about ops, by op id.
struct annotations {
  std::set<std::uint32_t> moved;
  std::map<std::uint32_t, std::string> refused;  // consumer → "code[, code...]"
};

inline annotations annotate(const nr::ref_schedule_fusion_plan* plan) {
  annotations a;
  if (!plan) return a;
  for (const auto& c : plan->clusters)
    for (const auto& mv : c.moves) a.moved.insert(mv.op.id);
  for (const auto& r : plan->refused) {
    auto& s = a.refused[r.consumer.id];
    s += (s.empty() ? "" : ", ") + std::string(nr::to_string(r.code));
  }
  return a;
}

/// ` [label=..., ...]` for one op.
inline void write_node_attributes(std::ostream& os, const ref::module& m, ref::op_ref o, const annotations& a) {
  std::string label(m.name(o));
  if (!m.name_hint(o).empty()) (label += " %") += m.name_hint(o);
  const bool moved = a.moved.count(o.id) != 0;
  auto refused = a.refused.find(o.id);
  if (moved) label += "\n(moved)";
  if (refused != a.refused.end()) label += "\nrefused: " + refused->second;
  os << "[label=" << dot_quoted(label);
  const std::string_view fill = fill_of(m.kind(o));
  std::string style;
  if (!fill.empty()) {
    style = "filled";
    os << ", fillcolor=\"" << fill << "\"";
  }
  if (moved) style += style.empty() ? "dashed" : ",dashed";
  if (!style.empty()) os << ", style=\"" << style << "\"";
  if (refused != a.refused.end()) os << ", color=red, fontcolor=red";
  os << "]";
}

/// The clusters of `plan` that lie in `body`, as subgraphs (see the header comment).
inline void write_clusters(std::ostream& os, const ref::module& m, const view& v,
                           const nr::ref_schedule_fusion_plan* plan, const annotations& a) {
  if (!plan) return;
  const ref::block_ref body = v.ir_block();
  for (std::size_t n = 0; n < plan->clusters.size(); ++n) {
    const auto& c = plan->clusters[n];
    const ref::op_ref producer = c.producer();
    const std::string head = "subgraph cluster_" + std::to_string(n) + " {\n  label=" +
                             dot_quoted(plan->fusion_kind + " #" + std::to_string(n)) + ";\n  style=rounded;\n";
    if (m.block_of(producer) == body) {  // planned, not applied
      os << head;
      for (auto o : c.ops) os << "  " << v.position(o) << ";\n";
      os << "}\n";
      continue;
    }
    const ref::op_ref fusion = m.parent_op(producer);
    if (!fusion.valid() || !(m.block_of(fusion) == body)) continue;  // in a nested block
    os << head << "  " << v.position(fusion) << ";\n";
    const view inner(m, m.block_of(producer));
    const std::string prefix = "f" + std::to_string(n) + "_";
    for (auto o : inner.ops()) {
      os << "  " << prefix << inner.position(o);
      write_node_attributes(os, m, o, a);
      os << ";\n";
    }
    for (auto [it, end] = edges(inner); it != end; ++it)
      os << "  " << prefix << inner.position(it->source) << "->" << prefix << inner.position(it->target) << ";\n";
    os << "}\n";
  }
}

}  // namespace dot_detail

/// The DOT text of every function of `m` with a body; `plan` (may be null) annotates it.
inline std::string emit_dot(const neuronrw::ref::module& m, const neuronrw::ref_schedule_fusion_plan* plan) {
  namespace d = dot_detail;
  const d::annotations a = d::annotate(plan);
  std::ostringstream os;
  for (auto f : neuronrw::ref::functions(m)) {
    auto regions = m.region_blocks(f);
    if (regions.empty()) continue;
    const d::view v(m, regions.front());
    // The symbol as MLIR prints it (`@f`, `@"a\nb"`): readable, and never more than one line.
    const std::string symbol = neuronrw::mlir_symbol_reference(m.function(f).sym_name);
    os << dot_comment_line(symbol);
    boost::write_graphviz(
        os, v, [&](std::ostream& out, neuronrw::ref::op_ref o) { d::write_node_attributes(out, m, o, a); },
        boost::default_writer(),
        [&](std::ostream& out) {
          out << "label=" << dot_quoted(symbol) << ";\nlabelloc=t;\nnode [shape=box];\n";
          d::write_clusters(out, m, v, plan, a);
        });
  }
  return os.str();
}

}  // namespace neuronrw_opt
