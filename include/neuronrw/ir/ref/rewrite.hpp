// neuronrw/ir/ref/rewrite.hpp — structural rewrites of the reference IR that the groupable and
// outlinable concepts ask for: group a run of ops into a region op, clone a region into a new
// private function, replace an op by a new one, and the symbol-table query that picks fresh
// function names.
//
// Customization points: none (concrete IR). ir/ref/traits.hpp forwards the concept requirements
// here.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <neuronrw/algorithms/walk.hpp>
#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/string_literal.hpp>  // ref::quote / ref::unquote for the attribute texts of requests
#include <neuronrw/ir/ref/symbols.hpp>

namespace neuronrw::ref {

/// True when `op` is `ancestor` or nested (at any depth) inside one of ancestor's regions.
inline bool is_inside(const module& m, op_ref op, op_ref ancestor) {
  for (auto o = op; o.valid(); o = m.parent_op(o))
    if (o == ancestor) return true;
  return false;
}

/// A request's attributes as the reference IR stores them: name and canonical text
/// (concepts/attribute.hpp's attribute_text).
inline std::vector<attribute> to_attributes(std::span<const named_attribute> attrs) {
  std::vector<attribute> r;
  r.reserve(attrs.size());
  for (auto& a : attrs) r.push_back({std::string(a.name), attribute_text(a.value)});
  return r;
}

/// groupable_ir requirement 14 on the reference IR. Cost: O(size of the run, nested ops included,
/// + uses of the live-outs × their nesting depth).
/// @pre `ops` non-empty, contiguous and in order in one block; live_ins defined outside the run,
/// live_outs results of ops in the run.
inline op_ref group_ops(module& m, const group_request<op_ref, value_ref>& r) {
  std::vector<type_ref> out_types, in_types;
  for (auto v : r.live_outs) out_types.push_back(m.type(v));
  for (auto v : r.live_ins) in_types.push_back(m.type(v));
  auto g = m.create_op(r.op_name, r.live_ins, out_types, to_attributes(r.attrs), m.loc(r.ops.front()));
  m.insert_before(g, r.ops.front());
  auto body = m.add_region(g, in_types);
  for (auto op : r.ops) m.move_to_end(op, body);
  // Rewire the moved ops' uses of live-ins (nested regions included) to the block arguments by
  // walking the moved ops' own operands: O(size of the run). Scanning each live-in's use list
  // instead would cost O(all its uses) per group, quadratic when many groups share one input.
  std::unordered_map<std::uint32_t, value_ref> arg_of;
  {
    auto args = m.arguments(body);
    for (std::size_t i = 0; i < r.live_ins.size(); ++i) arg_of.emplace(r.live_ins[i].id, args[i]);
  }
  walk_tree<walk_order::pre, op_ref>(
      [&](auto&& push) {
        for (auto op : r.ops) push(op);
      },
      [&m](op_ref op, auto&& push) {
        for (const auto b : m.region_blocks(op))
          for (auto inner : m.ops(b)) push(inner);
      },
      [&](op_ref op) {
        for (std::size_t j = 0; j < m.num_operands(op); ++j)
          if (auto it = arg_of.find(m.operand(op, j).id); it != arg_of.end()) m.set_operand(op, j, it->second);
      });
  auto term = m.create_op(r.terminator_name, r.live_outs, {}, {}, m.loc(r.ops.back()));
  m.push_back(body, term);
  for (std::size_t i = 0; i < r.live_outs.size(); ++i)
    m.replace_uses_if(r.live_outs[i], m.result(g, i), [&](op_ref user) { return !is_inside(m, user, g); });
  return g;
}

namespace detail {
// Clones the ops of `src` to the end of `dst`, mapping values through `map` (value id → the
// clone's value id; absent = defined outside the cloned region and used as is). A hash map, not a
// table over every value of the module: the cost is the region's size, so outlining N fusions is
// linear in their total size, not N × the module's values.
using value_map = std::unordered_map<std::uint32_t, std::uint32_t>;
inline void clone_block_ops(module& m, block_ref src, block_ref dst, value_map& map) {
  auto mapped = [&](value_ref v) {
    if (!v.valid()) return v;
    auto it = map.find(v.id);
    return it == map.end() ? v : value_ref{it->second};
  };
  std::vector<op_ref> src_ops;
  for (auto o : m.ops(src)) src_ops.push_back(o);
  for (auto o : src_ops) {
    std::vector<value_ref> operands;
    for (auto v : m.operands(o)) operands.push_back(mapped(v));
    std::vector<type_ref> types;
    for (auto v : m.results(o)) types.push_back(m.type(v));
    auto c = m.create_op(m.name(o), operands, types, std::as_const(m).attributes(o), m.loc(o));
    m.set_loc_text(c, m.loc_text(o));
    m.set_properties_text(c, m.properties_text(o));
    m.set_syntax_form(c, m.syntax_form(o));
    m.set_name_hint(c, m.name_hint(o));
    m.set_result_group_hints(c, {m.result_group_hints(o).begin(), m.result_group_hints(o).end()});
    m.push_back(dst, c);
    for (std::size_t i = 0; i < types.size(); ++i) map[m.result(o, i).id] = m.result(c, i).id;
    // A copy: adding the clone's regions may move the module's lists of region blocks.
    const std::vector<block_ref> src_regions(m.region_blocks(o).begin(), m.region_blocks(o).end());
    for (const auto sb : src_regions) {
      std::vector<type_ref> arg_types;
      for (auto a : m.arguments(sb)) arg_types.push_back(m.type(a));
      auto db = m.add_region(c, arg_types);
      m.set_explicit_block(db, m.explicit_block(sb));
      auto sargs = m.arguments(sb);
      auto dargs = m.arguments(db);
      for (std::size_t i = 0; i < sargs.size(); ++i) {
        map[sargs[i].id] = dargs[i].id;
        m.set_arg_name_hint(dargs[i], m.arg_name_hint(sargs[i]));
        m.set_arg_loc_text(dargs[i], m.arg_loc_text(sargs[i]));
      }
      clone_block_ops(m, sb, db, map);
    }
  }
}
}  // namespace detail

/// outlinable_ir requirement 19 on the reference IR: a private function at the module's end
/// with region_owner's signature and a clone of its region; the region terminator (any
/// `*.return`) becomes `func.return`. Cost: O(size of the region).
inline op_ref outline_region(module& m, const outline_request<op_ref>& r) {
  auto f = m.create_op("func.func", {}, {}, to_attributes(r.attrs), m.loc(r.region_owner));
  m.set_loc_text(f, m.loc_text(r.region_owner));
  auto& fi = m.make_function(f);
  fi.sym_name = std::string(r.symbol);
  fi.visibility = "private";
  for (auto v : m.results(r.region_owner)) fi.result_types.push_back(m.type(v));
  fi.result_attrs.assign(fi.result_types.size(), {});
  std::vector<type_ref> in_types;
  for (auto v : m.operands(r.region_owner)) in_types.push_back(m.type(v));
  fi.arg_attrs.assign(in_types.size(), {});
  m.push_back(m.body(), f);
  auto body = m.add_region(f, in_types);
  if (!m.has_region(r.region_owner)) return f;
  auto src = m.region_block(r.region_owner);
  detail::value_map map;
  auto sargs = m.arguments(src);
  auto dargs = m.arguments(body);
  for (std::size_t i = 0; i < sargs.size() && i < dargs.size(); ++i) {
    map[sargs[i].id] = dargs[i].id;
    m.set_arg_name_hint(dargs[i], m.arg_name_hint(sargs[i]));
  }
  detail::clone_block_ops(m, src, body, map);
  auto term = m.back(body);
  if (term.valid() && m.kind(term) == kind_id_v<kinds::return_> && m.name(term) != "func.return") {
    std::vector<value_ref> vals(m.operands(term).begin(), m.operands(term).end());
    auto ret = m.create_op("func.return", vals, {}, {}, m.loc(term));
    m.set_loc_text(ret, m.loc_text(term));
    m.insert_after(ret, term);
    m.erase_op(term);
  }
  return f;
}

/// outlinable_ir requirement 20 on the reference IR.
inline op_ref replace_op(module& m, const replace_request<op_ref>& r) {
  std::vector<value_ref> operands(m.operands(r.old).begin(), m.operands(r.old).end());
  std::vector<type_ref> types;
  for (auto v : m.results(r.old)) types.push_back(m.type(v));
  auto n = m.create_op(r.op_name, operands, types, to_attributes(r.attrs), m.loc(r.old));
  m.insert_before(n, r.old);
  m.set_name_hint(n, m.name_hint(r.old));
  m.set_result_group_hints(n, {m.result_group_hints(r.old).begin(), m.result_group_hints(r.old).end()});
  m.set_loc_text(n, m.loc_text(r.old));
  for (std::size_t i = 0; i < types.size(); ++i) m.replace_all_uses(m.result(r.old, i), m.result(n, i));
  return n;
}

/// outlinable_ir requirement 18 on the reference IR: true when a top-level op defines `name`
/// (a function, or an op with a `sym_name` string attribute or property), by the same rule the
/// verifier's symbol table uses (symbols.hpp). O(top-level ops + their sym_name texts).
inline bool has_symbol(const module& m, std::string_view name) {
  for (auto op : m.ops(m.body()))
    if (auto s = defined_symbol(m, op); s && *s == name) return true;
  return false;
}

}  // namespace neuronrw::ref
