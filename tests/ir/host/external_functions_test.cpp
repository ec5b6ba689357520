// Tests for the functions a pypto program calls by their bare names (neuronrw/ir/host/text:
// locate.hpp, lexer.hpp, parser.hpp; docs/host-programs.md §"Functions outside the class"): a
// `@pl.function` defined in the module or a block around the class joins the program and is
// called as `self.NAME`; a `@pl.inline` one is expanded where it is called. What locate_programs
// reads for them, the exact printed programs, their fixed points, and pypto's errors.
#include <neuronrw/ir/host/hash.hpp>
#include <neuronrw/ir/host/ir.hpp>
#include <neuronrw/ir/host/text.hpp>

#include <doctest/doctest.h>

#include "support/host_parse.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace neuronrw;
using namespace neuronrw::host;
using neuronrw::testing::host::parse_ok;
constexpr auto error_of = neuronrw::testing::host::parse_error_of;

constexpr std::string_view imports = "import pypto.language as pl\nimport pypto.language.distributed as pld\n";

/// The program of `text` printed, after checking that the print is a fixed point.
std::string printed(const std::string& text) {
  const program p = parse_ok(text);
  const std::string out = print_program(p);
  const program q = parse_ok(out);
  CHECK(print_program(q) == out);
  CHECK(structural_equal(p, q));
  CHECK(structural_hash(p) == structural_hash(q));
  return out;
}

const std::string ext_module = std::string(imports) +
                               "\n"
                               "\n"
                               "@pl.function\n"
                               "def double(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
                               "    result: pl.Tensor[[64], pl.FP32] = pl.mul(x, 2.0)\n"
                               "    return result\n"
                               "\n"
                               "\n"
                               "@pl.function\n"
                               "def never_called(x):\n"
                               "    return x ~ 1\n"
                               "\n"
                               "\n"
                               "class TestExternal:\n"
                               "    def test_calls(self):\n"
                               "        @pl.function\n"
                               "        def add_one(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
                               "            return pl.add(x, 1.0)\n"
                               "\n"
                               "        alias = add_one\n"
                               "\n"
                               "        with pytest.raises(ValueError):\n"
                               "            @pl.program\n"
                               "            class Model:\n"
                               "                @pl.function\n"
                               "                def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
                               "                    y: pl.Tensor[[64], pl.FP32] = alias(x)\n"
                               "                    z: pl.Tensor[[64], pl.FP32] = double(y)\n"
                               "                    return self.other(add_one(z))\n"
                               "\n"
                               "                @pl.function\n"
                               "                def other(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
                               "                    return double(x)\n";

TEST_CASE("locate_programs reads the functions outside the class that the class names, and binds their names") {
  const auto ps = locate_programs(ext_module);
  REQUIRE(ps.size() == 1);
  // `never_called` (whose body the reader could not read) is not read; `alias` and `add_one` name
  // one definition, read once.
  CHECK(ps[0].functions == std::vector<std::pair<std::string, std::uint32_t>>{{"alias", 18}, {"double", 5}, {"add_one", 18}});
  REQUIRE(ps[0].pieces.size() == 5);
  auto piece = [&](std::size_t k) {
    return ext_module.substr(ps[0].pieces[k].begin, ps[0].pieces[k].end - ps[0].pieces[k].begin);
  };
  CHECK(piece(0) + piece(1) == imports);
  CHECK(ps[0].pieces[2].first_line == 5);
  CHECK(piece(2).starts_with("@pl.function\ndef double("));
  CHECK(piece(2).ends_with("    return result\n"));
  CHECK(ps[0].pieces[3].first_line == 18);
  CHECK(piece(3) == "        @pl.function\n"
                    "        def add_one(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
                    "            return pl.add(x, 1.0)\n");
  CHECK(ps[0].pieces[4].first_line == 25);
  // A name in a string or an attribute is not a call of the function.
  const std::string text = std::string(imports) +
                           "\n@pl.function\ndef f(x):\n    return x\n\n\n"
                           "@pl.program\nclass P:\n    @pl.function\n    def main(self, x):\n"
                           "        y = pl.f(x, name=\"f\")  # f\n        return y\n";
  const auto qs = locate_programs(text);
  REQUIRE(qs.size() == 1);
  CHECK(qs[0].functions.empty());
  CHECK(qs[0].pieces.size() == 3);
  // A later binding of the name hides the function.
  const auto rs = locate_programs(std::string(imports) +
                                  "\n@pl.function\ndef f(x):\n    return x\n\n\nf = 3\n\n\n"
                                  "@pl.program\nclass P:\n    @pl.function\n    def main(self, x):\n        return f(x)\n");
  REQUIRE(rs.size() == 1);
  CHECK(rs[0].functions.empty());
}

