// Tests for neuronrw/ir/host/text.hpp: what the printer writes for each form (exact text), that
// the parser reads what users write, and that printing is deterministic.
#include <neuronrw/detail/string_literal.hpp>
#include <neuronrw/ir/host/hash.hpp>
#include <neuronrw/ir/host/text.hpp>

#include <doctest/doctest.h>

#include "support/host_parse.hpp"

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace neuronrw;
using namespace neuronrw::host;

constexpr std::string_view header =
    "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n\n@pl.program\n";

/// Wraps function text (already indented by 4) into a program.
std::string prog(std::string_view cls, std::string_view functions) {
  return std::string(header) + "class " + std::string(cls) + ":\n" + std::string(functions);
}

using neuronrw::testing::host::check_fixed_point;
using neuronrw::testing::host::parse_ok;


TEST_CASE("a user program prints in its plain form") {
  const std::string text = prog("TP",
      "    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
      "    def chip_fn(self, x: pld.DistributedTensor[[256], pl.FP32]):\n"
      "        return x\n"
      "\n"
      "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "    def main(self):\n"
      "        buf = pld.tensor.alloc_window_buffer(1024, name=\"buf\")\n"
      "        v = pld.tensor.window(buf, [256], dtype=pl.FP32)\n"
      "        for r in pl.range(pld.system.world_size()):\n"
      "            self.chip_fn(v, device=r)\n");
  check_fixed_point(text);
}

TEST_CASE("comments, blank lines, single quotes and trailing commas are read, then normalized") {
  const std::string in =
      "# leading comment\n"
      "import pypto.language as pl\n"
      "\n"
      "@pl.program\n"
      "class P:  # the class\n"
      "\n"
      "    @pl.function(role=pl.Role.Worker,)\n"
      "    def f(self, a: pl.Tensor[[4, 2,], pl.FP32,],):\n"
      "        # a comment line\n"
      "        x = pl.op.thing(\n"
      "            a,\n"
      "            'q',\n"
      "            k=[1, 2,],\n"
      "        )\n"
      "\n"
      "        return x\n";
  program p = parse_ok(in);
  CHECK(print_program(p) == prog("P",
      "    @pl.function(role=pl.Role.Worker)\n"
      "    def f(self, a: pl.Tensor[[4, 2], pl.FP32]):\n"
      "        x = pl.op.thing(a, \"q\", k=[1, 2])\n"
      "        return x\n"));
}

TEST_CASE("statement forms") {
  check_fixed_point(prog("S",
      "    @pl.function\n"
      "    def f(self, n: pl.Scalar[pl.INDEX], t) -> pl.Tensor[[n, 4], pl.FP32]:\n"
      "        a = 3\n"
      "        b = -9223372036854775808\n"
      "        c: pl.Tensor[[n, 4], pl.FP32] = pld.thing.make(n)\n"
      "        for i in pl.range(n):\n"
      "            pass\n"
      "        for j in pl.range(2, n):\n"
      "            pld.x.y(j)\n"
      "        for k in pl.range(0, 10, 3):\n"
      "            pld.x.y(k)\n"
      "        for q in pl.range(5, 9, var_type=pl.Scalar[pl.INT32]):\n"
      "            pld.x.y(q)\n"
      "        while True:\n"
      "            d = None\n"
      "            e = [a, \"s\", False, pl.FP32, [None]]\n"
      "            return\n"
      "        return c, a\n"));
}

TEST_CASE("pl.range defaults: the printer writes the shortest equivalent form") {
  program p = parse_ok(prog("R",
      "    @pl.function\n"
      "    def f(self):\n"
      "        for i in pl.range(0, 4):\n"
      "            pass\n"
      "        for j in pl.range(0, 4, 1):\n"
      "            pass\n"
      "        for k in pl.range(1, 4, 1):\n"
      "            pass\n"));
  CHECK(print_program(p) == prog("R",
      "    @pl.function\n"
      "    def f(self):\n"
      "        for i in pl.range(4):\n"
      "            pass\n"
      "        for j in pl.range(4):\n"
      "            pass\n"
      "        for k in pl.range(1, 4):\n"
      "            pass\n"));
}

TEST_CASE("calls: keyword arguments, attributes, device=, and pl._dump.call when the plain form would lose something") {
  check_fixed_point(prog("C",
      "    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
      "    def chip(self, a):\n"
      "        return a\n"
      "\n"
      "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "    def main(self):\n"
      "        x = pld.op.a(1, 2, k=3, attrs={\"hint\": \"fast\", \"n\": -1})\n"
      "        self.chip(x, device=0, attrs={\"prio\": 2})\n"
      "        self.chip(x, attrs={\"prio\": 2, \"device\": 1})\n"
      "        self.chip(x, flag=True)\n"
      "        y = pl._dump.call(\"pld.op.a\", [x], pl.Tensor[[4], pl.FP32])\n"
      "        z = pl._dump.call(self.chip, [x], pl.Ptr, kwargs={\"device\": 3})\n"
      "        w = pl._dump.call(\"not dotted\", [], pl.UnknownType, kwargs={\"attrs\": 1}, attrs={\"a\": 2})\n"
      "        u = pl._dump.call(\"pl._dump.call\", [], pl.UnknownType)\n"));
}

