// tests/passes/schedule_fusion_support.hpp — helpers shared by the ScheduleFusion tests: the
// dataflow invariant (every original op reads the same producers, looking through the fusions'
// block arguments and results; no op lost or duplicated), a copy of a reference module on the
// archetype IR, a structural dump written against the concepts only (to compare two IRs), and the
// corpus scenarios' directives (read_directives, plan_with).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/schedule_fusion/pattern.hpp>
#include <neuronrw/passes/schedule_fusion/plan.hpp>
#include <neuronrw/passes/schedule_fusion/planner.hpp>

#include "archetype/archetype_ir.hpp"

#include <doctest/doctest.h>

// An archetype IR that also answers the optional `argument_block` capability, to test the exact
// live-in path on a second IR (the plain archetype takes the documented fallback).
namespace sf_support {
struct archetype_with_args : neuronrw::archetype::ir {};
}  // namespace sf_support

template <>
struct neuronrw::ir_traits<sf_support::archetype_with_args> : neuronrw::ir_traits<neuronrw::archetype::ir> {
  static block_handle argument_block(const sf_support::archetype_with_args& g, value_handle v) {
    return {g.values[static_cast<std::size_t>(v.id)].block};
  }
};
static_assert(neuronrw::groupable_ir<sf_support::archetype_with_args>);

namespace sf_support {

using namespace neuronrw;

/// Where an operand comes from: the defining op's id and result index, or the owner op of the
/// block (plus argument index) for a block argument.
struct source {
  std::uint32_t op;
  std::uint32_t index;
  bool argument;
  friend bool operator==(const source&, const source&) = default;
};

inline bool is_new_group(const ref::module& m, ref::op_ref o, std::size_t original_ops) {
  return o.id >= original_ops && m.has_region(o);
}

inline source resolve(const ref::module& m, ref::value_ref v, std::size_t original_ops) {
  for (;;) {
    const auto d = m.defining_op(v);
    if (!d.valid()) {
      const auto owner = m.parent_op_of_block(m.argument_block(v));
      if (owner.valid() && is_new_group(m, owner, original_ops)) {
        v = m.operand(owner, m.value_index(v));  // a fusion block argument: its operand
        continue;
      }
      return {owner.valid() ? owner.id : ref::npos, m.value_index(v), true};
    }
    if (is_new_group(m, d, original_ops)) {
      v = m.operand(m.back(m.region_block(d)), m.value_index(v));  // a fusion result: its return
      continue;
    }
    return {d.id, m.value_index(v), false};
  }
}

template <class F>
void for_each_op(const ref::module& m, F&& f) {
  std::vector<ref::op_ref> stack;
  auto push = [&](ref::block_ref b) {
    const std::size_t mark = stack.size();
    for (auto o : m.ops(b)) stack.push_back(o);
    std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(mark), stack.end());
  };
  push(m.body());
  while (!stack.empty()) {
    auto o = stack.back();
    stack.pop_back();
    f(o);
    const auto rs = m.region_blocks(o);  // pushed last first: walked in order
    for (auto r = rs.rbegin(); r != rs.rend(); ++r) push(*r);
  }
}

using dataflow = std::map<std::uint32_t, std::vector<source>>;

inline dataflow snapshot(const ref::module& m, std::size_t original_ops) {
  dataflow d;
  for_each_op(m, [&](ref::op_ref o) {
    if (o.id >= original_ops) return;
    auto& v = d[o.id];
    for (auto x : m.operands(o)) v.push_back(resolve(m, x, original_ops));
  });
  return d;
}

/// Every original op is still in the module exactly once; the only new ops are one grouping op
/// and one terminator per cluster; every operand reads the same producer as before.
inline void check_dataflow(const ref::module& m, const dataflow& before, std::size_t original_ops, std::size_t clusters) {
  std::map<std::uint32_t, int> seen;
  std::size_t created = 0;
  for_each_op(m, [&](ref::op_ref o) {
    if (o.id >= original_ops)
      ++created;
    else
      ++seen[o.id];
  });
  CHECK(created == 2 * clusters);
  CHECK(seen.size() == before.size());
  for (auto& [id, n] : seen) CHECK(n == 1);
  CHECK(snapshot(m, original_ops) == before);
}

