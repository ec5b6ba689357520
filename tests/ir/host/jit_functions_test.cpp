// Tests for pypto's JIT functions (neuronrw/ir/host/text: locate.hpp, parser.hpp;
// docs/host-programs.md §"pypto's JIT functions"): a `@pl.jit` function no other JIT function
// calls is an entry, and its program is `_jit_ENTRY` with the JIT functions it calls, resolved
// as Python resolves a bare name, each callee before its first caller, read as pypto's
// specializer rewrites them. What locate_programs finds, the exact printed programs, their fixed
// points, and the rewrite of a function kept as written.
#include <neuronrw/ir/host/hash.hpp>
#include <neuronrw/ir/host/ir.hpp>
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

/// The program `where` of `text`, which must read.
program read(const std::string& text, const program_location& where) {
  auto r = parse_program(text, "j.py", where);
  INFO(r.error.str());
  REQUIRE(r.ok());
  return std::move(*r.value);
}

/// `p` printed, after checking that the print reads back to the same program and prints the same.
std::string printed(const program& p) {
  const std::string out = print_program(p);
  auto r = parse_program(out, "printed.py");
  INFO(r.error.str());
  REQUIRE(r.ok());
  CHECK(print_program(*r.value) == out);
  CHECK(structural_equal(p, *r.value));
  CHECK(structural_hash(p) == structural_hash(*r.value));
  return out;
}

const std::string module = R"py(import pypto.language as pl
import pypto.language.distributed as pld

N = 4


@pl.jit.incore
def kern(x: pl.Tensor[[N, 8], pl.FP32], y: pl.Out[pl.Tensor[[N, 8], pl.FP32]]):
    t = pl.load(x, [0, 0], [N, 8])
    y = pl.store(t, [0, 0], y)
    return y


@pl.jit.inline
def helper(x: pl.Tensor[[N, 8], pl.FP32], y: pl.Out[pl.Tensor[[N, 8], pl.FP32]]):
    return kern(x, y)


@pl.jit
def other(x: pl.Tensor[[N, 8], pl.FP32]):
    return x


@pl.jit(auto_scope=False)
def chip(x: pl.Tensor[[N, 8], pl.FP32], y: pl.Out[pl.Tensor[[N, 8], pl.FP32]], w: pld.DistributedTensor[[N, 8], pl.FP32]):
    return helper(x, y)


@pl.jit.host
def host(x: pl.Tensor[[2, N, 8], pl.FP32], y: pl.Out[pl.Tensor[[2, N, 8], pl.FP32]]):
    buf = pld.alloc_window_buffer([N, 8], dtype=pl.FP32)
    for r in pl.range(2):
        w = pld.window(buf, [N, 8], dtype=pl.FP32)
        chip(x[r], y[r], w, device=r)


def not_jit(a):
    return kern(a)


class TestNested:
    def test_inner(self):
        @pl.jit.incore
        def kern(x: pl.Tensor[[16], pl.FP16]):
            return x

        @pl.jit
        def uses_inner(x: pl.Tensor[[16], pl.FP16]):
            return kern(x)

        @pl.jit
        def uses_outer(x: pl.Tensor[[N, 8], pl.FP32], y: pl.Out[pl.Tensor[[N, 8], pl.FP32]]):
            return helper(x, y)
)py";

TEST_CASE("locate_programs: a program per JIT entry, its functions resolved as Python resolves them, in pypto's order") {
  const auto ps = locate_programs(module);
  REQUIRE(ps.size() == 4);
  // `other` is a chip orchestrator: `chip` (another) does not take it in, so it is an entry of
  // its own; `host` takes `chip` (a host orchestrator takes chip orchestrators).
  CHECK(ps[0].name == "_jit_other");
  CHECK(ps[0].line == 19);
  CHECK(ps[0].jit_functions == std::vector<std::string>{"other"});
  CHECK(ps[1].name == "_jit_host");
  CHECK(ps[1].line == 29);
  CHECK(ps[1].column == 1);
  CHECK(ps[1].jit_functions == std::vector<std::string>{"kern", "helper", "chip", "host"});
  // In the test method, `kern` is the inner one (the innermost block that defines the name);
  // `helper` is the module's.
  CHECK(ps[2].name == "_jit_uses_inner");
  CHECK(ps[2].line == 47);
  CHECK(ps[2].column == 9);
  CHECK(ps[2].jit_functions == std::vector<std::string>{"kern", "uses_inner"});
  CHECK(ps[3].name == "_jit_uses_outer");
  CHECK(ps[3].jit_functions == std::vector<std::string>{"kern", "helper", "uses_outer"});
  // What is read: the imports and constants, then each function from its decorator to its body's
  // end, in the text's order (not `not_jit`, not the test class).
  std::vector<std::uint32_t> firsts;
  for (const auto& piece : ps[1].pieces) firsts.push_back(piece.first_line);
  CHECK(firsts == std::vector<std::uint32_t>{1, 2, 4, 7, 14, 24, 29});
  firsts.clear();
  for (const auto& piece : ps[2].pieces) firsts.push_back(piece.first_line);
  CHECK(firsts == std::vector<std::uint32_t>{1, 2, 4, 43, 47});
  CHECK_FALSE(ps[1].whole_text);
}

