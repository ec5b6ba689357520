// Static tests of the IR concepts: which types model which layer. Compiling is passing.
#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/ir/ref/traits.hpp>

#include "archetype/archetype_ir.hpp"

namespace nr = neuronrw;

// Both shipped models reach the top layer; only the reference IR numbers its ops.
static_assert(nr::read_ir<nr::ref::module> && nr::ordered_ir<nr::ref::module> &&
              nr::reschedulable_ir<nr::ref::module> && nr::groupable_ir<nr::ref::module> &&
              nr::outlinable_ir<nr::ref::module>);
static_assert(nr::outlinable_ir<nr::archetype::ir>);
static_assert(nr::indexed_ir<nr::ref::module> && !nr::indexed_ir<nr::archetype::ir>);
static_assert(nr::require_outlinable_ir<nr::ref::module>() && nr::require_outlinable_ir<nr::archetype::ir>());

// A type with no specialization models nothing.
struct stranger {};
static_assert(!nr::read_ir<stranger> && !nr::ordered_ir<stranger>);

// A read-only adaptation: read_ir but not ordered_ir. Layers refine one another.
struct read_only {};
struct ro_op { int id = -1; friend bool operator==(ro_op, ro_op) = default; };
template <> struct std::hash<ro_op> { std::size_t operator()(ro_op o) const noexcept { return static_cast<std::size_t>(o.id); } };
template <>
struct nr::ir_traits<read_only> {
  using op_handle = ro_op;
  using value_handle = ro_op;  // the same handle type may serve both roles
  static ro_op null_op() { return {}; }
  static nr::kind_id kind(const read_only&, ro_op) { return 0; }
  static std::vector<ro_op> operands(const read_only&, ro_op) { return {}; }
  static ro_op defining_op(const read_only&, ro_op v) { return v; }
  static std::vector<ro_op> users(const read_only&, ro_op) { return {}; }
  static std::vector<ro_op> results(const read_only&, ro_op o) { return {o}; }
  static ro_op parent_op(const read_only&, ro_op) { return {}; }
};
static_assert(nr::read_ir<read_only> && !nr::ordered_ir<read_only> && !nr::reschedulable_ir<read_only>);

// Handle aliases resolve through the traits.
static_assert(std::is_same_v<nr::op_handle_t<nr::ref::module>, nr::ref::op_ref>);
static_assert(std::is_same_v<nr::value_handle_t<const nr::ref::module&>, nr::ref::value_ref>);
static_assert(std::is_same_v<nr::block_handle_t<nr::archetype::ir>, nr::archetype::block_h>);

int main() {}
