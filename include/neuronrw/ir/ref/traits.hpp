// neuronrw/ir/ref/traits.hpp — the reference IR models every IR concept (read, ordered,
// reschedulable, groupable, outlinable), the optional dense op numbering, transactions (O5), operand defs (O6)
// and the mutation counter (O7).
//
// Customization points: this file *is* one — the `ir_traits<ref::module>` specialization, the
// pattern a user's own IR follows (see examples/ and docs/concepts.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/detail/fnv1a.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/rewrite.hpp>
#include <neuronrw/ir/ref/string_literal.hpp>

template <>
struct neuronrw::ir_traits<neuronrw::ref::module> {
  using G = ref::module;
  using op_handle = ref::op_ref;
  using value_handle = ref::value_ref;
  using block_handle = ref::block_ref;
  /// passes/parallel.hpp rule R1: every read is a plain load from the module's vectors (no lazy
  /// cache, index or counter), so any number of threads may read one unchanging module at once.
  /// (R2 is not declared: creations and moves grow module-wide vectors.)
  static constexpr bool concurrent_reads = true;

  // read
  static op_handle null_op() noexcept { return {}; }
  static kind_id kind(const G& g, op_handle o) noexcept { return g.kind(o); }
  static auto operands(const G& g, op_handle o) noexcept { return g.operands(o); }
  static op_handle defining_op(const G& g, value_handle v) noexcept { return g.defining_op(v); }
  static auto users(const G& g, value_handle v) noexcept { return g.users(v); }
  static auto results(const G& g, op_handle o) noexcept { return g.results(o); }
  static op_handle parent_op(const G& g, op_handle o) noexcept { return g.parent_op(o); }

  // ordered
  static block_handle block_of(const G& g, op_handle o) noexcept { return g.block_of(o); }
  static auto ops(const G& g, block_handle b) noexcept { return g.ops(b); }
  static bool is_before_in_block(const G& g, op_handle a, op_handle b) { return g.is_before_in_block(a, b); }
  static op_handle next_op(const G& g, op_handle o) { return g.next_op(o); }
  static op_handle prev_op(const G& g, op_handle o) { return g.prev_op(o); }
  /// One block per region: a span of the op's region blocks, in order (empty without regions).
  static std::span<const block_handle> regions(const G& g, op_handle o) noexcept { return g.region_blocks(o); }

  // reschedulable
  static void move_before(G& g, op_handle o, op_handle anchor) { g.move_before(o, anchor); }
  static void move_after(G& g, op_handle o, op_handle anchor) { g.move_after(o, anchor); }
  /// O10: a chain of moves after one anchor, with one order-label placement.
  static void move_run_after(G& g, std::span<const op_handle> run, op_handle anchor) { g.move_run_after(run, anchor); }

  // groupable
  static op_handle group_ops(G& g, const group_request<op_handle, value_handle>& r) { return ref::group_ops(g, r); }
  static std::optional<std::string> string_attribute(const G& g, op_handle o, std::string_view name) {
    auto* a = g.find_attribute(o, name);
    if (!a) return std::nullopt;
    return ref::unquote(a->value);
  }

  // outlinable
  static auto functions(const G& g) { return ref::functions(g); }
  static bool has_attribute(const G& g, op_handle o, std::string_view name) { return g.find_attribute(o, name) != nullptr; }
  static bool has_symbol(const G& g, std::string_view name) { return ref::has_symbol(g, name); }
  static op_handle outline_region(G& g, const outline_request<op_handle>& r) { return ref::outline_region(g, r); }
  static op_handle replace_op(G& g, const replace_request<op_handle>& r) { return ref::replace_op(g, r); }
  static void erase_op(G& g, op_handle o) { g.erase_op(o); }

  // optional: a block's arguments, in order
  static auto block_arguments(const G& g, block_handle b) noexcept { return g.arguments(b); }

  // optional: the block a block argument belongs to (invalid for op results)
  static block_handle argument_block(const G& g, value_handle v) noexcept { return g.argument_block(v); }

  // optional: the verifier's terminator rule (return kinds, `*.yield`, `*.terminator`), so the
  // passes never move an op the verifier requires to end its block
  static bool is_terminator(const G& g, op_handle o) { return ref::is_terminator(g, o); }

  // optional: transactions (O5) — the module's undo journal (ir.hpp, "transactions")
  static std::size_t begin_transaction(G& g) { return g.begin_transaction(); }
  static void commit(G& g, std::size_t token) { g.commit(token); }
  static void rollback(G& g, std::size_t token) { g.rollback(token); }

  // optional: each operand's defining op (O6), the walk's producer hop precomputed
  static std::span<const op_handle> operand_defs(const G& g, op_handle o) noexcept { return g.operand_defs(o); }

  // optional: the mutation counter and block sizes (O7), which key the walk's dense block copies
  static std::uint64_t version(const G& g) noexcept { return g.version(); }
  static std::size_t block_size(const G& g, block_handle b) { return g.size(b); }

  // optional: what the op computes apart from its operands and regions (O8): its name,
  // properties, attributes and result types, so a clone has the digest of its original
  static std::uint64_t op_digest(const G& g, op_handle o) {
    detail::fnv1a_64 h;
    h.update(g.name(o)).update_byte(0).update(g.properties_text(o)).update_byte(0);
    for (const auto& a : g.attributes(o)) h.update(a.name).update_byte(1).update(a.value).update_byte(0);
    for (auto r : g.results(o)) h.update(g.type_text(r)).update_byte(2);
    return h.value();
  }

  // optional: dense numbering
  static std::size_t op_index(const G&, op_handle o) noexcept { return o.id; }
  static std::size_t op_index_bound(const G& g) noexcept { return g.op_capacity(); }
};

static_assert(neuronrw::outlinable_ir<neuronrw::ref::module>);
static_assert(neuronrw::indexed_ir<neuronrw::ref::module>);
static_assert(neuronrw::transactional_ir<neuronrw::ref::module>);
static_assert(neuronrw::operand_defs_ir<neuronrw::ref::module>);
static_assert(neuronrw::run_move_ir<neuronrw::ref::module>);
static_assert(neuronrw::versioned_ir<neuronrw::ref::module>);
static_assert(neuronrw::digest_ir<neuronrw::ref::module>);
