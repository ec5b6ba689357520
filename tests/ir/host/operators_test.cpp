// Tests for Python's operators and subscripts beyond integer arithmetic in neuronrw/ir/host
// (ir.hpp, text.hpp, hash.hpp, traits.hpp), as pypto's device code writes them: `/`, `**`, the
// shifts and bitwise operators, unary `+` and `~`, slices (`x[:, 64:128]`) and assignments to a
// subscript (`out[:, :] = v`). What the parser builds (Python's precedence and grouping), the
// exact printed text and its fixed point, the parentheses the printer adds to trees built without
// flags, module constants evaluated with Python's integer semantics and their errors, structural
// equality and hash, clone, and the host concept's view.
#include <neuronrw/concepts/host.hpp>
#include <neuronrw/ir/host/hash.hpp>
#include <neuronrw/ir/host/ir.hpp>
#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/ir/host/traits.hpp>

#include <doctest/doctest.h>

#include "support/host_parse.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace neuronrw;
using namespace neuronrw::host;
using neuronrw::testing::host::check_fixed_point;
using neuronrw::testing::host::parse_ok;

constexpr std::string_view header = neuronrw::testing::host::program_header;
constexpr auto prog = neuronrw::testing::host::program_text;
constexpr auto error_of = neuronrw::testing::host::parse_error_of;

/// A function `f(self, a, b, c, d)` of scalars returning each of `values` in turn.
std::string returning(const std::vector<std::string>& values) {
  std::string body =
      "    @pl.function\n    def f(self, a: pl.Scalar[pl.INDEX], b: pl.Scalar[pl.INDEX], c: pl.Scalar[pl.INDEX], "
      "d: pl.Scalar[pl.INDEX]):\n";
  for (std::size_t k = 0; k < values.size(); ++k) body += "        x" + std::to_string(k) + " = " + values[k] + "\n";
  return prog("Ops", body);
}

/// The operator of an arith node, or -1 for another node; the tree as an S-expression.
std::string tree(const expr* e) {
  if (!e) return "null";
  switch (e->kind) {
    case expr_kind::var_ref: return e->ref ? e->ref->name : "?";
    case expr_kind::int_const: return std::to_string(e->value);
    case expr_kind::float_const: return e->text;
    case expr_kind::arith: {
      std::string s = "(" + std::string(spelling(op_of(*e)));
      if (is_unary(op_of(*e))) s += "u";
      for (auto& a : e->args) s += " " + tree(a.get());
      return s + ")";
    }
    case expr_kind::boolean: return "(cmp " + tree(e->args[0].get()) + " " + tree(e->args[1].get()) + ")";
    case expr_kind::slice: {
      std::string s = "(slice " + std::to_string(e->value);
      for (auto& a : e->args) s += " " + tree(a.get());
      return s + ")";
    }
    case expr_kind::tuple: {
      std::string s = "(tuple";
      for (auto& a : e->args) s += " " + tree(a.get());
      return s + ")";
    }
    case expr_kind::subscript: return "(sub " + tree(e->args[0].get()) + " " + tree(e->args[1].get()) + ")";
    default: return "<" + std::to_string(static_cast<int>(e->kind)) + ">";
  }
}

