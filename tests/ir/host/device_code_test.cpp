// Tests for the device-level code of pypto programs in neuronrw/ir/host (ir.hpp, text.hpp,
// hash.hpp, traits.hpp): `with pl.at(...)` scopes, if / elif / else, break / continue, tuple
// assignments, loops over pypto's other iterators with carried variables, tiles and the further
// arguments of a tensor type, float and non-decimal integer literals, comparisons and boolean
// operators, and the decorator's other keywords. Exact printed text, the scoping pypto's parser
// applies, structural equality and hash, clone, and the host concept's view.
#include <neuronrw/concepts/host.hpp>
#include <neuronrw/ir/host/hash.hpp>
#include <neuronrw/ir/host/ir.hpp>
#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/ir/host/traits.hpp>

#include <doctest/doctest.h>

#include "support/host_parse.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace neuronrw;
using namespace neuronrw::host;
using neuronrw::testing::host::check_fixed_point;
using neuronrw::testing::host::parse_ok;

constexpr auto prog = neuronrw::testing::host::program_text;
constexpr auto error_of = neuronrw::testing::host::parse_error_of;

const std::string kernel = prog("K",
    "    @pl.function(type=pl.FunctionType.InCore, strict_ssa=True, attrs={\"split\": pl.SplitMode.UP_DOWN})\n"
    "    def kernel(self, x: pl.Tensor[[64], pl.FP32, pl.NZ], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:\n"
    "        t: pl.Tile[[64], pl.FP32, pl.Mem.Vec] = pl.load(x, [0], [64])\n"
    "        for i, (acc, n) in pl.range(4, init_values=(t, 0)):\n"
    "            if i == 0 and not n > 2:\n"
    "                a = pl.add(acc, 1.5e-3)\n"
    "            elif i < 2 or n != 0x1F:\n"
    "                a = pl.mul(acc, 0.5)\n"
    "                continue\n"
    "            else:\n"
    "                a = pl.sub(acc, 1_000)\n"
    "                break\n"
    "            r, m = pl.yield_(a, n + 1)\n"
    "        with pl.at(level=pl.Level.CORE_GROUP, name_hint=\"store\") as tid:\n"
    "            out = pl.store(r, [0], out)\n"
    "        for j in pl.parallel(0, 8, 2, chunk=2):\n"
    "            pass\n"
    "        for k in pl.spmd(4, sync_start=True):\n"
    "            pass\n"
    "        return out\n"
    "\n"
    "    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)\n"
    "    def orch(self, x: pl.Tensor[[64], pl.FP32]):\n"
    "        with pl.manual_scope():\n"
    "            y = self.kernel(x, x)\n"
    "        return y\n");

TEST_CASE("device code reads and prints back as written") {
  // The printer gives every variable of a function a name of its own: the second and third `a`
  // print as a_1 and a_2, the stored `out` as out_1; otherwise the text is the input's.
  std::string text = kernel;
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"a = pl.mul", "a_1 = pl.mul"}, {"a = pl.sub", "a_2 = pl.sub"}, {"pl.yield_(a,", "pl.yield_(a_2,"},
           {"out = pl.store", "out_1 = pl.store"}, {"return out\n", "return out_1\n"}}) {
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
  }
  CHECK(print_program(parse_ok(kernel)) == text);
  check_fixed_point(text);
}