TEST_CASE("a JIT program reads as pypto's specializer writes it, and prints as a fixed point") {
  const auto ps = locate_programs(module);
  REQUIRE(ps.size() == 4);
  const program p = read(module, ps[1]);
  CHECK(p.name == "_jit_host");
  CHECK(printed(p) == R"py(import pypto.language as pl
import pypto.language.distributed as pld

N = 4


@pl.program
class _jit_host:
    @pl.function(type=pl.FunctionType.InCore)
    def kern(self, x: pl.Tensor[[N, 8], pl.FP32], y: pl.Out[pl.Tensor[[N, 8], pl.FP32]]):
        t = pl.load(x, [0, 0], [N, 8])
        y_1 = pl.store(t, [0, 0], y)
        return y_1

    @pl.function(type=pl.FunctionType.Inline)
    def helper(self, x: pl.Tensor[[N, 8], pl.FP32], y: pl.Out[pl.Tensor[[N, 8], pl.FP32]]):
        return self.kern(x, y)

    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)
    def chip(self, x: pl.Tensor[[N, 8], pl.FP32], y: pl.Out[pl.Tensor[[N, 8], pl.FP32]], w: pld.DistributedTensor[[N, 8], pl.FP32]):
        return self.helper(x, y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[2, N, 8], pl.FP32], y: pl.Out[pl.Tensor[[2, N, 8], pl.FP32]]):
        buf = pld.alloc_window_buffer(128)
        for r in pl.range(2):
            w = pld.window(buf, [N, 8], dtype=pl.FP32)
            self.chip(x[r], y[r], w, device=r)
)py");
}

TEST_CASE("a JIT program's call of a JIT function it does not take in is the parser's error at the call") {
  // `first` calls the host orchestrator `second`: pypto takes no host orchestrator into another
  // program, so `second` is an entry of its own and the call stays a bare name, which pypto's
  // parser rejects too. (Below the host, a function the grammar does not read is kept as
  // written, bare call and all, as pypto's specializer leaves it.)
  const std::string text = R"py(import pypto.language as pl


@pl.jit.host
def second(x: pl.Tensor[[8], pl.FP32]):
    return x


@pl.jit.host
def first(x: pl.Tensor[[8], pl.FP32]):
    return second(x)
)py";
  const auto ps = locate_programs(text);
  REQUIRE(ps.size() == 2);
  CHECK(ps[0].jit_functions == std::vector<std::string>{"second"});
  CHECK(ps[1].jit_functions == std::vector<std::string>{"first"});
  const auto r = parse_program(text, "j.py", ps[1]);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error.str() ==
        "j.py:11:12: error: call of the bare name 'second': ops are dotted (pld.tensor.window) and functions are called as "
        "self.second(...) (or defined outside the class with @pl.function or @pl.inline)");
}

TEST_CASE("a JIT function kept as written: pypto's decorator, self, and self.NAME for its calls") {
  const std::string text = R"py(import pypto.language as pl


@pl.jit.incore
def kern(x: pl.Tensor[[8], pl.FP32]):
    return x


@pl.jit
def chip(x: pl.Tensor[[8], pl.FP32]):
    g = lambda a: a
    y = kern (x)  # kern(x) in a comment
    s = "kern(x)"
    return kern(g(y)).kern(x)
)py";
  const auto ps = locate_programs(text);
  REQUIRE(ps.size() == 1);
  const program p = read(text, ps[0]);
  REQUIRE(p.functions.size() == 2);
  CHECK(p.functions[1]->verbatim == R"py(@pl.function(type=pl.FunctionType.Orchestration)
def chip(self, x: pl.Tensor[[8], pl.FP32]):
    g = lambda a: a
    y = self.kern (x)  # kern(x) in a comment
    s = "kern(x)"
    return self.kern(g(y)).kern(x))py");
  CHECK(printed(p) == R"py(import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class _jit_chip:
    @pl.function(type=pl.FunctionType.InCore)
    def kern(self, x: pl.Tensor[[8], pl.FP32]):
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[8], pl.FP32]):
        g = lambda a: a
        y = self.kern (x)  # kern(x) in a comment
        s = "kern(x)"
        return self.kern(g(y)).kern(x)
)py");
}

