// tests/archetype/archetype_ir.hpp — archetype IRs, one per concept layer, all generated from
// one template (Boost.Graph's graph_archetypes idea, one archetype per concept):
//
//   archetype::ir_at<layer L, unsigned Without = 0, unsigned Caps = 0>
//
// Its `neuronrw::ir_traits` specialization exposes exactly the requirements of layer L
// (concepts/ir.hpp: read_ir, ordered_ir, reschedulable_ir, groupable_ir, outlinable_ir) and
// nothing above it, minus the requirements named in the `Without` bitmask (`ir_req::*`, one bit
// per NEURONRW_IR_CHECK entry of concepts/ir.hpp, named after the concept that checks it), plus
// the optional capabilities named in `Caps` (`cap::op_index`, `cap::argument_block`,
// `cap::is_terminator`, `cap::transaction`). An algorithm instantiated and run on `ir_at<layer::ordered>` provably
// asks for nothing beyond ordered_ir; the compile-fail tests (tests/compile_fail/generate.py)
// remove one requirement at a time and expect that requirement's message.
//
// By default the model is as poor as a model may be: no dense op numbering, values hashable only
// through neuronrw::handle_hash (not std::hash), block handles not hashable at all, every range
// returned by value, O(n) order queries. `archetype::ir` (the name the older tests use) is the
// full instance, ir_at<layer::outlinable>.
//
// Every instance shares one storage (`ir_storage`: plain vectors plus builder helpers for the
// tests) and one set of handle types, so a plan made on one instance applies to a copy at
// another layer (`ir_at<layer::reschedulable> r(ordered_instance)`).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
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

/// The concept layers of concepts/ir.hpp, weakest first.
enum class layer : std::uint8_t { read, ordered, reschedulable, groupable, outlinable };

/// One bit per requirement check of concepts/ir.hpp (its NEURONRW_IR_CHECK entries), named after
/// the concept each entry tests, in the header's order. Removing a bit removes that requirement
/// and, where it can be done, nothing else: `has_block` drops `block_of` but keeps the
/// `block_handle` type the later requirements name. Removing a type (`has_op_handle`,
/// `has_value_handle`) necessarily breaks every later requirement that names it.
namespace ir_req {
enum : unsigned {
  // read_ir
  specialized = 1u << 0,        ///< no ir_traits specialization at all (the primary template)
  has_op_handle = 1u << 1,
  has_value_handle = 1u << 2,
  handles_regular = 1u << 3,    ///< value_handle loses its handle_hash
  has_null_op = 1u << 4,
  has_kind = 1u << 5,
  has_operands = 1u << 6,
  has_defining_op = 1u << 7,
  has_users = 1u << 8,
  has_results = 1u << 9,
  has_parent_op = 1u << 10,
  // ordered_ir
  has_block = 1u << 11,         ///< block_of (block_handle stays)
  has_block_ops = 1u << 12,
  has_is_before = 1u << 13,
  has_next_prev = 1u << 14,     ///< next_op and prev_op
  has_regions = 1u << 15,
  // reschedulable_ir
  has_moves = 1u << 16,         ///< move_before and move_after
  // groupable_ir
  has_group_ops = 1u << 17,
  has_string_attribute = 1u << 18,
  // outlinable_ir
  has_functions = 1u << 19,
  has_attribute_query = 1u << 20,  ///< has_attribute and has_symbol
  has_outline = 1u << 21,          ///< outline_region, replace_op and erase_op
};
}  // namespace ir_req

/// The optional capabilities of concepts/ir.hpp (O1-O3, O5); none by default.
namespace cap {
enum : unsigned {
  op_index = 1u << 0,        ///< O1 op_index / op_index_bound (the op id)
  argument_block = 1u << 1,  ///< O2 argument_block (needs ordered_ir's block_handle)
  is_terminator = 1u << 2,   ///< O3 is_terminator: kind return_, or marked with mark_terminator
  transaction = 1u << 3,     ///< O5 transactions, the least way: the token is a copy of the content
};
}  // namespace cap