TEST_CASE("what the IR holds for each form") {
  program p = parse_ok(kernel);
  const function& k = *p.functions[0];
  REQUIRE(k.options.size() == 1);
  CHECK(k.options[0].name == "strict_ssa");
  CHECK(k.options[0].value->kind == expr_kind::bool_const);
  REQUIRE(k.attrs.size() == 1);
  CHECK(k.attrs[0].name == "split");
  CHECK(k.attrs[0].value->text == "pl.SplitMode.UP_DOWN");
  // Types: a tensor's layout, a tile's memory space.
  REQUIRE(k.params[0]->type.extras.size() == 1);
  CHECK(k.params[0]->type.extras[0]->text == "pl.NZ");
  const stmt& tile = *k.body[0];
  CHECK(tile.target->type.kind == type_kind::tile);
  CHECK(tile.target->type.dtype == "FP32");
  // The loop: pl.range with carried variables typed by their initial values.
  const stmt& loop = *k.body[1];
  REQUIRE(loop.kind == stmt_kind::for_range);
  REQUIRE(loop.loop);
  CHECK(loop.loop->iterator.empty());
  REQUIRE(loop.loop->carried.size() == 2);
  CHECK(loop.loop->carried[0]->type.kind == type_kind::tile);
  CHECK(same_type(loop.loop->carried[1]->type, type::scalar("INDEX")));
  REQUIRE(loop.loop->kwargs.size() == 1);
  CHECK(loop.loop->kwargs[0].name == "init_values");
  // The if: a block per branch, the elif an if alone in the else branch, flagged.
  const stmt& iff = *loop.body[0];
  REQUIRE(iff.kind == stmt_kind::if_stmt);
  REQUIRE(iff.body.size() == 2);
  CHECK(iff.body[0]->kind == stmt_kind::block);
  REQUIRE(iff.body[1]->body.size() == 1);
  const stmt& elif = *iff.body[1]->body[0];
  CHECK(elif.kind == stmt_kind::if_stmt);
  CHECK((elif.flags & stmt_flags::elif) != 0);
  CHECK(elif.body[0]->body[1]->kind == stmt_kind::continue_stmt);
  CHECK(elif.body[1]->body[1]->kind == stmt_kind::break_stmt);
  // Conditions: `i == 0 and not n > 2` is and(eq, not(gt)).
  const expr& cond = *iff.value;
  CHECK(cond.kind == expr_kind::boolean);
  CHECK(bool_op_of(cond) == bool_op::and_);
  CHECK(bool_op_of(*cond.args[1]) == bool_op::not_);
  CHECK(bool_op_of(*cond.args[1]->args[0]) == bool_op::gt);
  CHECK(same_type(type_of(cond), type::scalar("BOOL")));
  // Literals: floats as written, integers with their value and spelling.
  const expr& hex = *elif.value->args[1]->args[1];
  CHECK(hex.kind == expr_kind::int_const);
  CHECK(hex.value == 31);
  CHECK(hex.text == "0x1F");
  const expr& flt = *iff.body[0]->body[0]->value->args[1];
  CHECK(flt.kind == expr_kind::float_const);
  CHECK(flt.text == "1.5e-3");
  // The tuple assignment of a yield.
  const stmt& ta = *loop.body[1];
  REQUIRE(ta.kind == stmt_kind::tuple_assign);
  CHECK(ta.targets.size() == 2);
  // The with scope and its `as` target; pl.parallel and pl.spmd loops.
  const stmt& w = *k.body[2];
  CHECK(w.kind == stmt_kind::with_scope);
  CHECK(w.value->text == "pl.at");
  CHECK(w.target->name == "tid");
  CHECK(k.body[3]->loop->iterator == "pl.parallel");
  CHECK(k.body[3]->loop->kwargs[0].name == "chunk");
  CHECK(k.body[4]->loop->iterator == "pl.spmd");
  CHECK(k.body[4]->stop->value == 4);
}