TEST_CASE("Python's other operators: precedence and grouping as Python's, printed as written") {
  const std::vector<std::pair<std::string, std::string>> rows = {
      {"a / b", "(/ a b)"},
      {"a / b // c % d", "(% (// (/ a b) c) d)"},
      {"a ** b", "(** a b)"},
      {"a ** b ** c", "(** a (** b c))"},           // right-assoc
      {"-a ** b", "(-u (** a b))"},                 // unary binds looser than **
      {"-2 ** 2", "(-u (** 2 2))"},                 // and so does the minus of a literal
      {"(-2) ** 2", "(** -2 2)"},
      {"a ** -b", "(** a (-u b))"},                 // the right operand may be unary
      {"2 * a ** 2", "(* 2 (** a 2))"},
      {"~a", "(~u a)"},
      {"+a", "(+u a)"},
      {"~-a", "(~u (-u a))"},
      {"1 << a + 2", "(<< 1 (+ a 2))"},             // + binds tighter than <<
      {"a >> 1 << 2", "(<< (>> a 1) 2)"},           // left-assoc
      {"a & b << 1", "(& a (<< b 1))"},
      {"a | b ^ c & d", "(| a (^ b (& c d)))"},
      {"a & b | c ^ d", "(| (& a b) (^ c d))"},
      {"a << b & c << d", "(& (<< a b) (<< c d))"},
      {"a | b ^ c & d ^ a", "(| a (^ (^ b (& c d)) a))"},
      {"a | b == c & d", "(cmp (| a b) (& c d))"},  // comparisons bind looser than |
      {"(a | b) * c", "(* (| a b) c)"},
      {"a ** (b + 1)", "(** a (+ b 1))"},
      {"a / 2.0", "(/ a 2.0)"},
  };
  std::vector<std::string> values;
  for (auto& r : rows) values.push_back(r.first);
  const std::string text = returning(values);
  check_fixed_point(text);
  const program p = parse_ok(text);
  const auto& body = p.functions[0]->body;
  REQUIRE(body.size() == rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    CAPTURE(rows[k].first);
    CHECK(tree(body[k]->value.get()) == rows[k].second);
  }
  // `/` makes a float of a precision not worked out here; the others are integers.
  CHECK(same_type(body[0]->target->type, type{}));
  CHECK(same_type(body[2]->target->type, type::scalar("INDEX")));
}

namespace build {
expr_ptr v(const var* x) { return make_var_ref(const_cast<var*>(x)); }
expr_ptr i(std::int64_t x) { return make_int(x); }
expr_ptr bin(arith_op op, expr_ptr a, expr_ptr b) { return make_arith(op, std::move(a), std::move(b)); }
expr_ptr un(arith_op op, expr_ptr a) { return make_arith(op, std::move(a), nullptr); }
}  // namespace build

TEST_CASE("trees of the new operators built without flags print with exactly the parentheses Python needs") {
  using namespace build;
  program p = parse_ok(returning({"a"}));
  function& f = *p.functions[0];
  f.body.clear();
  const var* a = f.params[0].get();
  const var* b = f.params[1].get();
  const var* c = f.params[2].get();
  std::vector<std::pair<expr_ptr, std::string>> rows;
  rows.emplace_back(bin(arith_op::pow, bin(arith_op::pow, v(a), v(b)), v(c)), "(a ** b) ** c");
  rows.emplace_back(bin(arith_op::pow, v(a), bin(arith_op::pow, v(b), v(c))), "a ** b ** c");
  rows.emplace_back(bin(arith_op::pow, un(arith_op::neg, v(a)), v(b)), "(-a) ** b");
  rows.emplace_back(un(arith_op::neg, bin(arith_op::pow, v(a), v(b))), "-a ** b");
  rows.emplace_back(bin(arith_op::pow, v(a), un(arith_op::neg, v(b))), "a ** -b");
  rows.emplace_back(bin(arith_op::pow, i(-2), v(b)), "(-2) ** b");
  rows.emplace_back(un(arith_op::neg, bin(arith_op::pow, i(2), v(b))), "-2 ** b");
  rows.emplace_back(bin(arith_op::pow, bin(arith_op::mul, v(a), v(b)), v(c)), "(a * b) ** c");
  rows.emplace_back(bin(arith_op::mul, v(a), bin(arith_op::truediv, v(b), v(c))), "a * (b / c)");
  rows.emplace_back(bin(arith_op::truediv, bin(arith_op::mul, v(a), v(b)), v(c)), "a * b / c");
  rows.emplace_back(bin(arith_op::lshift, v(a), bin(arith_op::add, v(b), v(c))), "a << b + c");
  rows.emplace_back(bin(arith_op::add, bin(arith_op::lshift, v(a), v(b)), v(c)), "(a << b) + c");
  rows.emplace_back(bin(arith_op::lshift, v(a), bin(arith_op::rshift, v(b), v(c))), "a << (b >> c)");
  rows.emplace_back(bin(arith_op::bitand_, bin(arith_op::bitor_, v(a), v(b)), v(c)), "(a | b) & c");
  rows.emplace_back(bin(arith_op::bitor_, bin(arith_op::bitand_, v(a), v(b)), v(c)), "a & b | c");
  rows.emplace_back(bin(arith_op::bitxor, v(a), bin(arith_op::bitor_, v(b), v(c))), "a ^ (b | c)");
  rows.emplace_back(un(arith_op::invert, bin(arith_op::bitand_, v(a), v(b))), "~(a & b)");
  rows.emplace_back(bin(arith_op::bitand_, un(arith_op::invert, v(a)), v(b)), "~a & b");
  rows.emplace_back(un(arith_op::pos, un(arith_op::neg, v(a))), "+-a");
  rows.emplace_back(make_bool_op(bool_op::eq, bin(arith_op::bitor_, v(a), v(b)), v(c)), "a | b == c");
  rows.emplace_back(bin(arith_op::bitor_, make_bool_op(bool_op::eq, v(a), v(b)), v(c)), "(a == b) | c");
  std::string want_body;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    auto x = make_var("x" + std::to_string(k), type_of(*rows[k].first));
    const bool annotated = !same_type(x->type, type_of(*rows[k].first));
    CHECK_FALSE(annotated);
    want_body += "        x" + std::to_string(k) + " = " + rows[k].second + "\n";
    f.body.push_back(make_assign(std::move(x), std::move(rows[k].first)));
  }
  const std::string text = print_program(p);
  CHECK(text == prog("Ops", "    @pl.function\n    def f(self, a: pl.Scalar[pl.INDEX], b: pl.Scalar[pl.INDEX], "
                            "c: pl.Scalar[pl.INDEX], d: pl.Scalar[pl.INDEX]):\n" + want_body));
  const program q = parse_ok(text);
  CHECK(structural_equal(p, q));  // the same trees: every parenthesis the printer added was needed
  CHECK(structural_hash(p) == structural_hash(q));
}

