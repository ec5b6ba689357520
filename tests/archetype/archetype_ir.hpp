// tests/archetype/archetype_ir.hpp — a minimal IR that models the IR concepts and nothing more
// (Boost.Graph's graph_archetypes idea): no dense op numbering, no std::hash for values (only
// neuronrw::handle_hash), ranges returned by value, O(n) order queries. Every algorithm is
// instantiated on it, which proves the algorithm asks for nothing beyond its concept.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/descriptors/kinds.hpp>

namespace neuronrw::archetype {

struct op_h {
  int id = -1;
  friend bool operator==(op_h, op_h) = default;
};
struct value_h {
  int id = -1;
  friend bool operator==(value_h, value_h) = default;
};
struct block_h {
  int id = -1;
  friend bool operator==(block_h, block_h) = default;
};

/// The archetype IR: plain vectors, positions by linear search.
struct ir {
  struct op_data {
    std::string name;
    kind_id kind = unknown_kind;
    std::vector<int> operands;
    std::vector<int> results;
    int block = -1;
    int region = -1;  // block id of the region, or -1
    std::vector<std::pair<std::string, std::string>> attrs;
    std::string symbol;  // functions only
    bool function = false;
    bool erased = false;
  };
  struct value_data {
    int def = -1;    // op id, or -1 for a block argument
    int block = -1;  // block of an argument
    std::string type;
  };
  struct block_data {
    int parent = -1;
    std::vector<int> ops;
    std::vector<int> args;
  };
  std::vector<op_data> ops;
  std::vector<value_data> values;
  std::vector<block_data> blocks{block_data{}};  // block 0: the module body

  /// Appends an op to `block`; the kind is the name after the dialect prefix, as in the
  /// reference IR, so tests can share expectations.
  op_h add(int block, std::string_view name, std::vector<value_h> operands, std::vector<std::string> result_types = {}) {
    op_data d;
    d.name = std::string(name);
    auto dot = name.find('.');
    d.kind = kind_id_of(dot == std::string_view::npos ? name : name.substr(dot + 1));
    for (auto v : operands) d.operands.push_back(v.id);
    d.block = block;
    int id = static_cast<int>(ops.size());
    for (auto& t : result_types) {
      d.results.push_back(static_cast<int>(values.size()));
      values.push_back({id, -1, t});
    }
    ops.push_back(std::move(d));
    blocks[static_cast<std::size_t>(block)].ops.push_back(id);
    return {id};
  }
  int add_region(op_h op, std::vector<std::string> arg_types = {}) {
    int b = static_cast<int>(blocks.size());
    blocks.push_back(block_data{op.id, {}, {}});
    for (auto& t : arg_types) {
      blocks.back().args.push_back(static_cast<int>(values.size()));
      values.push_back({-1, b, t});
    }
    ops[static_cast<std::size_t>(op.id)].region = b;
    return b;
  }
  /// A function `name` with arguments of `arg_types`; returns its op and body block.
  std::pair<op_h, int> add_function(std::string_view name, std::vector<std::string> arg_types) {
    auto f = add(0, "func.func", {});
    ops[static_cast<std::size_t>(f.id)].function = true;
    ops[static_cast<std::size_t>(f.id)].symbol = std::string(name);
    return {f, add_region(f, std::move(arg_types))};
  }
  value_h result(op_h o, std::size_t i = 0) const { return {op(o).results.at(i)}; }
  value_h arg(int block, std::size_t i) const { return {blocks[static_cast<std::size_t>(block)].args.at(i)}; }
  op_data& op(op_h o) { return ops[static_cast<std::size_t>(o.id)]; }
  const op_data& op(op_h o) const { return ops[static_cast<std::size_t>(o.id)]; }
  std::vector<int>& block_ops(int b) { return blocks[static_cast<std::size_t>(b)].ops; }
  const std::vector<int>& block_ops(int b) const { return blocks[static_cast<std::size_t>(b)].ops; }
  std::size_t position(op_h o) const {
    auto& v = block_ops(op(o).block);
    return static_cast<std::size_t>(std::find(v.begin(), v.end(), o.id) - v.begin());
  }
  void remove_from_block(op_h o) {
    auto& v = block_ops(op(o).block);
    v.erase(std::find(v.begin(), v.end(), o.id));
  }
  bool inside(op_h o, op_h ancestor) const {
    for (int x = o.id; x >= 0;) {
      if (x == ancestor.id) return true;
      x = blocks[static_cast<std::size_t>(ops[static_cast<std::size_t>(x)].block)].parent;
    }
    return false;
  }
  template <class Pred>
  void replace_uses_if(value_h from, value_h to, Pred pred) {
    for (std::size_t i = 0; i < ops.size(); ++i)
      if (!ops[i].erased && pred(op_h{static_cast<int>(i)}))
        for (auto& v : ops[i].operands)
          if (v == from.id) v = to.id;
  }
};

}  // namespace neuronrw::archetype