TEST_CASE("tuple targets in parentheses print as written and are the same assignment") {
  const std::string paren = prog("T",
      "    @pl.function\n"
      "    def f(self, x: pl.Tensor[[4], pl.FP32]):\n"
      "        for i, (acc,) in pl.range(3, init_values=(x,)):\n"
      "            (r,) = pl.yield_(acc)\n"
      "        (a, b) = pl.pair(r)\n"
      "        return r, a, b\n");
  check_fixed_point(paren);
  std::string bare = paren;
  bare.replace(bare.find("(r,) ="), 6, "r, =");
  bare.replace(bare.find("(a, b) ="), 8, "a, b =");
  check_fixed_point(bare);
  CHECK(structural_equal(parse_ok(paren), parse_ok(bare)));
  // The yield in parentheses is a yield: `r` is seen after the loop, `acc` is not.
  const program p = parse_ok(paren);
  CHECK((p.functions[0]->body[0]->body[0]->flags & stmt_flags::parenthesized) != 0);
  CHECK(error_of(prog("T", "    @pl.function\n    def f(self, x):\n        (a, a) = x\n")) ==
        "e.py:9:13: error: duplicate assignment target 'a'");
  // `(a, b)` not followed by `=` is an expression statement (a tuple).
  check_fixed_point(prog("T", "    @pl.function\n    def f(self, x):\n        (x, x)\n"));
}

TEST_CASE("the boolean levels cost no nesting depth: parentheses nest as deep as before them") {
  // One depth level for each expression and one for each unary: 98 parentheses read, 99 are
  // one too many, at the same token as before comparisons and boolean operators were read.
  auto nested = [](int n) {
    return prog("D", "    @pl.function\n    def f(self):\n        x = " + std::string(static_cast<std::size_t>(n), '(') + "1" +
                         std::string(static_cast<std::size_t>(n), ')') + "\n        return x\n");
  };
  CHECK(error_of(nested(98)) == "(no error)");
  CHECK(error_of(nested(99)) == "e.py:9:112: error: nesting too deep");
  CHECK(error_of(nested(98).replace(nested(98).find("x = ") + 4, 0, "not ")) == "(no error)");
}

TEST_CASE("Python's number forms: values, spellings, and what is not a number") {
  for (const auto& row : std::vector<std::pair<std::string, std::int64_t>>{
           {"0x1f", 31}, {"0X_FF", 255}, {"0o17", 15}, {"0b101", 5}, {"1_000_000", 1000000}, {"0_0", 0},
           {"-0x8000000000000000", std::numeric_limits<std::int64_t>::min()}}) {
    // Named copies, not a structured binding: clang++ 14 cannot capture a binding (CAPTURE).
    const std::string& lit = row.first;
    const std::int64_t value = row.second;
    CAPTURE(lit);
    program p = parse_ok(prog("N", "    @pl.function\n    def f(self):\n        x = " + lit + "\n        return x\n"));
    const expr& e = *p.functions[0]->body[0]->value;
    CHECK(e.kind == expr_kind::int_const);
    CHECK(e.value == value);
    CHECK(e.text == lit);
  }
  for (std::string lit : {"1.0", "2.", "1e5", "1.5E-3", "00.5", "1_0.2_5"}) {
    CAPTURE(lit);
    check_fixed_point(prog("F", "    @pl.function\n    def f(self):\n        x = " + lit + "\n        return x\n"));
  }
  for (std::string lit : {"2j", "1__0", "0x", "1e", "09", "0b2", "1.2.3", "0x1G", "1_"}) {
    CAPTURE(lit);
    CHECK(error_of(prog("F", "    @pl.function\n    def f(self):\n        x = " + lit + "\n        return x\n")) ==
          "e.py:9:13: error: invalid number literal (integers: 12, 0x1F, 0o17, 0b101, 1_000; floats: 1.0, 1e-3)");
  }
  CHECK(error_of(prog("F", "    @pl.function\n    def f(self):\n        x = 0x8000000000000000\n        return x\n")) ==
        "e.py:9:13: error: integer literal out of range");
}

