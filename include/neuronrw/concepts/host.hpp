// neuronrw/concepts/host.hpp — the host-program concepts (docs/host-programs.md §"3. The
// host-program concept"): what MaterializeCommDomainScopes needs from a pypto-style host IR
// (functions with a level and a role; assignments, for over pl.range, while, expression statements,
// returns, comm-domain scopes; calls of ops and of functions with keyword arguments and
// attributes).
//
// Customization point: `neuronrw::host_traits<P>`, one specialization per host IR, where P is the
// program type an algorithm receives. The program type is never changed. Like ir_traits (see
// concepts/ir.hpp) the whole interface is one traits class, layered so an algorithm asks only for
// what it uses:
//
//   host_program            1. using function_handle, stmt_handle, expr_handle, var_handle
//                              (cheap, copyable, ==; var_handle also hashable via
//                              neuronrw::handle_hash, which defaults to std::hash)
//                           2. static R functions(const P&)            — function_handle, in order
//                           3. static std::string_view function_name / level / role(const P&,
//                              function_handle)   — e.g. "main", "HOST", "Orchestrator"
//                           4. static R body(const P&, function_handle) — top-level stmt_handles
//                           5. static host_stmt_kind stmt_kind(const P&, stmt_handle)
//                           6. static R stmt_body(const P&, stmt_handle) — statements of a for /
//                              while / scope body (empty for other statements)
//                           7. static R operands(const P&, stmt_handle) — the expressions the
//                              statement itself evaluates, in source order: assignment value;
//                              for: start, stop, step; while: condition; expression; return values
//                           8. static var_handle assign_target(const P&, stmt_handle)
//                              static expr_handle assign_value(const P&, stmt_handle)
//                           9. static var_handle loop_var(const P&, stmt_handle)
//                              static expr_handle loop_start / loop_stop / loop_step(const P&,
//                              stmt_handle)
//                          10. static host_expr_kind expr_kind(const P&, expr_handle)
//                          11. static var_handle referenced_var(const P&, expr_handle)   — var_ref
//                              static std::int64_t int_value(const P&, expr_handle)      — int_const
//                              static std::optional<std::string_view> string_value(const P&,
//                              expr_handle)                                — string constants only
//                          12. static host_callee_kind callee_kind(const P&, expr_handle)  — call
//                              static std::string_view callee_name(const P&, expr_handle) — op name
//                              ("pld.tensor.window") or function name ("chip_fn")
//                              static R call_args(const P&, expr_handle)  — positional arguments
//                              static std::optional<expr_handle> keyword_arg / call_attr(const P&,
//                              expr_handle, std::string_view name)
//                          13. static source_loc location(const P&, expr_handle)
//                              static std::string_view source_file(const P&)
//                          14. static bool can_carry_window(const P&, var_handle) — the variable's
//                              type is a distributed tensor type (a WindowBuffer can be attached)
//   rewritable_host_program
//                          15. using window_handle (copyable); static window_handle
//                              make_window_buffer(P&, const window_request<var_handle, expr_handle>&)
//                          16. static void attach_window(P&, var_handle view, expr_handle
//                              defining_call, const window_handle&) — re-type the view variable
//                              and its defining call (assignment type symmetry)
//                          17. static void wrap_body(P&, function_handle, const
//                              scope_request<window_handle>&) — replace the function's body by one
//                              comm-domain scope statement holding it
//   optional, read by the passes when present (a program without them keeps working)
//                          B1. static host_binary<expr_handle> binary(const P&, expr_handle) —
//                              the operator and operands of an expression of kind `binary`
//                              (integer arithmetic, evaluated where a pass needs a value)
//                          F1. static std::string_view function_type(const P&, function_handle)
//                              — pypto's FunctionType ("Orchestration", "Graph", "InCore", ...;
//                              empty when none); a `Graph` function is never a dispatch target
//                          S1. scope_devices / scope_slots / var_window / window_base — what
//                              the MaterializeCommDomainScopes rewrite check reads (declared with
//                              it: validate/host.hpp, scope_inspectable_host_program)
//   buildable_host_program (SynthesizeAllReduceSignals: it inserts statements)
//                          18. static var_handle new_var(P&, std::string_view name, source_loc)
//                          19. static expr_handle make_int / make_string / make_symbol /
//                              make_var_ref(P&, value, source_loc), make_binary(P&,
//                              host_binary_op, expr_handle, expr_handle, source_loc),
//                              make_list(P&, std::span<const expr_handle>, source_loc),
//                              make_op_call(P&, std::string_view op, std::span<const
//                              expr_handle> args, std::span<const host_keyword<expr_handle>>
//                              kwargs, source_loc) — each new expression is detached until a
//                              builder below (or one above, as an operand) takes it
//                          20. static void insert_assign_before(P&, stmt_handle at, var_handle,
//                              expr_handle value) — `var = value` right before statement `at`
//                              in the block holding it; the variable's type follows the value
//                          21. static void append_call_arg(P&, expr_handle call, expr_handle)
//                          22. static expr_handle take_return_value(P&, stmt_handle ret,
//                              std::size_t i) — detaches return value i, leaving a hole that
//                              static void set_return_value(P&, stmt_handle, std::size_t,
//                              expr_handle) fills
//                          23. static std::string_view var_name(const P&, var_handle)
//                          24. static R params(const P&, function_handle) — var_handles
//                          25. static R children(const P&, expr_handle) — every direct
//                              subexpression (arguments, keyword values, attributes, list and
//                              tuple elements, operands), in source order
//   optional (O5 of concepts/ir.hpp, for host programs)
//                              static T begin_transaction(P&); static void commit(P&, T);
//                              static void rollback(P&, T) — rollback undoes every change
//                              requirements 15-17 made since begin (transactional_host_program;
//                              the gated apply of passes/comm_domain_scopes/apply.hpp needs it)
//
// docs/host-programs.md maps each requirement to the reference host IR (neuronrw/ir/host/).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include <neuronrw/concepts/ir.hpp>  // handle_hash: one customization point for hashing handles
#include <neuronrw/detail/ranges.hpp>
#include <neuronrw/detail/requirement_check.hpp>
#include <neuronrw/diagnostic.hpp>

