// Tests for the parser of neuronrw/ir/host/text.hpp on bad input: every error is
// `FILE:LINE:COL: error: MESSAGE` with the exact text below, never a crash, never a partial
// program; then deterministic mutations of every corpus program and example (a small fuzzer).
#include <neuronrw/ir/host/hash.hpp>
#include <neuronrw/ir/host/text.hpp>

#include <doctest/doctest.h>

#include "support/files.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace neuronrw;
using namespace neuronrw::host;

struct error_case {
  std::string input;
  std::string expected;
};

const std::string H =
    "@pl.program\nclass P:\n    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n    def f(self, a):\n";
/// An empty program, after module lines.
const std::string P = "@pl.program\nclass P:\n    pass\n";

std::vector<error_case> cases() {
  return {
    {"",
     "e.py:1:1: error: expected '@' at the start of the program (@pl.program), got end of input"},
    {"@pl.program\n",
     "e.py:2:1: error: expected 'class', got end of input"},
    {"@pl.programs\nclass P:\n    pass\n",
     "e.py:1:2: error: expected 'pl.program' (a program decorator), got 'pl.programs'"},
    {"@pl.program\nclass P\n    pass\n",
     "e.py:2:8: error: expected ':' after the class name, got end of line"},
    {"@pl.program\nclass P:\npass\n",
     "e.py:3:1: error: expected an indented class body, got 'pass'"},
    // Python's keywords (and `self`) name no program and no function: the printer would have to
    // rename them, so the round trip would not be exact (found by fuzz_host_roundtrip).
    {"@pl.program\nclass yield:\n    pass\n",
     "e.py:2:7: error: cannot bind the reserved name 'yield'"},
    {"@pl.program\nclass P:\n    @pl.function\n    def class(self):\n        pass\n",
     "e.py:4:9: error: cannot bind the reserved name 'class'"},
    // Python around a program is not read (locate.hpp); a second program is read on its own.
    {"@pl.program\nclass P:\n    pass\nx = 1\n@pl.program\nclass Q:\n    pass\n",
     "e.py:5:1: error: a second @pl.program class 'Q' (the first is at line 1): a program is read on its own "
     "(neuronrw-opt reads each of a file in turn)"},
    // pypto's JIT functions (docs/host-programs.md §"pypto's JIT functions"): a program per entry;
    // none when every one is called by another; what the file cannot give is an error.
    {"def f():\n    return x != 1\n\n\n@pl.jit.incore\ndef g(x):\n    return h(x)\n\n\n@pl.jit.incore\ndef h(x):\n"
     "    return g(x)\n",
     "e.py:5:1: error: no @pl.program class, and no @pl.jit function that no other calls (pypto's JIT builds a program "
     "from such an entry and the JIT functions it calls)"},
    {"import pypto.language as pl\n@pl.jit\ndef f(a: pl.Tensor, b: pl.Tensor[[4], pl.FP32]):\n    return a\n",
     "e.py:3:10: error: parameter 'a': a bare pl.Tensor takes its shape and dtype from the tensor the @pl.jit function is "
     "called with, which the file does not hold; give them (pl.Tensor[[64, 128], pl.FP32]) to read the function without "
     "a call"},
    {"@pl.jit.incore\ndef f(a: pl.Tensor[[4], pl.FP32], d: pl.Out[pld.DistributedTensor]):\n    return a\n",
     "e.py:2:45: error: parameter 'd': a bare pld.DistributedTensor takes its shape and dtype from the tensor the @pl.jit "
     "function is called with, which the file does not hold; give them (pld.DistributedTensor[[64, 128], pl.FP32]) to "
     "read the function without a call"},
    {"@pl.jit.host\ndef f(n: pl.INDEX):\n    return n\n",
     "e.py:2:10: error: parameter 'n': a scalar annotated pl.INDEX takes the value the @pl.jit function is called with, "
     "which the file does not hold; annotate it pl.Scalar[pl.INDEX] to read it as a parameter"},
    {"@pl.jit.extern(core_type=\"aic\", source=\"k.cpp\")\ndef f(a):\n    ...\n",
     "e.py:1:1: error: pypto's @pl.jit.extern kernels (C++ sources named by the decorator) are not read"},
    {"@pl.jit.kernel\ndef f(a):\n    return a\n",
     "e.py:1:1: error: unknown JIT decorator '@pl.jit.kernel' (pypto's are @pl.jit, @pl.jit.host, @pl.jit.incore, "
     "@pl.jit.inline, @pl.jit.opaque and @pl.jit.extern)"},
    {"@pl.jit.incore(auto_scope=False)\ndef f(a):\n    return a\n",
     "e.py:1:16: error: @pl.jit.incore does not accept an auto_scope= argument (auto_scope is only meaningful for the "
     "Orchestration entry, the HOST orchestrator, and inline sub-functions)"},
    {"@pl.jit.host(level=pl.Level.HOST)\ndef f(a):\n    return a\n",
     "e.py:1:14: error: @pl.jit.host does not accept a level= argument"},
    {"@pl.jit(target=1)\ndef f(a):\n    return a\n", "e.py:1:9: error: @pl.jit got an unexpected keyword argument 'target'"},
    {"@pl.jit.host(auto_scope=0)\ndef f(a):\n    return a\n", "e.py:1:25: error: expected True or False for auto_scope="},
    {"@pl.jit.inline(auto_scope=False, auto_scope=True)\ndef f(a):\n    return a\n",
     "e.py:1:34: error: duplicate keyword 'auto_scope'"},
    {"@pl.jit.incore\ndef k(a):\n    return a\n@pl.jit\ndef f(a):\n    return k(a, device=0)\n@pl.jit\ndef g(a):\n"
     "    return a\n",
     "e.py:7:1: error: a second program, the JIT entry 'g' (the first is at line 4): a program is read on its own "
     "(neuronrw-opt reads each of a file in turn)"},
    {"x = 1\nif x:\n    pass\n",
     "e.py:2:1: error: expected '@' at the start of the program (@pl.program), got 'if'"},
    {"@pl.program\nclass P:\n    @pl.function(level=pl.Level.HOST, level=pl.Level.CHIP)\n    def f(self):\n        pass\n",
     "e.py:3:39: error: duplicate keyword 'level'"},
    {"@pl.program\nclass P:\n    @pl.function(color=pl.Level.HOST)\n    def f(self):\n        pass\n",
     "e.py:3:18: error: unknown @pl.function keyword 'color' (expected type, level, role, attrs, strict_ssa, auto_scope or external_source)"},
    {"@pl.program\nclass P:\n    @pl.function(level=HOST)\n    def f(self):\n        pass\n",
     "e.py:3:24: error: expected pl.Level.NAME, got 'HOST'"},
    {"@pl.program\nclass P:\n    @pl.function\n    def f(a):\n        pass\n",
     "e.py:4:11: error: expected 'self', got 'a'"},
    {"@pl.program\nclass P:\n    @pl.function\n    def f(self, a, a):\n        pass\n",
     "e.py:4:20: error: duplicate parameter 'a'"},
    {"@pl.program\nclass P:\n    @pl.function\n    def f(self):\n        pass\n\n    @pl.function\n    def f(self):\n        pass\n",
     "e.py:8:9: error: duplicate function 'f'"},
    // A kernel kept as written is a function like any other: its name is not a second time free
    // (the reader's rollback of a failed read once forgot the earlier function's name).
    {"@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n    def k(self):\n        pass\n\n"
     "    @pl.function(type=pl.FunctionType.InCore)\n    def k(self):\n        x = ~1\n",
     "e.py:8:9: error: duplicate function 'k'"},
    {"@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n    def k(self):\n        x = ~1\n\n"
     "    @pl.function(type=pl.FunctionType.InCore)\n    def k(self):\n        pass\n",
     "e.py:8:9: error: duplicate function 'k'"},
    {H + "        x = y\n",
     "e.py:5:13: error: undefined variable 'y'"},
    {H + "        self.g(a)\n",
     "e.py:5:9: error: call of undefined function 'g'"},
    {H + "        x = foo(a)\n",
     "e.py:5:13: error: call of the bare name 'foo': ops are dotted (pld.tensor.window) and functions are called as self.foo(...) (or defined outside the class with @pl.function or @pl.inline)"},
    {H + "      x = 1\n        y = 2\n",
     "e.py:6:9: error: unexpected indent"},
    {H + "        x = 1\n          y = 2\n",
     "e.py:6:11: error: unexpected indent"},
    {H + "        x = 1\n      y = 2\n",
     "e.py:6:7: error: unindent does not match any outer indentation level"},
    {H + "\tx = 1\n",
     "e.py:5:1: error: tab in indentation (indent with spaces)"},
    {H + "        x = (1\n",
     "e.py:5:13: error: '(' was never closed"},
    {H + "        x = [1)\n",
     "e.py:5:15: error: closing ')' does not match '['"},
    {H + "        x = 1]\n",
     "e.py:5:14: error: unmatched ']'"},
    {H + "        x = \"abc\n",
     "e.py:5:13: error: unterminated string literal"},
    {H + "        x = \"a\\qb\"\n",
     "e.py:5:15: error: unknown escape sequence '\\q'"},
    {H + "        x = \"a\\x4\"\n",
     "e.py:5:15: error: invalid \\x escape (two hex digits expected)"},
    {H + "        x = 12abc\n",
     "e.py:5:13: error: invalid number literal (integers: 12, 0x1F, 0o17, 0b101, 1_000; floats: 1.0, 1e-3)"},
    {H + "        x = 1.5j\n",
     "e.py:5:13: error: invalid number literal (integers: 12, 0x1F, 0o17, 0b101, 1_000; floats: 1.0, 1e-3)"},
    {H + "        x = a[0:1:2:3]\n",
     "e.py:5:20: error: expected ']' to close the subscript, got ':'"},
    {H + "        x = 0:1\n",
     "e.py:5:14: error: expected end of line, got ':'"},
    {H + "        x = a[0\n",
     "e.py:5:14: error: '[' was never closed"},
    {H + "        x = a[]\n",
     "e.py:5:15: error: expected an expression, got ']'"},
    // What the lexer does not know is an error where a host function reads it (a kernel may hold it).
    {H + "        x = a ! 1\n",
     "e.py:5:15: error: unexpected character '!'"},
    {H + "        x = a $ 1\n",
     "e.py:5:15: error: unexpected character '$'"},
    {H + "        x = 0x1G\n",
     "e.py:5:13: error: invalid number literal (integers: 12, 0x1F, 0o17, 0b101, 1_000; floats: 1.0, 1e-3)"},
    {H + "        x = 2j + 1\n",
     "e.py:5:13: error: invalid number literal (integers: 12, 0x1F, 0o17, 0b101, 1_000; floats: 1.0, 1e-3)"},
    {H + "        x = a <<< 1\n",
     "e.py:5:17: error: expected an expression, got '<'"},
    {H + "        x = a ~ 1\n",
     "e.py:5:15: error: expected end of line, got '~'"},
    {H + "        x = a ** \n",
     "e.py:5:18: error: expected an expression, got end of line"},
    {H + "        x = a < 1 < 2\n",
     "e.py:5:19: error: a chained comparison (a < b < c) is not in the host-program grammar: write (a < b) and (b < c)"},
    {H + "        x = 1\n        y = r\"\\d\"\n",
     "e.py:6:15: error: unknown escape sequence '\\d'"},
    {"@pl.program\nclass P:\n    @pl.function(level=pl.Level.HOST, inline=True)\n    def f(self):\n        pass\n",
     "e.py:3:39: error: unknown @pl.function keyword 'inline' (expected type, level, role, attrs, strict_ssa, auto_scope or external_source)"},
    {"@pl.program\nclass P:\n    @pl.function(strict_ssa=True, strict_ssa=False)\n    def f(self):\n        pass\n",
     "e.py:3:35: error: duplicate keyword 'strict_ssa'"},
    {"@pl.program\nclass P:\n    @pl.function(attrs={}, attrs={})\n    def f(self):\n        pass\n",
     "e.py:3:28: error: duplicate keyword 'attrs'"},
    {"@pl.program\nclass P:\n    @pl.function(external_source=cpp)\n    def f(self):\n        pass\n",
     "e.py:3:34: error: undefined variable 'cpp'"},
    {"@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n    def f(self):\n    x = 1\n",
     "e.py:5:5: error: expected an indented function body, got 'x'"},
    {H + "        x = $\n",
     "e.py:5:13: error: unexpected character '$'"},
    {H + "        x = \x01\n",
     "e.py:5:13: error: unexpected byte 0x01"},
    {H + "        x = 99999999999999999999\n",
     "e.py:5:13: error: integer literal out of range"},
    {H + "        x = 9223372036854775808\n",
     "e.py:5:13: error: integer literal out of range"},
    {H + "        x = -\n",
     "e.py:5:14: error: expected an expression, got end of line"},
    {H + "        self = 1\n",
     "e.py:5:9: error: cannot bind the reserved name 'self'"},
    {H + "        True = 1\n",
     "e.py:5:9: error: cannot bind the reserved name 'True'"},
    {H + "        for i in range(4):\n            pass\n",
     "e.py:5:18: error: expected a loop iterator (pl.range, pl.parallel, pl.unroll, pl.pipeline, pl.spmd, pl.split_aiv, pl.while_), got 'range'"},
    {H + "        for i in pl.spmd(1, 2):\n            pass\n",
     "e.py:5:30: error: pl.spmd takes one count (pl.spmd(n, ...))"},
    {H + "        for i in pl.parallel(4, chunk=1, chunk=2):\n            pass\n",
     "e.py:5:42: error: duplicate keyword 'chunk'"},
    {H + "        for i in pl.range(stage=2, 4):\n            pass\n",
     "e.py:5:36: error: positional argument follows keyword argument"},
    {H + "        for i, (x, x) in pl.range(4, init_values=(a, a)):\n            pass\n",
     "e.py:5:20: error: duplicate loop variable 'x'"},
    {H + "        for i, () in pl.range(4):\n            pass\n",
     "e.py:5:17: error: expected a carried variable, got ')'"},
    {H + "        for i, (x,) in pl.range(4):\n            pass\n",
     "e.py:5:24: error: a loop with carried variables needs init_values=(...), one value each"},
    {H + "        for i, (x,) in pl.range(4, init_values=(a, a)):\n            pass\n",
     "e.py:5:48: error: init_values has 2 values for 1 carried variable"},
    {H + "        if a:\n            pass\n        else\n            pass\n",
     "e.py:7:13: error: expected ':' to open a block, got end of line"},
    {H + "        x, x = a\n",
     "e.py:5:12: error: duplicate assignment target 'x'"},
    {H + "        x, y\n",
     "e.py:5:13: error: expected '=' after the assignment targets, got end of line"},
    {H + "        break x\n",
     "e.py:5:15: error: expected end of line, got 'x'"},
    {H + "        for i in pl.range():\n            pass\n",
     "e.py:5:27: error: pl.range takes 1 to 3 bounds (stop | start, stop[, step])"},
    {H + "        for i in pl.range(1, 2, 3, 4):\n            pass\n",
     "e.py:5:37: error: pl.range takes 1 to 3 bounds (stop | start, stop[, step])"},
    {H + "        for i in pl.range(4): pass\n",
     "e.py:5:31: error: expected end of line, got 'pass'"},
    {H + "        for i in pl.range(4):\n        pass\n",
     "e.py:6:9: error: expected an indented block, got 'pass'"},
    {H + "        for i, (c,) in pl.range(4, init_values=(a,)):\n            x = i\n        y = x\n",
     "e.py:7:13: error: undefined variable 'x'"},
    {H + "        with pl.scope() as (b, c):\n            pass\n",
     "e.py:5:28: error: expected a name after 'as', got '('"},
    {H + "        with pl._dump.comm_domain(name=\"a\", name=\"b\"):\n            pass\n",
     "e.py:5:45: error: duplicate keyword 'name'"},
    {H + "        with pl._dump.comm_domain(colour=1):\n            pass\n",
     "e.py:5:35: error: unknown pl._dump.comm_domain keyword 'colour'"},
    {H + "        with pl._dump.comm_domain(devices=[a]):\n            pass\n",
     "e.py:5:44: error: expected a device number, got 'a'"},
    {H + "        x = pld.op(a, k=1, a)\n",
     "e.py:5:28: error: positional argument follows keyword argument"},
    {H + "        x = pld.op(k=1, k=2)\n",
     "e.py:5:25: error: duplicate keyword argument 'k'"},
    {H + "        x = pld.op(attrs={\"a\": 1, \"a\": 2})\n",
     "e.py:5:35: error: duplicate key \"a\""},
    {H + "        x = pld.op(attrs={1: 2})\n",
     "e.py:5:27: error: expected a string key, got '1'"},
    {H + "        self.f(a, device=0, attrs={\"device\": 1})\n",
     "e.py:5:9: error: duplicate attribute 'device' (device= and attrs={\"device\": ...})"},
    {H + "        x: pl.Foo = 1\n",
     "e.py:5:12: error: unknown type 'pl.Foo'"},
    {H + "        x: pl.Tensor[[n], pl.FP32] = 1\n",
     "e.py:5:23: error: undefined variable 'n'"},
    {H + "        x: pl.Tensor[[4], FP32] = 1\n",
     "e.py:5:27: error: expected a dtype pl.NAME, got 'FP32'"},
    {H + "        x: pl.Tensor[[4.], pl.FP32] = 1\n",
     "e.py:5:23: error: a shape dimension is an integer expression, not a float or a condition"},
    {H + "        x: pl.Tile[[a > 1], pl.FP32] = 1\n",
     "e.py:5:23: error: a shape dimension is an integer expression, not a float or a condition"},
    {H + "        x = pl._dump.window_ref(\"w\")\n",
     "e.py:5:13: error: pl._dump.window_ref(...) is only valid in a type or in the slots of pl._dump.comm_domain"},
    {H + "        x = pl._dump.comm_domain()\n",
     "e.py:5:13: error: pl._dump.comm_domain(...) is only valid in a with statement"},
    {H + "        x = pl._dump.nothing()\n",
     "e.py:5:13: error: unknown form 'pl._dump.nothing'"},
    {H + "        x = 1\n        pl._dump.window_buffer(\"w\", base=\"x\", size=1)\n",
     "e.py:6:9: error: pl._dump.window_buffer(...) must come before the statements of a function body"},
    {H + "        x: pld.DistributedTensor[[4], pl.FP32, pl._dump.window_ref(\"w\")] = 1\n",
     "e.py:5:48: error: undefined window reference \"w\""},
    {H + "        pl._dump.window_buffer(\"w\", base=\"a\", size=1)\n        pl._dump.window_buffer(\"w\", base=\"a\", size=1)\n        pass\n",
     "e.py:6:32: error: duplicate window \"w\""},
    // pypto's parser rejects an empty label too (issue 13 item 8).
    {H + "        pl._dump.window_buffer(\"\", base=\"a\", size=1)\n        pass\n",
     "e.py:5:32: error: a window label must not be empty"},
    {H + "        x: pld.DistributedTensor[[4], pl.FP32, pl._dump.window_ref('')] = 1\n",
     "e.py:5:68: error: a window label must not be empty"},
    {H + "        pl._dump.window_buffer(\"w\", base=\"a\", size=1)\n        pl._dump.window_buffer(\"w\", base=\"a\", size=2)\n        pass\n",
     "e.py:6:32: error: conflicting window \"w\": declared again with a different base, size or flags"},
    {H + "        pl._dump.window_buffer(\"w\", base=\"zz\", size=1)\n        pass\n",
     "e.py:5:9: error: window \"w\": base 'zz' is not defined in function 'f'"},
    {H + "        pl._dump.window_buffer(\"w\", base=\"x\", size=1)\n        x = 1\n        x = 2\n",
     "e.py:5:9: error: window \"w\": base 'x' is ambiguous (bound 2 times in function 'f')"},
    {H + "        pl._dump.window_buffer(\"w\", base=\"a\", size=n)\n        pass\n",
     "e.py:5:52: error: window \"w\": size variable 'n' is not defined in function 'f'"},
    {H + "        pl._dump.window_buffer(\"w\", size=1)\n        pass\n",
     "e.py:5:9: error: pl._dump.window_buffer(\"w\") needs base="},
    {H + "        pl._dump.window_buffer(\"w\", base=\"a\")\n        pass\n",
     "e.py:5:9: error: pl._dump.window_buffer(\"w\") needs size="},
    {H + "        pl._dump.window_buffer(\"w\", base=\"a\", size=1, load_from_host=1)\n        pass\n",
     "e.py:5:70: error: expected True or False, got '1'"},
    {H + "        pl._dump.window_buffer(\"w\", base=\"a\", size=1, colour=1)\n        pass\n",
     "e.py:5:55: error: unknown pl._dump.window_buffer keyword 'colour'"},
    {H + "        pl._dump.window_buffer(\"w\", base=\"a\", size=1, size=2)\n        pass\n",
     "e.py:5:55: error: duplicate keyword 'size'"},
    {H + "        with pl._dump.comm_domain(slots=[pl._dump.window_ref(\"nope\")]):\n            pass\n",
     "e.py:5:42: error: undefined window reference \"nope\""},
    {H + "        x = pl._dump.call(\"op\", [a])\n",
     "e.py:5:36: error: expected ',' before the result type, got ')'"},
    {H + "        x = pl._dump.call(a, [a], pl.Ptr)\n",
     "e.py:5:27: error: expected an op name string or self.FUNCTION, got 'a'"},
    {H + "        x = pl._dump.call(\"op\", [a], pl.Ptr, kwargs={}, kwargs={})\n",
     "e.py:5:57: error: duplicate keyword 'kwargs'"},
    {H + "        x = pl._dump.call(\"op\", [a], pl.Ptr, other={})\n",
     "e.py:5:46: error: unknown pl._dump.call keyword 'other'"},
    {H + "        x = pl._dump.alloc_window_buffer(64)\n",
     "e.py:5:44: error: expected ',' after the size, got ')'"},
    {H + "        x = pl._dump.alloc_window_buffer(64, name=x)\n",
     "e.py:5:51: error: expected the allocation name string, got 'x'"},
    // pypto's shape form of an allocation and its errors (pypto's words); a dimension is located
    // at its expression (an operator's, for arithmetic), the other errors at the call or dtype=.
    {H + "        x = pld.alloc_window_buffer([64, 128])\n",
     "e.py:5:13: error: pld.tensor.alloc_window_buffer requires dtype= when the first argument is a shape (list / "
     "tuple of per-rank dimensions)"},
    {H + "        x = pld.tensor.alloc_window_buffer([64], pl.FP32)\n",
     "e.py:5:13: error: pld.tensor.alloc_window_buffer requires dtype= when the first argument is a shape (list / "
     "tuple of per-rank dimensions)"},
    {H + "        x = pld.alloc_window_buffer(64, dtype=pl.FP32)\n",
     "e.py:5:47: error: pld.tensor.alloc_window_buffer dtype= is only valid when the first argument is a shape (list "
     "/ tuple), not a scalar byte size"},
    {H + "        x = pld.alloc_window_buffer([], dtype=pl.FP32)\n",
     "e.py:5:37: error: pld.tensor.alloc_window_buffer shape must be non-empty"},
    {H + "        x = pld.alloc_window_buffer([64, 2 - 3], dtype=pl.FP32)\n",
     "e.py:5:44: error: pld.tensor.alloc_window_buffer shape dimension[1] is -1; all dimensions must be positive"},
    {H + "        x = pld.alloc_window_buffer((a, 0), dtype=pl.FP32)\n",
     "e.py:5:41: error: pld.tensor.alloc_window_buffer shape dimension[1] is 0; all dimensions must be positive"},
    {H + "        x = pld.alloc_window_buffer([64], dtype=pl.INT4)\n",
     "e.py:5:49: error: pld.tensor.alloc_window_buffer dtype= must be a pypto dtype with a whole byte size (pl.FP32, "
     "pl.INT8, ...), got 'pl.INT4'"},
    {H + "        x = pld.alloc_window_buffer([64], dtype=a)\n",
     "e.py:5:49: error: pld.tensor.alloc_window_buffer dtype= must be a pypto dtype with a whole byte size (pl.FP32, "
     "pl.INT8, ...), got an expression that is none"},
    {H + "        x = pld.alloc_window_buffer([2**40, 2**40], dtype=pl.FP32)\n",
     "e.py:5:13: error: pld.tensor.alloc_window_buffer size in bytes does not fit in 64 bits"},
    {H + "        x = pld.alloc_window_buffer([1 // 0], dtype=pl.FP32)\n",
     "e.py:5:40: error: division by zero in '//' (1 // 0)"},
    {H + "        x = pl.a.\n",
     "e.py:5:18: error: expected a name after '.', got end of line"},
    {H + "        return a,\n",
     "e.py:5:18: error: expected an expression, got end of line"},
    {"import os(\n@pl.program\nclass P:\n    pass\n",
     "e.py:1:10: error: '(' was never closed"},
    {H + "        x = " + std::string(300, '[') + std::string(300, ']') + "\n",
     "e.py:5:213: error: nesting too deep"},

    // Module constants: evaluated as Python's integers on int64; every error is located at the
    // operator (or operand) at fault.
    {"A = 9223372036854775807 + 1\n" + P,
     "e.py:1:25: error: integer overflow in '+' (9223372036854775807 + 1)"},
    {"L = -9223372036854775807 - 2\n" + P,
     "e.py:1:26: error: integer overflow in '-' (-9223372036854775807 - 2)"},
    {"K = 3 * 3074457345618258603\n" + P,
     "e.py:1:7: error: integer overflow in '*' (3 * 3074457345618258603)"},
    {"B = 1 // 0\n" + P,
     "e.py:1:7: error: division by zero in '//' (1 // 0)"},
    {"C = 5 % 0\n" + P,
     "e.py:1:7: error: modulo by zero in '%' (5 % 0)"},
    {"M = 2 * (1 // 0) + 3\n" + P,
     "e.py:1:12: error: division by zero in '//' (1 // 0)"},
    {"D = -9223372036854775808 // -1\n" + P,
     "e.py:1:26: error: integer overflow in '//' (-9223372036854775808 // -1)"},
    {"MIN = -9223372036854775807 - 1\nE = MIN // -1\n" + P,
     "e.py:2:9: error: integer overflow in '//' (-9223372036854775808 // -1)"},
    {"Z = 0\nF = 6 // Z\n" + P,
     "e.py:2:7: error: division by zero in '//' (6 // 0)"},
    {"F = 6 / 2\n" + P,
     "e.py:1:7: error: '/' is true division, whose value is a float (6 / 2): an integer constant uses '//'"},
    {H + "        y: pl.Tensor[[a / 2], pl.FP32] = 1\n",
     "e.py:5:25: error: '/' is true division, whose value is a float: a shape dimension uses '//'"},
    {H + "        y: pl.Tensor[[(a / 2) * 2], pl.FP32] = 1\n",
     "e.py:5:26: error: '/' is true division, whose value is a float: a shape dimension uses '//'"},
    {"F = 2 ** 64\n" + P,
     "e.py:1:7: error: integer overflow in '**' (2 ** 64)"},
    {"G = H + 1\n" + P,
     "e.py:1:5: error: undefined variable 'H'"},
    {"SIZE = 1\nSIZE2 = SIZE + Q\n" + P,
     "e.py:2:16: error: undefined variable 'Q'"},
    {"I = pl.INT4.get_byte()\n" + P,
     "e.py:1:5: error: 'pl.INT4' has no whole byte size (get_byte)"},
    {H + "        x = 2 * pl.UINT4.get_byte()\n",
     "e.py:5:17: error: 'pl.UINT4' has no whole byte size (get_byte)"},
    {H + "        x = pl.FP32.get_byte(1)\n",
     "e.py:5:30: error: expected ')' (get_byte takes no arguments), got '1'"},
    {"J = 1\nJ = 2\n" + P,
     "e.py:2:1: error: duplicate module constant 'J'"},
    {"S = \"x\"\n" + P,
     "e.py:1:5: error: a module constant must be an integer expression"},
    {"T = (1, 2)\n" + P,
     "e.py:1:5: error: a module constant must be an integer expression"},
    {"class = 1\n" + P,
     "e.py:1:1: error: cannot bind the reserved name 'class'"},
    {"A = 1 +\n" + P,
     "e.py:1:8: error: expected an expression, got end of line"},

    // A function type implies a level and a role (pypto's Function): a different explicit one is
    // an error at the decorator.
    {"@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.HOST)\n"
     "    def f(self):\n        pass\n",
     "e.py:3:5: error: Function has func_type=Orchestration which implies level=CHIP, but explicit level=HOST was provided"},
    {"@pl.program\nclass P:\n    @pl.function(level=pl.Level.HOST, type=pl.FunctionType.Graph)\n"
     "    def f(self):\n        pass\n",
     "e.py:3:5: error: Function has func_type=Graph which implies level=CHIP, but explicit level=HOST was provided"},
    {"@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.Orchestration, role=pl.Role.Worker)\n"
     "    def f(self):\n        pass\n",
     "e.py:3:5: error: Function has func_type=Orchestration which implies role=Orchestrator, but explicit role=Worker was "
     "provided"},
    {"@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.Graph, type=pl.FunctionType.Graph)\n"
     "    def f(self):\n        pass\n",
     "e.py:3:46: error: duplicate keyword 'type'"},
    {"@pl.program\nclass P:\n    @pl.function(type=FunctionType.Orchestration)\n    def f(self):\n        pass\n",
     "e.py:3:23: error: expected pl.FunctionType.NAME, got 'FunctionType.Orchestration'"},

    // Directions, tuple types, triple-quoted strings.
    {"@pl.program\nclass P:\n    @pl.function\n    def f(self, o: pl.Out[pl.Tensor[[4], pl.FP32]:\n        pass\n",
     "e.py:4:26: error: '[' was never closed"},
    {"@pl.program\nclass P:\n    @pl.function\n    def f(self, o: pl.InOut[pl.Tensor[[4], pl.FP32], 1]):\n        pass\n",
     "e.py:4:52: error: expected ']' to close pl.InOut[, got ','"},
    {"@pl.program\nclass P:\n    @pl.function\n    def f(self) -> pl.Tuple[pl.Ptr pl.Ptr]:\n        pass\n",
     "e.py:4:36: error: expected ']' to close pl.Tuple[, got 'pl'"},
    {"@pl.program\nclass P:\n    @pl.function\n    def f(self) -> pl.Tuple(pl.Ptr):\n        pass\n",
     "e.py:4:28: error: expected '[' after pl.Tuple, got '('"},
    {"@pl.program\nclass P:\n    @pl.function\n    def f(self) -> tuple[pl.Foo]:\n        pass\n",
     "e.py:4:26: error: unknown type 'pl.Foo'"},
    {H + "        x = \"\"\"abc\n\n",
     "e.py:5:13: error: unterminated string literal"},
    {H + "        \"\"\"doc\n\n        \"\"\"\n        return b\n",
     "e.py:8:16: error: undefined variable 'b'"},
  };
}

