// neuronrw/ir/host/ir.hpp — the reference host IR (docs/host-programs.md): pypto-style host
// programs — a program of functions with a level (HOST, CHIP, ...) and a role (Orchestrator, ...);
// statements (assignment, for over pl.range, while, expression statement, return, comm-domain
// scope); expressions (variables, integer / bool / string constants, symbols such as pl.FP32, None,
// lists, calls of ops or functions with positional arguments, keyword arguments and attributes);
// and types (unknown, scalar, tensor, distributed tensor carrying a WindowBuffer, pointer).
//
// Customization points: none; this header is a concrete IR. Its host-concept mapping is in
// neuronrw/ir/host/traits.hpp, its text format in text.hpp, structural equality in hash.hpp.
//
// Ownership, and why: every node lives on the heap behind a unique_ptr owned by its parent, so
// the raw pointers handed out as handles (function*, stmt*, expr*, var*) stay valid while a pass
// moves statements around (wrapping a body in a scope moves unique_ptrs, never nodes). A variable
// is owned by its definition (an assignment target, a loop variable, a parameter); every
// reference is a non-owning `var*`, so references can never form an ownership cycle — a
// WindowBuffer points back at its base variable, whose own type may in turn name a WindowBuffer.
// WindowBuffers are shared and immutable (`std::shared_ptr<const window_buffer>`): all the views
// of one allocation share ONE object, and that pointer identity is part of the program (the
// structural equality of hash.hpp compares it like a variable binding).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <neuronrw/diagnostic.hpp>

namespace neuronrw::host {

struct var;
struct expr;
struct stmt;
struct window_buffer;

using expr_ptr = std::unique_ptr<expr>;
using stmt_ptr = std::unique_ptr<stmt>;
using var_ptr = std::unique_ptr<var>;
using window_ptr = std::shared_ptr<const window_buffer>;

// ------------------------------------------------------------------------------------- types

enum class type_kind : std::uint8_t {
  unknown,             ///< `pl.UnknownType`: nothing is known (an op the IR does not model)
  scalar,              ///< `pl.Scalar[pl.INDEX]`
  tensor,              ///< `pl.Tensor[[256, 4], pl.FP32]`
  distributed_tensor,  ///< `pld.DistributedTensor[[256], pl.FP32]`, optionally with a WindowBuffer
  ptr,                 ///< `pl.Ptr`: the result of pld.tensor.alloc_window_buffer
  tuple,               ///< `tuple[T1, T2]`: the return type of a function returning several values
  tile,                ///< `pl.Tile[[64, 64], pl.FP32]`: pypto's on-chip tile (in kernels and device scopes)
  comm_ctx,            ///< `pld.CommCtx` (pypto's IR name `pld.CommCtxType` reads as it): the handle
                       ///< pld.system.get_comm_ctx returns
};

/// One dimension of a shape: an integer, a variable (a dynamic dimension), or another integer
/// expression (`pld.world_size()`, `n * 2`), shared by every copy of the type.
struct dim {
  std::int64_t value = 0;
  var* sym = nullptr;                ///< non-null for a variable dimension
  std::shared_ptr<const expr> e;     ///< non-null for an expression dimension

  dim() = default;
  dim(std::int64_t v, var* s, std::shared_ptr<const expr> x = nullptr) : value(v), sym(s), e(std::move(x)) {}
};

/// A value type. Plain data, cheap to copy; `window` is shared, never copied.
struct type {
  type_kind kind = type_kind::unknown;
  std::string dtype;        ///< "FP32", "INDEX", ... for scalar / tensor / distributed_tensor
  std::vector<dim> shape;   ///< tensor / distributed_tensor
  window_ptr window;        ///< distributed_tensor only: the WindowBuffer backing it, or null
  std::vector<type> elements;  ///< tuple only: `tuple[pl.Tensor[...], ...]`
  /// tensor / tile: the arguments after the dtype, kept as written (a memory space `pl.Mem.Vec`,
  /// a layout `pl.NZ`, `pl.MemRef(...)`, `pl.TileView()`); shared by every copy of the type.
  std::vector<std::shared_ptr<const expr>> extras;

