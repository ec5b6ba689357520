// neuronrw/algorithms/host_arith.hpp — the integer value of a host-program expression, where a pass
// needs one (a loop bound, a `device=` number, an allocation size, a `core_num=`): integer
// constants, Python's integer arithmetic on them (`+ - * // %`, unary minus; optional capability B1
// of concepts/host.hpp), variables followed through their definitions, and one symbolic value,
// the world size (a call of the world-size op, alone: `pld.world_size() * 2` is not a bound the
// passes can use).
//
//   host_int_value<Expr> evaluate_host_int(const P&, expr_handle, def_of, world_size_op)
//
// `def_of(var)` returns the expression a variable was defined by (std::optional<expr_handle>),
// nullopt for a parameter, a loop variable or a variable defined more than once. Arithmetic is on
// int64: a result outside it is an error (`overflow`), as is a division or modulo by zero, each
// naming the expression at fault so the caller can locate it. Never throws, never recurses more
// than max_host_eval_depth frames (a longer chain of definitions is `too_deep`).
//
// Customization points: the program (host_program, with B1 when it has arithmetic).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <utility>

#include <neuronrw/concepts/host.hpp>
#include <neuronrw/detail/ranges.hpp>

namespace neuronrw {

enum class host_int_kind : std::uint8_t {
  integer,     ///< `value` holds it
  world_size,  ///< the world size (every device)
  unknown,     ///< not a compile-time integer (a parameter, a call, a string, ...)
  error,       ///< overflow, division by zero, or too deep: `message`, at `at`
};

template <class Expr>
struct host_int_value {
  host_int_kind kind = host_int_kind::unknown;
  std::int64_t value = 0;
  std::string message;  ///< error only: "integer overflow in '*'", "division by zero in '//'"
  Expr at{};            ///< error only: the expression at fault

  bool is_int() const noexcept { return kind == host_int_kind::integer; }
};

inline constexpr int max_host_eval_depth = 512;

namespace host_arith_detail {

/// Python's integer operators on int64; false on overflow or division by zero (`why` says which).
inline bool apply(host_binary_op op, std::int64_t a, std::int64_t b, std::int64_t& out, std::string& why) {
  switch (op) {
    case host_binary_op::add:
      if (__builtin_add_overflow(a, b, &out)) return why = "integer overflow", false;
      return true;
    case host_binary_op::sub:
      if (__builtin_sub_overflow(a, b, &out)) return why = "integer overflow", false;
      return true;
    case host_binary_op::mul:
      if (__builtin_mul_overflow(a, b, &out)) return why = "integer overflow", false;
      return true;
    case host_binary_op::neg:
      if (a == std::numeric_limits<std::int64_t>::min()) return why = "integer overflow", false;
      out = -a;
      return true;
    case host_binary_op::floordiv:
    case host_binary_op::mod: {
      if (b == 0) return why = op == host_binary_op::mod ? "modulo by zero" : "division by zero", false;
      if (a == std::numeric_limits<std::int64_t>::min() && b == -1) {
        if (op == host_binary_op::mod) return out = 0, true;
        return why = "integer overflow", false;
      }
      std::int64_t q = a / b, r = a % b;
      if (r != 0 && ((r < 0) != (b < 0))) {  // C++ truncates; Python floors
        --q;
        r += b;
      }
      out = op == host_binary_op::floordiv ? q : r;
      return true;
    }
  }
  return why = "unknown operator", false;
}

template <class P, class DefOf>
class evaluator {
  using expr_t = host_expr_t<P>;
  using var_t = host_var_t<P>;
  using result = host_int_value<expr_t>;

 public:
  evaluator(const P& p, DefOf& def_of, std::string_view world_size_op)
      : p_(p), def_of_(def_of), ws_(world_size_op) {}

  result eval(expr_t e, int depth = 0) {
    if (depth > max_host_eval_depth) return error(e, "expression too deep to evaluate");
    switch (host_access::expr_kind(p_, e)) {
      case host_expr_kind::int_const: return integer(host_access::int_value(p_, e));
      case host_expr_kind::var_ref: {
        const var_t v = host_access::referenced_var(p_, e);
        if (!visiting_.insert(v).second) return {};  // a cycle: not a constant
        result r;
        if (const std::optional<expr_t> d = def_of_(v)) r = eval(*d, depth + 1);
        visiting_.erase(v);
        return r;
      }
      case host_expr_kind::call:
        if (host_access::callee_kind(p_, e) == host_callee_kind::op && host_access::callee_name(p_, e) == ws_ &&
            std::ranges::empty(host_access::call_args(p_, e))) {
          result r;
          r.kind = host_int_kind::world_size;
          return r;
        }
        return {};
      case host_expr_kind::binary: {
        const host_binary<expr_t> b = host_access::binary(p_, e);
        result l = eval(b.lhs, depth + 1);
        if (l.kind == host_int_kind::error) return l;
        result r = b.op == host_binary_op::neg ? integer(0) : eval(b.rhs, depth + 1);
        if (r.kind == host_int_kind::error) return r;
        if (!l.is_int() || !r.is_int()) return {};
        std::int64_t out = 0;
        std::string why;
        if (!apply(b.op, l.value, r.value, out, why))
          return error(e, why + " in '" + std::string(to_string(b.op)) + "' (" + operands_text(b.op, l.value, r.value) + ")");
        return integer(out);
      }
      case host_expr_kind::other: return {};
    }
    return {};
  }

 private:
  const P& p_;
  DefOf& def_of_;
  std::string_view ws_;
  std::unordered_set<var_t, handle_hash<var_t>> visiting_;

  static result integer(std::int64_t v) {
    result r;
    r.kind = host_int_kind::integer;
    r.value = v;
    return r;
  }
  static result error(expr_t at, std::string msg) {
    result r;
    r.kind = host_int_kind::error;
    r.message = std::move(msg);
    r.at = at;
    return r;
  }
  static std::string operands_text(host_binary_op op, std::int64_t a, std::int64_t b) {
    if (op == host_binary_op::neg) return "-" + std::to_string(a);
    return std::to_string(a) + " " + std::string(to_string(op)) + " " + std::to_string(b);
  }
};

}  // namespace host_arith_detail

/// The integer value of `e` (see the header comment). O(size of e and of the definitions it
/// follows); a variable reached twice on one path (a cycle) is `unknown`.
template <class P, class DefOf>
host_int_value<host_expr_t<P>> evaluate_host_int(const P& p, host_expr_t<P> e, DefOf&& def_of,
                                                 std::string_view world_size_op) {
  host_arith_detail::evaluator<P, std::remove_reference_t<DefOf>> ev(p, def_of, world_size_op);
  return ev.eval(e);
}

}  // namespace neuronrw