namespace neuronrw {

/// The one customization point. Deliberately empty: a program type without a specialization fails
/// the concepts below with a message naming this template.
template <class P>
struct host_traits {
  using neuronrw_unspecialized = void;
};

/// Requirement 5: the statement forms of a host program. `other` covers anything an IR has beyond
/// these (an if, a break...): the pass visits its operands and its stmt_body like any block, with
/// no loop context, and rewrites nothing about it.
enum class host_stmt_kind : std::uint8_t {
  assign,              ///< `x = value`
  for_range,           ///< `for r in pl.range(start, stop, step): body`
  while_loop,          ///< `while cond: body`
  expr_stmt,           ///< `self.chip_fn(v, device=r)`
  ret,                 ///< `return a, b`
  comm_domain_scope,   ///< `with pl._dump.comm_domain(...): body` (the pass output)
  other,
};

/// Requirement 10: the expression forms the pass distinguishes.
enum class host_expr_kind : std::uint8_t {
  var_ref,    ///< a variable reference
  int_const,  ///< an integer literal
  call,       ///< a call of an op or of a function
  other,      ///< strings, symbols (pl.FP32), lists, ...
  binary,     ///< integer arithmetic `a * b` (optional capability B1: host_traits<P>::binary)
};

/// Optional capability B1: integer arithmetic, Python's operators on integers (`//` and `%` round
/// toward negative infinity, `neg` is unary minus with `rhs` unused).
enum class host_binary_op : std::uint8_t { add, sub, mul, floordiv, mod, neg };

constexpr std::string_view to_string(host_binary_op o) noexcept {
  switch (o) {
    case host_binary_op::add: return "+";
    case host_binary_op::sub: return "-";
    case host_binary_op::mul: return "*";
    case host_binary_op::floordiv: return "//";
    case host_binary_op::mod: return "%";
    case host_binary_op::neg: return "-";
  }
  return "?";
}

/// What B1's `binary(p, e)` returns for an expression of kind binary.
template <class Expr>
struct host_binary {
  host_binary_op op = host_binary_op::add;
  Expr lhs{};
  Expr rhs{};  ///< unused for neg
};

/// A keyword argument handed to the builders of `buildable_host_program`.
template <class Expr>
struct host_keyword {
  std::string_view name;
  Expr value;
};

/// Requirement 12: what a call calls. Functions are resolved by name (docs/host-programs.md
/// §"2. MaterializeCommDomainScopes").
enum class host_callee_kind : std::uint8_t { op, function };

/// Requirement 15: a WindowBuffer to create. `base` is the allocation variable, `size` its size
/// expression (the IR keeps its own copy: the WindowBuffer's size and the alloc call's argument
/// are separate fields). `loc` is the allocation's location, for diagnostics about the buffer.
template <class Var, class Expr>
struct window_request {
  Var base;
  Expr size;
  bool load_from_host = false;
  bool store_to_host = false;
  source_loc loc;
};

/// Requirement 17: a comm-domain scope to wrap a function body in. `devices` ascending, empty
/// meaning every device; `slots` the WindowBuffers in allocation order; `loc` the location of the
/// scope's first allocation (as pypto gives the scope that allocation's span).
template <class Window>
struct scope_request {
  std::string_view name;
  std::span<const std::int64_t> devices;
  std::span<const Window> slots;
  source_loc loc;
};

template <class P>
using host_function_t = typename host_traits<std::remove_cvref_t<P>>::function_handle;
template <class P>
using host_stmt_t = typename host_traits<std::remove_cvref_t<P>>::stmt_handle;
template <class P>
using host_expr_t = typename host_traits<std::remove_cvref_t<P>>::expr_handle;
template <class P>
using host_var_t = typename host_traits<std::remove_cvref_t<P>>::var_handle;
template <class P>
using host_window_t = typename host_traits<std::remove_cvref_t<P>>::window_handle;

namespace host_concepts_detail {

template <class R, class E>
concept range_of = std::ranges::input_range<R> && std::convertible_to<std::ranges::range_value_t<R>, E>;

template <class H>
concept plain_handle = std::copyable<H> && std::equality_comparable<H>;

template <class P> using T = host_traits<P>;

template <class P> concept specialized = !requires { typename T<P>::neuronrw_unspecialized; };
template <class P> concept has_handles = requires {
  typename T<P>::function_handle;
  typename T<P>::stmt_handle;
  typename T<P>::expr_handle;
  typename T<P>::var_handle;
};
template <class P> concept handles_regular =
    plain_handle<typename T<P>::function_handle> && plain_handle<typename T<P>::stmt_handle> &&
    plain_handle<typename T<P>::expr_handle> && plain_handle<typename T<P>::var_handle> &&
    requires(const typename T<P>::var_handle& v) {
      { handle_hash<typename T<P>::var_handle>{}(v) } -> std::convertible_to<std::size_t>;
    };
template <class P> concept has_functions = requires(const P& p) {
  { T<P>::functions(p) } -> range_of<typename T<P>::function_handle>;
};
template <class P> concept has_function_info = requires(const P& p, typename T<P>::function_handle f) {
  { T<P>::function_name(p, f) } -> std::convertible_to<std::string_view>;
  { T<P>::level(p, f) } -> std::convertible_to<std::string_view>;
  { T<P>::role(p, f) } -> std::convertible_to<std::string_view>;
};
template <class P> concept has_body = requires(const P& p, typename T<P>::function_handle f) {
  { T<P>::body(p, f) } -> range_of<typename T<P>::stmt_handle>;
};
template <class P> concept has_stmt_kind = requires(const P& p, typename T<P>::stmt_handle s) {
  { T<P>::stmt_kind(p, s) } -> std::same_as<host_stmt_kind>;
};
template <class P> concept has_stmt_body = requires(const P& p, typename T<P>::stmt_handle s) {
  { T<P>::stmt_body(p, s) } -> range_of<typename T<P>::stmt_handle>;
};
template <class P> concept has_operands = requires(const P& p, typename T<P>::stmt_handle s) {
  { T<P>::operands(p, s) } -> range_of<typename T<P>::expr_handle>;
};
template <class P> concept has_assign = requires(const P& p, typename T<P>::stmt_handle s) {
  { T<P>::assign_target(p, s) } -> std::same_as<typename T<P>::var_handle>;
  { T<P>::assign_value(p, s) } -> std::same_as<typename T<P>::expr_handle>;
};
template <class P> concept has_loop = requires(const P& p, typename T<P>::stmt_handle s) {
  { T<P>::loop_var(p, s) } -> std::same_as<typename T<P>::var_handle>;
  { T<P>::loop_start(p, s) } -> std::same_as<typename T<P>::expr_handle>;
  { T<P>::loop_stop(p, s) } -> std::same_as<typename T<P>::expr_handle>;
  { T<P>::loop_step(p, s) } -> std::same_as<typename T<P>::expr_handle>;
};
template <class P> concept has_expr_kind = requires(const P& p, typename T<P>::expr_handle e) {
  { T<P>::expr_kind(p, e) } -> std::same_as<host_expr_kind>;
};
template <class P> concept has_leaves = requires(const P& p, typename T<P>::expr_handle e) {
  { T<P>::referenced_var(p, e) } -> std::same_as<typename T<P>::var_handle>;
  { T<P>::int_value(p, e) } -> std::convertible_to<std::int64_t>;
  { T<P>::string_value(p, e) } -> std::same_as<std::optional<std::string_view>>;
};
template <class P> concept has_calls = requires(const P& p, typename T<P>::expr_handle e) {
  { T<P>::callee_kind(p, e) } -> std::same_as<host_callee_kind>;
  { T<P>::callee_name(p, e) } -> std::convertible_to<std::string_view>;
  { T<P>::call_args(p, e) } -> range_of<typename T<P>::expr_handle>;
  { T<P>::keyword_arg(p, e, std::string_view{}) } -> std::same_as<std::optional<typename T<P>::expr_handle>>;
  { T<P>::call_attr(p, e, std::string_view{}) } -> std::same_as<std::optional<typename T<P>::expr_handle>>;
};
template <class P> concept has_locations = requires(const P& p, typename T<P>::expr_handle e) {
  { T<P>::location(p, e) } -> std::same_as<source_loc>;
  { T<P>::source_file(p) } -> std::convertible_to<std::string_view>;
};
template <class P> concept has_window_query = requires(const P& p, typename T<P>::var_handle v) {
  { T<P>::can_carry_window(p, v) } -> std::convertible_to<bool>;
};

template <class P> concept has_window_factory = requires(
    P& p, const window_request<typename T<P>::var_handle, typename T<P>::expr_handle>& r) {
  typename T<P>::window_handle;
  requires std::copyable<typename T<P>::window_handle>;
  { T<P>::make_window_buffer(p, r) } -> std::same_as<typename T<P>::window_handle>;
};
template <class P> concept has_attach_window = requires(
    P& p, typename T<P>::var_handle v, typename T<P>::expr_handle e, const typename T<P>::window_handle& w) {
  T<P>::attach_window(p, v, e, w);
};
template <class P> concept has_wrap_body = requires(
    P& p, typename T<P>::function_handle f, const scope_request<typename T<P>::window_handle>& s) {
  T<P>::wrap_body(p, f, s);
};
template <class P> concept has_binary = requires(const P& p, typename T<P>::expr_handle e) {
  { T<P>::binary(p, e) } -> std::same_as<host_binary<typename T<P>::expr_handle>>;
};
template <class P> concept has_function_type = requires(const P& p, typename T<P>::function_handle f) {
  { T<P>::function_type(p, f) } -> std::convertible_to<std::string_view>;
};
template <class P> concept has_new_var = requires(P& p, std::string_view n, source_loc l) {
  { T<P>::new_var(p, n, l) } -> std::same_as<typename T<P>::var_handle>;
};
template <class P> concept has_leaf_builders = requires(P& p, source_loc l, typename T<P>::var_handle v) {
  { T<P>::make_int(p, std::int64_t{}, l) } -> std::same_as<typename T<P>::expr_handle>;
  { T<P>::make_string(p, std::string_view{}, l) } -> std::same_as<typename T<P>::expr_handle>;
  { T<P>::make_symbol(p, std::string_view{}, l) } -> std::same_as<typename T<P>::expr_handle>;
  { T<P>::make_var_ref(p, v, l) } -> std::same_as<typename T<P>::expr_handle>;
};
template <class P> concept has_node_builders = requires(
    P& p, source_loc l, typename T<P>::expr_handle e, std::span<const typename T<P>::expr_handle> es,
    std::span<const host_keyword<typename T<P>::expr_handle>> ks) {
  { T<P>::make_binary(p, host_binary_op::mul, e, e, l) } -> std::same_as<typename T<P>::expr_handle>;
  { T<P>::make_list(p, es, l) } -> std::same_as<typename T<P>::expr_handle>;
  { T<P>::make_op_call(p, std::string_view{}, es, ks, l) } -> std::same_as<typename T<P>::expr_handle>;
};
template <class P> concept has_stmt_builders = requires(
    P& p, typename T<P>::stmt_handle s, typename T<P>::var_handle v, typename T<P>::expr_handle e) {
  T<P>::insert_assign_before(p, s, v, e);
  T<P>::append_call_arg(p, e, e);
  { T<P>::take_return_value(p, s, std::size_t{}) } -> std::same_as<typename T<P>::expr_handle>;
  T<P>::set_return_value(p, s, std::size_t{}, e);
};
template <class P> concept has_names = requires(const P& p, typename T<P>::var_handle v,
                                                typename T<P>::function_handle f, typename T<P>::expr_handle e) {
  { T<P>::var_name(p, v) } -> std::convertible_to<std::string_view>;
  { T<P>::params(p, f) } -> range_of<typename T<P>::var_handle>;
  { T<P>::children(p, e) } -> range_of<typename T<P>::expr_handle>;
};
template <class P> concept has_begin_transaction = requires(P& p) { T<P>::begin_transaction(p); };
template <class P> concept has_transaction =
    has_begin_transaction<P> &&  // first, so the token's type below is only asked when it exists
    requires(P& p, decltype(T<P>::begin_transaction(std::declval<P&>())) t) {
      requires std::copyable<decltype(t)>;
      T<P>::commit(p, t);
      T<P>::rollback(p, t);
    };

}  // namespace host_concepts_detail

// ------------------------------------------------------------------------------ the concepts
/// Read access to a host program: requirements 1-14.
template <class P>
concept host_program =
    host_concepts_detail::specialized<P> && host_concepts_detail::has_handles<P> &&
    host_concepts_detail::handles_regular<P> && host_concepts_detail::has_functions<P> &&
    host_concepts_detail::has_function_info<P> && host_concepts_detail::has_body<P> &&
    host_concepts_detail::has_stmt_kind<P> && host_concepts_detail::has_stmt_body<P> &&
    host_concepts_detail::has_operands<P> && host_concepts_detail::has_assign<P> &&
    host_concepts_detail::has_loop<P> && host_concepts_detail::has_expr_kind<P> &&
    host_concepts_detail::has_leaves<P> && host_concepts_detail::has_calls<P> &&
    host_concepts_detail::has_locations<P> && host_concepts_detail::has_window_query<P>;

/// A host program MaterializeCommDomainScopes can rewrite: requirements 15-17 on top.
template <class P>
concept rewritable_host_program = host_program<P> && host_concepts_detail::has_window_factory<P> &&
                                  host_concepts_detail::has_attach_window<P> &&
                                  host_concepts_detail::has_wrap_body<P>;

/// A host program SynthesizeAllReduceSignals can rewrite: requirements 18-25 on top of 1-14.
template <class P>
concept buildable_host_program = host_program<P> && host_concepts_detail::has_new_var<P> &&
                                 host_concepts_detail::has_leaf_builders<P> &&
                                 host_concepts_detail::has_node_builders<P> &&
                                 host_concepts_detail::has_stmt_builders<P> && host_concepts_detail::has_names<P>;

/// Optional capability (O5 for host programs): the program can undo requirements 15-17.
template <class P>
concept transactional_host_program = rewritable_host_program<P> && host_concepts_detail::has_transaction<P>;

// ------------------------------------------------------------------------------ diagnostics
// An algorithm starts with `static_assert(neuronrw::require_host_program<P>())`. When P falls
// short, exactly one static_assert fires: the first requirement missing, with the fix.
#define NEURONRW_HOST_CHECK(cond, msg) NEURONRW_REQUIREMENT_CHECK(P, cond, msg)

template <class P>
constexpr bool require_host_program() {
  if constexpr (false) {
  }
  NEURONRW_HOST_CHECK(host_concepts_detail::specialized<P>,
      "neuronrw: this program type has no neuronrw::host_traits specialization. Fix: specialize "
      "`template <> struct neuronrw::host_traits<YourProgram>` (see docs/host-programs.md) and "
      "include it before calling the algorithm.")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_handles<P>,
      "neuronrw host_program requirement 1: host_traits<P> must declare `using function_handle`, "
      "`stmt_handle`, `expr_handle` and `var_handle`.")
  NEURONRW_HOST_CHECK(host_concepts_detail::handles_regular<P>,
      "neuronrw host_program requirement 1: the handles must be copyable and equality-comparable, "
      "and var_handle hashable. Fix: give them operator== and a std::hash specialization, or "
      "specialize neuronrw::handle_hash<var_handle>.")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_functions<P>,
      "neuronrw host_program requirement 2: host_traits<P> lacks `static auto functions(const P&)` "
      "returning the program's function_handles in order.")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_function_info<P>,
      "neuronrw host_program requirement 3: host_traits<P> lacks `static std::string_view "
      "function_name(const P&, function_handle)`, `level(...)` and/or `role(...)`.")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_body<P>,
      "neuronrw host_program requirement 4: host_traits<P> lacks `static auto body(const P&, "
      "function_handle)` returning the top-level stmt_handles of the function.")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_stmt_kind<P>,
      "neuronrw host_program requirement 5: host_traits<P> lacks `static neuronrw::host_stmt_kind "
      "stmt_kind(const P&, stmt_handle)`.")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_stmt_body<P>,
      "neuronrw host_program requirement 6: host_traits<P> lacks `static auto stmt_body(const P&, "
      "stmt_handle)` (the body of a for / while / scope; empty otherwise).")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_operands<P>,
      "neuronrw host_program requirement 7: host_traits<P> lacks `static auto operands(const P&, "
      "stmt_handle)` returning the expr_handles the statement evaluates.")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_assign<P>,
      "neuronrw host_program requirement 8: host_traits<P> lacks `static var_handle "
      "assign_target(const P&, stmt_handle)` and/or `static expr_handle assign_value(...)`.")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_loop<P>,
      "neuronrw host_program requirement 9: host_traits<P> lacks `loop_var`, `loop_start`, "
      "`loop_stop` and/or `loop_step` (const P&, stmt_handle).")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_expr_kind<P>,
      "neuronrw host_program requirement 10: host_traits<P> lacks `static neuronrw::host_expr_kind "
      "expr_kind(const P&, expr_handle)`.")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_leaves<P>,
      "neuronrw host_program requirement 11: host_traits<P> lacks `static var_handle "
      "referenced_var(const P&, expr_handle)`, `static std::int64_t int_value(...)` and/or `static "
      "std::optional<std::string_view> string_value(...)`.")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_calls<P>,
      "neuronrw host_program requirement 12: host_traits<P> lacks `callee_kind`, `callee_name`, "
      "`call_args`, `keyword_arg` and/or `call_attr` (const P&, expr_handle[, std::string_view]).")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_locations<P>,
      "neuronrw host_program requirement 13: host_traits<P> lacks `static neuronrw::source_loc "
      "location(const P&, expr_handle)` and/or `static std::string_view source_file(const P&)`.")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_window_query<P>,
      "neuronrw host_program requirement 14: host_traits<P> lacks `static bool "
      "can_carry_window(const P&, var_handle)`.")
  else return true;
}