TEST_CASE("a variable whose type differs from its value's is annotated; the annotation wins on parse") {
  program p = parse_ok(prog("A",
      "    @pl.function\n"
      "    def f(self):\n"
      "        x = pld.tensor.alloc_window_buffer(8, name=\"x\")\n"
      "        y: pl.Ptr = x\n"
      "        z: pl.Scalar[pl.INT8] = x\n"));
  const auto& body = p.functions[0]->body;
  CHECK(body[0]->target->type.kind == type_kind::ptr);
  CHECK(body[2]->target->type.kind == type_kind::scalar);
  // y's annotation repeats what the value gives, so it is not printed.
  CHECK(print_program(p) == prog("A",
      "    @pl.function\n"
      "    def f(self):\n"
      "        x = pld.tensor.alloc_window_buffer(8, name=\"x\")\n"
      "        y = x\n"
      "        z: pl.Scalar[pl.INT8] = x\n"));
}

TEST_CASE("strings and symbols that the plain syntax cannot carry") {
  program p;
  auto f = std::make_unique<function>();
  f->name = "f";
  std::vector<expr_ptr> args;
  args.push_back(make_str(std::string("q\"\\\n\t\r\x01\x7f\xc3\xa9", 10)));
  args.push_back(make_symbol("pl.FP32"));
  args.push_back(make_symbol("plain"));
  args.push_back(make_symbol("pl._dump.x"));
  f->body.push_back(make_expr_stmt(make_call(callee_kind::op, "pld.x.y", std::move(args))));
  p.functions.push_back(std::move(f));
  const std::string text = print_program(p);
  CHECK(text == prog("Program",
      "    @pl.function\n"
      "    def f(self):\n"
      "        pld.x.y(\"q\\\"\\\\\\n\\t\\r\\x01\\x7f\xc3\xa9\", pl.FP32, pl._dump.symbol(\"plain\"), "
      "pl._dump.symbol(\"pl._dump.x\"))\n"));
  program q = parse_ok(text);
  CHECK(structural_equal(p, q));
  CHECK(q.functions[0]->body[0]->value->args[0]->text == std::string("q\"\\\n\t\r\x01\x7f\xc3\xa9", 10));
}

TEST_CASE("python_string_literal: the one Python escaper, either quote") {
  // The host printer writes double-quoted literals, the composite emitter single-quoted ones;
  // both are this function (neuronrw/detail/string_literal.hpp).
  const std::string s("q'\"\\\n\t\r\x01\x7f\xc3\xa9", 11);
  CHECK(neuronrw::detail::python_string_literal(s, '"') ==
        "\"q'\\\"\\\\\\n\\t\\r\\x01\\x7f\xc3\xa9\"");
  CHECK(neuronrw::detail::python_string_literal(s) == "'q\\'\"\\\\\\n\\t\\r\\x01\\x7f\xc3\xa9'");
  CHECK(neuronrw::detail::python_string_literal("") == "''");
  // Every byte reads back through the host lexer, in a double-quoted literal (the printer's).
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  program p;
  auto f = std::make_unique<function>();
  f->name = "f";
  std::vector<expr_ptr> args;
  args.push_back(make_str(all));
  f->body.push_back(make_expr_stmt(make_call(callee_kind::op, "pld.x.y", std::move(args))));
  p.functions.push_back(std::move(f));
  const std::string text = print_program(p);
  CHECK(text.find(neuronrw::detail::python_string_literal(all, '"')) != std::string::npos);
  program q = parse_ok(text);
  CHECK(q.functions[0]->body[0]->value->args[0]->text == all);
}

TEST_CASE("variables that share a name are told apart; reserved and odd names are made printable") {
  program p;
  auto f = std::make_unique<function>();
  f->name = "f";
  auto a1 = make_var("x", type::scalar("INDEX"));
  auto a2 = make_var("x", type::scalar("INDEX"));
  auto a3 = make_var("x_1", type::scalar("INDEX"));
  auto kw = make_var("for", type::scalar("INDEX"));
  auto odd = make_var("9 lives", type::scalar("INDEX"));
  var *p1 = a1.get(), *p2 = a2.get(), *p3 = a3.get(), *pk = kw.get(), *po = odd.get();
  f->body.push_back(make_assign(std::move(a1), make_int(1)));
  f->body.push_back(make_assign(std::move(a2), make_var_ref(p1)));
  f->body.push_back(make_assign(std::move(a3), make_var_ref(p2)));
  f->body.push_back(make_assign(std::move(kw), make_var_ref(p3)));
  f->body.push_back(make_assign(std::move(odd), make_var_ref(pk)));
  std::vector<expr_ptr> rv;
  rv.push_back(make_var_ref(po));
  f->body.push_back(make_return(std::move(rv)));
  p.functions.push_back(std::move(f));
  const std::string text = print_program(p);
  CHECK(text == prog("Program",
      "    @pl.function\n"
      "    def f(self):\n"
      "        x = 1\n"
      "        x_1 = x\n"
      "        x_1_1 = x_1\n"
      "        for_ = x_1_1\n"
      "        v9_lives = for_\n"
      "        return v9_lives\n"));
  CHECK(structural_equal(p, parse_ok(text)));
}