TEST_CASE("JIT programs in a factory: its parameters are dynamic dimensions, a class program beside them reads too") {
  const std::string text = R"py(import pypto.language as pl


def build(n):
    @pl.jit.incore
    def kern(x: pl.Tensor[[n], pl.FP32]):
        return x

    @pl.jit.host
    def entry(x: pl.Tensor[[n], pl.FP32]):
        kern(x)

    return entry


@pl.program
class Plain:
    pass
)py";
  const auto ps = locate_programs(text);
  REQUIRE(ps.size() == 2);
  CHECK(ps[0].name == "_jit_entry");
  CHECK(ps[1].name == "Plain");
  REQUIRE(ps[0].parameters.size() == 1);
  CHECK(ps[0].parameters[0].name == "n");
  const program p = read(text, ps[0]);
  CHECK(printed(p) == R"py(import pypto.language as pl
import pypto.language.distributed as pld

n = pl.dynamic("n")


@pl.program
class _jit_entry:
    @pl.function(type=pl.FunctionType.InCore)
    def kern(self, x: pl.Tensor[[n], pl.FP32]):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def entry(self, x: pl.Tensor[[n], pl.FP32]):
        self.kern(x)
)py");
  CHECK(read(text, ps[1]).name == "Plain");
}

TEST_CASE("jit_decorator: pypto's JIT decorators and what each takes in") {
  using text_detail::jit_decorator;
  using text_detail::jit_kind;
  using text_detail::jit_takes;
  const std::pair<std::string_view, jit_kind> cases[] = {
      {"@pl.jit", jit_kind::orchestration},
      {"@ pl . jit (auto_scope=False)", jit_kind::orchestration},
      {"@pl.jit.host", jit_kind::host},
      {"@pl.jit.incore(level=pl.Level.AIC)", jit_kind::incore},
      {"@pl.jit.inline", jit_kind::inline_},
      {"@pl.jit.opaque()", jit_kind::opaque},
      {"@pl.jit.extern(core_type=\"aic\")", jit_kind::extern_},
      {"@pl.jit.kernel", jit_kind::other},
      {"@pl.jitter", jit_kind::none},
      {"@pl.jit.host.x", jit_kind::none},
      {"@jit.host", jit_kind::none},
      {"pl.jit", jit_kind::none},
  };
  for (const auto& c : cases) {  // (no structured binding: clang 14 cannot capture one in CAPTURE's lambda)
    CAPTURE(c.first);
    CHECK(jit_decorator(c.first) == c.second);
  }
  CHECK(jit_takes(jit_kind::host, jit_kind::orchestration));
  CHECK_FALSE(jit_takes(jit_kind::orchestration, jit_kind::orchestration));
  CHECK_FALSE(jit_takes(jit_kind::host, jit_kind::host));
  CHECK(jit_takes(jit_kind::incore, jit_kind::inline_));
  CHECK(jit_takes(jit_kind::orchestration, jit_kind::extern_));
  CHECK_FALSE(jit_takes(jit_kind::host, jit_kind::other));
}

TEST_CASE("a JIT decorator inside a JIT function's body is that body's text, and no entry of its own") {
  const std::string text = R"py(import pypto.language as pl


@pl.jit.incore
def kern(x):
    A = 4

    @pl.jit
    def inner(x: pl.Tensor[[A], pl.FP32]):
        return kern(x)

    return x
)py";
  const auto ps = locate_programs(text);
  REQUIRE(ps.size() == 1);
  CHECK(ps[0].name == "_jit_kern");
  CHECK(ps[0].jit_functions == std::vector<std::string>{"kern"});
  const program p = read(text, ps[0]);
  REQUIRE(p.functions.size() == 1);
  CHECK(printed(p) == R"py(import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class _jit_kern:
    @pl.function(type=pl.FunctionType.InCore)
    def kern(self, x):
        A = 4

        @pl.jit
        def inner(x: pl.Tensor[[A], pl.FP32]):
            return self.kern(x)

        return x
)py");
}

}  // namespace