  static type unknown() { return {}; }
  static type scalar(std::string dtype) { return {type_kind::scalar, std::move(dtype), {}, nullptr, {}, {}}; }
  static type ptr() { return {type_kind::ptr, {}, {}, nullptr, {}, {}}; }
  static type comm_ctx() { return {type_kind::comm_ctx, {}, {}, nullptr, {}, {}}; }
  static type tensor(std::vector<dim> shape, std::string dtype) {
    return {type_kind::tensor, std::move(dtype), std::move(shape), nullptr, {}, {}};
  }
  static type tile(std::vector<dim> shape, std::string dtype) {
    return {type_kind::tile, std::move(dtype), std::move(shape), nullptr, {}, {}};
  }
  static type distributed(std::vector<dim> shape, std::string dtype, window_ptr w = nullptr) {
    return {type_kind::distributed_tensor, std::move(dtype), std::move(shape), std::move(w), {}, {}};
  }
  static type tuple(std::vector<type> elements) { return {type_kind::tuple, {}, {}, nullptr, std::move(elements), {}}; }
};

/// A variable: a binding. Two variables are different even when their names are equal.
struct var {
  std::string name;  ///< a hint: the printer keeps it when it can, renames on collisions
  host::type type;
  source_loc loc;
};

// ------------------------------------------------------------------------------- expressions

enum class expr_kind : std::uint8_t {
  var_ref,     ///< `x`
  int_const,   ///< `16`, `-1`
  bool_const,  ///< `True` / `False`
  str_const,   ///< `"buf"`
  symbol,      ///< `pl.FP32`: a dotted name that is not called
  none,        ///< `None`
  list,        ///< `[256, n]`
  call,        ///< `pld.tensor.window(buf, [256], dtype=pl.FP32)`, `self.chip_fn(v, device=r)`
  arith,       ///< `a * b`, `n // 2`, `-n`: `value` holds the arith_op, `args` the operand(s)
  tuple,       ///< `(a, b)`, `(a,)`
  subscript,   ///< `inputs[r]`: args[0] indexed by args[1] (pypto's per-rank slice of a host tensor)
  float_const, ///< `1.0`, `1e-3`: `text` is the literal as written
  boolean,     ///< `r == 0`, `a and b`, `not c`: `value` holds the bool_op, `args` the operand(s)
  slice,       ///< `a:b`, `:`, `a:b:c` (an index of a subscript only): `value` holds the slice_parts
               ///< bits of the parts written, `args` those parts in order
};

/// Python's arithmetic and bitwise operators: `value` of an arith node. `neg`, `pos` and
/// `invert` (`-a`, `+a`, `~a`) have one operand. The first six are the integer arithmetic of the
/// host concept (host_binary_op, in the same order); the others are device code's (`a / b`,
/// `1 << k`) and through the concept are `other` expressions.
enum class arith_op : std::uint8_t { add, sub, mul, floordiv, mod, neg, truediv, pow, lshift, rshift, bitand_, bitor_, bitxor, invert, pos };
/// Whether `op` takes one operand.
constexpr bool is_unary(arith_op op) noexcept { return op == arith_op::neg || op == arith_op::invert || op == arith_op::pos; }
/// Python's spelling of `op` (`"//"`, `"<<"`, unary `"-"`, `"~"`).
constexpr std::string_view spelling(arith_op op) noexcept {
  constexpr std::string_view names[] = {"+", "-", "*", "//", "%", "-", "/", "**", "<<", ">>", "&", "|", "^", "~", "+"};
  return static_cast<std::size_t>(op) < std::size(names) ? names[static_cast<std::size_t>(op)] : std::string_view("?");
}

/// Bits of a slice node's `value`: which of its parts are written (`a:` has lower, `:b` upper).
namespace slice_parts {
inline constexpr std::int64_t lower = 1, upper = 2, step = 4;
}  // namespace slice_parts

/// Python's comparisons and boolean operators: `value` of a boolean node (`not_` has one operand).
enum class bool_op : std::uint8_t { eq, ne, lt, le, gt, ge, and_, or_, not_ };

/// Bits of expr::flags: how an expression was written, beyond what it is. Not part of the
/// structural equality (hash.hpp); the printer reproduces them.
namespace expr_flags {
inline constexpr std::uint8_t parenthesized = 1;  ///< written in parentheses: `(a + b)`
inline constexpr std::uint8_t implicit = 2;       ///< derived, not written: the `name=` of an alloc
                                                  ///< taken from its assignment target
inline constexpr std::uint8_t step_colon = 4;     ///< a slice written with a second ':' and no step (`a:b:`)
}  // namespace expr_flags

enum class callee_kind : std::uint8_t {
  op,        ///< a named op: `pld.tensor.window`
  function,  ///< a function of the program, by name: `self.chip_fn`
};

/// A keyword argument or an attribute: name and value, kept in order.
struct keyword {
  std::string name;
  expr_ptr value;
};

/// What only a call has, kept out of line (expr::call) so that the other expressions, most of
/// a program's nodes, do not carry it: a call's keyword lists and result type are 128 bytes.
struct call_data {
  std::vector<keyword> kwargs;  ///< keyword arguments (`dtype=pl.FP32`, `name="buf"`)
  std::vector<keyword> attrs;   ///< attributes (`device=r`, `attrs={...}`)
  host::type type;              ///< the result type the IR records for the call
  /// The op as the program spells it when that is another spelling of the call's op name
  /// (`pld.window` for `pld.tensor.window`, see op_spelling); empty otherwise. Passes read the
  /// op name; the text format prints this.
  std::string spelling;
};

/// One expression node. A single node type (with a kind) rather than a class hierarchy: the IR is
/// small, every pass switches on the kind anyway, and the fields that do not apply stay empty.
/// Node size matters (integer constants and variable references are most of a program's nodes),
/// so what only calls have is behind `call`, non-null exactly when kind is call (make_call and the
/// parser allocate it; a node made by hand with kind call must set it too), and `ref` and `value`
/// share storage: read only the one of the node's kind.
struct expr {
  expr_kind kind = expr_kind::none;
  host::callee_kind callee = callee_kind::op;  ///< call (stored here: it fits in padding)
  std::uint8_t flags = 0;                      ///< expr_flags (in padding too)
  source_loc loc;
  union {
    var* ref = nullptr;    ///< var_ref
    std::int64_t value;    ///< int_const; bool_const (0 or 1)
  };
  /// str_const value; symbol path; callee name of a call; for an int_const, how it is spelled
  /// when not as its digits (a module constant `SIZE`, `pl.FP32.get_byte()`), else empty
  std::string text;
  std::vector<expr_ptr> args;  ///< call: positional arguments; list: elements
  std::unique_ptr<call_data> call;  ///< call: keyword arguments, attributes, result type
};

/// The statement forms.
enum class stmt_kind : std::uint8_t {
  assign,             ///< `target = value`
  for_range,          ///< `for target in pl.range(start, stop, step): body`
  while_loop,         ///< `while value: body`
  expr_stmt,          ///< `value`
  ret,                ///< `return values...`
  comm_domain_scope,  ///< `with pl._dump.comm_domain(name=..., devices=..., slots=..., attrs=...): body`
  with_scope,         ///< `with pl.at(level=...) [as target]: body`: value is the context expression
  if_stmt,            ///< `if value: ... [elif ...] [else: ...]`: body holds the branches, a block each
  block,              ///< one branch of an if_stmt: body
  break_stmt,         ///< `break`
  continue_stmt,      ///< `continue`
  tuple_assign,       ///< `a, b = value`: targets
  subscript_assign,   ///< `x[i] = value`, `out[:, 0:n] = value`: values[0] is the target (a subscript)
};

/// Bits of stmt::flags: how a statement was written, beyond what it is (not structural).
namespace stmt_flags {
inline constexpr std::uint8_t elif = 1;  ///< an if_stmt alone in its parent's else branch, written `elif`
inline constexpr std::uint8_t parenthesized = 2;  ///< a tuple_assign written `(a, b) = value`, a
                                                  ///< pl.while_ loop `for (x,) in pl.while_(...)`
}  // namespace stmt_flags

/// What only a loop with more than `for r in pl.range(...)` has, kept out of line (stmt::loop).
/// A pl.while_ loop (`for (x, y) in pl.while_(init_values=(a, b)):`, its condition a `pl.cond(...)`
/// statement of its body) is a for_range without a target, bounds or step, its variables carried.
struct loop_data {
  std::string iterator;           ///< "pl.parallel", "pl.unroll", "pl.while_", ...; empty for pl.range
  std::vector<keyword> kwargs;    ///< keyword arguments but var_type= (`init_values=(x,)`, `stage=2`)
  std::vector<var_ptr> carried;   ///< `for i, (acc, s) in pl.range(n, init_values=(a, b))`: acc, s
};

/// What only a comm-domain scope has, kept out of line (stmt::scope).
struct scope_data {
  std::string name;                    ///< "comm_d0"
  std::vector<std::int64_t> devices;   ///< ascending; empty means every device
  std::vector<window_ptr> slots;       ///< WindowBuffers, in allocation order
  std::vector<keyword> attrs;          ///< scope attributes
};

/// One statement node (same single-node design as expr). `scope` is non-null exactly when kind
/// is comm_domain_scope (make_scope and the parser allocate it).
struct stmt {
  stmt_kind kind = stmt_kind::expr_stmt;
  std::uint8_t flags = 0;  ///< stmt_flags
  source_loc loc;
  var_ptr target;                ///< assign: the variable defined; for_range: the loop variable
  expr_ptr value;                ///< assign: value; expr_stmt: the expression; while: condition
  expr_ptr start, stop, step;    ///< for_range
  std::vector<expr_ptr> values;  ///< ret
  std::vector<stmt_ptr> body;    ///< for_range, while_loop, comm_domain_scope, with_scope, block;
                                 ///< if_stmt: its branches, a block each (then, [else])
  std::unique_ptr<scope_data> scope;  ///< comm_domain_scope: name, devices, slots, attributes
  /// for_range: pypto's iterator when not pl.range, its keyword arguments, its carried variables
  /// (null for a plain `for r in pl.range(n)`)
  std::unique_ptr<loop_data> loop;
  std::vector<var_ptr> targets;  ///< tuple_assign: `a, b = value`
};

/// A WindowBuffer (docs/host-programs.md §"2. MaterializeCommDomainScopes"): the host-side metadata
/// of one window allocation. Immutable once built and shared by every view of the allocation. Its
/// name is its base variable's name.
struct window_buffer {
  const var* base = nullptr;   ///< the allocation variable (a back-reference; not owned)
  expr_ptr size;               ///< its own copy of the size expression
  bool load_from_host = false;  ///< host-staging flags (placeholders upstream; kept and printed)
  bool store_to_host = false;
  source_loc loc;