TEST_CASE("the materialized state: scopes, WindowBuffers, labels, and shared-base windows printed twice identically") {
  program p;
  auto f = std::make_unique<function>();
  f->name = "main";
  f->level = "HOST";
  f->role = "Orchestrator";
  auto alloc = make_call(callee_kind::op, "pld.tensor.alloc_window_buffer", {});
  alloc->args.push_back(make_int(16));
  alloc->call->kwargs.push_back(make_keyword("name", make_str("buf")));
  alloc->call->type = type::ptr();
  auto bv = make_var("buf", type::ptr());
  var* buf = bv.get();
  // Two distinct WindowBuffers on the same base, and one on none.
  auto w1 = std::make_shared<window_buffer>();
  w1->base = buf;
  w1->size = make_int(16);
  auto w2 = std::make_shared<window_buffer>();
  w2->base = buf;
  w2->size = make_var_ref(buf);
  w2->load_from_host = true;
  auto w3 = std::make_shared<window_buffer>();
  auto v1 = make_var("v", type::distributed({{4, nullptr}}, "FP32", w1));
  auto v2 = make_var("u", type::distributed({{4, nullptr}}, "FP32", w2));
  auto v3 = make_var("t", type::distributed({{4, nullptr}}, "FP32", w3));
  std::vector<stmt_ptr> inner;
  inner.push_back(make_assign(std::move(bv), std::move(alloc)));
  inner.push_back(make_assign(std::move(v1), make_none()));
  inner.push_back(make_assign(std::move(v2), make_none()));
  inner.push_back(make_assign(std::move(v3), make_none()));
  std::vector<keyword> attrs;
  attrs.push_back(make_keyword("kind", make_str("tp")));
  attrs.push_back(make_keyword("n", make_int(-1)));
  auto s1 = make_scope("comm_d1", {3}, {w2, nullptr}, {}, std::move(inner));
  std::vector<stmt_ptr> outer;
  outer.push_back(std::move(s1));
  f->body.push_back(make_scope("comm_d0", {}, {w1}, std::move(attrs), std::move(outer)));
  f->body.push_back(make_scope("", {0, 1}, {}, {}, {}));
  p.functions.push_back(std::move(f));

  const std::string text = print_program(p);
  CHECK(text == prog("Program",
      "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "    def main(self):\n"
      "        pl._dump.window_buffer(\"buf_window\", base=\"buf\", size=16, load_from_host=False, store_to_host=False)\n"
      "        pl._dump.window_buffer(\"buf_window_1\", base=\"buf\", size=buf, load_from_host=True, store_to_host=False)\n"
      "        pl._dump.window_buffer(\"window\", base=None, size=None, load_from_host=False, store_to_host=False)\n"
      "        with pl._dump.comm_domain(name=\"comm_d0\", devices=[], slots=[pl._dump.window_ref(\"buf_window\")], "
      "attrs={\"kind\": \"tp\", \"n\": -1}):\n"
      "            with pl._dump.comm_domain(name=\"comm_d1\", devices=[3], slots=[pl._dump.window_ref(\"buf_window_1\"), "
      "None], attrs={}):\n"
      "                buf = pld.tensor.alloc_window_buffer(16, name=\"buf\")\n"
      "                v: pld.DistributedTensor[[4], pl.FP32, pl._dump.window_ref(\"buf_window\")] = None\n"
      "                u: pld.DistributedTensor[[4], pl.FP32, pl._dump.window_ref(\"buf_window_1\")] = None\n"
      "                t: pld.DistributedTensor[[4], pl.FP32, pl._dump.window_ref(\"window\")] = None\n"
      "        with pl._dump.comm_domain(name=\"\", devices=[0, 1], slots=[], attrs={}):\n"
      "            pass\n"));
  CHECK(print_program(p) == text);  // deterministic

  program q = parse_ok(text);
  CHECK(structural_equal(p, q));
  CHECK(structural_hash(p) == structural_hash(q));
  CHECK(print_program(q) == text);
  // The parsed program shares exactly what the original shares.
  const stmt& inner_scope = *q.functions[0]->body[0]->body[0];
  const var* qbuf = inner_scope.body[0]->target.get();
  const window_buffer* qw1 = inner_scope.body[1]->target->type.window.get();
  const window_buffer* qw2 = inner_scope.body[2]->target->type.window.get();
  CHECK(qw1 != qw2);
  CHECK(qw1->base == qbuf);
  CHECK(qw2->base == qbuf);
  CHECK(qw2->size->ref == qbuf);
  CHECK(inner_scope.scope->slots[0].get() == qw2);
  CHECK(inner_scope.scope->slots[1] == nullptr);
  CHECK(q.functions[0]->body[0]->scope->slots[0].get() == qw1);
  CHECK(qw2->load_from_host);
  CHECK(inner_scope.body[3]->target->type.window->base == nullptr);
}

TEST_CASE("pl._dump.alloc_window_buffer keeps an allocation name that differs from its variable") {
  const std::string text = prog("N",
      "    @pl.function\n"
      "    def f(self):\n"
      "        buf = pl._dump.alloc_window_buffer(64, name=\"weights\")\n"
      "        other = pld.tensor.alloc_window_buffer(8, name=\"other\")\n"
      "        pld.tensor.alloc_window_buffer(8, name=\"x\")\n");
  check_fixed_point(text);
  program p = parse_ok(text);
  const expr& e = *p.functions[0]->body[0]->value;
  CHECK(e.text == "pld.tensor.alloc_window_buffer");
  CHECK(e.call->kwargs[0].value->text == "weights");
  CHECK(e.call->type.kind == type_kind::ptr);
  // The user form with a name that differs from the variable prints as the dump form.
  program q = parse_ok(prog("N",
      "    @pl.function\n"
      "    def f(self):\n"
      "        buf = pld.tensor.alloc_window_buffer(64, name=\"weights\")\n"));
  CHECK(print_program(q).find("buf = pl._dump.alloc_window_buffer(64, name=\"weights\")") != std::string::npos);
}