TEST_CASE("bad input: exact located errors") {
  for (const error_case& c : cases()) {
    INFO("input:\n" << c.input);
    auto r = parse_program(c.input, "e.py");
    CHECK_FALSE(r.ok());
    CHECK_FALSE(r.value.has_value());
    CHECK(r.error.str() == c.expected);
  }
}

TEST_CASE("first_line numbers the text's lines from a later line of a file; columns stay") {
  // A --split-input-file chunk is parsed where it stands, with its first line's number.
  const std::string bad = "@pl.program\nclass P:\n    def f(self\n";
  auto r = parse_program(bad, "e.py", 30);
  CHECK_FALSE(r.ok());
  CHECK(r.error.str() == "e.py:32:10: error: '(' was never closed");
  CHECK(parse_program(bad, "e.py").error.loc == source_loc{3, 10});
  CHECK(parse_program(bad, "e.py", 0).error.loc == source_loc{3, 10});
  // The lexer's line count goes on from first_line across comments and blank lines.
  auto r2 = parse_program("# c\n\n@pl.program\nclass P:\n    pass\n    x\n", "e.py", 1000);
  CHECK_FALSE(r2.ok());
  CHECK(r2.error.loc.line == 1005);
  auto ok = parse_program("\n" + P, "e.py", 9);
  CHECK(ok.ok());
}