TEST_CASE("module constants of the new operators: Python's integer values, and the errors where Python has no integer") {
  const std::string text = std::string(header.substr(0, header.find("\n\n"))) +
                           "\n\nSHL = 1 << 6\nSHR = -7 >> 1\nBIG = 7 >> 70\nNEG = -7 >> 70\nAND = 12 & 10\nOR = 12 | 10\n"
                           "XOR = 12 ^ 10\nINV = ~5\nPOS = +5\nPOW = 2 ** 10\nPOW0 = 0 ** 0\nMIN = (-2) ** 63\n"
                           "MINS = -1 << 63\nMIX = 1 << 2 + 1 | 1\nNPOW = -2 ** 2\n\n\n@pl.program\nclass P:\n"
                           "    @pl.function\n    def f(self):\n        return SHL + MIX\n";
  const program p = parse_ok(text);
  const std::vector<std::pair<std::string, std::int64_t>> want = {
      {"SHL", 64}, {"SHR", -4}, {"BIG", 0}, {"NEG", -1}, {"AND", 8}, {"OR", 14}, {"XOR", 6}, {"INV", -6},
      {"POS", 5}, {"POW", 1024}, {"POW0", 1}, {"MIN", std::numeric_limits<std::int64_t>::min()},
      {"MINS", std::numeric_limits<std::int64_t>::min()}, {"MIX", 9}, {"NPOW", -4}};
  REQUIRE(p.constants.size() == want.size());
  for (std::size_t k = 0; k < want.size(); ++k) {
    CAPTURE(want[k].first);
    CHECK(p.constants[k].name == want[k].first);
    CHECK(p.constants[k].evaluated == want[k].second);
  }
  check_fixed_point(text);

  const auto constant_error = [](std::string_view value) {
    return error_of(std::string(header.substr(0, header.find("\n\n"))) + "\n\nK = " + std::string(value) +
                    "\n\n\n@pl.program\nclass P:\n    @pl.function\n    def f(self):\n        return K\n");
  };
  CHECK(constant_error("1 << -1") == "e.py:4:7: error: negative shift count in '<<' (1 << -1)");
  CHECK(constant_error("1 << 63") == "e.py:4:7: error: integer overflow in '<<' (1 << 63)");
  CHECK(constant_error("3 << 62") == "e.py:4:7: error: integer overflow in '<<' (3 << 62)");
  CHECK(constant_error("8 >> -2") == "e.py:4:7: error: negative shift count in '>>' (8 >> -2)");
  CHECK(constant_error("2 ** 63") == "e.py:4:7: error: integer overflow in '**' (2 ** 63)");
  CHECK(constant_error("3 ** 40") == "e.py:4:7: error: integer overflow in '**' (3 ** 40)");
  CHECK(constant_error("2 ** -1") ==
        "e.py:4:7: error: a negative exponent makes a float (2 ** -1): an integer constant needs one >= 0");
  CHECK(constant_error("7 / 2") ==
        "e.py:4:7: error: '/' is true division, whose value is a float (7 / 2): an integer constant uses '//'");
  // 1 ** n and (-1) ** n never overflow, however large n is.
  const program one = parse_ok(std::string(header.substr(0, header.find("\n\n"))) +
                               "\n\nA = 1 ** 9223372036854775807\nB = (-1) ** 9223372036854775807\n\n\n@pl.program\n"
                               "class P:\n    @pl.function\n    def f(self):\n        return A + B\n");
  REQUIRE(one.constants.size() == 2);
  CHECK(one.constants[0].evaluated == 1);
  CHECK(one.constants[1].evaluated == -1);
}