  std::string_view name() const noexcept { return base ? std::string_view(base->name) : std::string_view(); }
};

/// How a parameter is passed (pypto's ParamDirection): `x: T` (in), `x: pl.Out[T]`, `x: pl.InOut[T]`.
enum class param_direction : std::uint8_t { in, out, inout };

struct function {
  std::string name;
  std::string level;  ///< "HOST", "CHIP", ...; empty when the decorator has none
  std::string role;   ///< "Orchestrator", ...; empty when the decorator has none
  /// pypto's FunctionType as written (`type=pl.FunctionType.Orchestration`): "Orchestration",
  /// "Graph", "InCore", ...; empty when the decorator has none. It implies a level and a role
  /// (effective_level / effective_role) where the decorator does not give them.
  std::string type;
  std::vector<var_ptr> params;
  std::vector<param_direction> directions;  ///< one per parameter, or empty: every one is `in`
  std::optional<host::type> return_type;
  std::vector<stmt_ptr> body;
  source_loc loc;
  /// A kernel the host grammar does not read (a pypto InCore, AIC, AIV or Group function, whose
  /// body loads, stores and computes on tiles), kept as written: its text from the decorator
  /// through the body, lines joined by '\n', without the function's own indentation. Non-empty
  /// exactly for such a function, whose params, directions, return_type and body are then empty;
  /// its name, type, level and role are read from the decorator and `def` as for any function.
  std::string verbatim;
  /// The docstring (the body's first statement, a string literal), decoded; empty for none.
  std::string doc;
  /// pypto's other decorator keywords (`strict_ssa=True`, `auto_scope=False`,
  /// `external_source="k.cpp"`), in order; no pass reads them.
  std::vector<keyword> options;
  /// The decorator's `attrs={...}` (pypto's function attributes), in order.
  std::vector<keyword> attrs;
};

/// A module-level integer constant (`SIZE = 256`), as pypto's parser sees a closure variable: its
/// uses are integer constants spelled with its name (expr::text of an int_const).
struct constant {
  std::string name;
  expr_ptr value;            ///< as written
  std::int64_t evaluated = 0;
  source_loc loc;
  /// pypto's dynamic dimension (`NR = pl.dynamic("NR")`), or an integer expression over dynamic
  /// dimensions (`nr = NR`, `ROUNDS = 2 * (NR - 1)`): `value` is that call or expression,
  /// `evaluated` 0, and a use of the name is the symbol `NR` (expr_kind::symbol), a dimension
  /// known at run time. A factory's parameter the program uses reads as one (locate.hpp).
  bool dynamic = false;
};

/// An import line: `import MODULE [as ALIAS]` or `from MODULE import NAME [as ALIAS]`.
struct import_decl {
  std::string module;
  std::string name;   ///< empty for `import MODULE`
  std::string alias;  ///< empty without `as`
};

/// A host program: an ordered list of functions. Move-only (it owns every node).
struct program {
  std::string name = "Program";
  std::vector<std::unique_ptr<function>> functions;
  std::string file;  ///< the source name used in diagnostics
  /// The import lines as written; empty means pypto's two (`import pypto.language as pl`,
  /// `import pypto.language.distributed as pld`).
  std::vector<import_decl> imports;
  std::vector<constant> constants;  ///< module-level integer constants, in order
  /// The class's docstring (its body's first statement, a string literal), decoded; empty for none.
  std::string doc;
  /// Nodes made by the builders of host_traits (SynthesizeAllReduceSignals) and not yet placed in
  /// the program: a builder that places one takes it from here. Empty between passes.
  std::vector<expr_ptr> loose_exprs;
  std::vector<var_ptr> loose_vars;