template <>
struct std::hash<neuronrw::archetype::op_h> {
  std::size_t operator()(neuronrw::archetype::op_h h) const noexcept { return std::hash<int>{}(h.id); }
};
// Values get their hash through the library's customization point only, not std::hash.
template <>
struct neuronrw::handle_hash<neuronrw::archetype::value_h> {
  std::size_t operator()(neuronrw::archetype::value_h h) const noexcept { return std::hash<int>{}(h.id) * 31u; }
};

template <>
struct neuronrw::ir_traits<neuronrw::archetype::ir> {
  using G = archetype::ir;
  using op_handle = archetype::op_h;
  using value_handle = archetype::value_h;
  using block_handle = archetype::block_h;

  static op_handle null_op() { return {}; }
  static kind_id kind(const G& g, op_handle o) { return g.op(o).kind; }
  static std::vector<value_handle> operands(const G& g, op_handle o) {
    std::vector<value_handle> r;
    for (int v : g.op(o).operands) r.push_back({v});
    return r;
  }
  static op_handle defining_op(const G& g, value_handle v) { return {g.values[static_cast<std::size_t>(v.id)].def}; }
  static std::vector<op_handle> users(const G& g, value_handle v) {
    std::vector<op_handle> r;
    for (std::size_t i = 0; i < g.ops.size(); ++i)
      if (!g.ops[i].erased)
        for (int x : g.ops[i].operands)
          if (x == v.id) r.push_back({static_cast<int>(i)});
    return r;
  }
  static std::vector<value_handle> results(const G& g, op_handle o) {
    std::vector<value_handle> r;
    for (int v : g.op(o).results) r.push_back({v});
    return r;
  }
  static op_handle parent_op(const G& g, op_handle o) {
    return {g.blocks[static_cast<std::size_t>(g.op(o).block)].parent};
  }

  static block_handle block_of(const G& g, op_handle o) { return {g.op(o).block}; }
  static std::vector<op_handle> ops(const G& g, block_handle b) {
    std::vector<op_handle> r;
    for (int o : g.block_ops(b.id)) r.push_back({o});
    return r;
  }
  static bool is_before_in_block(const G& g, op_handle a, op_handle b) { return g.position(a) < g.position(b); }
  static op_handle next_op(const G& g, op_handle o) {
    auto& v = g.block_ops(g.op(o).block);
    auto p = g.position(o);
    return p + 1 < v.size() ? op_handle{v[p + 1]} : op_handle{};
  }
  static op_handle prev_op(const G& g, op_handle o) {
    auto& v = g.block_ops(g.op(o).block);
    auto p = g.position(o);
    return p > 0 ? op_handle{v[p - 1]} : op_handle{};
  }

  static std::vector<block_handle> regions(const G& g, op_handle o) {
    if (g.op(o).region < 0) return {};
    return {block_handle{g.op(o).region}};
  }

  static void move_before(G& g, op_handle o, op_handle anchor) {
    if (o == anchor) return;
    g.remove_from_block(o);
    auto& v = g.block_ops(g.op(anchor).block);
    v.insert(v.begin() + static_cast<std::ptrdiff_t>(g.position(anchor)), o.id);
    g.op(o).block = g.op(anchor).block;
  }
  static void move_after(G& g, op_handle o, op_handle anchor) {
    if (o == anchor) return;
    g.remove_from_block(o);
    auto& v = g.block_ops(g.op(anchor).block);
    v.insert(v.begin() + static_cast<std::ptrdiff_t>(g.position(anchor)) + 1, o.id);
    g.op(o).block = g.op(anchor).block;
  }

  static op_handle group_ops(G& g, const group_request<op_handle, value_handle>& r) {
    std::vector<std::string> out_types, in_types;
    for (auto v : r.live_outs) out_types.push_back(g.values[static_cast<std::size_t>(v.id)].type);
    for (auto v : r.live_ins) in_types.push_back(g.values[static_cast<std::size_t>(v.id)].type);
    int blk = g.op(r.ops.front()).block;
    auto grp = g.add(blk, r.op_name, std::vector<value_handle>(r.live_ins.begin(), r.live_ins.end()), out_types);
    move_before(g, grp, r.ops.front());
    for (auto& a : r.attrs) g.op(grp).attrs.emplace_back(std::string(a.name), std::string(a.value));
    int body = g.add_region(grp, in_types);
    for (auto o : r.ops) {
      g.remove_from_block(o);
      g.op(o).block = body;
      g.block_ops(body).push_back(o.id);
    }
    for (std::size_t i = 0; i < r.live_ins.size(); ++i)
      g.replace_uses_if(r.live_ins[i], g.arg(body, i), [&](op_handle u) { return u != grp && g.inside(u, grp); });
    g.add(body, r.terminator_name, std::vector<value_handle>(r.live_outs.begin(), r.live_outs.end()));
    for (std::size_t i = 0; i < r.live_outs.size(); ++i)
      g.replace_uses_if(r.live_outs[i], g.result(grp, i), [&](op_handle u) { return !g.inside(u, grp); });
    return grp;
  }
  static std::optional<std::string> string_attribute(const G& g, op_handle o, std::string_view name) {
    for (auto& [k, v] : g.op(o).attrs)
      if (k == name && v.size() >= 2 && v.front() == '"') return v.substr(1, v.size() - 2);
    return std::nullopt;
  }