TEST_CASE("slices: each part optional, printed as written, the type of a sliced tensor unknown") {
  const std::string text = prog("S",
      "    @pl.function\n"
      "    def f(self, x: pl.Tensor[[64, 128], pl.FP32], n: pl.Scalar[pl.INDEX]):\n"
      "        a: pl.Tensor[[64, 64], pl.FP32] = x[:, 64:128]\n"
      "        b: pl.Tensor[[64, 128], pl.FP32] = x[::2]\n"
      "        c: pl.Tensor[[64, 128], pl.FP32] = x[n:]\n"
      "        d: pl.Tensor[[64, 128], pl.FP32] = x[:n]\n"
      "        e: pl.Tensor[[64, 128], pl.FP32] = x[1:n:]\n"
      "        g: pl.Tensor[[64, 128], pl.FP32] = x[1:n + 1:2, n]\n"
      "        h = x[0]\n"
      "        return a\n");
  check_fixed_point(text);
  const program p = parse_ok(text);
  const auto& body = p.functions[0]->body;
  CHECK(tree(body[0]->value.get()) == "(sub x (tuple (slice 0) (slice 3 64 128)))");
  CHECK(tree(body[1]->value.get()) == "(sub x (slice 4 2))");
  CHECK(tree(body[2]->value.get()) == "(sub x (slice 1 n))");
  CHECK(tree(body[3]->value.get()) == "(sub x (slice 2 n))");
  CHECK(tree(body[4]->value.get()) == "(sub x (slice 3 1 n))");
  CHECK(tree(body[5]->value.get()) == "(sub x (tuple (slice 7 1 (+ n 1) 2) n))");
  // A slice keeps a dimension whose size the reader does not work out: the type is not known,
  // and the annotation is kept. An index drops the dimension, as before.
  CHECK(same_type(type_of(*body[0]->value), type{}));
  CHECK(same_type(type_of(*body[6]->value), type::tensor({dim(128, nullptr)}, "FP32")));
  // `a:b:` is `a:b` (Python's slice(a, b, None)): the same program, printed as written.
  const program q = parse_ok(prog("S",
      "    @pl.function\n"
      "    def f(self, x: pl.Tensor[[64, 128], pl.FP32], n: pl.Scalar[pl.INDEX]):\n"
      "        e: pl.Tensor[[64, 128], pl.FP32] = x[1:n]\n"
      "        return e\n"));
  const program r = parse_ok(prog("S",
      "    @pl.function\n"
      "    def f(self, x: pl.Tensor[[64, 128], pl.FP32], n: pl.Scalar[pl.INDEX]):\n"
      "        e: pl.Tensor[[64, 128], pl.FP32] = x[1:n:]\n"
      "        return e\n"));
  CHECK(structural_equal(q, r));
  CHECK(structural_hash(q) == structural_hash(r));
  CHECK(print_program(q) != print_program(r));
  // Which parts are written counts: `x[n:]` is not `x[:n]`.
  const program s1 = parse_ok(prog("S", "    @pl.function\n    def f(self, x: pl.Tensor[[8], pl.FP32], n: pl.Scalar[pl.INDEX]):\n"
                                        "        return x[n:]\n"));
  const program s2 = parse_ok(prog("S", "    @pl.function\n    def f(self, x: pl.Tensor[[8], pl.FP32], n: pl.Scalar[pl.INDEX]):\n"
                                        "        return x[:n]\n"));
  CHECK_FALSE(structural_equal(s1, s2));
  CHECK(structural_hash(s1) != structural_hash(s2));
  // A slice is an index only.
  CHECK(error_of(prog("S", "    @pl.function\n    def f(self, n):\n        return 1:n\n")) ==
        "e.py:9:17: error: expected end of line, got ':'");
  CHECK(error_of(prog("S", "    @pl.function\n    def f(self, x, n):\n        return x[1:2:3:4]\n")) ==
        "e.py:9:23: error: expected ']' to close the subscript, got ':'");
}