template <class P>
constexpr bool require_rewritable_host_program() {
  if constexpr (!host_program<P>) {
    return require_host_program<P>();
  }
  NEURONRW_HOST_CHECK(host_concepts_detail::has_window_factory<P>,
      "neuronrw rewritable_host_program requirement 15: host_traits<P> lacks `using window_handle` "
      "and/or `static window_handle make_window_buffer(P&, const neuronrw::window_request<"
      "var_handle, expr_handle>&)`.")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_attach_window<P>,
      "neuronrw rewritable_host_program requirement 16: host_traits<P> lacks `static void "
      "attach_window(P&, var_handle, expr_handle, const window_handle&)`.")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_wrap_body<P>,
      "neuronrw rewritable_host_program requirement 17: host_traits<P> lacks `static void "
      "wrap_body(P&, function_handle, const neuronrw::scope_request<window_handle>&)`.")
  else return true;
}

template <class P>
constexpr bool require_buildable_host_program() {
  if constexpr (!host_program<P>) {
    return require_host_program<P>();
  }
  NEURONRW_HOST_CHECK(host_concepts_detail::has_new_var<P>,
      "neuronrw buildable_host_program requirement 18: host_traits<P> lacks `static var_handle "
      "new_var(P&, std::string_view name, neuronrw::source_loc)`.")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_leaf_builders<P>,
      "neuronrw buildable_host_program requirement 19: host_traits<P> lacks `make_int`, `make_string`, "
      "`make_symbol` and/or `make_var_ref` (P&, value, neuronrw::source_loc) returning expr_handle.")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_node_builders<P>,
      "neuronrw buildable_host_program requirement 19: host_traits<P> lacks `make_binary(P&, "
      "host_binary_op, expr_handle, expr_handle, source_loc)`, `make_list(P&, std::span<const "
      "expr_handle>, source_loc)` and/or `make_op_call(P&, std::string_view, std::span<const "
      "expr_handle>, std::span<const neuronrw::host_keyword<expr_handle>>, source_loc)`.")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_stmt_builders<P>,
      "neuronrw buildable_host_program requirements 20-22: host_traits<P> lacks `insert_assign_before`, "
      "`append_call_arg`, `take_return_value` and/or `set_return_value`.")
  NEURONRW_HOST_CHECK(host_concepts_detail::has_names<P>,
      "neuronrw buildable_host_program requirements 23-25: host_traits<P> lacks `static std::string_view "
      "var_name(const P&, var_handle)`, `static auto params(const P&, function_handle)` and/or `static auto "
      "children(const P&, expr_handle)` (every direct subexpression).")
  else return true;
}