struct op_h {
  int id = -1;
  friend bool operator==(op_h, op_h) = default;
};
/// A value handle; only the Hashable one has a handle_hash (see ir_req::handles_regular).
template <bool Hashable>
struct basic_value_h {
  int id = -1;
  friend bool operator==(basic_value_h, basic_value_h) = default;
};
using value_h = basic_value_h<true>;
/// Block handles are compared, never hashed: no algorithm may need more.
struct block_h {
  int id = -1;
  friend bool operator==(block_h, block_h) = default;
};

/// The data every instance shares: plain vectors, positions by linear search, and the builders
/// the tests use. Ops, values and blocks are numbered by their index; nothing is ever removed
/// from the vectors (an erased op is only marked).
struct ir_storage {
  struct op_data {
    std::string name;
    kind_id kind = unknown_kind;
    std::vector<int> operands;
    std::vector<int> results;
    int block = -1;
    std::vector<int> regions;  // block ids of the op's one-block regions, in order
    std::vector<std::pair<std::string, std::string>> attrs;
    std::string symbol;  // functions only
    bool function = false;
    bool erased = false;
    bool terminator = false;  // cap::is_terminator: marked with mark_terminator
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

  // ---- building ----------------------------------------------------------------------------
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
    blocks[idx(block)].ops.push_back(id);
    return {id};
  }
  /// Adds a one-block region to `op` (after its other regions); returns the block.
  int add_region(op_h op, std::vector<std::string> arg_types = {}) {
    int b = static_cast<int>(blocks.size());
    blocks.push_back(block_data{op.id, {}, {}});
    for (auto& t : arg_types) {
      blocks.back().args.push_back(static_cast<int>(values.size()));
      values.push_back({-1, b, t});
    }
    ops[idx(op.id)].regions.push_back(b);
    return b;
  }
  /// A function `name` with arguments of `arg_types`; returns its op and body block.
  std::pair<op_h, int> add_function(std::string_view name, std::vector<std::string> arg_types) {
    auto f = add(0, "func.func", {});
    ops[idx(f.id)].function = true;
    ops[idx(f.id)].symbol = std::string(name);
    return {f, add_region(f, std::move(arg_types))};
  }
  /// Marks `o` as a terminator for cap::is_terminator (return_-kind ops are terminators anyway).
  void mark_terminator(op_h o) { op(o).terminator = true; }

  // ---- reading -----------------------------------------------------------------------------
  value_h result(op_h o, std::size_t i = 0) const { return {op(o).results.at(i)}; }
  value_h arg(int block, std::size_t i) const { return {blocks[idx(block)].args.at(i)}; }
  op_data& op(op_h o) { return ops[idx(o.id)]; }
  const op_data& op(op_h o) const { return ops[idx(o.id)]; }
  std::vector<int>& block_ops(int b) { return blocks[idx(b)].ops; }
  const std::vector<int>& block_ops(int b) const { return blocks[idx(b)].ops; }
  std::size_t position(op_h o) const {
    auto& v = block_ops(op(o).block);
    return static_cast<std::size_t>(std::find(v.begin(), v.end(), o.id) - v.begin());
  }
  bool inside(op_h o, op_h ancestor) const {
    for (int x = o.id; x >= 0;) {
      if (x == ancestor.id) return true;
      x = blocks[idx(ops[idx(x)].block)].parent;
    }
    return false;
  }
  op_h parent_of(op_h o) const { return {blocks[idx(op(o).block)].parent}; }
  /// One entry per use, as MLIR's getUsers (an op using v twice is listed twice).
  std::vector<int> users_of(int v) const {
    std::vector<int> r;
    for (std::size_t i = 0; i < ops.size(); ++i)
      if (!ops[i].erased)
        for (int x : ops[i].operands)
          if (x == v) r.push_back(static_cast<int>(i));
    return r;
  }
  op_h neighbour(op_h o, int step) const {
    auto& v = block_ops(op(o).block);
    const auto p = static_cast<std::ptrdiff_t>(position(o)) + step;
    return p >= 0 && p < static_cast<std::ptrdiff_t>(v.size()) ? op_h{v[static_cast<std::size_t>(p)]} : op_h{};
  }
  std::optional<std::string> string_attr(op_h o, std::string_view name) const {
    for (auto& [k, v] : op(o).attrs)
      if (k == name && v.size() >= 2 && v.front() == '"') return v.substr(1, v.size() - 2);
    return std::nullopt;
  }
  bool has_attr(op_h o, std::string_view name) const {
    for (auto& a : op(o).attrs)
      if (a.first == name) return true;
    return false;
  }
  bool defines_symbol(std::string_view name) const {
    for (int o : block_ops(0))
      if (ops[idx(o)].symbol == name) return true;
    return false;
  }
  std::vector<int> function_ops() const {
    std::vector<int> r;
    for (int o : block_ops(0))
      if (ops[idx(o)].function) r.push_back(o);
    return r;
  }