TEST_CASE("module constants: the overflow of unary minus is located; arithmetic in functions is not evaluated") {
  // `-X` where X is INT64_MIN: located at the minus. (The message shows the operation as
  // `--9223372036854775808`, the operand's digits after the operator, not asserted here.)
  auto r = parse_program("X = -9223372036854775807 - 1\nY = -X\n" + P, "e.py");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error.loc == source_loc{2, 5});
  CHECK(r.error.message.starts_with("integer overflow in '-' ("));
  r = parse_program("Y = -(-9223372036854775807 - 1)\n" + P, "e.py");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error.loc == source_loc{1, 5});
  CHECK(r.error.message.starts_with("integer overflow in '-' ("));
  // The largest and smallest values are fine; INT64_MIN % -1 is 0, as in Python.
  r = parse_program("MAX = 9223372036854775807\nMIN = -MAX - 1\nR = MIN % -1\nQ = MIN // 1\n" + P, "e.py");
  REQUIRE(r.ok());
  CHECK(r.value->constants[1].evaluated == std::numeric_limits<std::int64_t>::min());
  CHECK(r.value->constants[2].evaluated == 0);
  CHECK(r.value->constants[3].evaluated == std::numeric_limits<std::int64_t>::min());
  // In a function, integer expressions are kept as written, not evaluated: a division by zero
  // there is no error of the reader's.
  r = parse_program(H + "        x = 1 // 0\n        y = 9223372036854775807 + 1\n        return x % 0, y\n", "e.py");
  INFO(r.error.str());
  REQUIRE(r.ok());
  CHECK(r.value->functions[0]->body[0]->value->kind == expr_kind::arith);
}

