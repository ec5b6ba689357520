#!/usr/bin/env python3
"""scripts/pypto-coverage on a small tree whose every count is known.

Usage: pypto_coverage_test.py NEURONRW_OPT SOURCE_ROOT

The tree: a module with three programs (one reads and goes through MaterializeCommDomainScopes,
one reads but the pass refuses it, one does not read), a module with one program that fails to
read and one in a string (pl.parse text: not counted), a module whose only program stands in a
string (not counted, nor the file), a module without programs and a hidden directory (skipped);
and pypto's JIT front end: a module with three JIT entries (one goes through the pass, one reads
but the pass refuses it, one has a bare pl.Tensor) beside a program of its own, a JIT-only module
whose one entry fails (no note: counted one), and one whose JIT functions all call each other (no
entry: none). The exact lines the script prints are checked, with and without --files, and a
driver that does not exist is exit 2 with a message.
"""
import os
import subprocess
import sys
import tempfile

opt, root = sys.argv[1], sys.argv[2]
script = os.path.join(root, "scripts", "pypto-coverage")
HEAD = "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n"
GOOD = """
@pl.program
class Good:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, x: pld.DistributedTensor[[64], pl.FP32]):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.alloc_window_buffer([64], dtype=pl.FP32)
        v = pld.window(buf, [64], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            self.chip(v, device=r)
        return v
"""
DEAD = """
@pl.program
class Dead:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.alloc_window_buffer(256)
        return buf
"""
BAD = """
@pl.program
class Bad:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.alloc_window_buffer([], dtype=pl.FP32)
        return buf
"""
JIT = """
@pl.jit
def chip(x: pld.DistributedTensor[[64], pl.FP32]):
    return x


@pl.jit.host
def good(y: pl.Tensor[[64], pl.FP32]):
    buf = pld.alloc_window_buffer([64], dtype=pl.FP32)
    v = pld.window(buf, [64], dtype=pl.FP32)
    for r in pl.range(pld.world_size()):
        chip(v, device=r)


@pl.jit.host
def dead(y: pl.Tensor[[64], pl.FP32]):
    buf = pld.alloc_window_buffer(256)
    return buf


@pl.jit
def bare(x: pl.Tensor):
    return x
"""
LOOP = """
@pl.jit.incore
def a(x):
    return b(x)


@pl.jit.incore
def b(x):
    return a(x)
"""
failed = []


def check(what, got, want):
    ok = got == want
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        print("  got:  " + repr(got) + "\n  want: " + repr(want))
        failed.append(what)


with tempfile.TemporaryDirectory() as d:
    os.makedirs(os.path.join(d, "tests", "ut"))
    os.makedirs(os.path.join(d, ".git"))
    with open(os.path.join(d, "tests", "ut", "test_three.py"), "w") as f:
        f.write(HEAD + GOOD + DEAD + BAD)
    with open(os.path.join(d, "tests", "in_string.py"), "w") as f:
        f.write(HEAD + 'CODE = """\n@pl.program\nclass S:\n    pass\n"""\n')
    with open(os.path.join(d, "tests", "mixed.py"), "w") as f:
        f.write(HEAD + 'CODE = """\n@pl.program\nclass S:\n    pass\n"""\n' + BAD)
    with open(os.path.join(d, "tests", "ut", "test_jit.py"), "w") as f:
        f.write(HEAD + JIT + GOOD)
    with open(os.path.join(d, "tests", "jit_only.py"), "w") as f:
        f.write(HEAD + '@pl.jit\ndef only(x: pl.Tensor):\n    return x\n')
    with open(os.path.join(d, "tests", "jit_loop.py"), "w") as f:
        f.write(HEAD + LOOP)
    with open(os.path.join(d, "none.py"), "w") as f:
        f.write(HEAD + "X = 1\n")
    with open(os.path.join(d, ".git", "hidden.py"), "w") as f:
        f.write(HEAD + GOOD)
    run = lambda *a: subprocess.run([sys.executable, script, d, "--driver", opt, *a], capture_output=True, text=True)
    r = run("--pass=--materialize-comm-domain-scopes")
    check("exit status", r.returncode, 0)
    check("totals", r.stdout,
          "programs 5 in 3 files: 3 read\n"
          "programs 5 in 3 files: 2 through --materialize-comm-domain-scopes\n"
          "JIT programs 4 in 3 files: 2 read\n"
          "JIT programs 4 in 3 files: 1 through --materialize-comm-domain-scopes\n")
    r = run("--files")
    check("per file", r.stdout,
          "programs 5 in 3 files: 3 read\n  1/1 tests/mixed.py\n  1/3 tests/ut/test_three.py\n"
          "JIT programs 4 in 3 files: 2 read\n  1/1 tests/jit_only.py\n  1/3 tests/ut/test_jit.py\n")
    r = subprocess.run([sys.executable, script, d, "--driver", os.path.join(d, "no-such-driver")],
                       capture_output=True, text=True)
    check("no driver: exit 2", r.returncode, 2)
    check("no driver: message", r.stderr.startswith("pypto-coverage: no driver at "), True)

print(f"{len(failed)} failed")
sys.exit(1 if failed else 0)