  // ---- rewriting (the mechanics behind the reschedulable/groupable/outlinable requirements) --
  void remove_from_block(op_h o) {
    auto& v = block_ops(op(o).block);
    v.erase(std::find(v.begin(), v.end(), o.id));
  }
  template <class Pred>
  void replace_uses_if(value_h from, value_h to, Pred pred) {
    for (std::size_t i = 0; i < ops.size(); ++i)
      if (!ops[i].erased && pred(op_h{static_cast<int>(i)}))
        for (auto& v : ops[i].operands)
          if (v == from.id) v = to.id;
  }
  void move(op_h o, op_h anchor, bool after) {
    if (o == anchor) return;
    remove_from_block(o);
    auto& v = block_ops(op(anchor).block);
    v.insert(v.begin() + static_cast<std::ptrdiff_t>(position(anchor) + (after ? 1 : 0)), o.id);
    op(o).block = op(anchor).block;
  }
  op_h group(const group_request<op_h, value_h>& r) {
    std::vector<std::string> out_types, in_types;
    for (auto v : r.live_outs) out_types.push_back(values[idx(v.id)].type);
    for (auto v : r.live_ins) in_types.push_back(values[idx(v.id)].type);
    int blk = op(r.ops.front()).block;
    auto grp = add(blk, r.op_name, std::vector<value_h>(r.live_ins.begin(), r.live_ins.end()), out_types);
    move(grp, r.ops.front(), false);
    for (auto& a : r.attrs) op(grp).attrs.emplace_back(std::string(a.name), neuronrw::attribute_text(a.value));
    int body = add_region(grp, in_types);
    for (auto o : r.ops) {
      remove_from_block(o);
      op(o).block = body;
      block_ops(body).push_back(o.id);
    }
    for (std::size_t i = 0; i < r.live_ins.size(); ++i)
      replace_uses_if(r.live_ins[i], arg(body, i), [&](op_h u) { return u != grp && inside(u, grp); });
    add(body, r.terminator_name, std::vector<value_h>(r.live_outs.begin(), r.live_outs.end()));
    for (std::size_t i = 0; i < r.live_outs.size(); ++i)
      replace_uses_if(r.live_outs[i], result(grp, i), [&](op_h u) { return !inside(u, grp); });
    return grp;
  }
  op_h outline(const outline_request<op_h>& r) {
    std::vector<std::string> in_types;
    for (int v : op(r.region_owner).operands) in_types.push_back(values[idx(v)].type);
    auto [f, body] = add_function(r.symbol, in_types);
    for (auto& a : r.attrs) op(f).attrs.emplace_back(std::string(a.name), neuronrw::attribute_text(a.value));
    if (op(r.region_owner).regions.empty()) return f;
    const int src = op(r.region_owner).regions.front();
    std::vector<int> map(values.size(), -1);
    auto& sargs = blocks[idx(src)].args;
    for (std::size_t i = 0; i < sargs.size(); ++i) map[idx(sargs[i])] = arg(body, i).id;
    clone_into(src, body, map);
    auto& bo = block_ops(body);
    if (!bo.empty() && ops[idx(bo.back())].kind == kind_id_v<kinds::return_>) ops[idx(bo.back())].name = "func.return";
    return f;
  }
  op_h replace(const replace_request<op_h>& r) {
    std::vector<value_h> operands;
    for (int v : op(r.old).operands) operands.push_back({v});
    std::vector<std::string> types;
    for (int v : op(r.old).results) types.push_back(values[idx(v)].type);
    auto n = add(op(r.old).block, r.op_name, operands, types);
    move(n, r.old, false);
    for (auto& a : r.attrs) op(n).attrs.emplace_back(std::string(a.name), neuronrw::attribute_text(a.value));
    for (std::size_t i = 0; i < types.size(); ++i)
      replace_uses_if(result(r.old, i), result(n, i), [](op_h) { return true; });
    return n;
  }
  void erase(op_h o) {
    remove_from_block(o);
    op(o).erased = true;
  }