TEST_CASE("the window reference errors of SPEC 6: undefined, conflicting, duplicate") {
  const std::string decl = "        pl._dump.window_buffer(\"w\", base=\"a\", size=1, load_from_host=False, store_to_host=False)\n";
  auto err = [](const std::string& text) { return parse_program(text, "w.py").error.message; };
  CHECK(err(H + "        x: pld.DistributedTensor[[4], pl.FP32, pl._dump.window_ref(\"w\")] = a\n") ==
        "undefined window reference \"w\"");
  CHECK(err(H + decl + "        with pl._dump.comm_domain(slots=[pl._dump.window_ref(\"w\"), pl._dump.window_ref(\"v\")]):\n"
                       "            pass\n") == "undefined window reference \"v\"");
  CHECK(err(H + decl + decl + "        pass\n") == "duplicate window \"w\"");
  CHECK(err(H + decl + "        pl._dump.window_buffer(\"w\", base=\"a\", size=1, load_from_host=True, store_to_host=False)\n"
                       "        pass\n") ==
        "conflicting window \"w\": declared again with a different base, size or flags");
  // Referenced from a parameter type before its declaration: fine.
  const std::string fwd =
      "@pl.program\nclass P:\n    @pl.function\n    def f(self, v: pld.DistributedTensor[[4], pl.FP32, "
      "pl._dump.window_ref(\"w\")]):\n"
      "        pl._dump.window_buffer(\"w\", base=\"v\", size=1, load_from_host=False, store_to_host=False)\n"
      "        b = 1\n";
  auto ok = parse_program(fwd, "w.py");
  REQUIRE(ok.ok());
  CHECK(ok.value->functions[0]->params[0]->type.window->base == ok.value->functions[0]->params[0].get());
  // Labels belong to one function: another function cannot see them.
  CHECK(err(fwd + "\n    @pl.function\n    def g(self, u: pld.DistributedTensor[[4], pl.FP32, "
                  "pl._dump.window_ref(\"w\")]):\n        pass\n") == "undefined window reference \"w\"");
}