TEST_CASE("a @pl.function outside the class joins the program, called as self.NAME, in the order of first calls") {
  CHECK(printed(ext_module) == std::string(imports) +
                                   "\n"
                                   "\n"
                                   "@pl.program\n"
                                   "class Model:\n"
                                   "    @pl.function\n"
                                   "    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
                                   "        y: pl.Tensor[[64], pl.FP32] = self.add_one(x)\n"
                                   "        z: pl.Tensor[[64], pl.FP32] = self.double(y)\n"
                                   "        return self.other(self.add_one(z))\n"
                                   "\n"
                                   "    @pl.function\n"
                                   "    def other(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
                                   "        return self.double(x)\n"
                                   "\n"
                                   "    @pl.function\n"
                                   "    def add_one(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
                                   "        return pl.add(x, 1.0)\n"
                                   "\n"
                                   "    @pl.function\n"
                                   "    def double(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:\n"
                                   "        result: pl.Tensor[[64], pl.FP32] = pl.mul(x, 2.0)\n"
                                   "        return result\n");
  // A function outside the class may call one defined before it; both join the program.
  CHECK(printed(std::string(imports) + "\n\n@pl.function\ndef inner(x):\n    return x\n\n\n"
                                       "@pl.function\ndef outer(x):\n    return inner(x)\n\n\n"
                                       "@pl.program\nclass O:\n    @pl.function\n    def main(self, a):\n"
                                       "        return outer(a)\n") ==
        std::string(imports) + "\n\n@pl.program\nclass O:\n    @pl.function\n    def main(self, a):\n"
                               "        return self.outer(a)\n\n    @pl.function\n    def inner(self, x):\n        return x\n\n"
                               "    @pl.function\n    def outer(self, x):\n        return self.inner(x)\n");
  // A kernel the grammar keeps as written gets its `self` as it becomes a method.
  const std::string kernel = std::string(imports) +
                             "\n"
                             "\n"
                             "@pl.function(type=pl.FunctionType.InCore)\n"
                             "def k(\n"
                             "    x,\n"
                             "):\n"
                             "    y = x $ 2\n"
                             "    return y\n"
                             "\n"
                             "\n"
                             "@pl.function(type=pl.FunctionType.AIV)\n"
                             "def none():\n"
                             "    z = 1 $ 2\n"
                             "\n"
                             "\n"
                             "@pl.program\n"
                             "class K:\n"
                             "    @pl.function(type=pl.FunctionType.Orchestration)\n"
                             "    def chip(self, x):\n"
                             "        none()\n"
                             "        return k(x)\n";
  const program p = parse_ok(kernel);
  REQUIRE(p.functions.size() == 3);
  CHECK(p.functions[1]->name == "none");
  CHECK(p.functions[1]->verbatim == "@pl.function(type=pl.FunctionType.AIV)\ndef none(self):\n    z = 1 $ 2");
  CHECK(p.functions[2]->verbatim == "@pl.function(type=pl.FunctionType.InCore)\ndef k(self, \n    x,\n):\n    y = x $ 2\n    return y");
  const std::string out = printed(kernel);
  CHECK(out.find("        self.none()\n        return self.k(x)\n") != std::string::npos);
}