  static std::size_t idx(int i) { return static_cast<std::size_t>(i); }

 private:
  void clone_into(int src, int dst, std::vector<int>& map) {
    auto src_ops = block_ops(src);
    for (int so : src_ops) {
      std::vector<value_h> operands;
      for (int v : ops[idx(so)].operands) operands.push_back({idx(v) < map.size() && map[idx(v)] >= 0 ? map[idx(v)] : v});
      std::vector<std::string> types;
      for (int v : ops[idx(so)].results) types.push_back(values[idx(v)].type);
      auto name = ops[idx(so)].name;
      auto c = add(dst, name, operands, types);
      op(c).attrs = ops[idx(so)].attrs;
      map.resize(values.size(), -1);
      for (std::size_t i = 0; i < types.size(); ++i) map[idx(ops[idx(so)].results[i])] = result(c, i).id;
      const auto src_regions = ops[idx(so)].regions;
      for (int sr : src_regions) {
        std::vector<std::string> at;
        for (int a : blocks[idx(sr)].args) at.push_back(values[idx(a)].type);
        int dr = add_region(c, at);
        map.resize(values.size(), -1);
        for (std::size_t i = 0; i < at.size(); ++i) map[idx(blocks[idx(sr)].args[i])] = arg(dr, i).id;
        clone_into(sr, dr, map);
      }
    }
  }
};

/// The archetype of layer L without the requirements in `Without` (ir_req bits) and with the
/// optional capabilities in `Caps` (cap bits). See the header comment.
template <layer L, unsigned Without = 0, unsigned Caps = 0>
struct ir_at : ir_storage {
  static constexpr layer level = L;
  static constexpr unsigned without = Without;
  static constexpr unsigned caps = Caps;

  ir_at() = default;
  /// A copy of another instance's content (the same ops under the same handles), e.g. to plan
  /// on an ordered instance and apply the plan to a reschedulable copy.
  explicit ir_at(const ir_storage& content) : ir_storage(content) {}
};

/// The full instance, with no optional capability: what tests that need every layer use.
using ir = ir_at<layer::outlinable>;

namespace archetype_detail {

/// True when an instance of layer L without W provides requirement `bit` of layer `at`.
constexpr bool provides(layer l, unsigned without, layer at, unsigned bit) { return l >= at && (without & bit) == 0; }

template <bool, class Op> struct op_handle_decl {};
template <class Op> struct op_handle_decl<true, Op> { using op_handle = Op; };
template <bool, class Value> struct value_handle_decl {};
template <class Value> struct value_handle_decl<true, Value> { using value_handle = Value; };
template <bool, class Block> struct block_handle_decl {};
template <class Block> struct block_handle_decl<true, Block> { using block_handle = Block; };

}  // namespace archetype_detail

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

#define NEURONRW_ARCHETYPE_HAS(at, bit)                                                        \
  requires(::neuronrw::archetype::archetype_detail::provides(L, W, ::neuronrw::archetype::layer::at, \
                                                              ::neuronrw::archetype::ir_req::bit))

/// The traits of every instance but those without a specialization (ir_req::specialized), which
/// fall back to the empty primary template. Each member is there exactly when its requirement is
/// (a trailing requires-clause, or a base class for the types).
template <neuronrw::archetype::layer L, unsigned W, unsigned C>
  requires((W & neuronrw::archetype::ir_req::specialized) == 0)