// ---------------------------------------------------------------------------------------- fuzzing

using neuronrw::testing::read_file;

std::vector<std::filesystem::path> seed_files() {
  std::vector<std::filesystem::path> out;
  for (const char* var : {"NEURONRW_CORPUS_DIR", "NEURONRW_TESTS_DIR"}) {
    const char* dir = std::getenv(var);
    if (!dir) continue;
    const std::filesystem::path root = std::string(var) == "NEURONRW_CORPUS_DIR"
                                           ? std::filesystem::path(dir) / "host"
                                           : std::filesystem::path(dir) / ".." / "examples" / "host";
    if (!std::filesystem::is_directory(root)) continue;
    for (auto& e : std::filesystem::directory_iterator(root))
      if (e.path().extension() == ".py") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// A small deterministic PRNG (xorshift64*), so every run mutates the same way.
struct rng {
  std::uint64_t s;
  std::uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 0x2545F4914F6CDD1Dull;
  }
  std::size_t below(std::size_t n) { return n ? static_cast<std::size_t>(next() % n) : 0; }
};

/// `loc` names a character of `text`, or the column just past a line's end (where a missing
/// token or the end of input is reported).
/// "\n", "\r\n" and a lone "\r" each end a line, as the lexer counts them (a mutation may insert
/// a "\r").
bool position_is_inside(const std::string& text, source_loc loc) {
  if (loc.line == 0 || loc.col == 0) return false;
  std::size_t line = 1, start = 0;
  for (std::size_t i = 0; i < text.size() && line < loc.line; ++i)
    if (text[i] == '\n' || text[i] == '\r') {
      if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      ++line;
      start = i + 1;
    }
  if (line != loc.line) return false;
  const std::size_t end = std::min(text.find_first_of("\r\n", start), text.size());
  return loc.col <= end - start + 1;
}

std::string mutate(std::string text, rng& r) {
  static const std::string_view pieces[] = {
      "(", ")", "[", "]", "{", "}", ",", ":", ".", "=", "-", "@", "\n", "    ", "\t", "\"", "'", "\\", "#",
      "pl._dump.window_ref(\"buf_window\")", "pl._dump.call(", "None", "-9223372036854775809", "self.", "\x00", "\xff",
      "with pl._dump.comm_domain(", "for r in pl.range(", "device=", "return", "pass", "0"};
  const int edits = 1 + static_cast<int>(r.below(3));
  for (int i = 0; i < edits && !text.empty(); ++i) {
    const std::size_t at = r.below(text.size());
    switch (r.below(5)) {
      case 0: text.erase(at, 1 + r.below(8)); break;
      case 1: text.insert(at, std::string(pieces[r.below(std::size(pieces))])); break;
      case 2: text[at] = static_cast<char>(r.below(256)); break;
      case 3: text.resize(at); break;
      default: {  // duplicate a line
        const std::size_t b = text.rfind('\n', at);
        const std::size_t e = text.find('\n', at);
        const std::size_t from = b == std::string::npos ? 0 : b + 1;
        text.insert(from, text.substr(from, (e == std::string::npos ? text.size() : e + 1) - from));
      }
    }
  }
  return text;
}

TEST_CASE("fuzz: mutated programs parse or fail cleanly; what parses round-trips") {
  const auto seeds = seed_files();
  REQUIRE_MESSAGE(!seeds.empty(), "set NEURONRW_CORPUS_DIR (meson test does)");
  rng r{0x9e3779b97f4a7c15ull};
  int parsed = 0, rejected = 0;
  for (const auto& path : seeds) {
    const std::string original = read_file(path);
    for (int round = 0; round < 120; ++round) {
      const std::string text = mutate(original, r);
      auto res = parse_program(text, "fuzz.py");
      if (!res.ok()) {
        ++rejected;
        INFO(res.error.str() << "\n" << text);
        CHECK(position_is_inside(text, res.error.loc));
        CHECK(res.error.str().rfind("fuzz.py:", 0) == 0);
        CHECK_FALSE(res.error.message.empty());
        continue;
      }
      ++parsed;
      const std::string printed = print_program(*res.value);
      auto again = parse_program(printed, "again.py");
      INFO(path.string() << " round " << round << "\n" << text);
      REQUIRE(again.ok());
      CHECK(structural_equal(*res.value, *again.value));
      CHECK(structural_hash(*res.value) == structural_hash(*again.value));
      CHECK(print_program(*again.value) == printed);
    }
  }
  MESSAGE(parsed << " mutants parsed, " << rejected << " rejected");
  CHECK(rejected > 0);
  CHECK(parsed > 0);
}

/// The seed programs of fuzz/ written in pypto's DSL (fuzz/regressions/host_roundtrip/seed_*.py).
std::vector<std::filesystem::path> dsl_seed_files() {
  std::vector<std::filesystem::path> out;
  const char* tests = std::getenv("NEURONRW_TESTS_DIR");
  if (!tests) return out;
  const auto dir = std::filesystem::path(tests) / ".." / "fuzz" / "regressions" / "host_roundtrip";
  if (!std::filesystem::is_directory(dir)) return out;
  for (auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().filename().string().starts_with("seed_")) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST_CASE("fuzz: mutated DSL programs (constants, arithmetic, tuples, types, directions) parse or fail cleanly") {
  const auto seeds = dsl_seed_files();
  REQUIRE_MESSAGE(seeds.size() >= 4, "set NEURONRW_TESTS_DIR (meson test does)");
  static const std::string_view pieces[] = {
      "//", "%", "*", "+", "-", "/", "(", ")", ",)", "()", "-(", "[", "]", ",", ":", "=", "\n", "    ", "\"\"\"", "'''",
      "SIZE", "SIZE = 256\n", "-9223372036854775808", "9223372036854775807", "0", ".get_byte()", "pl.INT4",
      "pl.FunctionType.Orchestration", "type=", "level=pl.Level.HOST", "pl.Out[", "pl.InOut[", "tuple[", "-> ",
      "pld.alloc_window_buffer(64)", "dist.", "pld.", "import pypto.language.distributed as dist\n", "name=\"x\"",
      "pld.alloc_window_buffer([64, n], dtype=pl.FP32)", ", dtype=pl.BF16", "[2, 3]"};
  rng r{0x243f6a8885a308d3ull};
  int parsed = 0, rejected = 0;
  for (const auto& path : seeds) {
    const std::string original = read_file(path);
    REQUIRE(parse_program(original, "seed.py").ok());
    for (int round = 0; round < 300; ++round) {
      std::string text = original;
      const int edits = 1 + static_cast<int>(r.below(3));
      for (int i = 0; i < edits && !text.empty(); ++i) {
        const std::size_t at = r.below(text.size());
        if (r.below(2)) text.insert(at, std::string(pieces[r.below(std::size(pieces))]));
        else text = mutate(std::move(text), r);
      }
      auto res = parse_program(text, "fuzz.py");
      INFO(path.filename().string() << " round " << round << "\n" << text);
      if (!res.ok()) {
        ++rejected;
        INFO(res.error.str());
        CHECK(position_is_inside(text, res.error.loc));
        CHECK(res.error.str().rfind("fuzz.py:", 0) == 0);
        CHECK_FALSE(res.error.message.empty());
        continue;
      }
      ++parsed;
      for (const auto& w : res.warnings) CHECK(position_is_inside(text, w.loc));
      const std::string printed = print_program(*res.value);
      auto again = parse_program(printed, "again.py");
      INFO(printed);
      REQUIRE(again.ok());
      CHECK(structural_equal(*res.value, *again.value));
      CHECK(structural_hash(*res.value) == structural_hash(*again.value));
      CHECK(print_program(*again.value) == printed);
    }
  }
  MESSAGE(parsed << " DSL mutants parsed, " << rejected << " rejected");
  CHECK(parsed > 0);
  CHECK(rejected > 0);
}

}  // namespace

TEST_CASE("\"\\n\", \"\\r\\n\" and a lone \"\\r\" are each one line end: comments, brackets, locations") {
  const std::string text =
      "# a comment\n"
      "@pl.program\n"
      "class P:  # after the class\n"
      "    @pl.function(level=pl.Level.HOST,  # inside the brackets\n"
      "                 role=pl.Role.Orchestrator)\n"
      "    def f(self, a):\n"
      "        # a comment line\n"
      "\n"
      "        return a\n";
  const std::string printed = print_program(*parse_program(text, "e.py").value);
  for (std::string_view nl : {"\n", "\r\n", "\r"}) {
    CAPTURE(nl.size());
    std::string t, bad;
    for (char c : text) {
      if (c == '\n') t += nl;
      else t += c;
    }
    auto r = parse_program(t, "e.py");
    INFO(r.error.str());
    REQUIRE(r.ok());
    CHECK(print_program(*r.value) == printed);
    bad = t.substr(0, t.find("return a")) + "return b" + std::string(nl);
    CHECK(parse_program(bad, "e.py").error.str() == "e.py:9:16: error: undefined variable 'b'");
    // A lone "\r" inside a string literal ends its line, as "\n" does.
    bad = t.substr(0, t.find("return a")) + "x = \"ab" + std::string(nl) + "\"" + std::string(nl);
    CHECK(parse_program(bad, "e.py").error.str() == "e.py:9:13: error: unterminated string literal");
  }
  CHECK(printed.find("return a\n") != std::string::npos);
}

TEST_CASE("a host program over 4 GiB is a located error before anything is read") {
  // Token offsets and columns are 32-bit (text.hpp, max_source_bytes). A 4 GiB + 1 view over
  // anonymous pages reserved without memory (MAP_NORESERVE: none is touched, as the parser must
  // refuse by size alone; reading a byte would fault a zero page in, not fail).
  const std::size_t size = std::size_t{0xFFFFFFFFu} + 1;
  void* p = mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    MESSAGE("skipped: the system refused to reserve 4 GiB of address space");
    return;
  }
  const auto r = neuronrw::host::parse_program(std::string_view(static_cast<const char*>(p), size), "huge.py");
  munmap(p, size);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error.str() == "huge.py:1:1: error: input too large (4294967296 bytes; at most 4294967295)");
}