TEST_CASE("scoping as pypto's parser scopes: what a block leaves to the code after it") {
  // A plain loop, an if's branches and a with scope leave every binding (Python's rule).
  program p = parse_ok(prog("S",
      "    @pl.function\n"
      "    def f(self, c: pl.Scalar[pl.BOOL]):\n"
      "        for i in pl.range(4):\n"
      "            x = i\n"
      "        with pl.at(level=pl.Level.CORE_GROUP):\n"
      "            y = x\n"
      "        if c:\n"
      "            z = y\n"
      "        return i, x, y, z\n"));
  const auto& body = p.functions[0]->body;
  const auto& ret = *body.back();
  CHECK(ret.values[0]->ref == body[0]->target.get());
  CHECK(ret.values[1]->ref == body[0]->body[0]->target.get());
  CHECK(ret.values[2]->ref == body[1]->body[0]->target.get());
  CHECK(ret.values[3]->ref == body[2]->body[0]->body[0]->target.get());

  // An else branch does not see its then branch's bindings; after the if, the last branch's wins.
  program q = parse_ok(prog("E",
      "    @pl.function\n"
      "    def f(self, c: pl.Scalar[pl.BOOL], a: pl.Scalar[pl.INDEX]):\n"
      "        x = a\n"
      "        if c:\n"
      "            x = 1\n"
      "        else:\n"
      "            y = x\n"
      "            x = 2\n"
      "        return x, y\n"));
  const auto& qb = q.functions[0]->body;
  const stmt& orelse = *qb[1]->body[1];
  CHECK(orelse.body[0]->value->ref == qb[0]->target.get());
  CHECK(qb[2]->values[0]->ref == orelse.body[1]->target.get());
  CHECK(print_program(q) == prog("E",
      "    @pl.function\n"
      "    def f(self, c: pl.Scalar[pl.BOOL], a: pl.Scalar[pl.INDEX]):\n"
      "        x = a\n"
      "        if c:\n"
      "            x_1 = 1\n"
      "        else:\n"
      "            y = x\n"
      "            x_2 = 2\n"
      "        return x_2, y\n"));

  // A block that yields leaves only the names it yields to; a loop with carried variables and
  // no yield leaves nothing, its carried variables included.
  CHECK(error_of(prog("Y",
            "    @pl.function\n"
            "    def f(self, x: pl.Tensor[[4], pl.FP32]):\n"
            "        for i, (acc,) in pl.range(3, init_values=(x,)):\n"
            "            w = pl.add(acc, acc)\n"
            "            r = pl.yield_(w)\n"
            "        return r, w\n")) == "e.py:12:19: error: undefined variable 'w'");
  CHECK(error_of(prog("Y",
            "    @pl.function\n"
            "    def f(self, x: pl.Tensor[[4], pl.FP32]):\n"
            "        for i, (acc,) in pl.range(3, init_values=(x,)):\n"
            "            w = pl.add(acc, acc)\n"
            "        return acc\n")) == "e.py:11:16: error: undefined variable 'acc'");
  CHECK(error_of(prog("Y",
            "    @pl.function\n"
            "    def f(self, c: pl.Scalar[pl.BOOL]):\n"
            "        if c:\n"
            "            v = 1\n"
            "            u = pl.yield_(v)\n"
            "        else:\n"
            "            u = pl.yield_(2)\n"
            "        return u, v\n")) == "e.py:14:19: error: undefined variable 'v'");
}