const std::string inline_module = std::string(imports) +
                                  "\n"
                                  "SCALE = 3\n"
                                  "\n"
                                  "\n"
                                  "@pl.inline\n"
                                  "def scaled(x: pl.Scalar[pl.INDEX], n) -> pl.Scalar[pl.INDEX]:\n"
                                  "    \"\"\"x * n * SCALE.\"\"\"\n"
                                  "    t = x * n\n"
                                  "    x = t * SCALE\n"
                                  "    return x\n"
                                  "\n"
                                  "\n"
                                  "@pl.inline\n"
                                  "def both(a, b):\n"
                                  "    if a > b:\n"
                                  "        s = scaled(a, 2)\n"
                                  "    else:\n"
                                  "        s = b\n"
                                  "    return s, a\n"
                                  "\n"
                                  "\n"
                                  "@pl.program\n"
                                  "class Inl:\n"
                                  "    @pl.function\n"
                                  "    def main(self, a: pl.Scalar[pl.INDEX], b: pl.Scalar[pl.INDEX]):\n"
                                  "        for i in pl.range(scaled(a + 1, b)):\n"
                                  "            c = scaled(i, i)\n"
                                  "        d, e = both(a, b)\n"
                                  "        return d\n";

TEST_CASE("a @pl.inline function is expanded where it is called, each parameter standing for its argument") {
  // (The printer names each binding of a name apart, as for any program: `t_1`, `s_1`.)
  CHECK(printed(inline_module) == std::string(imports) +
                                      "\n"
                                      "SCALE = 3\n"
                                      "\n"
                                      "\n"
                                      "@pl.program\n"
                                      "class Inl:\n"
                                      "    @pl.function\n"
                                      "    def main(self, a: pl.Scalar[pl.INDEX], b: pl.Scalar[pl.INDEX]):\n"
                                      "        t = (a + 1) * b\n"
                                      "        x = t * SCALE\n"
                                      "        for i in pl.range(x):\n"
                                      "            t_1 = i * i\n"
                                      "            x_1 = t_1 * SCALE\n"
                                      "            c = x_1\n"
                                      "        if a > b:\n"
                                      "            t_2 = a * 2\n"
                                      "            x_2 = t_2 * SCALE\n"
                                      "            s = x_2\n"
                                      "        else:\n"
                                      "            s_1 = b\n"
                                      "        d, e = (s_1, a)\n"
                                      "        return d\n");
  // No function is added for an inline one.
  CHECK(parse_ok(inline_module).functions.size() == 1);
}

TEST_CASE("functions outside the class: pypto's errors, at the call") {
  const std::string head = std::string(imports) +
                           "\n\n@pl.function\ndef f(x):\n    return x\n\n\n"
                           "@pl.inline\ndef g(x):\n    y = x + 1\n\n\n"
                           "@pl.inline\ndef h(x):\n    return h(x)\n\n\n"
                           "@pl.program\nclass P:\n    @pl.function\n";
  CHECK(error_of(head + "    def main(self, a):\n        return f(a, a)\n") ==
        "e.py:24:16: error: Function 'f' expects 1 argument(s), got 2");
  CHECK(error_of(head + "    def main(self, a):\n        return f(x=a)\n") ==
        "e.py:24:18: error: Function 'f' does not accept keyword argument 'x'");
  CHECK(error_of(head + "    def main(self, a):\n        return g(a)\n") ==
        "e.py:24:16: error: Inline function 'g' has no return value");
  CHECK(error_of(head + "    def main(self, a):\n        return g()\n") ==
        "e.py:24:16: error: Inline function 'g' expects 1 argument(s), got 0");
  CHECK(error_of(head + "    def main(self, a):\n        return h(a)\n") ==
        "e.py:17:12: error: inline function 'h' calls itself (an inline function is expanded at every call, so a "
        "recursive one never ends)");
  CHECK(error_of(head + "    def main(self, a):\n        return a\n\n    @pl.function\n    def f(self, a):\n"
                        "        return f(a)\n") ==
        "e.py:28:16: error: External function 'f' conflicts with program function 'f'");
  // The inline body is read where it is expanded: its errors are at its own lines.
  CHECK(error_of(std::string(imports) + "\n\n@pl.inline\ndef g(x):\n    y = x +\n    return y\n\n\n"
                                        "@pl.program\nclass P:\n    @pl.function\n    def main(self, a):\n"
                                        "        return g(a)\n") ==
        "e.py:7:12: error: expected an expression, got end of line");
  // Not inside a statement: a WindowBuffer's size is read before the body.
  CHECK(error_of(std::string(imports) + "\n\n@pl.inline\ndef g(x):\n    return x\n\n\n"
                                        "@pl.program\nclass P:\n    @pl.function\n    def main(self, a):\n"
                                        "        pl._dump.window_buffer(\"w\", base=\"b\", size=g(4), load_from_host=False, "
                                        "store_to_host=False)\n        b = pld.tensor.alloc_window_buffer(4)\n") ==
        "e.py:14:52: error: a call of inline function 'g' outside a statement of a function body (its body is expanded "
        "into the statements where it is called)");
  // A bare name bound to nothing the reader reads is the error it was.
  CHECK(error_of(head + "    def main(self, a):\n        return k(a)\n") ==
        "e.py:24:16: error: call of the bare name 'k': ops are dotted (pld.tensor.window) and functions are called as "
        "self.k(...) (or defined outside the class with @pl.function or @pl.inline)");
}

