// Tests for neuronrw/ir/host/text/locate.hpp: the `@pl.program` classes of a Python file as its
// users have it (a pytest module in pypto's style: programs in test functions, closure constants,
// Python the reader does not read around them), what the reader reads for each, and the errors.
#include <neuronrw/ir/host/hash.hpp>
#include <neuronrw/ir/host/text.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace neuronrw;
using namespace neuronrw::host;

const std::string module_text =
    "# A pytest module in pypto's style: programs inside test functions, Python around them.\n"
    "import pypto.language as pl\n"
    "import pypto.language.distributed as pld\n"
    "import pytest\n"
    "\n"
    "N = 2\n"
    "WIDTH = 8\n"
    "\n"
    "\n"
    "def helper(x):\n"
    "\treturn x != 1 and r\"\\d+\" != f\"{x!r}\" and x ** 2 >= 0  # tabs, operators, raw and f-strings\n"
    "\n"
    "\n"
    "def test_a():\n"
    "    \"\"\"A docstring that mentions\n"
    "@pl.program\n"
    "class Fake:\n"
    "    \"\"\"\n"
    "    N = 4\n"
    "    SIZE = N * WIDTH\n"
    "\n"
    "    @pl.program\n"
    "    class P:\n"
    "        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
    "        def host_orch(self):\n"
    "            x = SIZE + N\n"
    "            return x\n"
    "\n"
    "    assert P is not None\n"
    "\n"
    "\n"
    "def test_b():\n"
    "    N = compute()\n"
    "\n"
    "    @pl.program\n"
    "    class Q:\n"
    "        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
    "        def host_orch(self):\n"
    "            return N\n"
    "\n"
    "\n"
    "if __name__ == \"__main__\":\n"
    "    raise SystemExit(pytest.main([__file__]))\n";

/// The reader's error at a use of `name`, bound at `line` by a line it does not read.
std::string unread_error(const std::string& name, int line) {
  return "undefined variable '" + name + "' (line " + std::to_string(line) +
         " binds it to a value the reader does not evaluate: a constant is an integer expression of integers, "
         "constants, + - * // % ** << >> & | ^ ~ and pl.DTYPE.get_byte())";
}

std::vector<std::uint32_t> piece_lines(const program_location& p) {
  std::vector<std::uint32_t> out;
  for (const auto& q : p.pieces) out.push_back(q.first_line);
  return out;
}

}  // namespace

TEST_CASE("the programs of a pytest module, each with the imports and constants visible at its class") {
  const auto ps = locate_programs(module_text);
  REQUIRE(ps.size() == 2);  // the docstring's `@pl.program` is text, not a decorator
  CHECK(ps[0].name == "P");
  CHECK(ps[0].line == 22);
  CHECK(ps[0].column == 5);
  // The three imports, the module's WIDTH, test_a's N (hiding the module's) and SIZE, the class.
  CHECK(piece_lines(ps[0]) == std::vector<std::uint32_t>{2, 3, 4, 7, 19, 20, 22});
  CHECK(ps[1].name == "Q");
  // test_b's `N = compute()` is no constant: it hides the module's N, as Python's scoping would.
  CHECK(piece_lines(ps[1]) == std::vector<std::uint32_t>{2, 3, 4, 7, 35});
  // The class piece runs from its decorator to its body's last line.
  CHECK(std::string_view(module_text).substr(ps[0].pieces.back().begin, 11) == "    @pl.pro");
  CHECK(std::string_view(module_text).substr(0, ps[0].pieces.back().end).ends_with("            return x\n"));

  const auto p = parse_program(module_text, "t.py", ps[0]);
  REQUIRE(p.ok());
  CHECK(print_program(*p.value) ==
        "import pypto.language as pl\n"
        "import pypto.language.distributed as pld\n"
        "import pytest\n"
        "\n"
        "WIDTH = 8\n"
        "N = 4\n"
        "SIZE = N * WIDTH\n"
        "\n"
        "\n"
        "@pl.program\n"
        "class P:\n"
        "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
        "    def host_orch(self):\n"
        "        x = SIZE + N\n"
        "        return x\n");
  // An error in a program carries the file's line and column.
  const auto q = parse_program(module_text, "t.py", ps[1]);
  REQUIRE(!q.ok());
  CHECK(q.error.loc.line == 39);
  CHECK(q.error.loc.col == 20);
  CHECK(q.error.message == unread_error("N", 33));
  CHECK(ps[1].unread_bindings == std::vector<std::pair<std::string, std::uint32_t>>{{"N", 33}});
  CHECK(ps[0].unread_bindings.empty());
  // Read whole, the module holds two programs.
  const auto whole = parse_program(module_text, "t.py");
  REQUIRE(!whole.ok());
  CHECK(whole.error.loc.line == 35);
  CHECK(whole.error.message ==
        "a second @pl.program class 'Q' (the first is at line 22): a program is read on its own (neuronrw-opt reads "
        "each of a file in turn)");
}