TEST_CASE("an empty program and an empty function") {
  program p;
  p.name = "Empty";
  CHECK(print_program(p) == prog("Empty", "    pass\n"));
  CHECK(structural_equal(p, parse_ok(print_program(p))));
  auto f = std::make_unique<function>();
  f->name = "g";
  p.functions.push_back(std::move(f));
  CHECK(print_program(p) == prog("Empty", "    @pl.function\n    def g(self):\n        pass\n"));
}

TEST_CASE("locations point at the first token of each node") {
  program p = parse_ok(prog("L",
      "    @pl.function\n"
      "    def f(self, a):\n"
      "        x = pld.op.a(a, k=1)\n"
      "        self.f(x)\n"));
  const function& f = *p.functions[0];
  CHECK(f.loc == source_loc{7, 5});
  CHECK(f.params[0]->loc == source_loc{8, 17});
  CHECK(f.body[0]->loc == source_loc{9, 9});
  CHECK(f.body[0]->value->loc == source_loc{9, 13});
  CHECK(f.body[0]->value->args[0]->loc == source_loc{9, 22});
  CHECK(f.body[1]->value->loc == source_loc{10, 9});
  CHECK(p.file == "t.py");
}


// ------------------------------------------------------------------------------------- arithmetic

TEST_CASE("module constants evaluate // and % as Python does (floor division, the sign of the divisor)") {
  // Expected values from CPython 3 (`eval` of each expression).
  const std::pair<std::string_view, std::int64_t> cases[] = {
      {"-7 // 2", -4},
      {"-7 % 2", 1},
      {"7 % -2", -1},
      {"7 // -2", -4},
      {"-7 // -2", 3},
      {"-7 % -2", -1},
      {"7 // 2", 3},
      {"7 % 2", 1},
      {"-1 // 3", -1},
      {"-1 % 3", 2},
      {"1 // -3", -1},
      {"1 % -3", -2},
      {"0 // -5", 0},
      {"0 % -5", 0},
      {"-9223372036854775808 // 2", -4611686018427387904},
      {"-9223372036854775808 % 3", 1},
      {"-9223372036854775808 % -1", 0},  // INT64_MIN // -1 overflows; its remainder is 0
      {"9223372036854775807 // -1", -9223372036854775807},
      {"9223372036854775807 % -10", -3},
      {"-(7) // 2", -4},  // unary minus binds tighter than //
      {"-(7 // 2)", -3},
      {"-(-7) % 4", 3},
      {"(-7) % 4", 1},
      {"-7 % 4 * 2", 2},
      {"100 // 7 % 3", 2},
      {"2 + 3 * 4", 14},
      {"(2 + 3) * 4", 20},
      {"7 - 2 - 1", 4},
      {"7 - (2 - 1)", 6},
      {"-2 * -3", 6},
      {"-9223372036854775807 - 1", std::numeric_limits<std::int64_t>::min()},
  };
  std::string module;
  for (std::size_t i = 0; i < std::size(cases); ++i) module += "C" + std::to_string(i) + " = " + std::string(cases[i].first) + "\n";
  const std::string text = std::string(header.substr(0, header.find("\n\n"))) + "\n\n" + module + "\n\n@pl.program\nclass K:\n    pass\n";
  const program p = parse_ok(text);
  REQUIRE(p.constants.size() == std::size(cases));
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    CAPTURE(cases[i].first);
    CHECK(p.constants[i].name == "C" + std::to_string(i));
    CHECK(p.constants[i].evaluated == cases[i].second);
  }
  check_fixed_point(text);  // printed as written
  // A constant's uses carry its value; constants may use earlier ones.
  const program q = parse_ok(
      "N = -7\nQ = N // 2\nR = N % 2\nS = Q * 2 + R\n@pl.program\nclass K:\n    @pl.function\n    def f(self):\n        return Q, R\n");
  CHECK(q.constants[1].evaluated == -4);
  CHECK(q.constants[2].evaluated == 1);
  CHECK(q.constants[3].evaluated == -7);  // (a // b) * b + a % b == a
  CHECK(q.functions[0]->body[0]->values[0]->value == -4);
  CHECK(q.functions[0]->body[0]->values[1]->value == 1);
}

