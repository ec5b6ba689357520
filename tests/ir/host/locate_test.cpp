// Tests for neuronrw/ir/host/text/locate.hpp: the `@pl.program` classes of a Python file as its
// users have it (a pytest module in pypto's style: programs in test functions, closure constants,
// Python the reader does not read around them), what the reader reads for each, and the errors.
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
         "constants, + - * // % and pl.DTYPE.get_byte())";
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
       "J = 2 ** 3\nK = 'k'\n@pl.program\nclass P:\n    pass\nmain()\n",
       1, {1, 2, 6, 7, 8, 11}},
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
