// fuzz_dot — neuronrw-opt's `--emit-dot` (examples/neuronrw-opt/emit_dot.hpp, dot_escape.hpp)
// on arbitrary reference IR text, its output read back by boost::read_graphviz (Boost.Graph's
// own parser, as tests/driver/dot_check.cpp does).
//
// Input: one option byte, then the text. Bits 0-1: 0 draws no plan, 1 the ScheduleFusion plan on
// the input (--emit-dot=before), 2 and 3 the plan after ScheduleFusion applied it (--emit-dot, the
// default); bit 2 runs ScheduleFusion with an unbounded budget and a FusionKind that needs
// escaping. Input that does not parse or verify is skipped (fuzz_ref_roundtrip covers it), as is
// a ScheduleFusion run that fails (fuzz_passes covers it). Properties (a violation prints the
// output and traps):
//   - the output is valid UTF-8 and holds no control byte but the line feed;
//   - it is, per function with a body in module order, one `// @...` comment line then one
//     `digraph G {` ... `}` whose lines start no other comment or graph;
//   - read_graphviz parses each digraph; its nodes are exactly the ops of the function's top block
//     (IDs 0..n-1) and, after an apply, the ops of each drawn fusion's body (IDs fN_0..fN_k-1);
//   - each op's node label, as read back, starts with the op's name as dot_escape writes it.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/property_map/dynamic_property_map.hpp>

#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/verify.hpp>

#include "dot_escape.hpp"
#include "emit_dot.hpp"
#include "passes.hpp"
#include "pipeline.hpp"
#include "utf8.hpp"

#include "common.hpp"