  program() = default;
  program(program&&) noexcept = default;
  program& operator=(program&&) noexcept = default;
  program(const program&) = delete;
  program& operator=(const program&) = delete;

  function* find_function(std::string_view n) const noexcept {
    for (auto& f : functions)
      if (f->name == n) return f.get();
    return nullptr;
  }

  // Transactions (concepts/ir.hpp O5, for host programs): while one is open, the rewrites of
  // host_traits (attach_window, wrap_body; the builders insert_assign_before, append_call_arg,
  // take_return_value, set_return_value) record their inverse here; rollback replays them
  // newest first, so the program prints as before and every node pointer means the same node
  // (nodes are heap objects the rewrites only move between owners). Tokens are journal
  // positions; transactions nest. Outside a transaction a rewrite costs one branch more.
  std::size_t begin_transaction() {
    ++undo_depth_;
    return undo_.size();
  }
  void commit(std::size_t token) {
    (void)token;
    if (--undo_depth_ == 0) undo_.clear();
  }
  void rollback(std::size_t token) {
    while (undo_.size() > token) {
      auto f = std::move(undo_.back());
      undo_.pop_back();
      f();
    }
    if (--undo_depth_ == 0) undo_.clear();
  }
  bool in_transaction() const noexcept { return undo_depth_ != 0; }
  /// Records how to undo a change about to be made (nothing outside a transaction).
  template <class F>
  void on_rollback(F&& undo) {
    if (undo_depth_ != 0) undo_.emplace_back(std::forward<F>(undo));
  }