TEST_CASE("inline expansions: into an elif's else branch, once per warning, and bounded") {
  // An inline call in an elif's condition expands into the else branch, before the nested if.
  const std::string elif_text = std::string(imports) +
                                "\n\n@pl.inline\ndef big(x):\n    t = x * 4\n    return t > 8\n\n\n"
                                "@pl.program\nclass E:\n    @pl.function\n    def main(self, a: pl.Scalar[pl.INDEX]):\n"
                                "        if a > 1:\n            b = 1\n        elif big(a):\n            b = 2\n"
                                "        return a\n";
  CHECK(printed(elif_text) == std::string(imports) +
                                  "\n\n@pl.program\nclass E:\n    @pl.function\n    def main(self, a: pl.Scalar[pl.INDEX]):\n"
                                  "        if a > 1:\n            b = 1\n        else:\n            t = a * 4\n"
                                  "            if t > 8:\n                b_1 = 2\n        return a\n");
  // An op the reader does not know warns once, however often its inline function is expanded.
  auto r = parse_program(std::string(imports) +
                             "\n\n@pl.inline\ndef q(x):\n    return pld.tensor.unknown_op(x)\n\n\n"
                             "@pl.program\nclass W:\n    @pl.function\n    def main(self, a):\n"
                             "        b = q(a)\n        c = q(b)\n        return c\n",
                         "w.py");
  REQUIRE(r.ok());
  CHECK(r.warnings.size() == 1);
  // Each level calls the one below twice: 2 ** 40 statements, stopped at the budget.
  std::string chain = std::string(imports) + "\n\n@pl.inline\ndef f0(x):\n    y = x + 1\n    return y\n";
  for (int k = 1; k <= 40; ++k)
    chain += "\n\n@pl.inline\ndef f" + std::to_string(k) + "(x):\n    a = f" + std::to_string(k - 1) + "(x)\n    b = f" +
             std::to_string(k - 1) + "(a)\n    return b\n";
  chain += "\n\n@pl.program\nclass C:\n    @pl.function\n    def main(self, a):\n        return f40(a)\n";
  CHECK(error_of(chain).find("the inline expansions reach 1048576 tokens and copied arguments at this call of 'f") !=
        std::string::npos);
  // A program whose main returns `body` of inline function `fn` called `levels` deep in its own
  // argument: fn(fn(...fn(a)...)).
  const auto nested = [](std::string_view fn, std::string_view body, int levels) {
    std::string text = std::string(imports) + "\n\n@pl.inline\ndef " + std::string(fn) + "(x):\n    return " +
                       std::string(body) + "\n\n\n@pl.program\nclass N:\n    @pl.function\n    def main(self, a):\n        return ";
    for (int k = 0; k < levels; ++k) text += std::string(fn) + "(";
    text += "a" + std::string(static_cast<std::size_t>(levels), ')') + "\n";
    return text;
  };
  // A parameter used twice in its return doubles the argument at each level: stopped at the budget.
  CHECK(error_of(nested("d", "x + x", 30))
            .find("error: the inline expansions reach 1048576 tokens and copied arguments at this use of parameter 'x'") !=
        std::string::npos);
  // Five levels of parentheses per call: stopped at the depth bound.
  CHECK(error_of(nested("n", "(((((x + 1) + 1) + 1) + 1) + 1)", 60))
            .find("error: the argument of parameter 'x' nests more than 200 expressions deep") != std::string::npos);
}

}  // namespace