TEST_CASE("arithmetic as written: the parentheses given are kept, none is added") {
  check_fixed_point(prog("P",
      "    @pl.function\n"
      "    def f(self, a, b, c, n):\n"
      "        x1 = (a + b) * c\n"
      "        x2 = a + b * c\n"
      "        x3 = -(n)\n"
      "        x4 = -n\n"
      "        x5 = a - (b - c)\n"
      "        x6 = a - b - c\n"
      "        x7 = 2 * -3\n"
      "        x8 = a // (b * c)\n"
      "        x9 = a // b * c\n"
      "        x10 = -(a * b)\n"
      "        x11 = -a * b\n"
      "        x12 = a * -b\n"
      "        x13 = a - -3\n"
      "        x14 = --a\n"
      "        x15 = (a)\n"
      "        return (x1 + x2) % 3\n"));
  // `-(n)` is the negation of a parenthesized n; `-n` of a bare one: the same program.
  const program p = parse_ok(prog("P", "    @pl.function\n    def f(self, n):\n        return -(n)\n"));
  const program q = parse_ok(prog("P", "    @pl.function\n    def f(self, n):\n        return -n\n"));
  CHECK(structural_equal(p, q));
  CHECK(print_program(p) != print_program(q));
  // `-3` is the integer -3; `-(3)` negates the integer 3: two programs.
  const program m = parse_ok(prog("P", "    @pl.function\n    def f(self):\n        return -3\n"));
  const program n = parse_ok(prog("P", "    @pl.function\n    def f(self):\n        return -(3)\n"));
  CHECK(m.functions[0]->body[0]->values[0]->kind == expr_kind::int_const);
  CHECK(n.functions[0]->body[0]->values[0]->kind == expr_kind::arith);
  CHECK_FALSE(structural_equal(m, n));
}

namespace arith_build {
expr_ptr v(var* x) { return make_var_ref(x); }
expr_ptr i(std::int64_t x) { return make_int(x); }
expr_ptr bin(arith_op op, expr_ptr a, expr_ptr b) { return make_arith(op, std::move(a), std::move(b)); }
expr_ptr neg(expr_ptr a) { return make_arith(arith_op::neg, std::move(a), nullptr); }
/// The value of an integer tree, Python's way (no overflow in the values used here).
std::int64_t eval(const expr& e) {
  if (e.kind == expr_kind::int_const) return e.value;
  const std::int64_t a = eval(*e.args[0]);
  if (op_of(e) == arith_op::neg) return -a;
  if (op_of(e) == arith_op::pos) return a;
  if (op_of(e) == arith_op::invert) return -a - 1;
  const std::int64_t b = eval(*e.args[1]);
  switch (op_of(e)) {
    case arith_op::add: return a + b;
    case arith_op::sub: return a - b;
    case arith_op::mul: return a * b;
    case arith_op::floordiv: return a / b - ((a % b != 0 && ((a % b < 0) != (b < 0))) ? 1 : 0);
    case arith_op::mod: return (a % b != 0 && ((a % b < 0) != (b < 0))) ? a % b + b : a % b;
    case arith_op::pow: {
      std::int64_t r = 1;
      for (std::int64_t k = 0; k < b; ++k) r *= a;
      return r;
    }
    case arith_op::lshift: return a * (std::int64_t{1} << b);
    case arith_op::rshift: return a >= 0 ? a >> b : -((-a - 1) >> b) - 1;  // floor
    case arith_op::bitand_: return a & b;
    case arith_op::bitor_: return a | b;
    case arith_op::bitxor: return a ^ b;
    case arith_op::neg:
    case arith_op::pos:
    case arith_op::invert:
    case arith_op::truediv: break;
  }
  return 0;
}
}  // namespace arith_build