#undef NEURONRW_HOST_CHECK

// ------------------------------------------------------------------------------ access
// Thin forwarding functions so algorithms read as `host::stmt_kind(p, s)`; a separate namespace
// keeps them out of ADL's way.
namespace host_access {
template <class P> using traits = host_traits<std::remove_cvref_t<P>>;

template <class P> decltype(auto) functions(const P& p) { return traits<P>::functions(p); }
template <class P> std::string_view function_name(const P& p, host_function_t<P> f) { return traits<P>::function_name(p, f); }
template <class P> std::string_view level(const P& p, host_function_t<P> f) { return traits<P>::level(p, f); }
template <class P> std::string_view role(const P& p, host_function_t<P> f) { return traits<P>::role(p, f); }
template <class P> decltype(auto) body(const P& p, host_function_t<P> f) { return traits<P>::body(p, f); }
template <class P> host_stmt_kind stmt_kind(const P& p, host_stmt_t<P> s) { return traits<P>::stmt_kind(p, s); }
template <class P> decltype(auto) stmt_body(const P& p, host_stmt_t<P> s) { return traits<P>::stmt_body(p, s); }
template <class P> decltype(auto) operands(const P& p, host_stmt_t<P> s) { return traits<P>::operands(p, s); }
template <class P> host_var_t<P> assign_target(const P& p, host_stmt_t<P> s) { return traits<P>::assign_target(p, s); }
template <class P> host_expr_t<P> assign_value(const P& p, host_stmt_t<P> s) { return traits<P>::assign_value(p, s); }
template <class P> host_var_t<P> loop_var(const P& p, host_stmt_t<P> s) { return traits<P>::loop_var(p, s); }
template <class P> host_expr_t<P> loop_start(const P& p, host_stmt_t<P> s) { return traits<P>::loop_start(p, s); }
template <class P> host_expr_t<P> loop_stop(const P& p, host_stmt_t<P> s) { return traits<P>::loop_stop(p, s); }
template <class P> host_expr_t<P> loop_step(const P& p, host_stmt_t<P> s) { return traits<P>::loop_step(p, s); }
template <class P> host_expr_kind expr_kind(const P& p, host_expr_t<P> e) { return traits<P>::expr_kind(p, e); }
template <class P> host_var_t<P> referenced_var(const P& p, host_expr_t<P> e) { return traits<P>::referenced_var(p, e); }
template <class P> std::int64_t int_value(const P& p, host_expr_t<P> e) { return traits<P>::int_value(p, e); }
template <class P> std::optional<std::string_view> string_value(const P& p, host_expr_t<P> e) { return traits<P>::string_value(p, e); }
template <class P> host_callee_kind callee_kind(const P& p, host_expr_t<P> e) { return traits<P>::callee_kind(p, e); }
template <class P> std::string_view callee_name(const P& p, host_expr_t<P> e) { return traits<P>::callee_name(p, e); }
template <class P> decltype(auto) call_args(const P& p, host_expr_t<P> e) { return traits<P>::call_args(p, e); }
/// The number of positional arguments of call `e`, and its argument `i` (nullopt past the end),
/// read from call_args without copying it.
template <class P> std::size_t call_arity(const P& p, host_expr_t<P> e) {
  std::size_t n = 0;
  for (auto&& a : traits<P>::call_args(p, e)) {
    (void)a;
    ++n;
  }
  return n;
}
template <class P> std::optional<host_expr_t<P>> call_arg(const P& p, host_expr_t<P> e, std::size_t i) {
  for (host_expr_t<P> a : traits<P>::call_args(p, e))
    if (i-- == 0) return a;
  return std::nullopt;
}
template <class P> std::optional<host_expr_t<P>> keyword_arg(const P& p, host_expr_t<P> e, std::string_view n) { return traits<P>::keyword_arg(p, e, n); }
template <class P> std::optional<host_expr_t<P>> call_attr(const P& p, host_expr_t<P> e, std::string_view n) { return traits<P>::call_attr(p, e, n); }
template <class P> source_loc location(const P& p, host_expr_t<P> e) { return traits<P>::location(p, e); }
template <class P> std::string_view source_file(const P& p) { return traits<P>::source_file(p); }
template <class P> bool can_carry_window(const P& p, host_var_t<P> v) { return traits<P>::can_carry_window(p, v); }
/// B1 when the program has it; an `other` expression never reaches here (expr_kind is binary only
/// for programs that have it).
template <class P> host_binary<host_expr_t<P>> binary(const P& p, host_expr_t<P> e) {
  if constexpr (host_concepts_detail::has_binary<std::remove_cvref_t<P>>) return traits<P>::binary(p, e);
  else return {};
}
/// F1 when the program has it; empty otherwise.
template <class P> std::string_view function_type(const P& p, host_function_t<P> f) {
  if constexpr (host_concepts_detail::has_function_type<std::remove_cvref_t<P>>) return traits<P>::function_type(p, f);
  else return {};
}
}  // namespace host_access

}  // namespace neuronrw