TEST_CASE("a file that is one program in the reader's grammar reads as before") {
  // The first program's print is such a file: read whole, every line of it checked as before.
  const auto printed = print_program(*parse_program(module_text, "t.py", locate_programs(module_text)[0]).value);
  const auto ps = locate_programs(printed, 10);
  REQUIRE(ps.size() == 1);
  CHECK(ps[0].whole_text);
  CHECK(piece_lines(ps[0]) == std::vector<std::uint32_t>{10});
  CHECK(ps[0].pieces[0].end == printed.size());
  const auto a = parse_program(printed, "t.py", 10);
  REQUIRE(a.ok());
  CHECK(print_program(*a.value) == printed);
  CHECK(a.value->constants.size() == 3);
  // With Python after it, it is a program of a module: what follows is not read.
  const auto b = locate_programs(printed + "x = compute() != 1\n");
  REQUIRE(b.size() == 1);
  CHECK(!b[0].whole_text);
  CHECK(parse_program(printed + "x = compute() != 1\n", "t.py").ok());
}

TEST_CASE("what the scan takes for code and what for text") {
  struct one {
    std::string text;
    std::size_t programs;
    std::vector<std::uint32_t> pieces;  // of the first program
  };
  // Python after each program (`main()`) makes it a program of a module, read from its pieces.
  const one cases[] = {
      // A decorator in a string, a comment, a bracket continuation: none is a program.
      {"x = '''\n@pl.program\nclass A:\n    pass\n'''\n", 0, {}},
      {"# @pl.program\nclass A:\n    pass\n", 0, {}},
      {"x = [\n@pl.program\n]\n", 0, {}},
      {"s = \"\\\"\"  # a quote escaped\n@pl.program\nclass A:\n    pass\nmain()\n", 1, {2}},
      // A raw string's backslash still keeps its quote: the literal ends at the last quote.
      {"s = r'\\''\n@pl.program\nclass A:\n    pass\nmain()\n", 1, {2}},
      // Spacing after the @, a comment after the decorator, a second decorator.
      {"@ pl.program  # the program\n@other\nclass A:\n    pass\n", 1, {1}},
      // A constant is read when its value is in the reader's grammar and its names are known.
      {"A = 1\nB = A * 2\nC = D + 1\nE = 0x10\nF = 1.5\nG = (A + B) // 2 % 3\nH = -A\nI = pl.FP32.get_byte() * 4\n"
       "J = 2 ** 3\nL = 1 << 4 | ~A & 3 ^ A >> 1\nM = A < 2\nN = 7 / 2\nO = A ~ 2\nQ = 2 ** -3\nK = 'k'\n"
       "@pl.program\nclass P:\n    pass\nmain()\n",
       1, {1, 2, 6, 7, 8, 9, 10, 16}},
      // Imports the reader reads, once each; a parenthesized, starred or relative one is not read.
      {"import a.b as c, d\nfrom e import (f)\nfrom . import g\nfrom h import *\nfrom i.j import k as l, m\n"
       "def t():\n    import a.b as c, d\n    @pl.program\n    class P:\n        pass\n",
       1, {1, 5, 8}},
      // A rebinding the reader does not evaluate hides the constant; an inner constant replaces one.
      {"A = 1\nA += 1\nB = 2\ndef t():\n    B = 3\n    @pl.program\n    class P:\n        pass\n", 1, {5, 6}},
      // An unterminated string swallows the rest of the text, as Python reads it.
      {"x = '''\n@pl.program\nclass A:\n    pass\n", 0, {}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    const auto ps = locate_programs(c.text);
    CHECK(ps.size() == c.programs);
    if (!ps.empty()) CHECK(piece_lines(ps[0]) == c.pieces);
  }
}

TEST_CASE("a program nested two blocks deep reads with each block's constants, and its errors are the file's") {
  const std::string text =
      "import pypto.language as pl\n"
      "class TestGroup:\n"
      "    def test_x(self):\n"
      "        N = 4\n"
      "        for i in range(2):\n"
      "            M = N + i\n"  // i is no constant: M is not one either
      "            @pl.program\n"
      "            class P:\n"
      "                @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "                def host_orch(self):\n"
      "                    return N\n";
  const auto ps = locate_programs(text);
  REQUIRE(ps.size() == 1);
  CHECK(piece_lines(ps[0]) == std::vector<std::uint32_t>{1, 4, 7});
  const auto p = parse_program(text, "t.py");
  REQUIRE(p.ok());
  CHECK(p.value->constants.size() == 1);
  const std::string bad = text.substr(0, text.size() - 2) + "M\n";
  const auto q = parse_program(bad, "t.py");
  REQUIRE(!q.ok());
  CHECK(q.error.loc.line == 11);
  CHECK(q.error.loc.col == 28);
  CHECK(q.error.message == unread_error("M", 6));
}

TEST_CASE("pl.dynamic bindings are read as dynamic dimensions; other calls stay unread") {
  const std::string text =
      "import pypto.language as pl\n"
      "NR = pl.dynamic(\"NR\")\n"
      "K = pl.dynamic('K')  # a comment\n"
      "B = pl.dynamic(\"B\", 2)\n"   // not pypto's one-argument form: unread
      "C = pl.dynamic(name)\n"       // not a string: unread
      "D = pl.dynamic(\"D\") + 1\n"  // an expression of it: unread
      "def helper():\n"              // Python around the program: the reader reads pieces
      "    return 1\n"
      "@pl.program\n"
      "class P:\n"
      "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "    def host_orch(self, x: pl.Tensor[[NR, K], pl.FP32]):\n"
      "        return x\n";
  const auto ps = locate_programs(text);
  REQUIRE(ps.size() == 1);
  CHECK(piece_lines(ps[0]) == std::vector<std::uint32_t>{1, 2, 3, 9});
  CHECK(ps[0].unread_bindings == std::vector<std::pair<std::string, std::uint32_t>>{{"B", 4}, {"C", 5}, {"D", 6}});
  const auto p = parse_program(text, "t.py");
  INFO(p.error.str());
  REQUIRE(p.ok());
  REQUIRE(p.value->constants.size() == 2);
  CHECK(p.value->constants[0].dynamic);
  CHECK(p.value->constants[1].name == "K");
  // A file in the reader's own layout is read whole: there, a call other than pypto's
  // one-argument form is the constant grammar's error.
  const auto w = parse_program("import pypto.language as pl\nB = pl.dynamic(\"B\", 2)\n@pl.program\nclass P:\n    pass\n", "w.py");
  CHECK(w.error.str() == "w.py:2:5: error: a module constant must be an integer expression");
}

TEST_CASE("def_of: a function definition's name and parameters, annotations and defaults skipped") {
  using text_detail::def_of;
  const auto a = def_of("def build(n_ranks: int, *, dtype=pl.FP32, size: tuple[int, int] = (1, 2), **kw) -> None:");
  REQUIRE(a.has_value());
  CHECK(a->name == "build");
  CHECK(a->parameters == std::vector<std::string>{"n_ranks", "dtype", "size", "kw"});
  // A default that is a pypto name alone is kept (a dtype or enum parameter reads as it).
  CHECK(a->defaults == std::vector<std::string>{"", "pl.FP32", "", ""});
  const auto d = def_of("def k(a=pld.ReduceOp.Sum, b = pl.FP16 , c=pl.FP32.get_byte(), d=torch.float16, e=pl.X == 1, "
                        "f: pl.DataType = pl.BF16):");
  REQUIRE(d.has_value());
  CHECK(d->defaults == std::vector<std::string>{"pld.ReduceOp.Sum", "pl.FP16", "", "", "", "pl.BF16"});
  // Over several physical lines (one logical line), with a comment, strings holding brackets and
  // commas, positional-only and variadic markers.
  const auto b = def_of("async def f(\n    a,  # the first, (really)\n    b=\"x, (y\",\n    c='''z)'''\n    , /, *args, d):");
  REQUIRE(b.has_value());
  CHECK(b->name == "f");
  CHECK(b->parameters == std::vector<std::string>{"a", "b", "c", "args", "d"});
  const auto c = def_of("def g():");
  REQUIRE(c.has_value());
  CHECK(c->parameters.empty());
  CHECK_FALSE(def_of("class C(Base):").has_value());
  CHECK_FALSE(def_of("define(x)").has_value());
  CHECK_FALSE(def_of("def h(a, b").has_value());  // unclosed: no header
}

// pypto's system tests build programs in factories: `def _build(n_ranks: int):` whose program
// uses n_ranks in shapes and sizes.
const std::string factory_text =
    "import pypto.language as pl\n"
    "import pypto.language.distributed as pld\n"
    "SIZE = 64\n"
    "n_ranks = 7\n"  // hidden by the factory's parameter
    "\n"
    "\n"
    "def _build(n_ranks: int, unused, *, dtype=pl.FP32, self_check: bool = True):\n"
    "    \"\"\"Build the program at call time.\"\"\"\n"
    "    nr = n_ranks\n"
    "    rounds = 2 * (nr - 1)\n"
    "    width = compute(nr)\n"  // not an integer expression: unread
    "\n"
    "    @pl.program\n"
    "    class P:\n"
    "        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
    "        def host_orch(self, x: pl.Tensor[[nr, SIZE], pl.FP32]) -> pl.Tensor[[nr, SIZE], pl.FP32]:\n"
    "            buf = pld.alloc_window_buffer(rounds * n_ranks * SIZE)\n"
    "            return x\n"
    "\n"
    "    return P\n";

TEST_CASE("a program in a factory reads its parameters as dynamic dimensions") {
  const auto ps = locate_programs(factory_text);
  REQUIRE(ps.size() == 1);
  CHECK(ps[0].parameters == std::vector<factory_parameter>{{"n_ranks", "_build", 7},
                                                           {"unused", "_build", 7},
                                                           {"dtype", "_build", 7, std::nullopt, "pl.FP32"},
                                                           {"self_check", "_build", 7}});
  CHECK(piece_lines(ps[0]) == std::vector<std::uint32_t>{1, 2, 3, 9, 10, 13});
  CHECK(ps[0].unread_bindings == std::vector<std::pair<std::string, std::uint32_t>>{{"width", 11}});
  const auto p = parse_program(factory_text, "t.py");
  INFO(p.error.str());
  REQUIRE(p.ok());
  // Only the parameters the program uses become constants, where first used; the constants over
  // them are dynamic dimensions too, printed as written.
  const std::string printed = print_program(*p.value);
  CHECK(printed ==
        "import pypto.language as pl\n"
        "import pypto.language.distributed as pld\n"
        "\n"
        "SIZE = 64\n"
        "n_ranks = pl.dynamic(\"n_ranks\")\n"
        "nr = n_ranks\n"
        "rounds = 2 * (nr - 1)\n"
        "\n"
        "\n"
        "@pl.program\n"
        "class P:\n"
        "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
        "    def host_orch(self, x: pl.Tensor[[nr, SIZE], pl.FP32]) -> pl.Tensor[[nr, SIZE], pl.FP32]:\n"
        "        buf = pld.alloc_window_buffer(rounds * n_ranks * SIZE)\n"
        "        return x\n");
  REQUIRE(p.value->constants.size() == 4);
  CHECK(p.value->constants[1].dynamic);
  CHECK(p.value->constants[1].loc == source_loc{7, 1});
  CHECK(p.value->constants[2].dynamic);
  CHECK(p.value->constants[3].dynamic);
  CHECK_FALSE(p.value->constants[0].dynamic);
  // The print reads back to itself: the parameter is pypto's dynamic dimension there.
  const auto again = parse_program(printed, "printed.py");
  REQUIRE(again.ok());
  CHECK(print_program(*again.value) == printed);
  // A use of the unread binding is the error that names its line.
  std::string bad = factory_text;
  bad.replace(bad.find("rounds * n_ranks"), 6, "width ");
  const auto q = parse_program(bad, "t.py");
  REQUIRE(!q.ok());
  CHECK(q.error.message == unread_error("width", 11));
}

TEST_CASE("a factory's parameter is hidden by a binding of its name, and hides an outer one") {
  const std::string text =
      "import pypto.language as pl\n"
      "def outer(n, m):\n"
      "    n = 4\n"           // a constant now, not the parameter
      "    def inner(m):\n"   // inner's m hides outer's
      "        @pl.program\n"
      "        class P:\n"
      "            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "            def host_orch(self, x: pl.Tensor[[n, m], pl.FP32]):\n"
      "                return x\n"
      "        return P\n";
  const auto ps = locate_programs(text);
  REQUIRE(ps.size() == 1);
  CHECK(ps[0].parameters == std::vector<factory_parameter>{{"m", "inner", 4}});
  const auto p = parse_program(text, "t.py");
  INFO(p.error.str());
  REQUIRE(p.ok());
  REQUIRE(p.value->constants.size() == 2);
  CHECK(p.value->constants[0].name == "n");
  CHECK(p.value->constants[0].evaluated == 4);
  CHECK(p.value->constants[1].name == "m");
  CHECK(p.value->constants[1].dynamic);
  // A program's own names come first: a parameter of one of its functions is that parameter.
  const std::string own =
      "import pypto.language as pl\n"
      "def build(x):\n"
      "    @pl.program\n"
      "    class P:\n"
      "        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "        def host_orch(self, x: pl.Tensor[[4], pl.FP32]):\n"
      "            return x\n";
  const auto o = parse_program(own, "t.py");
  REQUIRE(o.ok());
  CHECK(o.value->constants.empty());
}

TEST_CASE("dtypes and enum values: constants bound to pypto names, and factory parameters that are one") {
  using text_detail::is_pypto_name;
  CHECK(is_pypto_name("pl.FP32"));
  CHECK(is_pypto_name("pld.ReduceOp.Sum"));
  CHECK_FALSE(is_pypto_name("pl"));
  CHECK_FALSE(is_pypto_name("pl."));
  CHECK_FALSE(is_pypto_name("pl..X"));
  CHECK_FALSE(is_pypto_name("torch.float16"));
  CHECK_FALSE(is_pypto_name("pl.FP32()"));
  CHECK_FALSE(is_pypto_name("pl.1x"));
  const std::string text =
      "import pypto.language as pl\n"
      "import pypto.language.distributed as pld\n"
      "ELEM = pl.INT32\n"
      "\n"
      "\n"
      "def _build(dtype, reduce_op: pld.ReduceOp = pld.ReduceOp.Max, n: int = 4):\n"
      "    DTYPE = dtype\n"
      "    OP = reduce_op\n"
      "\n"
      "    @pl.program\n"
      "    class P:\n"
      "        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "        def host_orch(self, x: pl.Tensor[[n], DTYPE], s: pld.DistributedTensor[[4], ELEM]):\n"
      "            y = pld.tensor.allreduce(x, s, op=OP)\n"
      "            return y\n"
      "\n"
      "    return P\n";
  auto ps = locate_programs(text);
  REQUIRE(ps.size() == 1);
  CHECK(ps[0].parameters == std::vector<factory_parameter>{{"dtype", "_build", 6},
                                                           {"reduce_op", "_build", 6, std::nullopt, "pld.ReduceOp.Max"},
                                                           {"n", "_build", 6}});
  CHECK(piece_lines(ps[0]) == std::vector<std::uint32_t>{1, 2, 3, 7, 8, 10});
  // Without the dtype's value: its use as a dtype says what to give.
  const auto none = parse_program(text, "t.py", ps[0]);
  CHECK(none.error.str() ==
        "t.py:13:47: error: expected a dtype pl.NAME, got 'DTYPE', an integer known at run time (a factory's parameter "
        "without a value the reader knows, or a constant over one): give the parameter its dtype (neuronrw-opt "
        "--host-parameter=NAME=pl.FP32)");
  // With it: each constant reads as the name it is bound to, wherever it is used.
  ps[0].parameters[0].symbol = "pl.FP16";
  const auto p = parse_program(text, "t.py", ps[0]);
  INFO(p.error.str());
  REQUIRE(p.ok());
  const function& f = *p.value->functions[0];
  CHECK(f.params[0]->type.dtype == "FP16");
  CHECK(f.params[1]->type.dtype == "INT32");
  const expr& op = *f.body[0]->value->call->kwargs.at(0).value;
  CHECK(op.kind == expr_kind::symbol);
  CHECK(op.text == "pld.ReduceOp.Max");
  const std::string printed = print_program(*p.value);
  CHECK(printed.find("ELEM = pl.INT32\ndtype = pl.FP16\nDTYPE = pl.FP16\nreduce_op = pld.ReduceOp.Max\n"
                     "OP = pld.ReduceOp.Max\nn = pl.dynamic(\"n\")\n") != std::string::npos);
  CHECK(printed.find("def host_orch(self, x: pl.Tensor[[n], pl.FP16], s: pld.DistributedTensor[[4], pl.INT32]):\n"
                     "        y = pld.tensor.allreduce(x, s, op=pld.ReduceOp.Max)\n") != std::string::npos);
  const auto again = parse_program(printed, "printed.py");
  REQUIRE(again.ok());
  CHECK(print_program(*again.value) == printed);
  CHECK(structural_equal(*p.value, *again.value));
  // A value given as an integer wins over the symbol; a constant bound to a name that is no dtype
  // is an error where a dtype is wanted; a variable of the function hides a constant.
  const auto e = parse_program(
      "import pypto.language as pl\nimport pypto.language.distributed as pld\nOP = pld.ReduceOp.Sum\n"
      "@pl.program\nclass Q:\n    @pl.function\n    def f(self, x: pl.Tensor[[4], OP]):\n        return x\n",
      "e.py");
  CHECK(e.error.str() == "e.py:7:35: error: expected a dtype pl.NAME, got 'OP' (= pld.ReduceOp.Sum)");
  const auto h = parse_program(
      "import pypto.language as pl\nELEM = pl.INT32\n@pl.program\nclass Q:\n    @pl.function\n"
      "    def f(self, ELEM: pl.Scalar[pl.INDEX]):\n        return ELEM\n",
      "h.py");
  REQUIRE(h.ok());
  CHECK(h.value->functions[0]->body[0]->values.at(0)->kind == expr_kind::var_ref);
}

TEST_CASE("a factory's parameter given a value reads as that integer constant") {
  auto ps = locate_programs(factory_text);
  REQUIRE(ps.size() == 1);
  for (auto& q : ps[0].parameters)
    if (q.name == "n_ranks") q.value = 4;
  const auto p = parse_program(factory_text, "t.py", ps[0]);
  INFO(p.error.str());
  REQUIRE(p.ok());
  REQUIRE(p.value->constants.size() == 4);
  CHECK(p.value->constants[1].name == "n_ranks");
  CHECK(p.value->constants[1].evaluated == 4);
  CHECK_FALSE(p.value->constants[1].dynamic);
  CHECK(p.value->constants[2].evaluated == 4);  // nr = n_ranks
  CHECK(p.value->constants[3].evaluated == 6);  // rounds = 2 * (nr - 1)
  const std::string printed = print_program(*p.value);
  CHECK(printed.find("SIZE = 64\nn_ranks = 4\nnr = n_ranks\nrounds = 2 * (nr - 1)\n") != std::string::npos);
  CHECK(printed.find("pl.dynamic") == std::string::npos);
  const auto again = parse_program(printed, "printed.py");
  REQUIRE(again.ok());
  CHECK(print_program(*again.value) == printed);
}