TEST_CASE("comparisons and boolean operators built without flags print with the parentheses Python needs") {
  auto v = [](var* x) { return make_var_ref(x); };
  auto a = make_var("a", type::scalar("INDEX"));
  auto b = make_var("b", type::scalar("INDEX"));
  auto c = make_var("c", type::scalar("BOOL"));
  struct built {
    expr_ptr e;
    std::string text;
  };
  std::vector<built> cases;
  cases.push_back({make_bool_op(bool_op::eq, make_bool_op(bool_op::lt, v(a.get()), v(b.get())), v(c.get())), "(a < b) == c"});
  cases.push_back({make_bool_op(bool_op::not_, make_bool_op(bool_op::and_, v(c.get()), v(c.get())), nullptr), "not (c and c)"});
  cases.push_back({make_bool_op(bool_op::and_, make_bool_op(bool_op::or_, v(c.get()), v(c.get())), v(c.get())), "(c or c) and c"});
  cases.push_back({make_bool_op(bool_op::or_, v(c.get()), make_bool_op(bool_op::or_, v(c.get()), v(c.get()))), "c or (c or c)"});
  cases.push_back({make_bool_op(bool_op::or_, make_bool_op(bool_op::or_, v(c.get()), v(c.get())), v(c.get())), "c or c or c"});
  cases.push_back({make_bool_op(bool_op::ge, make_arith(arith_op::add, v(a.get()), make_int(1)), make_float("2.5")), "a + 1 >= 2.5"});
  cases.push_back({make_arith(arith_op::neg, make_bool_op(bool_op::ne, v(a.get()), v(b.get())), nullptr), "-(a != b)"});
  cases.push_back({make_bool_op(bool_op::not_, make_bool_op(bool_op::not_, v(c.get()), nullptr), nullptr), "not not c"});
  cases.push_back({make_bool_op(bool_op::le, make_bool_op(bool_op::not_, v(c.get()), nullptr), v(c.get())), "(not c) <= c"});
  for (auto& row : cases) {
    auto& e = row.e;
    const std::string& text = row.text;
    CAPTURE(text);
    program p;
    auto f = std::make_unique<function>();
    f->name = "f";
    f->params.push_back(make_var("a", type::scalar("INDEX")));
    f->params.push_back(make_var("b", type::scalar("INDEX")));
    f->params.push_back(make_var("c", type::scalar("BOOL")));
    // Rebind the expression's variables to the function's parameters.
    auto rebind = [&](auto& self, expr& x) -> void {
      if (x.kind == expr_kind::var_ref) x.ref = x.ref == a.get() ? f->params[0].get() : x.ref == b.get() ? f->params[1].get() : f->params[2].get();
      for (auto& arg : x.args)
        if (arg) self(self, *arg);
    };
    rebind(rebind, *e);
    std::vector<expr_ptr> values;
    values.push_back(std::move(e));
    f->body.push_back(make_return(std::move(values)));
    p.functions.push_back(std::move(f));
    const std::string out = print_program(p);
    CHECK(out == prog("Program", "    @pl.function\n    def f(self, a: pl.Scalar[pl.INDEX], b: pl.Scalar[pl.INDEX], c: pl.Scalar[pl.BOOL]):\n        return " + text + "\n"));
    CHECK(structural_equal(parse_ok(out), p));
  }
}

TEST_CASE("structural equality: iterators, loop keywords, extras and decorator keywords count; elif is spelling") {
  const std::string base = print_program(parse_ok(kernel));
  auto differs = [&](std::string_view from, std::string_view to) {
    std::string t = base;
    const auto at = t.find(from);
    REQUIRE(at != std::string::npos);
    t.replace(at, from.size(), to);
    return !structural_equal(parse_ok(base), parse_ok(t)) && structural_hash(parse_ok(base)) != structural_hash(parse_ok(t));
  };
  CHECK(differs("pl.parallel(0, 8, 2, chunk=2)", "pl.unroll(0, 8, 2, chunk=2)"));
  CHECK(differs("chunk=2", "chunk=3"));
  CHECK(differs("pl.Mem.Vec", "pl.Mem.Mat"));
  CHECK(differs(", pl.NZ]", "]"));
  CHECK(differs("strict_ssa=True", "strict_ssa=False"));
  CHECK(differs("{\"split\": pl.SplitMode.UP_DOWN}", "{\"split\": pl.SplitMode.NONE}"));
  CHECK(differs("pl.Tile[[64], pl.FP32, pl.Mem.Vec]", "pl.Tensor[[64], pl.FP32, pl.Mem.Vec]"));
  CHECK(differs("1.5e-3", "1.5e-4"));
  CHECK(differs("i < 2", "i <= 2"));
  CHECK(differs("continue", "break"));
  CHECK(differs(" as tid", ""));
  // `elif c:` and `else:` holding `if c:` are the same program.
  const std::string elif = prog("E",
      "    @pl.function\n    def f(self, c: pl.Scalar[pl.BOOL]):\n"
      "        if c:\n            pass\n        elif c:\n            pass\n");
  const std::string nested = prog("E",
      "    @pl.function\n    def f(self, c: pl.Scalar[pl.BOOL]):\n"
      "        if c:\n            pass\n        else:\n            if c:\n                pass\n");
  check_fixed_point(elif);
  check_fixed_point(nested);
  CHECK(structural_equal(parse_ok(elif), parse_ok(nested)));
}