 private:
  std::vector<std::function<void()>> undo_;
  std::uint32_t undo_depth_ = 0;
};

// ---------------------------------------------------------------------------------- builders
// Free functions that build nodes the way the parser does, for passes and tests.

inline var_ptr make_var(std::string name, host::type t = {}, source_loc loc = {}) {
  auto v = std::make_unique<var>();
  v->name = std::move(name);
  v->type = std::move(t);
  v->loc = loc;
  return v;
}

inline expr_ptr make_var_ref(var* v, source_loc loc = {}) {
  auto e = std::make_unique<expr>();
  e->kind = expr_kind::var_ref;
  e->ref = v;
  e->loc = loc;
  return e;
}
inline expr_ptr make_int(std::int64_t v, source_loc loc = {}) {
  auto e = std::make_unique<expr>();
  e->kind = expr_kind::int_const;
  e->value = v;
  e->loc = loc;
  return e;
}
inline expr_ptr make_bool(bool v, source_loc loc = {}) {
  auto e = std::make_unique<expr>();
  e->kind = expr_kind::bool_const;
  e->value = v ? 1 : 0;
  e->loc = loc;
  return e;
}
inline expr_ptr make_str(std::string s, source_loc loc = {}) {
  auto e = std::make_unique<expr>();
  e->kind = expr_kind::str_const;
  e->text = std::move(s);
  e->loc = loc;
  return e;
}
inline expr_ptr make_symbol(std::string path, source_loc loc = {}) {
  auto e = std::make_unique<expr>();
  e->kind = expr_kind::symbol;
  e->text = std::move(path);
  e->loc = loc;
  return e;
}
inline expr_ptr make_none(source_loc loc = {}) {
  auto e = std::make_unique<expr>();
  e->kind = expr_kind::none;
  e->loc = loc;
  return e;
}
inline expr_ptr make_list(std::vector<expr_ptr> elems, source_loc loc = {}) {
  auto e = std::make_unique<expr>();
  e->kind = expr_kind::list;
  e->args = std::move(elems);
  e->loc = loc;
  return e;
}
inline expr_ptr make_arith(arith_op op, expr_ptr lhs, expr_ptr rhs, source_loc loc = {}) {
  auto e = std::make_unique<expr>();
  e->kind = expr_kind::arith;
  e->value = static_cast<std::int64_t>(op);
  e->args.push_back(std::move(lhs));
  if (!is_unary(op)) e->args.push_back(std::move(rhs));
  e->loc = loc;
  return e;
}
/// A slice `lower:upper[:step]`; a null part is not written (`:` is three nulls).
inline expr_ptr make_slice(expr_ptr lower, expr_ptr upper, expr_ptr step, source_loc loc = {}) {
  auto e = std::make_unique<expr>();
  e->kind = expr_kind::slice;
  e->loc = loc;
  std::int64_t bit = 1;
  for (expr_ptr* part : {&lower, &upper, &step}) {
    if (*part) {
      e->value |= bit;
      e->args.push_back(std::move(*part));
    }
    bit <<= 1;
  }
  return e;
}
inline expr_ptr make_subscript(expr_ptr base, expr_ptr index, source_loc loc = {}) {
  auto e = std::make_unique<expr>();
  e->kind = expr_kind::subscript;
  e->loc = loc;
  e->args.push_back(std::move(base));
  e->args.push_back(std::move(index));
  return e;
}
inline expr_ptr make_tuple(std::vector<expr_ptr> elems, source_loc loc = {}) {
  auto e = std::make_unique<expr>();
  e->kind = expr_kind::tuple;
  e->args = std::move(elems);
  e->loc = loc;
  return e;
}
inline arith_op op_of(const expr& e) noexcept { return static_cast<arith_op>(e.value); }
inline bool_op bool_op_of(const expr& e) noexcept { return static_cast<bool_op>(e.value); }
/// A float literal, `text` as written (`1.0`, `1e-3`, `.5`).
inline expr_ptr make_float(std::string text, source_loc loc = {}) {
  auto e = std::make_unique<expr>();
  e->kind = expr_kind::float_const;
  e->text = std::move(text);
  e->loc = loc;
  return e;
}
/// A comparison or boolean operator; `rhs` is unused for not_.
inline expr_ptr make_bool_op(bool_op op, expr_ptr lhs, expr_ptr rhs, source_loc loc = {}) {
  auto e = std::make_unique<expr>();
  e->kind = expr_kind::boolean;
  e->value = static_cast<std::int64_t>(op);
  e->args.push_back(std::move(lhs));
  if (op != bool_op::not_) e->args.push_back(std::move(rhs));
  e->loc = loc;
  return e;
}

/// A call. Its type is `t`; use infer_call_type for the type the text format derives.
inline expr_ptr make_call(host::callee_kind ck, std::string callee, std::vector<expr_ptr> args,
                          std::vector<keyword> kwargs = {}, std::vector<keyword> attrs = {},
                          host::type t = {}, source_loc loc = {}) {
  auto e = std::make_unique<expr>();
  e->kind = expr_kind::call;
  e->callee = ck;
  e->text = std::move(callee);
  e->args = std::move(args);
  e->call = std::make_unique<call_data>(call_data{std::move(kwargs), std::move(attrs), std::move(t), {}});
  e->loc = loc;
  return e;
}
inline keyword make_keyword(std::string name, expr_ptr value) { return keyword{std::move(name), std::move(value)}; }

inline stmt_ptr make_assign(var_ptr target, expr_ptr value, source_loc loc = {}) {
  auto s = std::make_unique<stmt>();
  s->kind = stmt_kind::assign;
  s->target = std::move(target);
  s->value = std::move(value);
  s->loc = loc;
  return s;
}
inline stmt_ptr make_for(var_ptr loop_var, expr_ptr start, expr_ptr stop, expr_ptr step,
                         std::vector<stmt_ptr> body, source_loc loc = {}) {
  auto s = std::make_unique<stmt>();
  s->kind = stmt_kind::for_range;
  s->target = std::move(loop_var);
  s->start = std::move(start);
  s->stop = std::move(stop);
  s->step = std::move(step);
  s->body = std::move(body);
  s->loc = loc;
  return s;
}
inline stmt_ptr make_while(expr_ptr cond, std::vector<stmt_ptr> body, source_loc loc = {}) {
  auto s = std::make_unique<stmt>();
  s->kind = stmt_kind::while_loop;
  s->value = std::move(cond);
  s->body = std::move(body);
  s->loc = loc;
  return s;
}
inline stmt_ptr make_expr_stmt(expr_ptr e, source_loc loc = {}) {
  auto s = std::make_unique<stmt>();
  s->kind = stmt_kind::expr_stmt;
  s->value = std::move(e);
  s->loc = loc;
  return s;
}
inline stmt_ptr make_return(std::vector<expr_ptr> values, source_loc loc = {}) {
  auto s = std::make_unique<stmt>();
  s->kind = stmt_kind::ret;
  s->values = std::move(values);
  s->loc = loc;
  return s;
}
inline stmt_ptr make_scope(std::string name, std::vector<std::int64_t> devices, std::vector<window_ptr> slots,
                           std::vector<keyword> attrs, std::vector<stmt_ptr> body, source_loc loc = {}) {
  auto s = std::make_unique<stmt>();
  s->kind = stmt_kind::comm_domain_scope;
  s->scope = std::make_unique<scope_data>(scope_data{std::move(name), std::move(devices), std::move(slots), std::move(attrs)});
  s->body = std::move(body);
  s->loc = loc;
  return s;
}

/// `with context [as target]: body` (pypto's `pl.at(...)`, `pl.manual_scope()`, ...).
inline stmt_ptr make_with(expr_ptr context, var_ptr target, std::vector<stmt_ptr> body, source_loc loc = {}) {
  auto s = std::make_unique<stmt>();
  s->kind = stmt_kind::with_scope;
  s->value = std::move(context);
  s->target = std::move(target);
  s->body = std::move(body);
  s->loc = loc;
  return s;
}
/// One branch of an if_stmt.
inline stmt_ptr make_block(std::vector<stmt_ptr> body, source_loc loc = {}) {
  auto s = std::make_unique<stmt>();
  s->kind = stmt_kind::block;
  s->body = std::move(body);
  s->loc = loc;
  return s;
}
/// `if cond: then [else: orelse]`; without an else branch when `has_else` is false.
inline stmt_ptr make_if(expr_ptr cond, std::vector<stmt_ptr> then, std::vector<stmt_ptr> orelse, bool has_else,
                        source_loc loc = {}) {
  auto s = std::make_unique<stmt>();
  s->kind = stmt_kind::if_stmt;
  s->value = std::move(cond);
  s->body.push_back(make_block(std::move(then), loc));
  if (has_else) s->body.push_back(make_block(std::move(orelse), loc));
  s->loc = loc;
  return s;
}
/// `break` (k = break_stmt) or `continue` (k = continue_stmt).
inline stmt_ptr make_jump(stmt_kind k, source_loc loc = {}) {
  auto s = std::make_unique<stmt>();
  s->kind = k;
  s->loc = loc;
  return s;
}
/// `a, b = value`.
inline stmt_ptr make_tuple_assign(std::vector<var_ptr> targets, expr_ptr value, source_loc loc = {}) {
  auto s = std::make_unique<stmt>();
  s->kind = stmt_kind::tuple_assign;
  s->targets = std::move(targets);
  s->value = std::move(value);
  s->loc = loc;
  return s;
}
/// `target = value` where target is a subscript (`x[i]`, `out[:, :]`).
inline stmt_ptr make_subscript_assign(expr_ptr target, expr_ptr value, source_loc loc = {}) {
  auto s = std::make_unique<stmt>();
  s->kind = stmt_kind::subscript_assign;
  s->values.push_back(std::move(target));
  s->value = std::move(value);
  s->loc = loc;
  return s;
}

// ------------------------------------------------------------------------------ type queries

namespace detail {
/// Structural equality of two expressions of ONE program (variables by identity), for the
/// integer expressions shapes hold.
inline bool same_expr(const expr* a, const expr* b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind || a->callee != b->callee || a->text != b->text || a->args.size() != b->args.size())
    return false;
  if (a->kind == expr_kind::var_ref && a->ref != b->ref) return false;
  if ((a->kind == expr_kind::int_const || a->kind == expr_kind::bool_const || a->kind == expr_kind::arith ||
       a->kind == expr_kind::boolean || a->kind == expr_kind::slice) &&
      a->value != b->value)
    return false;
  for (std::size_t i = 0; i < a->args.size(); ++i)
    if (!same_expr(a->args[i].get(), b->args[i].get())) return false;
  if (a->kind == expr_kind::call) {
    const auto& x = *a->call;
    const auto& y = *b->call;
    if (x.kwargs.size() != y.kwargs.size() || x.attrs.size() != y.attrs.size()) return false;
    for (std::size_t i = 0; i < x.kwargs.size(); ++i)
      if (x.kwargs[i].name != y.kwargs[i].name || !same_expr(x.kwargs[i].value.get(), y.kwargs[i].value.get()))
        return false;
    for (std::size_t i = 0; i < x.attrs.size(); ++i)
      if (x.attrs[i].name != y.attrs[i].name || !same_expr(x.attrs[i].value.get(), y.attrs[i].value.get())) return false;
  }
  return true;
}
inline bool same_dims(const std::vector<dim>& a, const std::vector<dim>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].sym != b[i].sym || bool(a[i].e) != bool(b[i].e)) return false;
    if (a[i].e ? !same_expr(a[i].e.get(), b[i].e.get()) : (a[i].sym == nullptr && a[i].value != b[i].value))
      return false;
  }
  return true;
}
inline bool same_extras(const std::vector<std::shared_ptr<const expr>>& a, const std::vector<std::shared_ptr<const expr>>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!same_expr(a[i].get(), b[i].get())) return false;
  return true;
}
}  // namespace detail