TEST_CASE("an assignment to a subscript stores into the variable, binds nothing, and is an other statement") {
  const std::string text = prog("St",
      "    @pl.function\n"
      "    def f(self, x: pl.Tensor[[64, 128], pl.FP32], out: pl.Out[pl.Tensor[[64, 128], pl.FP32]]) -> pl.Tensor[[64, 128], pl.FP32]:\n"
      "        out[:, :] = pl.add(x[:, :], x[:, :])\n"
      "        out[0, 1:3] = x[0, 0:2]\n"
      "        return out\n");
  check_fixed_point(text);
  program p = parse_ok(text);
  function& f = *p.functions[0];
  REQUIRE(f.body.size() == 3);
  const stmt& s = *f.body[0];
  CHECK(s.kind == stmt_kind::subscript_assign);
  CHECK_FALSE(s.target);
  REQUIRE(s.values.size() == 1);
  CHECK(tree(s.values[0].get()) == "(sub out (tuple (slice 0) (slice 0)))");
  CHECK(s.values[0]->args[0]->ref == f.params[1].get());  // the parameter, not a new variable
  CHECK(f.body[2]->values[0]->ref == f.params[1].get());

  using tr = host_traits<program>;
  CHECK(tr::stmt_kind(p, f.body[0].get()) == host_stmt_kind::other);
  const auto ops = tr::operands(p, f.body[0].get());
  REQUIRE(ops.size() == 2);  // the value, then the target
  CHECK(ops[0] == s.value.get());
  CHECK(ops[1] == s.values[0].get());

  // Structure: the target and the value count.
  const program q = parse_ok(prog("St",
      "    @pl.function\n"
      "    def f(self, x: pl.Tensor[[64, 128], pl.FP32], out: pl.Out[pl.Tensor[[64, 128], pl.FP32]]) -> pl.Tensor[[64, 128], pl.FP32]:\n"
      "        out[:, :] = pl.add(x[:, :], x[:, :])\n"
      "        out[0, 1:4] = x[0, 0:2]\n"
      "        return out\n"));
  CHECK_FALSE(structural_equal(p, q));
  CHECK(structural_hash(p) != structural_hash(q));
  // Clone copies the target, its slices and the variable it refers to.
  const program c = clone(p);
  CHECK(structural_equal(p, c));
  CHECK(print_program(c) == text);
  CHECK(c.functions[0]->body[0]->values[0]->args[0]->ref == c.functions[0]->params[1].get());
  // Only a subscript is a target this way; an undefined variable is an error.
  CHECK(error_of(prog("St", "    @pl.function\n    def f(self, x):\n        y[0] = x\n")) ==
        "e.py:9:9: error: undefined variable 'y'");
  CHECK(error_of(prog("St", "    @pl.function\n    def f(self, x):\n        x.y = x\n")) ==
        "e.py:9:13: error: expected end of line, got '='");
}

TEST_CASE("the host concept's view: integer arithmetic is binary, device code's operators are other") {
  using tr = host_traits<program>;
  const program p = parse_ok(returning({"a + b", "a // b", "-a", "a / b", "a << b", "a ** b", "~a", "a & b", "+a"}));
  const auto& body = p.functions[0]->body;
  for (std::size_t k = 0; k < body.size(); ++k) {
    CAPTURE(k);
    const host_expr_kind want = k < 3 ? host_expr_kind::binary : host_expr_kind::other;
    CHECK(tr::expr_kind(p, body[k]->value.get()) == want);
  }
  const auto b = tr::binary(p, body[1]->value.get());
  CHECK(b.op == host_binary_op::floordiv);
  CHECK(tr::children(p, body[4]->value.get()).size() == 2);
  CHECK(tr::children(p, body[6]->value.get()).size() == 1);
}

}  // namespace