TEST_CASE("arithmetic built with make_arith (no flags) prints with exactly the parentheses Python needs") {
  using namespace arith_build;
  program p;
  p.name = "Built";
  auto f = std::make_unique<function>();
  f->name = "f";
  var* a = nullptr;
  var* b = nullptr;
  var* c = nullptr;
  for (auto [name, out] : {std::pair<const char*, var**>{"a", &a}, {"b", &b}, {"c", &c}}) {
    f->params.push_back(make_var(name, type::scalar("INDEX")));
    *out = f->params.back().get();
  }
  std::vector<expr_ptr> values;
  values.push_back(bin(arith_op::sub, v(a), bin(arith_op::sub, v(b), v(c))));             // a - (b - c)
  values.push_back(bin(arith_op::sub, bin(arith_op::sub, v(a), v(b)), v(c)));             // a - b - c
  values.push_back(bin(arith_op::mul, bin(arith_op::add, v(a), v(b)), v(c)));             // (a + b) * c
  values.push_back(bin(arith_op::add, v(a), bin(arith_op::mul, v(b), v(c))));             // a + b * c
  values.push_back(bin(arith_op::add, bin(arith_op::mul, v(a), v(b)), v(c)));             // a * b + c
  values.push_back(bin(arith_op::floordiv, v(a), bin(arith_op::mul, v(b), v(c))));        // a // (b * c)
  values.push_back(bin(arith_op::mul, bin(arith_op::floordiv, v(a), v(b)), v(c)));        // a // b * c
  values.push_back(bin(arith_op::mod, v(a), bin(arith_op::mod, v(b), v(c))));             // a % (b % c)
  values.push_back(bin(arith_op::add, v(a), bin(arith_op::add, v(b), v(c))));             // a + (b + c)
  values.push_back(neg(v(a)));                                                            // -a
  values.push_back(neg(bin(arith_op::add, v(a), v(b))));                                  // -(a + b)
  values.push_back(neg(bin(arith_op::mul, v(a), v(b))));                                  // -(a * b)
  values.push_back(bin(arith_op::mul, neg(v(a)), v(b)));                                  // -a * b
  values.push_back(bin(arith_op::mul, v(a), neg(v(b))));                                  // a * -b
  values.push_back(neg(neg(v(a))));                                                       // --a
  values.push_back(bin(arith_op::mul, i(2), i(-3)));                                      // 2 * -3
  values.push_back(bin(arith_op::sub, v(a), i(-3)));                                      // a - -3
  values.push_back(bin(arith_op::mul, i(-2), v(a)));                                      // -2 * a
  values.push_back(neg(i(-3)));                                                           // --3
  values.push_back(bin(arith_op::sub, i(0), bin(arith_op::sub, i(0), v(a))));             // 0 - (0 - a)
  values.push_back(make_tuple([&] {
    std::vector<expr_ptr> t;
    t.push_back(bin(arith_op::mul, bin(arith_op::sub, v(a), v(b)), bin(arith_op::add, v(b), v(c))));
    return t;
  }()));                                                                                  // ((a - b) * (b + c),)
  const std::vector<std::string> want = {"a - (b - c)", "a - b - c", "(a + b) * c", "a + b * c", "a * b + c",
                                         "a // (b * c)", "a // b * c", "a % (b % c)", "a + (b + c)", "-a",
                                         "-(a + b)", "-(a * b)", "-a * b", "a * -b", "--a", "2 * -3", "a - -3",
                                         "-2 * a", "--3", "0 - (0 - a)", "((a - b) * (b + c),)"};
  REQUIRE(values.size() == want.size());
  std::string body;
  for (std::size_t k = 0; k < values.size(); ++k) {
    body += "        x" + std::to_string(k) + " = " + want[k] + "\n";
    auto x = make_var("x" + std::to_string(k), type_of(*values[k]));
    f->body.push_back(make_assign(std::move(x), std::move(values[k])));
  }
  p.functions.push_back(std::move(f));
  const std::string text = print_program(p);
  CHECK(text == prog("Built", "    @pl.function\n    def f(self, a: pl.Scalar[pl.INDEX], b: pl.Scalar[pl.INDEX], "
                              "c: pl.Scalar[pl.INDEX]):\n" + body));
  const program q = parse_ok(text);
  CHECK(structural_equal(p, q));  // the same trees: every parenthesis the printer added was needed
  CHECK(structural_hash(p) == structural_hash(q));
  CHECK(print_program(q) == text);

  // Module constants built the same way: the reparse evaluates each to the value of its tree.
  program k;
  std::vector<expr_ptr> trees;
  trees.push_back(bin(arith_op::sub, i(10), bin(arith_op::sub, i(4), i(3))));                     // 10 - (4 - 3) = 9
  trees.push_back(bin(arith_op::floordiv, i(-7), bin(arith_op::mul, i(2), i(1))));                // -7 // (2 * 1) = -4
  trees.push_back(bin(arith_op::mul, bin(arith_op::floordiv, i(-7), i(2)), i(3)));                // -7 // 2 * 3 = -12
  trees.push_back(bin(arith_op::mod, i(-7), bin(arith_op::add, i(1), i(2))));                     // -7 % (1 + 2) = 2
  trees.push_back(neg(bin(arith_op::floordiv, i(7), i(2))));                                      // -(7 // 2) = -3
  trees.push_back(bin(arith_op::floordiv, neg(bin(arith_op::add, i(6), i(1))), i(2)));            // -(6 + 1) // 2 = -4
  trees.push_back(bin(arith_op::mul, bin(arith_op::add, i(1), i(2)), bin(arith_op::sub, i(3), i(4))));  // (1 + 2) * (3 - 4)
  trees.push_back(bin(arith_op::mod, bin(arith_op::mod, i(100), i(7)), i(3)));                    // 100 % 7 % 3 = 2
  trees.push_back(bin(arith_op::mod, i(100), bin(arith_op::mod, i(7), i(3))));                    // 100 % (7 % 3) = 0
  for (std::size_t n = 0; n < trees.size(); ++n) {
    const std::int64_t value = eval(*trees[n]);
    k.constants.push_back({"K" + std::to_string(n), std::move(trees[n]), value, {}});
  }
  const std::string ktext = print_program(k);
  CHECK(ktext == std::string(header.substr(0, header.find("\n\n"))) +
                     "\n\nK0 = 10 - (4 - 3)\nK1 = -7 // (2 * 1)\nK2 = -7 // 2 * 3\nK3 = -7 % (1 + 2)\nK4 = -(7 // 2)\n"
                     "K5 = -(6 + 1) // 2\nK6 = (1 + 2) * (3 - 4)\nK7 = 100 % 7 % 3\nK8 = 100 % (7 % 3)\n\n\n"
                     "@pl.program\nclass Program:\n    pass\n");
  const program kq = parse_ok(ktext);
  REQUIRE(kq.constants.size() == k.constants.size());
  for (std::size_t n = 0; n < k.constants.size(); ++n) {
    CAPTURE(n);
    CHECK(kq.constants[n].evaluated == k.constants[n].evaluated);
  }
  CHECK(kq.constants[0].evaluated == 9);
  CHECK(kq.constants[5].evaluated == -4);
  CHECK(structural_equal(k, kq));
}