/// Equality of two types of ONE program: variables and WindowBuffers by identity.
/// (hash.hpp compares types of two different programs, up to a renaming.)
inline bool same_type(const type& a, const type& b) {
  if (a.kind != b.kind || a.dtype != b.dtype || !detail::same_dims(a.shape, b.shape) || a.window != b.window ||
      a.elements.size() != b.elements.size() || !detail::same_extras(a.extras, b.extras))
    return false;
  for (std::size_t i = 0; i < a.elements.size(); ++i)
    if (!same_type(a.elements[i], b.elements[i])) return false;
  return true;
}
/// same_type, ignoring the WindowBuffer.
inline bool same_type_but_window(const type& a, const type& b) {
  return a.kind == b.kind && a.dtype == b.dtype && detail::same_dims(a.shape, b.shape) && a.elements.empty() &&
         b.elements.empty() && detail::same_extras(a.extras, b.extras);
}

/// The type of an expression: a variable's type, INDEX for integers, BOOL for booleans, a
/// call's recorded type, a subscripted tensor's without its first dimension, unknown for the rest.
inline type type_of(const expr& e) {
  switch (e.kind) {
    case expr_kind::var_ref: return e.ref ? e.ref->type : type{};
    case expr_kind::int_const: return type::scalar("INDEX");
    case expr_kind::bool_const: return type::scalar("BOOL");
    case expr_kind::arith:  // `/` makes a float of a precision not worked out here
      return op_of(e) == arith_op::truediv ? type{} : type::scalar("INDEX");
    case expr_kind::float_const: return type::scalar("FP32");  // pypto's default for a float literal
    case expr_kind::boolean: return type::scalar("BOOL");
    case expr_kind::call: return e.call->type;
    case expr_kind::subscript: {  // a tensor without its first dimension (first k, for k indices)
      type t = e.args.size() == 2 && e.args[0] ? type_of(*e.args[0]) : type{};
      const expr* index = e.args.size() == 2 ? e.args[1].get() : nullptr;
      const std::size_t k = index && index->kind == expr_kind::tuple ? index->args.size() : 1;
      // A slice keeps its dimension with a size not worked out here: the type is not known.
      if (index && index->kind == expr_kind::slice) return {};
      if (index && index->kind == expr_kind::tuple)
        for (const auto& x : index->args)
          if (x && x->kind == expr_kind::slice) return {};
      if ((t.kind != type_kind::tensor && t.kind != type_kind::distributed_tensor) || t.shape.size() < k) return {};
      t.shape.erase(t.shape.begin(), t.shape.begin() + static_cast<std::ptrdiff_t>(k));
      t.window = nullptr;
      return t;
    }
    default: return {};
  }
}

/// Op names the IR knows the result type of (docs/host-programs.md, pypto's pld namespace).
namespace ops {
inline constexpr std::string_view alloc_window_buffer = "pld.tensor.alloc_window_buffer";
inline constexpr std::string_view window = "pld.tensor.window";
inline constexpr std::string_view world_size = "pld.system.world_size";

/// pypto's DSL spellings of an op: its full name (`pld.<category>.<op>`) and the short form the
/// `pld` package re-exports (`pld.<op>`), both meaning the same op.
struct spelling {
  std::string_view full;
  std::string_view short_form;
};
inline constexpr spelling spellings[] = {
    {alloc_window_buffer, "pld.alloc_window_buffer"},
    {window, "pld.window"},
    {world_size, "pld.world_size"},
    {"pld.system.get_comm_ctx", "pld.get_comm_ctx"},
    {"pld.system.nranks", "pld.nranks"},
    {"pld.system.rank", "pld.rank"},
    {"pld.tile.remote_load", "pld.remote_load"},
};
/// pypto's other `pld` ops: the reader knows them (no warning), the passes do not model them
/// (MaterializeCommDomainScopes refuses a host orchestrator calling one, unless told otherwise).
/// `pld.remote_store` dispatches on its operand's level, so it has no single full name.
inline constexpr std::string_view other_ops[] = {
    "pld.remote_store",       "pld.tensor.remote_store", "pld.tile.remote_store", "pld.tensor.put",
    "pld.tensor.get",         "pld.tile.put",            "pld.tile.get",          "pld.system.notify",
    "pld.system.wait",        "pld.system.defer_wait"};
/// The collectives the host IR models (infer_call_type, the comm-domain pass's default list).
inline constexpr std::string_view collectives[] = {
    "pld.tensor.allreduce", "pld.tensor.broadcast",    "pld.tensor.reduce_scatter", "pld.tensor.allgather",
    "pld.tensor.all_to_all", "pld.tensor.all_to_all_v", "pld.tensor.barrier"};
/// Whether `callee` (any spelling) is an op the host IR models.
constexpr bool modeled(std::string_view callee) noexcept;
/// The op name a callee spelling means: the full name of a short form, else `callee` itself.
constexpr std::string_view canonical(std::string_view callee) noexcept {
  for (const auto& s : spellings)
    if (callee == s.short_form) return s.full;
  return callee;
}
constexpr bool modeled(std::string_view callee) noexcept {
  const auto c = canonical(callee);
  for (const auto& s : spellings)
    if (c == s.full) return true;
  for (const auto x : collectives)
    if (c == x) return true;
  return false;
}
/// Whether the reader knows `callee` (any spelling) as a pypto op: modeled, or one of other_ops.
constexpr bool known(std::string_view callee) noexcept {
  if (modeled(callee)) return true;
  for (const auto x : other_ops)
    if (callee == x) return true;
  return false;
}
/// The byte size of a pypto dtype (`pl.FP32.get_byte()` is 4); 0 when it has no whole byte size
/// or is not a dtype.
constexpr std::int64_t dtype_bytes(std::string_view dtype) noexcept {
  struct entry {
    std::string_view name;
    std::int64_t bytes;
  };
  constexpr entry table[] = {{"BOOL", 1},  {"INT8", 1},   {"UINT8", 1},    {"FP8E4M3FN", 1}, {"FP8E5M2", 1},
                             {"HF8", 1},   {"INT16", 2},  {"UINT16", 2},   {"FP16", 2},      {"BF16", 2},
                             {"INT32", 4}, {"UINT32", 4}, {"FP32", 4},     {"HF32", 4},      {"INT64", 8},
                             {"UINT64", 8}, {"FP64", 8},  {"INDEX", 8}};
  for (const auto& e : table)
    if (e.name == dtype) return e.bytes;
  return 0;
}
}  // namespace ops