TEST_CASE("clone copies the device forms: carried variables, tuple targets, with targets, extras, options") {
  program p = parse_ok(kernel);
  program q = clone(p);
  CHECK(structural_equal(p, q));
  CHECK(print_program(q) == print_program(p));
  // The copy's carried variable is its own, and its uses point at it.
  const stmt& loop = *q.functions[0]->body[1];
  CHECK(loop.loop->carried[0].get() != p.functions[0]->body[1]->loop->carried[0].get());
  const expr& use = *loop.body[0]->body[0]->body[0]->value->args[0];
  CHECK(use.ref == loop.loop->carried[0].get());
  CHECK(q.functions[0]->body[0]->target->type.extras[0].get() != p.functions[0]->body[0]->target->type.extras[0].get());
}

TEST_CASE("pl.while_ loops: carried variables alone, a while loop to the passes") {
  const std::string text = prog("W",
      "    @pl.function(strict_ssa=True)\n"
      "    def main(self, n: pl.Scalar[pl.INT64]) -> pl.Scalar[pl.INT64]:\n"
      "        x_0: pl.Scalar[pl.INT64] = 0\n"
      "        for (x,) in pl.while_(init_values=(x_0,)):\n"
      "            pl.cond(x < n)\n"
      "            x_1 = pl.yield_(x + 1)\n"
      "        for a, b in pl.while_(init_values=(x_1, 1)):\n"
      "            pl.cond(a < n)\n"
      "            a_1, b_1 = pl.yield_(a + 1, b * 2)\n"
      "        for c in pl.while_(init_values=(b_1,)):\n"
      "            pl.cond(c < 100)\n"
      "            c_1 = pl.yield_(c * 2)\n"
      "        return c_1\n");
  check_fixed_point(text);
  program p = parse_ok(text);
  const function& f = *p.functions[0];
  REQUIRE(f.body.size() == 5);
  for (std::size_t k = 1; k <= 3; ++k) {
    CAPTURE(k);
    const stmt& loop = *f.body[k];
    CHECK(loop.kind == stmt_kind::for_range);
    CHECK_FALSE(loop.target);
    CHECK_FALSE(loop.start);
    CHECK_FALSE(loop.stop);
    CHECK_FALSE(loop.step);
    REQUIRE(loop.loop);
    CHECK(loop.loop->iterator == "pl.while_");
    REQUIRE(loop.loop->kwargs.size() == 1);
    CHECK(loop.loop->kwargs[0].name == "init_values");
    CHECK(((loop.flags & stmt_flags::parenthesized) != 0) == (k == 1));
  }
  CHECK(f.body[2]->loop->carried.size() == 2);
  CHECK(f.body[2]->loop->carried[0]->name == "a");
  CHECK(same_type(f.body[2]->loop->carried[1]->type, type::scalar("INDEX")));  // typed by its initial value, 1
  // The carried variables are the body's, typed by their initial values; after the loop only
  // the yield targets are visible (a loop with carried variables leaves nothing else).
  CHECK(f.body[1]->body[0]->value->args[0]->args[0]->ref == f.body[1]->loop->carried[0].get());
  CHECK(error_of(prog("W", "    @pl.function\n    def f(self, n):\n        for (x,) in pl.while_(init_values=(n,)):\n"
                           "            pl.cond(x < n)\n            y = pl.yield_(x)\n        return x\n")) ==
        "e.py:12:16: error: undefined variable 'x'");

  // Through the host concept: a while loop whose operands are its initial values.
  using tr = host_traits<program>;
  CHECK(tr::stmt_kind(p, f.body[1].get()) == host_stmt_kind::while_loop);
  const auto ops = tr::operands(p, f.body[1].get());
  REQUIRE(ops.size() == 1);
  CHECK(ops[0] == f.body[1]->loop->kwargs[0].value.get());

  // Parentheses are spelling: `for (c,) in` is `for c in`.
  std::string paren = text;
  paren.replace(paren.find("for c in"), 8, "for (c,) in");
  const program q = parse_ok(paren);
  CHECK(structural_equal(p, q));
  CHECK(structural_hash(p) == structural_hash(q));
  CHECK(print_program(q) == paren);
  const program c = clone(p);
  CHECK(print_program(c) == text);

  const auto loop_error = [](std::string_view header_line) {
    return error_of(prog("W", "    @pl.function\n    def f(self, n):\n        " + std::string(header_line) +
                                  "\n            pass\n        return n\n"));
  };
  CHECK(loop_error("for (x,) in pl.range(4, init_values=(n,)):") ==
        "e.py:9:13: error: only a pl.while_ loop carries all its variables: write for i, (x, ...) in pl.range(...)");
  CHECK(loop_error("for x, y in pl.parallel(4, init_values=(n, n)):") ==
        "e.py:9:13: error: only a pl.while_ loop carries all its variables: write for i, (x, ...) in pl.parallel(...)");
  CHECK(loop_error("for (x,) in pl.while_(4):") ==
        "e.py:9:31: error: pl.while_ takes keyword arguments only (init_values=(...))");
  CHECK(loop_error("for (x, y) in pl.while_(init_values=(n,)):") ==
        "e.py:9:45: error: init_values has 1 value for 2 carried variables");
  CHECK(loop_error("for x in pl.while_(stage=2):") ==
        "e.py:9:18: error: a loop with carried variables needs init_values=(...), one value each");
  CHECK(loop_error("for x in pl.while_(init_values=(n,), var_type=pl.Scalar[pl.INT64]):") ==
        "e.py:9:74: error: pl.while_ has no loop variable to give var_type=");
  CHECK(loop_error("for (x, x) in pl.while_(init_values=(n, n)):") == "e.py:9:17: error: duplicate loop variable 'x'");
}