namespace {

namespace nr = neuronrw;
namespace ref = neuronrw::ref;
namespace opt = neuronrw_opt;

struct node {
  std::string id, label;
};
using graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, node>;

/// A label as read_graphviz gives it back: it decodes `\"` only (and drops a backslash-newline,
/// which dot_escape never writes); every other backslash pair stays as written.
std::string as_read_back(std::string_view escaped) {
  std::string out;
  for (std::size_t i = 0; i < escaped.size(); ++i) {
    if (escaped[i] == '\\' && i + 1 < escaped.size()) {
      if (escaped[i + 1] != '"') out += '\\';
      out += escaped[++i];
      continue;
    }
    out += escaped[i];
  }
  return out;
}

/// What one function's digraph must hold: its top block's op names by position, and the op count
/// of each fusion body drawn as cluster N.
struct expected_graph {
  std::vector<std::string> names;
  std::map<std::size_t, std::size_t> fusion_sizes;
};

std::vector<expected_graph> expectations(const ref::module& m, const nr::ref_schedule_fusion_plan* plan) {
  std::vector<expected_graph> out;
  for (auto f : ref::functions(m)) {
    auto regions = m.region_blocks(f);
    if (regions.empty()) continue;
    expected_graph e;
    for (auto o : m.ops(regions.front())) e.names.emplace_back(m.name(o));
    if (plan)
      for (std::size_t n = 0; n < plan->clusters.size(); ++n) {
        const ref::op_ref producer = plan->clusters[n].producer();
        if (m.block_of(producer) == regions.front()) continue;  // planned, not applied
        const ref::op_ref fusion = m.parent_op(producer);
        if (!fusion.valid() || !(m.block_of(fusion) == regions.front())) continue;
        std::size_t k = 0;
        for (auto o : m.ops(m.block_of(producer))) {
          (void)o;
          ++k;
        }
        e.fusion_sizes[n] = k;
      }
    out.push_back(std::move(e));
  }
  return out;
}

/// Parses `text` (one digraph) with read_graphviz and checks it against `e`.
void check_graph(std::string_view text, const expected_graph& e, std::string_view whole) {
  graph g;
  boost::dynamic_properties dp(boost::ignore_other_properties);
  dp.property("node_id", boost::get(&node::id, g));
  dp.property("label", boost::get(&node::label, g));
  try {
    if (!boost::read_graphviz(std::string(text), g, dp, "node_id")) fuzz::violation("read_graphviz: not a graph", whole);
  } catch (const std::exception& ex) {
    fuzz::violation(std::string("read_graphviz rejects the DOT text: ") + ex.what(), whole);
  }
  std::vector<int> seen(e.names.size(), 0);
  std::map<std::size_t, std::size_t> fusion_nodes;
  for (auto [it, end] = boost::vertices(g); it != end; ++it) {
    const node& v = g[*it];
    if (!v.id.empty() && v.id.find_first_not_of("0123456789") == std::string::npos && v.id.size() < 10) {
      const std::size_t i = std::stoul(v.id);
      if (i >= e.names.size()) fuzz::violation("a node ID past the function's ops: " + v.id, whole);
      ++seen[i];
      const std::string name = as_read_back(opt::dot_escape(e.names[i]));
      if (v.label.compare(0, name.size(), name) != 0)
        fuzz::violation("node " + v.id + "'s label does not start with its op's name", v.label, name);
      continue;
    }
    std::size_t n = 0, underscore = v.id.find('_');
    if (v.id.size() < 4 || v.id[0] != 'f' || underscore == std::string::npos || underscore < 2 || underscore > 10 ||
        v.id.find_first_not_of("0123456789", 1) != underscore ||
        v.id.find_first_not_of("0123456789", underscore + 1) != std::string::npos)
      fuzz::violation("a node ID emit_dot does not write: " + v.id, whole);
    n = std::stoul(v.id.substr(1, underscore - 1));
    if (!e.fusion_sizes.count(n)) fuzz::violation("a node of a fusion that is not drawn: " + v.id, whole);
    ++fusion_nodes[n];
  }
  for (std::size_t i = 0; i < seen.size(); ++i)
    if (seen[i] != 1) fuzz::violation("op " + std::to_string(i) + " of the function is not exactly one node", whole);
  for (const auto& [n, k] : e.fusion_sizes)
    if (fusion_nodes[n] != k)
      fuzz::violation("fusion " + std::to_string(n) + " has " + std::to_string(k) + " ops but " +
                          std::to_string(fusion_nodes[n]) + " nodes", whole);
}

/// The output's shape: valid UTF-8, no control byte but '\n', and per function a comment line,
/// then a digraph. Returns each digraph's text.
std::vector<std::string_view> split_graphs(std::string_view dot) {
  if (!opt::is_valid_utf8(dot)) fuzz::violation("the DOT text is not valid UTF-8", dot);
  for (char ch : dot) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\n') || c == 0x7F) fuzz::violation("the DOT text holds a raw control byte", dot);
  }
  std::vector<std::string_view> graphs;
  std::size_t at = 0;
  while (at < dot.size()) {
    const std::size_t comment_end = dot.find('\n', at);
    if (dot.compare(at, 4, "// @") != 0 || comment_end == std::string_view::npos)
      fuzz::violation("a function's picture does not start with its `// @name` line", dot);
    const std::size_t begin = comment_end + 1;
    if (dot.compare(begin, 12, "digraph G {\n") != 0) fuzz::violation("the comment line is not followed by a digraph", dot);
    std::size_t end = dot.find("\n// ", begin);
    end = end == std::string_view::npos ? dot.size() : end + 1;
    const std::string_view g = dot.substr(begin, end - begin);
    if (g.size() < 2 || g.substr(g.size() - 2) != "}\n") fuzz::violation("a digraph does not end with `}`", dot);
    // Every line inside starts a statement emit_dot writes, never a comment or another graph.
    for (std::size_t l = g.find('\n') + 1; l < g.size(); l = g.find('\n', l) + 1) {
      const std::string_view line = g.substr(l, g.find('\n', l) - l);
      if (line.substr(0, 2) == "//" || line.substr(0, 1) == "#" || line.find("digraph") == 0)
        fuzz::violation("a line of a digraph starts a comment or a graph: " + std::string(line), dot);
    }
    graphs.push_back(g);
    at = end;
  }
  return graphs;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned flags = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  auto parsed = ref::parse(text, "fuzz.mlir");
  if (!parsed.ok() || !ref::verify(*parsed.value).empty()) return 0;
  ref::module& m = *parsed.value;

  const unsigned mode = flags & 3;
  std::optional<nr::ref_schedule_fusion_plan> plan;
  if (mode != 0) {
    opt::pipeline pipe;
    const std::string_view spec = (flags & 4) != 0
                                      ? "builtin.module(schedule-fusion{budget=18446744073709551615 kind=K&amp;lt;\\x})"
                                      : "builtin.module(schedule-fusion)";
    if (auto e = opt::parse_pipeline(spec, pipe)) fuzz::violation("a fuzz pipeline does not parse: " + e->message);
    const opt::pass_instance& p = pipe.passes.front();
    if (mode == 1) {
      plan = p.spec->plan_for_dot(m, p);
    } else {
      opt::pass_context cx;
      cx.emit = [](nr::diagnostic) {};
      cx.dot_plan = &plan;
      if (!opt::run_pass(m, p, cx)) return 0;
    }
  }

  const std::string dot = opt::emit_dot(m, plan ? &*plan : nullptr);
  const auto graphs = split_graphs(dot);
  const auto expected = expectations(m, plan ? &*plan : nullptr);
  if (graphs.size() != expected.size())
    fuzz::violation("the DOT text has " + std::to_string(graphs.size()) + " digraphs for " +
                        std::to_string(expected.size()) + " functions with a body",
                    dot);
  for (std::size_t i = 0; i < graphs.size(); ++i) check_graph(graphs[i], expected[i], dot);
  return 0;
}