/// A copy of an expression for a type to share (an expression dimension). Defined after cloner.
inline std::shared_ptr<const expr> shared_copy(const expr& e);

/// The result type the IR derives for a call from its callee and arguments (pypto's op type
/// inference, for the ops of docs/host-programs.md): alloc_window_buffer → pl.Ptr; window(base,
/// [dims], dtype=pl.X) → pld.DistributedTensor[[dims], pl.X] without a WindowBuffer (the pass
/// attaches it); world_size → pl.Scalar[pl.INDEX]; get_comm_ctx → pld.CommCtx; the in-place collectives → the type of the
/// argument they return (allreduce / broadcast / reduce_scatter: argument 0; allgather /
/// all_to_all / all_to_all_v: argument 1); function calls and other ops → unknown.
/// The text format prints a call in its plain form exactly when this reproduces its type.
inline type infer_call_type(const expr& call) {
  if (call.kind != expr_kind::call || call.callee != callee_kind::op) return {};
  const std::string_view op = call.text;
  if (op == ops::alloc_window_buffer) return type::ptr();
  if (op == ops::world_size) return type::scalar("INDEX");
  if (op == "pld.system.get_comm_ctx") return type::comm_ctx();
  if (op == ops::window) {
    if (call.args.size() < 2 || call.args[1]->kind != expr_kind::list) return {};
    std::vector<dim> shape;
    for (auto& d : call.args[1]->args) {
      if (d->kind == expr_kind::int_const && d->text.empty()) shape.push_back({d->value, nullptr});
      else if (d->kind == expr_kind::var_ref && d->ref) shape.push_back({0, d->ref});
      else if (d->kind == expr_kind::int_const || d->kind == expr_kind::arith || d->kind == expr_kind::call ||
               (d->kind == expr_kind::symbol && d->text.find('.') == std::string::npos))  // a dynamic dimension
        shape.push_back({0, nullptr, shared_copy(*d)});
      else return {};
    }
    for (auto& k : call.call->kwargs) {
      if (k.name != "dtype") continue;
      if (k.value->kind != expr_kind::symbol || k.value->text.rfind("pl.", 0) != 0 || k.value->text.size() <= 3 ||
          k.value->text.find('.', 3) != std::string::npos)
        return {};
      return type::distributed(std::move(shape), k.value->text.substr(3));
    }
    return {};
  }
  if (op == "pld.tensor.allreduce" || op == "pld.tensor.broadcast" || op == "pld.tensor.reduce_scatter")
    return call.args.empty() ? type{} : type_of(*call.args[0]);
  if (op == "pld.tensor.allgather" || op == "pld.tensor.all_to_all" || op == "pld.tensor.all_to_all_v")
    return call.args.size() < 2 ? type{} : type_of(*call.args[1]);
  return {};
}

// ------------------------------------------------------------------------------------ clone

/// A deep copy of `p`: fresh variables and WindowBuffers, with every reference (and every pointer
/// identity between WindowBuffers) mapped onto the copy. A reference to a variable that `p` does
/// not define stays pointing at the original. O(size of p).
class cloner {
 public:
  program clone(const program& p) {
    program out;
    out.name = p.name;
    out.file = p.file;
    out.imports = p.imports;
    out.doc = p.doc;
    for (auto& c : p.constants)
      out.constants.push_back({c.name, c.value ? clone_expr(*c.value) : nullptr, c.evaluated, c.loc, c.dynamic});
    // Definitions first, so forward references (a WindowBuffer in a parameter type naming a body
    // variable as its base) map onto the copy.
    for (auto& f : p.functions) {
      for (auto& v : f->params) declare(*v);
      for (auto& s : f->body) declare_stmt(*s);
    }
    for (auto& f : p.functions) {
      auto nf = std::make_unique<function>();
      nf->name = f->name;
      nf->level = f->level;
      nf->role = f->role;
      nf->type = f->type;
      nf->directions = f->directions;
      nf->loc = f->loc;
      nf->verbatim = f->verbatim;
      nf->doc = f->doc;
      nf->options = clone_keywords(f->options);
      nf->attrs = clone_keywords(f->attrs);
      for (auto& v : f->params) nf->params.push_back(take(*v));
      if (f->return_type) nf->return_type = clone_type(*f->return_type);
      for (auto& s : f->body) nf->body.push_back(clone_stmt(*s));
      out.functions.push_back(std::move(nf));
    }
    return out;
  }

 private:
  std::unordered_map<const var*, var_ptr> fresh_;  // original → its copy, until placed
  std::unordered_map<const var*, var*> vars_;      // original → copy
  std::unordered_map<const window_buffer*, window_ptr> windows_;