TEST_CASE("the host concept's view: device forms are `other` statements, every loop a for_range") {
  using tr = host_traits<program>;
  program p = parse_ok(kernel);
  const function& k = *p.functions[0];
  const stmt& loop = *k.body[1];
  CHECK(tr::stmt_kind(p, const_cast<stmt*>(&loop)) == host_stmt_kind::for_range);
  // The loop's operands: start, stop, step, then its keyword arguments' values (init_values=).
  auto ops = tr::operands(p, const_cast<stmt*>(&loop));
  REQUIRE(ops.size() == 4);
  CHECK(ops[3] == loop.loop->kwargs[0].value.get());
  CHECK(tr::stmt_kind(p, k.body[3].get()) == host_stmt_kind::for_range);  // pl.parallel
  CHECK(tr::stmt_kind(p, k.body[4].get()) == host_stmt_kind::for_range);  // pl.spmd
  for (const stmt* s : {k.body[2].get(), loop.body[0].get(), loop.body[0]->body[0].get(), loop.body[1].get()}) {
    CHECK(tr::stmt_kind(p, const_cast<stmt*>(s)) == host_stmt_kind::other);
    // An other statement's operands are its expression; its body is visited like any block.
    CHECK(tr::operands(p, const_cast<stmt*>(s)).size() == (s->value ? 1u : 0u));
  }
  CHECK(tr::expr_kind(p, loop.body[0]->value.get()) == host_expr_kind::other);
  CHECK(tr::children(p, loop.body[0]->value.get()).size() == 2);
}

}  // namespace