// Was a bug (fixed): the negation of a non-negative
// integer literal built with make_arith (as host_traits::make_binary builds one) prints as `-3`,
// which the parser reads as the integer -3 (`unary := '-' INT`), not as a negation: the reparse
// is another structure. `-(3)` would read back as the same tree.
TEST_CASE("make_arith(neg, make_int(3)) round-trips") {
  using namespace arith_build;
  program p;
  p.constants.push_back({"A", neg(i(3)), -3, {}});
  auto f = std::make_unique<function>();
  f->name = "f";
  std::vector<expr_ptr> rv;
  rv.push_back(neg(i(0)));
  f->body.push_back(make_return(std::move(rv)));
  p.functions.push_back(std::move(f));
  const std::string text = print_program(p);
  const program q = parse_ok(text);
  INFO(text);
  CHECK(structural_equal(p, q));  // fails: `A = -3` and `return -0` read back as integers
}

}  // namespace

TEST_CASE("pypto's short spellings are the same ops, printed back as written") {
  const std::string text = prog("Short",
      "    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
      "    def chip_fn(self, x: pld.DistributedTensor[[256], pl.FP32]):\n"
      "        return x\n"
      "\n"
      "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "    def main(self):\n"
      "        buf = pld.alloc_window_buffer(1024, name=\"buf\")\n"
      "        v = pld.window(buf, [256], dtype=pl.FP32)\n"
      "        for r in pl.range(pld.world_size()):\n"
      "            self.chip_fn(v, device=r)\n");
  check_fixed_point(text);
  const program p = parse_ok(text);
  const function& main = *p.functions[1];
  const expr& alloc = *main.body[0]->value;
  CHECK(alloc.text == ops::alloc_window_buffer);
  CHECK(alloc.call->spelling == "pld.alloc_window_buffer");
  CHECK(alloc.call->type.kind == type_kind::ptr);
  const expr& view = *main.body[1]->value;
  CHECK(view.text == ops::window);
  CHECK(view.call->spelling == "pld.window");
  CHECK(view.call->type.kind == type_kind::distributed_tensor);
  CHECK(main.body[2]->stop->text == ops::world_size);
  // The same program in the full spelling is another text, so another structure; a clone keeps
  // the spelling.
  std::string full = text;
  for (auto [from, to] : {std::pair<std::string_view, std::string_view>{"pld.alloc_window_buffer(", "pld.tensor.alloc_window_buffer("},
                          {"pld.window(", "pld.tensor.window("}, {"pld.world_size(", "pld.system.world_size("}})
    full.replace(full.find(from), from.size(), to);
  const program q = parse_ok(full);
  CHECK(q.functions[1]->body[0]->value->call->spelling.empty());
  CHECK_FALSE(structural_equal(p, q));
  CHECK(structural_hash(p) != structural_hash(q));
  CHECK(print_program(cloner{}.clone(p)) == text);
  // Through pl._dump.call (a call whose recorded type the plain form would not reproduce), too.
  check_fixed_point(prog("Dump",
      "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "    def main(self):\n"
      "        n = pl._dump.call(\"pld.world_size\", [], pl.Scalar[pl.INT64])\n"
      "        return n\n"));
}

TEST_CASE("pypto's shape form of an allocation reads as its byte form, as pypto's DSL op makes it") {
  const std::string text =
      "import pypto.language as pl\nimport pypto.language.distributed as pld\n\nW = 4\nNR = pl.dynamic(\"NR\")\n\n"
      "@pl.program\nclass S:\n"
      "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "    def main(self, n: pl.Scalar[pl.INDEX]):\n"
      "        a = pld.alloc_window_buffer([64, 128], dtype=pl.FP32)\n"
      "        b = pld.tensor.alloc_window_buffer((2 * W, W + 1), dtype=pl.BF16)\n"
      "        c = pld.alloc_window_buffer([64, pld.world_size()], dtype=pl.FP32)\n"
      "        d = pld.alloc_window_buffer([2, 3, n + 1, NR], dtype=pl.INT8)\n"
      "        e = pld.alloc_window_buffer([W], dtype=pl.INT64)\n"
      "        return a\n";
  const program p = parse_ok(text);
  const auto& body = p.functions[0]->body;
  // Every dimension constant: one integer, the product times the dtype's bytes (constants and
  // constant arithmetic folded); the spelling kept, dtype= gone, the name still the target's.
  const auto size_of = [&](std::size_t i) -> const expr& { return *body[i]->value->args.at(0); };
  for (std::size_t i = 0; i < 5; ++i) {
    CAPTURE(i);
    const expr& call = *body[i]->value;
    CHECK(call.text == ops::alloc_window_buffer);
    CHECK(call.args.size() == 1);
    REQUIRE(call.call->kwargs.size() == 1);
    CHECK(call.call->kwargs[0].name == "name");
    CHECK(call.call->type.kind == type_kind::ptr);
  }
  CHECK(size_of(0).kind == expr_kind::int_const);
  CHECK(size_of(0).value == 64 * 128 * 4);
  CHECK(size_of(1).value == 8 * 5 * 2);
  CHECK(size_of(1).text.empty());
  CHECK(body[1]->value->call->spelling.empty());
  CHECK(body[0]->value->call->spelling == "pld.alloc_window_buffer");
  CHECK(size_of(4).value == 4 * 8);
  // A dimension that is not constant: pypto's chain from the first dimension, left to right,
  // none folded, then the bytes.
  CHECK(size_of(2).kind == expr_kind::arith);
  const std::string printed = print_program(p);
  CHECK(printed ==
        "import pypto.language as pl\nimport pypto.language.distributed as pld\n\nW = 4\nNR = pl.dynamic(\"NR\")\n\n\n"
        "@pl.program\nclass S:\n"
        "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
        "    def main(self, n: pl.Scalar[pl.INDEX]):\n"
        "        a = pld.alloc_window_buffer(32768)\n"
        "        b = pld.tensor.alloc_window_buffer(80)\n"
        "        c = pld.alloc_window_buffer(64 * pld.world_size() * 4)\n"
        "        d = pld.alloc_window_buffer(2 * 3 * (n + 1) * NR * 1)\n"
        "        e = pld.alloc_window_buffer(32)\n"
        "        return a\n");
  check_fixed_point(printed);
  // The byte form it becomes is what the same program written in bytes reads as.
  const program q = parse_ok(printed);
  CHECK(structural_equal(p, q));
  CHECK(structural_hash(p) == structural_hash(q));
  // The recorded form (pl._dump.call) is read as written: no normalization.
  const program r = parse_ok(prog("R",
      "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "    def main(self):\n"
      "        a = pl._dump.call(\"pld.tensor.alloc_window_buffer\", [[64]], pl.Ptr, kwargs={\"dtype\": pl.FP32, \"name\": \"a\"})\n"
      "        return a\n"));
  CHECK(r.functions[0]->body[0]->value->args[0]->kind == expr_kind::list);
  // ... and prints so (the plain form would read back as the byte form: found by fuzzing,
  // fuzz/regressions/host_roundtrip/recorded_shape_form_alloc.py).
  const std::string kept = print_program(r);
  CHECK(kept.find("        a = pl._dump.call(\"pld.tensor.alloc_window_buffer\", [[64]], pl.Ptr, kwargs={\"dtype\": pl.FP32, "
                  "\"name\": \"a\"})\n") != std::string::npos);
  check_fixed_point(kept);
}

