#!/usr/bin/env python3
"""Runs the lit-style tests of neuronrw-opt (tests/driver/lit/*.mlir, *.py) without lit.

Usage:
  lit_runner.py --neuronrw-opt NEURONRW_OPT [--filecheck FILECHECK] TEST...
  lit_runner.py --neuronrw-opt NEURONRW_OPT --self-test

Each `// RUN:` line of a .mlir test (`# RUN:` in a .py test; a trailing `\\` continues it) is a
bash pipeline run with `set -o pipefail`, as lit would, with %s (the test file), %S (its
directory) and %t (a scratch path shared by the file's RUN lines) substituted, and on PATH:
neuronrw-opt, and FileCheck / not / count / exit-code as tests/adapters/mlir/opt/run_tests.py
provides them (its built-in FileCheck subset, cross-checked by the real FileCheck when
--filecheck names one). Every RUN line prints one `ok` / `FAIL` line; the script exits 1 if any
failed.

--self-test runs mutated copies of the tests, which must fail: a wrong expected-remark, a
missing expected-error, an expected-error on the wrong line, a wrong CHECK line, a RUN line
whose command fails. Without it the tests could pass by never checking anything.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RUN_TESTS = os.path.join(os.path.dirname(HERE), "adapters", "mlir", "opt", "run_tests.py")
RUN = re.compile(r"^\s*(?://|#)\s*RUN:(.*)$")
sys.path.insert(0, os.path.dirname(RUN_TESTS))
from run_tests import run_lines as read_run_lines  # noqa: E402


def run_lines(path):
    """The RUN commands of a test file (`// RUN:` or `# RUN:` lines), read as run_tests.py reads them."""
    return read_run_lines(path, RUN)


class Runner:
    def __init__(self, neuronrw_opt, filecheck=None):
        self.failures = 0
        self.tmp = tempfile.mkdtemp(prefix="neuronrw-opt-lit.")
        self.bin = os.path.join(self.tmp, "bin")
        os.mkdir(self.bin)
        os.symlink(os.path.abspath(neuronrw_opt), os.path.join(self.bin, "neuronrw-opt"))
        for name, mode in (("FileCheck", "--as-filecheck"), ("not", "--as-not"), ("exit-code", "--as-exit-code"),
                           ("count", "--as-count")):
            p = os.path.join(self.bin, name)
            with open(p, "w", encoding="utf-8") as f:
                f.write(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(RUN_TESTS)} {mode} \"$@\"\n")
            os.chmod(p, 0o755)
        self.env = dict(os.environ)
        self.env["PATH"] = self.bin + os.pathsep + self.env.get("PATH", "")
        self.env["NEURONRW_REAL_FILECHECK"] = filecheck if filecheck and os.path.isfile(filecheck) else ""
        self.env.setdefault("UBSAN_OPTIONS", "halt_on_error=1:abort_on_error=1:print_stacktrace=1")
        self.env.setdefault("ASAN_OPTIONS", "abort_on_error=1")

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def check(self, name, cond, detail=""):
        print(("ok   " if cond else "FAIL ") + name, flush=True)
        if not cond:
            self.failures += 1
            if detail:
                print("     " + detail.rstrip("\n").replace("\n", "\n     "), flush=True)
        return cond

    def run_file(self, path, name=None, quiet=False):
        """Runs every RUN line of `path`; returns the number that failed (-1: none to run)."""
        name = name or os.path.basename(path)
        try:
            cmds = run_lines(path)
        except ValueError as e:
            if not quiet:
                self.check(name, False, str(e))
            return -1
        if not cmds:
            if not quiet:
                self.check(f"{name}: has RUN lines", False)
            return -1
        scratch_dir = tempfile.mkdtemp(dir=self.tmp)
        scratch = os.path.join(scratch_dir, os.path.basename(path) + ".tmp")
        failed = 0
        for no, cmd in cmds:
            script = (cmd.replace("%s", shlex.quote(path)).replace("%S", shlex.quote(os.path.dirname(path)))
                      .replace("%t", shlex.quote(scratch)))
            r = subprocess.run(["bash", "-c", "set -o pipefail\n" + script], capture_output=True, text=True,
                               env=self.env, cwd=scratch_dir)
            failed += r.returncode != 0
            if not quiet:
                self.check(f"{name}:{no}: {cmd}", r.returncode == 0,
                           f"exit {r.returncode}\n--- stderr ---\n{r.stderr}\n--- stdout ---\n{r.stdout[:4000]}")
        return failed

    # The mutations --self-test makes: (test file, text to replace, replacement, what must fail).
    MUTATIONS = [
        ("schedule_fusion_refusals.mlir", "{{refused this candidate: non_convex:", "{{refused this candidate: budget_exceeded:",
         "a wrong expected-remark (non_convex -> budget_exceeded)"),
        ("schedule_fusion_refusals.mlir", "  // expected-note@+1 {{this op depends on the producer and feeds the candidate}}\n", "",
         "a missing expected-note"),
        ("schedule_fusion_refusals.mlir", "// expected-remark@+1 {{refused this candidate: splits_cluster:",
         "// expected-remark@+2 {{refused this candidate: splits_cluster:", "an expected-remark on the wrong line"),
        ("fusion_to_composite_problems.mlir", "{{fusion-to-composite: captured_value: operand #1 uses",
         "{{fusion-to-composite: captured_value: operand #0 uses", "a wrong expected-error"),
        ("fusion_to_composite_problems.mlir", "// NOVALIDATE-NEXT: return %f : tensor<4x8xf32>",
         "// NOVALIDATE-NEXT: return %w : tensor<4x8xf32>", "a wrong CHECK line"),
        ("comm_domain_errors.py",
         "        # expected-error@+1 {{materialize-comm-domain-scopes: dead_allocation:", "        # dead_allocation:",
         "a missing expected-error in a host program"),
        ("comm_domain_errors.py", "{{materialize-comm-domain-scopes: too_many_devices: comm domain of 'buf'",
         "{{materialize-comm-domain-scopes: duplicate_name: comm domain of 'buf'", "a wrong code in a host program's expected-error"),
        ("pass_options.mlir", "// RUN: neuronrw-opt %s -o %t.plain", "// RUN: neuronrw-opt %s --no-such-flag -o %t.plain",
         "a RUN line whose command fails"),
    ]

    def self_test(self):
        lit = os.path.join(HERE, "lit")
        for test, old, new, what in self.MUTATIONS:
            path = os.path.join(lit, test)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if not self.check(f"self-test: {test}: the text to change exists once", text.count(old) == 1,
                              f"'{old}' occurs {text.count(old)} times"):
                continue
            work = tempfile.mkdtemp(dir=self.tmp)
            copy = os.path.join(work, test)
            with open(copy, "w", encoding="utf-8") as f:
                f.write(text.replace(old, new))
            failed = self.run_file(copy, quiet=True)
            self.check(f"self-test: {test}: {what} fails a RUN line", failed > 0, f"{failed} RUN line(s) failed")
        # And the unmodified files pass (the mutations above are what made them fail).
        for test in sorted({m[0] for m in self.MUTATIONS}):
            self.check(f"self-test: {test} unmodified passes", self.run_file(os.path.join(lit, test), quiet=True) == 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--neuronrw-opt", required=True)
    ap.add_argument("--filecheck", default="")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("tests", nargs="*")
    args = ap.parse_args()
    if not os.path.isfile(args.neuronrw_opt):
        print(f"FAIL --neuronrw-opt '{args.neuronrw_opt}' does not exist")
        return 1
    r = Runner(args.neuronrw_opt, args.filecheck)
    try:
        if args.self_test:
            r.self_test()
        for t in args.tests:
            r.run_file(os.path.abspath(t))
    finally:
        r.close()
    print(f"{r.failures} failed")
    return 1 if r.failures else 0


if __name__ == "__main__":
    sys.exit(main())
