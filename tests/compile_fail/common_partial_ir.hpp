// A partial adaptation shared by the compile-fail snippets: everything of read_ir except what
// a snippet leaves out (selected with macros), so each snippet misses exactly one requirement.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>
#include <neuronrw/concepts/ir.hpp>

struct partial_ir {};
struct p_op { int id = -1; friend bool operator==(p_op, p_op) = default; };
struct p_value { int id = -1; friend bool operator==(p_value, p_value) = default; };
template <> struct std::hash<p_op> { std::size_t operator()(p_op o) const noexcept { return static_cast<std::size_t>(o.id); } };
#ifndef OMIT_VALUE_HASH
template <> struct std::hash<p_value> { std::size_t operator()(p_value o) const noexcept { return static_cast<std::size_t>(o.id); } };
#endif

template <>
struct neuronrw::ir_traits<partial_ir> {
  using op_handle = p_op;
  using value_handle = p_value;
  using block_handle = int;
  static p_op null_op() { return {}; }
#ifndef OMIT_KIND
  static neuronrw::kind_id kind(const partial_ir&, p_op) { return 0; }
#endif
  static std::vector<p_value> operands(const partial_ir&, p_op) { return {}; }
  static p_op defining_op(const partial_ir&, p_value) { return {}; }
  static std::vector<p_op> users(const partial_ir&, p_value) { return {}; }
  static std::vector<p_value> results(const partial_ir&, p_op) { return {}; }
  static p_op parent_op(const partial_ir&, p_op) { return {}; }
  static int block_of(const partial_ir&, p_op) { return 0; }
  static std::vector<p_op> ops(const partial_ir&, int) { return {}; }
#ifndef OMIT_IS_BEFORE
  static bool is_before_in_block(const partial_ir&, p_op, p_op) { return false; }
#endif
  static p_op next_op(const partial_ir&, p_op) { return {}; }
  static p_op prev_op(const partial_ir&, p_op) { return {}; }
  static std::vector<int> regions(const partial_ir&, p_op) { return {}; }
#ifndef OMIT_MOVES
  static void move_before(partial_ir&, p_op, p_op) {}
  static void move_after(partial_ir&, p_op, p_op) {}
#endif
};