TEST_CASE("a pld. call the reader does not know is a located warning, and the program reads") {
  const auto r = parse_program(prog("W",
      "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "    def main(self):\n"
      "        x = pld.tensor.frobnicate(1, 2)\n"
      "        y = pld.tensor.window(x, [1], dtype=pl.FP32)\n"
      "        z = pl.add(1, 2)\n"
      "        pld.tensor.put(y, z)\n"
      "        return pld.system.twiddle(z)\n"), "t.py");
  REQUIRE(r.ok());
  // pld.tensor.put is one of pypto's ops the IR knows without modelling it (ops::other_ops): no
  // warning; pl.add is not a pld op.
  REQUIRE(r.warnings.size() == 2);
  CHECK(r.warnings[0].file == "t.py");
  CHECK(r.warnings[0].loc.line == 9);
  CHECK(r.warnings[0].loc.col == 13);
  CHECK(r.warnings[0].message ==
        "'pld.tensor.frobnicate' is not an op the host reader knows: it stays an opaque call, and no pass sees an "
        "allocation, a window or a collective in it (known: pld.tensor.alloc_window_buffer (pld.alloc_window_buffer), "
        "pld.tensor.window (pld.window), pld.system.world_size (pld.world_size), pld.system.get_comm_ctx "
        "(pld.get_comm_ctx), pld.system.nranks (pld.nranks), pld.system.rank (pld.rank), pld.tile.remote_load "
        "(pld.remote_load), pld.tensor.allreduce, pld.tensor.broadcast, pld.tensor.reduce_scatter, "
        "pld.tensor.allgather, pld.tensor.all_to_all, pld.tensor.all_to_all_v, pld.tensor.barrier, pld.remote_store, "
        "pld.tensor.remote_store, pld.tile.remote_store, pld.tensor.put, pld.tensor.get, pld.tile.put, pld.tile.get, "
        "pld.system.notify, pld.system.wait, pld.system.defer_wait)");
  CHECK(r.warnings[1].loc == source_loc{13, 16});
  CHECK(r.warnings[1].message.starts_with("'pld.system.twiddle' is not an op"));
  // Under an alias of pypto.language.distributed the warning names the call as written.
  const auto a = parse_program(
      "import pypto.language as pl\nimport pypto.language.distributed as dist\n\n@pl.program\nclass W:\n"
      "    @pl.function\n    def main(self):\n        dist.frob(1)\n        dist.system.notify(1)\n",
      "t.py");
  REQUIRE(a.ok());
  REQUIRE(a.warnings.size() == 1);
  CHECK(a.warnings[0].loc == source_loc{8, 9});
  CHECK(a.warnings[0].message.starts_with("'dist.frob' is not an op the host reader knows"));
  CHECK(a.value->functions[0]->body[0]->value->text == "pld.frob");
  CHECK(a.value->functions[0]->body[0]->value->call->spelling == "dist.frob");
  // Every spelling the reader knows reads without a warning.
  for (const auto& sp : ops::spellings)
    for (std::string_view op : {sp.full, sp.short_form}) {
      CAPTURE(op);
      const auto k = parse_program(prog("K", "    @pl.function\n    def main(self):\n        " + std::string(op) + "()\n"), "t.py");
      REQUIRE(k.ok());
      CHECK(k.warnings.empty());
    }
  for (const std::string_view op : ops::other_ops) {
    CAPTURE(op);
    const auto k = parse_program(prog("K", "    @pl.function\n    def main(self):\n        " + std::string(op) + "()\n"), "t.py");
    REQUIRE(k.ok());
    CHECK(k.warnings.empty());
    CHECK(ops::known(op));
    CHECK_FALSE(ops::modeled(op));
  }
}