  void declare(const var& v) {
    auto nv = make_var(v.name, {}, v.loc);
    vars_[&v] = nv.get();
    fresh_[&v] = std::move(nv);
  }
  void declare_stmt(const stmt& s) {
    if (s.target) declare(*s.target);
    for (auto& t : s.targets)
      if (t) declare(*t);
    if (s.loop)
      for (auto& c : s.loop->carried)
        if (c) declare(*c);
    for (auto& b : s.body) declare_stmt(*b);
  }
  var* map(const var* v) const {
    if (!v) return nullptr;
    auto it = vars_.find(v);
    return it == vars_.end() ? const_cast<var*>(v) : it->second;
  }
  var_ptr take(const var& v) {
    auto it = fresh_.find(&v);
    var_ptr nv = it != fresh_.end() && it->second ? std::move(it->second) : make_var(v.name, {}, v.loc);
    nv->type = clone_type(v.type);
    return nv;
  }
  window_ptr clone_window(const window_ptr& w) {
    if (!w) return nullptr;
    auto it = windows_.find(w.get());
    if (it != windows_.end()) return it->second;
    auto nw = std::make_shared<window_buffer>();
    windows_[w.get()] = nw;  // before the size: a size expression may name this window again
    nw->base = map(w->base);
    nw->load_from_host = w->load_from_host;
    nw->store_to_host = w->store_to_host;
    nw->loc = w->loc;
    if (w->size) nw->size = clone_expr(*w->size);
    return nw;
  }
  type clone_type(const type& t) {
    type out = t;
    for (auto& d : out.shape) {
      d.sym = map(d.sym);
      if (d.e) d.e = std::shared_ptr<const expr>(clone_expr(*d.e));
    }
    for (auto& x : out.elements) x = clone_type(x);
    for (auto& x : out.extras) x = std::shared_ptr<const expr>(clone_expr(*x));
    out.window = clone_window(t.window);
    return out;
  }
  std::vector<keyword> clone_keywords(const std::vector<keyword>& ks) {
    std::vector<keyword> out;
    for (auto& k : ks) out.push_back({k.name, k.value ? clone_expr(*k.value) : nullptr});
    return out;
  }

 public:
  expr_ptr clone_expr(const expr& e) {
    auto ne = std::make_unique<expr>();
    ne->kind = e.kind;
    ne->loc = e.loc;
    if (e.kind == expr_kind::var_ref) ne->ref = map(e.ref);
    else if (e.kind == expr_kind::int_const || e.kind == expr_kind::bool_const || e.kind == expr_kind::arith ||
             e.kind == expr_kind::boolean || e.kind == expr_kind::slice)
      ne->value = e.value;
    ne->callee = e.callee;
    ne->flags = e.flags;
    ne->text = e.text;
    for (auto& a : e.args) ne->args.push_back(a ? clone_expr(*a) : nullptr);
    if (e.call)
      ne->call = std::make_unique<call_data>(call_data{clone_keywords(e.call->kwargs), clone_keywords(e.call->attrs),
                                                       clone_type(e.call->type), e.call->spelling});
    return ne;
  }

 private:
  stmt_ptr clone_stmt(const stmt& s) {
    auto ns = std::make_unique<stmt>();
    ns->kind = s.kind;
    ns->flags = s.flags;
    ns->loc = s.loc;
    if (s.target) ns->target = take(*s.target);
    for (auto& t : s.targets) ns->targets.push_back(t ? take(*t) : nullptr);
    if (s.loop) {
      ns->loop = std::make_unique<loop_data>();
      ns->loop->iterator = s.loop->iterator;
      ns->loop->kwargs = clone_keywords(s.loop->kwargs);
      for (auto& c : s.loop->carried) ns->loop->carried.push_back(c ? take(*c) : nullptr);
    }
    if (s.value) ns->value = clone_expr(*s.value);
    if (s.start) ns->start = clone_expr(*s.start);
    if (s.stop) ns->stop = clone_expr(*s.stop);
    if (s.step) ns->step = clone_expr(*s.step);
    for (auto& v : s.values) ns->values.push_back(v ? clone_expr(*v) : nullptr);
    for (auto& b : s.body) ns->body.push_back(clone_stmt(*b));
    if (s.scope) {
      ns->scope = std::make_unique<scope_data>();
      ns->scope->name = s.scope->name;
      ns->scope->devices = s.scope->devices;
      for (auto& w : s.scope->slots) ns->scope->slots.push_back(clone_window(w));
      ns->scope->attrs = clone_keywords(s.scope->attrs);
    }
    return ns;
  }
};

/// A deep copy of `p` (see cloner).
inline program clone(const program& p) { return cloner{}.clone(p); }

inline std::shared_ptr<const expr> shared_copy(const expr& e) { return std::shared_ptr<const expr>(cloner{}.clone_expr(e)); }

/// The level a function has: the decorator's, or the one its type implies (pypto: Orchestration
/// and Graph → CHIP, InCore → CHIP_DIE, AIC → AIC, AIV → AIV, Group → CORE_GROUP).
inline std::string_view implied_level(std::string_view type) noexcept {
  if (type == "Orchestration" || type == "Graph") return "CHIP";
  if (type == "InCore") return "CHIP_DIE";
  if (type == "AIC") return "AIC";
  if (type == "AIV") return "AIV";
  if (type == "Group") return "CORE_GROUP";
  return {};
}
/// The role a type implies: Orchestration and Graph → Orchestrator; InCore, AIC, AIV, Group →
/// SubWorker; others none.
inline std::string_view implied_role(std::string_view type) noexcept {
  if (type == "Orchestration" || type == "Graph") return "Orchestrator";
  if (type == "InCore" || type == "AIC" || type == "AIV" || type == "Group") return "SubWorker";
  return {};
}
inline std::string_view effective_level(const function& f) noexcept {
  return f.level.empty() ? implied_level(f.type) : std::string_view(f.level);
}
inline std::string_view effective_role(const function& f) noexcept {
  return f.role.empty() ? implied_role(f.type) : std::string_view(f.role);
}

}  // namespace neuronrw::host