  static std::vector<op_handle> functions(const G& g) {
    std::vector<op_handle> r;
    for (int o : g.block_ops(0))
      if (g.ops[static_cast<std::size_t>(o)].function) r.push_back({o});
    return r;
  }
  static bool has_attribute(const G& g, op_handle o, std::string_view name) {
    for (auto& a : g.op(o).attrs)
      if (a.first == name) return true;
    return false;
  }
  static bool has_symbol(const G& g, std::string_view name) {
    for (int o : g.block_ops(0))
      if (g.ops[static_cast<std::size_t>(o)].symbol == name) return true;
    return false;
  }
  static op_handle outline_region(G& g, const outline_request<op_handle>& r) {
    std::vector<std::string> in_types;
    for (int v : g.op(r.region_owner).operands) in_types.push_back(g.values[static_cast<std::size_t>(v)].type);
    auto [f, body] = g.add_function(r.symbol, in_types);
    for (auto& a : r.attrs) g.op(f).attrs.emplace_back(std::string(a.name), std::string(a.value));
    int src = g.op(r.region_owner).region;
    if (src < 0) return f;
    std::vector<int> map(g.values.size(), -1);
    auto& sargs = g.blocks[static_cast<std::size_t>(src)].args;
    for (std::size_t i = 0; i < sargs.size(); ++i) map[static_cast<std::size_t>(sargs[i])] = g.arg(body, i).id;
    clone_into(g, src, body, map);
    auto& bo = g.block_ops(body);
    if (!bo.empty() && g.ops[static_cast<std::size_t>(bo.back())].kind == kind_id_v<kinds::return_>)
      g.ops[static_cast<std::size_t>(bo.back())].name = "func.return";
    return f;
  }
  static op_handle replace_op(G& g, const replace_request<op_handle>& r) {
    std::vector<value_handle> operands;
    for (int v : g.op(r.old).operands) operands.push_back({v});
    std::vector<std::string> types;
    for (int v : g.op(r.old).results) types.push_back(g.values[static_cast<std::size_t>(v)].type);
    auto n = g.add(g.op(r.old).block, r.op_name, operands, types);
    move_before(g, n, r.old);
    for (auto& a : r.attrs) g.op(n).attrs.emplace_back(std::string(a.name), std::string(a.value));
    for (std::size_t i = 0; i < types.size(); ++i)
      g.replace_uses_if(g.result(r.old, i), g.result(n, i), [](op_handle) { return true; });
    return n;
  }
  static void erase_op(G& g, op_handle o) {
    g.remove_from_block(o);
    g.op(o).erased = true;
  }

 private:
  static void clone_into(G& g, int src, int dst, std::vector<int>& map) {
    auto src_ops = g.block_ops(src);
    for (int so : src_ops) {
      std::vector<value_handle> operands;
      for (int v : g.ops[static_cast<std::size_t>(so)].operands)
        operands.push_back({static_cast<std::size_t>(v) < map.size() && map[static_cast<std::size_t>(v)] >= 0 ? map[static_cast<std::size_t>(v)] : v});
      std::vector<std::string> types;
      for (int v : g.ops[static_cast<std::size_t>(so)].results) types.push_back(g.values[static_cast<std::size_t>(v)].type);
      auto name = g.ops[static_cast<std::size_t>(so)].name;
      auto c = g.add(dst, name, operands, types);
      g.op(c).attrs = g.ops[static_cast<std::size_t>(so)].attrs;
      map.resize(g.values.size(), -1);
      for (std::size_t i = 0; i < types.size(); ++i)
        map[static_cast<std::size_t>(g.ops[static_cast<std::size_t>(so)].results[i])] = g.result(c, i).id;
      int sr = g.ops[static_cast<std::size_t>(so)].region;
      if (sr >= 0) {
        std::vector<std::string> at;
        for (int a : g.blocks[static_cast<std::size_t>(sr)].args) at.push_back(g.values[static_cast<std::size_t>(a)].type);
        int dr = g.add_region(c, at);
        map.resize(g.values.size(), -1);
        for (std::size_t i = 0; i < at.size(); ++i)
          map[static_cast<std::size_t>(g.blocks[static_cast<std::size_t>(sr)].args[i])] = g.arg(dr, i).id;
        clone_into(g, sr, dr, map);
      }
    }
  }
};

static_assert(neuronrw::outlinable_ir<neuronrw::archetype::ir>);
static_assert(!neuronrw::indexed_ir<neuronrw::archetype::ir>);
