// Static tests of the archetype templates themselves: each layer's instance misses exactly the
// requirements of the layers above it, each `Without` bit removes exactly its own requirement
// (or, for a handle type, that requirement and the ones naming the type), and each capability
// appears only when asked for. The compile-fail tests (tests/compile_fail/generated/) lean on
// this: they take "the archetype without requirement R" to mean exactly that. Compiling is passing.
#include <cstddef>
#include <functional>
#include <type_traits>
#include <utility>

#include <neuronrw/concepts/host.hpp>
#include <neuronrw/concepts/ir.hpp>

#include "archetype/archetype_ir.hpp"
#include "archetype/host_archetype.hpp"

namespace nr = neuronrw;
namespace a = neuronrw::archetype;

namespace {

// ------------------------------------------------------------------------------ IR archetypes
/// The ir_req bits of the concepts/ir.hpp requirements G does not meet.
template <class G>
constexpr unsigned missing_ir() {
  namespace d = nr::concepts_detail;
  namespace r = a::ir_req;
  unsigned m = 0;
  if (!d::specialized<G>) m |= r::specialized;
  if (!d::has_op_handle<G>) m |= r::has_op_handle;
  if (!d::has_value_handle<G>) m |= r::has_value_handle;
  if (!d::handles_regular<G>) m |= r::handles_regular;
  if (!d::has_null_op<G>) m |= r::has_null_op;
  if (!d::has_kind<G>) m |= r::has_kind;
  if (!d::has_operands<G>) m |= r::has_operands;
  if (!d::has_defining_op<G>) m |= r::has_defining_op;
  if (!d::has_users<G>) m |= r::has_users;
  if (!d::has_results<G>) m |= r::has_results;
  if (!d::has_parent_op<G>) m |= r::has_parent_op;
  if (!d::has_block<G>) m |= r::has_block;
  if (!d::has_block_ops<G>) m |= r::has_block_ops;
  if (!d::has_is_before<G>) m |= r::has_is_before;
  if (!d::has_next_prev<G>) m |= r::has_next_prev;
  if (!d::has_regions<G>) m |= r::has_regions;
  if (!d::has_moves<G>) m |= r::has_moves;
  if (!d::has_group_ops<G>) m |= r::has_group_ops;
  if (!d::has_string_attribute<G>) m |= r::has_string_attribute;
  if (!d::has_functions<G>) m |= r::has_functions;
  if (!d::has_attribute_query<G>) m |= r::has_attribute_query;
  if (!d::has_outline<G>) m |= r::has_outline;
  return m;
}

constexpr unsigned all_ir = (a::ir_req::has_outline << 1) - 1;
constexpr unsigned above_read = all_ir & ~((a::ir_req::has_parent_op << 1) - 1);
constexpr unsigned above_ordered = all_ir & ~((a::ir_req::has_regions << 1) - 1);
constexpr unsigned above_reschedulable = all_ir & ~((a::ir_req::has_moves << 1) - 1);
constexpr unsigned above_groupable = all_ir & ~((a::ir_req::has_string_attribute << 1) - 1);

static_assert(missing_ir<a::ir_at<a::layer::read>>() == above_read);
static_assert(missing_ir<a::ir_at<a::layer::ordered>>() == above_ordered);
static_assert(missing_ir<a::ir_at<a::layer::reschedulable>>() == above_reschedulable);
static_assert(missing_ir<a::ir_at<a::layer::groupable>>() == above_groupable);
static_assert(missing_ir<a::ir>() == 0);

// Without a specialization nothing is there; without a handle type, nothing that names it.
static_assert(missing_ir<a::ir_at<a::layer::outlinable, a::ir_req::specialized>>() == all_ir);
constexpr unsigned no_op_handle = missing_ir<a::ir_at<a::layer::outlinable, a::ir_req::has_op_handle>>();
static_assert((no_op_handle & (a::ir_req::specialized | a::ir_req::has_value_handle)) == 0 &&
              (no_op_handle & a::ir_req::has_op_handle) && (no_op_handle & a::ir_req::has_kind) &&
              (no_op_handle & a::ir_req::has_outline));
constexpr unsigned no_value_handle = missing_ir<a::ir_at<a::layer::outlinable, a::ir_req::has_value_handle>>();
static_assert((no_value_handle & (a::ir_req::specialized | a::ir_req::has_op_handle | a::ir_req::has_kind |
                                  a::ir_req::has_null_op | a::ir_req::has_parent_op)) == 0 &&
              (no_value_handle & a::ir_req::has_value_handle) && (no_value_handle & a::ir_req::has_operands));

// Every other bit removes its requirement and nothing else.
template <unsigned... I>
constexpr bool each_ir_bit_removes_only_itself(std::integer_sequence<unsigned, I...>) {
  constexpr unsigned types = a::ir_req::specialized | a::ir_req::has_op_handle | a::ir_req::has_value_handle;
  return ((((1u << I) & types) != 0 ? true : missing_ir<a::ir_at<a::layer::outlinable, (1u << I)>>() == (1u << I)) && ...);
}
static_assert(each_ir_bit_removes_only_itself(std::make_integer_sequence<unsigned, 22>{}));
static_assert((1u << 22) > a::ir_req::has_outline && (1u << 21) == a::ir_req::has_outline);

// A removed requirement stays removed at every layer that has it (and removing one above the
// layer changes nothing).
static_assert(missing_ir<a::ir_at<a::layer::ordered, a::ir_req::has_kind>>() == (above_ordered | a::ir_req::has_kind));
static_assert(missing_ir<a::ir_at<a::layer::read, a::ir_req::has_moves>>() == above_read);

// Capabilities: only on request, and argument_block only where block_handle exists.
static_assert(!nr::indexed_ir<a::ir> && nr::indexed_ir<a::ir_at<a::layer::read, 0, a::cap::op_index>>);
static_assert(!nr::concepts_detail::has_argument_block<a::ir> &&
              nr::argument_block_ir<a::ir_at<a::layer::ordered, 0, a::cap::argument_block>> &&
              !nr::concepts_detail::has_argument_block<a::ir_at<a::layer::read, 0, a::cap::argument_block>>);
static_assert(!nr::terminator_aware_ir<a::ir> && nr::terminator_aware_ir<a::ir_at<a::layer::read, 0, a::cap::is_terminator>>);
static_assert(missing_ir<a::ir_at<a::layer::outlinable, 0, a::cap::op_index | a::cap::argument_block |
                                                             a::cap::is_terminator>>() == 0);

// Block handles are compared, never hashed; values hash only through handle_hash.
static_assert(!std::is_default_constructible_v<std::hash<a::block_h>>);
static_assert(!std::is_default_constructible_v<std::hash<a::value_h>>);

// ------------------------------------------------------------------------------ host archetypes
template <class P>
constexpr unsigned missing_host() {
  namespace d = nr::host_concepts_detail;
  namespace r = a::host_req;
  unsigned m = 0;
  if (!d::specialized<P>) m |= r::specialized;
  if (!d::has_handles<P>) m |= r::has_handles;
  if (!d::handles_regular<P>) m |= r::handles_regular;
  if (!d::has_functions<P>) m |= r::has_functions;
  if (!d::has_function_info<P>) m |= r::has_function_info;
  if (!d::has_body<P>) m |= r::has_body;
  if (!d::has_stmt_kind<P>) m |= r::has_stmt_kind;
  if (!d::has_stmt_body<P>) m |= r::has_stmt_body;
  if (!d::has_operands<P>) m |= r::has_operands;
  if (!d::has_assign<P>) m |= r::has_assign;
  if (!d::has_loop<P>) m |= r::has_loop;
  if (!d::has_expr_kind<P>) m |= r::has_expr_kind;
  if (!d::has_leaves<P>) m |= r::has_leaves;
  if (!d::has_calls<P>) m |= r::has_calls;
  if (!d::has_locations<P>) m |= r::has_locations;
  if (!d::has_window_query<P>) m |= r::has_window_query;
  if (!d::has_window_factory<P>) m |= r::has_window_factory;
  if (!d::has_attach_window<P>) m |= r::has_attach_window;
  if (!d::has_wrap_body<P>) m |= r::has_wrap_body;
  return m;
}

constexpr unsigned all_host = (a::host_req::has_wrap_body << 1) - 1;
constexpr unsigned above_program = all_host & ~((a::host_req::has_window_query << 1) - 1);

static_assert(missing_host<a::host_at<a::host_layer::program>>() == above_program);
static_assert(missing_host<a::host_program>() == 0);
static_assert(missing_host<a::host_at<a::host_layer::rewritable, a::host_req::specialized>>() == all_host);
static_assert(missing_host<a::host_at<a::host_layer::rewritable, a::host_req::has_handles>>() ==
              (all_host & ~a::host_req::specialized));

template <unsigned... I>
constexpr bool each_host_bit_removes_only_itself(std::integer_sequence<unsigned, I...>) {
  constexpr unsigned types = a::host_req::specialized | a::host_req::has_handles;
  return ((((1u << I) & types) != 0 ? true
                             : missing_host<a::host_at<a::host_layer::rewritable, (1u << I)>>() == (1u << I)) &&
          ...);
}
static_assert(each_host_bit_removes_only_itself(std::make_integer_sequence<unsigned, 19>{}));
static_assert((1u << 18) == a::host_req::has_wrap_body);

}  // namespace