struct neuronrw::ir_traits<neuronrw::archetype::ir_at<L, W, C>>
    : neuronrw::archetype::archetype_detail::op_handle_decl<
          neuronrw::archetype::archetype_detail::provides(L, W, neuronrw::archetype::layer::read,
                                                          neuronrw::archetype::ir_req::has_op_handle),
          neuronrw::archetype::op_h>,
      neuronrw::archetype::archetype_detail::value_handle_decl<
          neuronrw::archetype::archetype_detail::provides(L, W, neuronrw::archetype::layer::read,
                                                          neuronrw::archetype::ir_req::has_value_handle),
          neuronrw::archetype::basic_value_h<(W & neuronrw::archetype::ir_req::handles_regular) == 0>>,
      neuronrw::archetype::archetype_detail::block_handle_decl<
          (L >= neuronrw::archetype::layer::ordered), neuronrw::archetype::block_h> {
 private:
  using G = archetype::ir_at<L, W, C>;
  using O = archetype::op_h;
  using V = archetype::basic_value_h<(W & archetype::ir_req::handles_regular) == 0>;
  using B = archetype::block_h;
  using layer = archetype::layer;
  static std::size_t idx(int i) { return static_cast<std::size_t>(i); }
  template <class H>
  static std::vector<H> handles(const std::vector<int>& ids) {
    std::vector<H> r;
    for (int i : ids) r.push_back(H{i});
    return r;
  }

 public:
  /// passes/parallel.hpp R1: reads are loads from the archetype's vectors.
  static constexpr bool concurrent_reads = true;
  // ---- read_ir
  static O null_op() NEURONRW_ARCHETYPE_HAS(read, has_null_op) {
    return {};
  }
  static kind_id kind(const G& g, O o) NEURONRW_ARCHETYPE_HAS(read, has_kind) {
    return g.op(o).kind;
  }
  static std::vector<V> operands(const G& g, O o) NEURONRW_ARCHETYPE_HAS(read, has_operands) {
    return handles<V>(g.op(o).operands);
  }
  static O defining_op(const G& g, V v) NEURONRW_ARCHETYPE_HAS(read, has_defining_op) {
    return {g.values[idx(v.id)].def};
  }
  static std::vector<O> users(const G& g, V v) NEURONRW_ARCHETYPE_HAS(read, has_users) {
    return handles<O>(g.users_of(v.id));
  }
  static std::vector<V> results(const G& g, O o) NEURONRW_ARCHETYPE_HAS(read, has_results) {
    return handles<V>(g.op(o).results);
  }
  static O parent_op(const G& g, O o) NEURONRW_ARCHETYPE_HAS(read, has_parent_op) {
    return g.parent_of(o);
  }

  // ---- ordered_ir
  static B block_of(const G& g, O o) NEURONRW_ARCHETYPE_HAS(ordered, has_block) {
    return {g.op(o).block};
  }
  static std::vector<O> ops(const G& g, B b) NEURONRW_ARCHETYPE_HAS(ordered, has_block_ops) {
    return handles<O>(g.block_ops(b.id));
  }
  static bool is_before_in_block(const G& g, O a, O b) NEURONRW_ARCHETYPE_HAS(ordered, has_is_before) {
    return g.position(a) < g.position(b);
  }
  static O next_op(const G& g, O o) NEURONRW_ARCHETYPE_HAS(ordered, has_next_prev) {
    return g.neighbour(o, 1);
  }
  static O prev_op(const G& g, O o) NEURONRW_ARCHETYPE_HAS(ordered, has_next_prev) {
    return g.neighbour(o, -1);
  }
  static std::vector<B> regions(const G& g, O o) NEURONRW_ARCHETYPE_HAS(ordered, has_regions) {
    return handles<B>(g.op(o).regions);
  }

  // ---- reschedulable_ir
  static void move_before(G& g, O o, O anchor) NEURONRW_ARCHETYPE_HAS(reschedulable, has_moves) {
    g.move(o, anchor, false);
  }
  static void move_after(G& g, O o, O anchor) NEURONRW_ARCHETYPE_HAS(reschedulable, has_moves) {
    g.move(o, anchor, true);
  }

  // ---- groupable_ir
  static O group_ops(G& g, const group_request<O, V>& r) NEURONRW_ARCHETYPE_HAS(groupable, has_group_ops) {
    std::vector<archetype::value_h> ins, outs;
    for (auto v : r.live_ins) ins.push_back({v.id});
    for (auto v : r.live_outs) outs.push_back({v.id});
    return g.group({r.ops, ins, outs, r.op_name, r.terminator_name, r.attrs});
  }
  static std::optional<std::string> string_attribute(const G& g, O o, std::string_view name)
      NEURONRW_ARCHETYPE_HAS(groupable, has_string_attribute) {
    return g.string_attr(o, name);
  }

  // ---- outlinable_ir
  static std::vector<O> functions(const G& g) NEURONRW_ARCHETYPE_HAS(outlinable, has_functions) {
    return handles<O>(g.function_ops());
  }
  static bool has_attribute(const G& g, O o, std::string_view name)
      NEURONRW_ARCHETYPE_HAS(outlinable, has_attribute_query) {
    return g.has_attr(o, name);
  }
  static bool has_symbol(const G& g, std::string_view name)
      NEURONRW_ARCHETYPE_HAS(outlinable, has_attribute_query) {
    return g.defines_symbol(name);
  }
  static O outline_region(G& g, const outline_request<O>& r) NEURONRW_ARCHETYPE_HAS(outlinable, has_outline) {
    return g.outline(r);
  }
  static O replace_op(G& g, const replace_request<O>& r) NEURONRW_ARCHETYPE_HAS(outlinable, has_outline) {
    return g.replace(r);
  }
  static void erase_op(G& g, O o) NEURONRW_ARCHETYPE_HAS(outlinable, has_outline) {
    g.erase(o);
  }

  // ---- optional capabilities
  static std::size_t op_index(const G&, O o)
    requires((C & archetype::cap::op_index) != 0)
  {
    return idx(o.id);
  }
  static std::size_t op_index_bound(const G& g)
    requires((C & archetype::cap::op_index) != 0)
  {
    return g.ops.size();
  }
  static B argument_block(const G& g, V v)
    requires((C & archetype::cap::argument_block) != 0 && L >= layer::ordered)
  {
    return {g.values[idx(v.id)].block};
  }
  static bool is_terminator(const G& g, O o)
    requires((C & archetype::cap::is_terminator) != 0)
  {
    return g.op(o).terminator || g.op(o).kind == kind_id_v<kinds::return_>;
  }
  // O5: a snapshot of the whole content; handles are ids, so restoring it restores their meaning.
  static archetype::ir_storage begin_transaction(G& g)
    requires((C & archetype::cap::transaction) != 0)
  {
    return g;
  }
  static void commit(G&, const archetype::ir_storage&)
    requires((C & archetype::cap::transaction) != 0)
  {}
  static void rollback(G& g, const archetype::ir_storage& snapshot)
    requires((C & archetype::cap::transaction) != 0)
  {
    static_cast<archetype::ir_storage&>(g) = snapshot;
  }
};

#undef NEURONRW_ARCHETYPE_HAS

namespace neuronrw::archetype {

// Each layer's instance models its concept and not the next one; the full one is `ir`.
static_assert(read_ir<ir_at<layer::read>> && !ordered_ir<ir_at<layer::read>>);
static_assert(ordered_ir<ir_at<layer::ordered>> && !reschedulable_ir<ir_at<layer::ordered>>);
static_assert(reschedulable_ir<ir_at<layer::reschedulable>> && !groupable_ir<ir_at<layer::reschedulable>>);
static_assert(groupable_ir<ir_at<layer::groupable>> && !outlinable_ir<ir_at<layer::groupable>>);
static_assert(outlinable_ir<ir> && !indexed_ir<ir> && !argument_block_ir<ir> && !terminator_aware_ir<ir> &&
              !transactional_ir<ir>);
static_assert(transactional_ir<ir_at<layer::groupable, 0, cap::transaction>>);

}  // namespace neuronrw::archetype