/// The same module on the archetype IR (ops, regions, arguments, types, attributes).
template <class A>
A to_archetype(const ref::module& m) {
  A a;
  std::unordered_map<std::uint32_t, int> vmap;  // ref value id -> archetype value id
  auto map_args = [&](ref::block_ref rb, int ab) {
    auto args = m.arguments(rb);
    for (std::size_t i = 0; i < args.size(); ++i) vmap[args[i].id] = a.arg(ab, i).id;
  };
  auto copy_block = [&](auto& self, ref::block_ref rb, int ab) -> void {
    for (auto o : m.ops(rb)) {
      std::vector<archetype::value_h> operands;
      for (auto v : m.operands(o)) operands.push_back({vmap.at(v.id)});
      std::vector<std::string> types;
      for (auto v : m.results(o)) types.emplace_back(m.type_text(v));
      auto x = a.add(ab, m.name(o), operands, types);
      for (auto& at : m.attributes(o)) a.op(x).attrs.emplace_back(at.name, at.value);
      for (std::size_t i = 0; i < types.size(); ++i) vmap[m.result(o, i).id] = a.result(x, i).id;
      for (const auto rb : m.region_blocks(o)) {
        std::vector<std::string> at;
        for (auto v : m.arguments(rb)) at.emplace_back(m.type_text(v));
        const int b = a.add_region(x, at);
        map_args(rb, b);
        self(self, rb, b);
      }
    }
  };
  for (auto f : m.ops(m.body())) {
    if (!m.is_function(f)) continue;  // a module-level op that is no function (`sdy.mesh`) holds no dataflow
    std::vector<std::string> at;
    if (m.has_region(f))
      for (auto v : m.arguments(m.region_block(f))) at.emplace_back(m.type_text(v));
    auto [fo, b] = a.add_function(m.function(f).sym_name, at);
    for (auto& x : m.attributes(f)) a.op(fo).attrs.emplace_back(x.name, x.value);
    if (m.has_region(f)) {
      map_args(m.region_block(f), b);
      copy_block(copy_block, m.region_block(f), b);
    }
  }
  return a;
}

/// A structural dump through the concepts only: per function, ops in pre-order with their kind,
/// operands (values numbered in order of appearance), result count and FusionKind.
template <class G>
std::string structure(const G& g) {
  using value = value_handle_t<G>;
  std::unordered_map<value, int, handle_hash<value>> num;
  std::ostringstream out;
  auto id = [&](value v) {
    auto [it, fresh] = num.emplace(v, static_cast<int>(num.size()));
    (void)fresh;
    return it->second;
  };
  auto dump_block = [&](auto& self, block_handle_t<G> b, int depth) -> void {
    for (auto&& o : ir::ops(g, b)) {
      out << std::string(static_cast<std::size_t>(depth) * 2, ' ') << ir::kind(g, o) << "(";
      for (auto&& v : ir::operands(g, o)) out << id(v) << ",";
      out << ") ->";
      for (auto&& v : ir::results(g, o)) out << " " << id(v);
      if (auto k = ir::traits<G>::string_attribute(g, o, "FusionKind")) out << " kind=" << *k;
      out << "\n";
      for (auto&& r : ir::regions(g, o)) self(self, r, depth + 1);
    }
  };
  for (auto&& f : ir::traits<G>::functions(g)) {
    out << "func\n";
    for (auto&& b : ir::regions(g, f)) dump_block(dump_block, b, 1);
  }
  return out.str();
}

/// The non-seed instance the tests declare: mixture-of-experts dispatch → combine.
using moe_pattern = co_schedule_pattern<kinds::all_to_all, kinds::all_to_all, default_boundary_set, 100, "MoEOverlap">;

/// A corpus scenario's `// schedule-fusion-options:` line (tests/passes/schedule_fusion_test.cpp
/// has the words).
struct scenario_options {
  schedule_fusion_options pass;
  bool moe = false;
  /// The scenario uses an outer block argument only inside a nested region of a cluster op: an
  /// IR without the `argument_block` capability (the plain archetype) takes it for a local one.
  bool needs_argument_block = false;
  bool composites = false;  ///< plan_schedule_fusion_composites
};

inline scenario_options read_directives(const std::string& text) {
  scenario_options o;
  std::istringstream in(text);
  std::string line;
  const std::string key = "// schedule-fusion-options:";
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) != 0) continue;
    std::istringstream words(line.substr(key.size()));
    for (std::string w; words >> w;) {
      if (w == "needs-argument-block")
        o.needs_argument_block = true;
      else if (w == "emit=composites")
        o.composites = true;
      else if (w == "pattern=moe")
        o.moe = true;
      else if (w == "budget=unbounded")
        o.pass.budget = unbounded_budget;
      else if (w.rfind("budget=", 0) == 0)
        o.pass.budget = std::stoul(w.substr(7));
      else
        FAIL("unknown directive word: " << w);
    }
  }
  return o;
}

/// The scenario's plan: its pattern, flavour and options.
template <class G>
schedule_fusion_plan_t<G> plan_with(const G& g, const scenario_options& o) {
  if constexpr (outlinable_ir<G>) {
    if (o.composites)
      return o.moe ? plan_schedule_fusion_composites<moe_pattern>(g, o.pass) : plan_schedule_fusion_composites(g, o.pass);
  } else {
    REQUIRE_FALSE(o.composites);
  }
  return o.moe ? plan_schedule_fusion<moe_pattern>(g, o.pass) : plan_schedule_fusion(g, o.pass);
}

}  // namespace sf_support
