#!/usr/bin/env python3
"""Tool-level tests of neuronrw-mlir-opt, the way MLIR projects write them, without lit.

Usage:
  run_tests.py --tool NEURONRW_MLIR_OPT --neuronrw-opt NEURONRW_OPT --source-dir SRC
               [--mlir-opt MLIR_OPT] [--filecheck FILECHECK] [TEST.mlir ...]

Four parts, each check printing one `ok` / `FAIL` / `skip` line; the script exits 1 if any
check failed:

1. Self-tests: the built-in CHECK matcher on known inputs (and, when FileCheck exists, its
   agreement with FileCheck on each of them), and the failing cases that must fail: a wrong
   `expected-remark`, a missing `expected-note`, a wrong `expected-error`, a wrong CHECK line.
2. The test files (every *.mlir next to this script, or the ones named): each `// RUN:` line
   (continued with a trailing `\\`) is a bash pipeline run with `set -o pipefail`, as lit would,
   with these substitutions and commands:
     %s  the test file     %S  its directory     %t  a scratch path for the file's RUN lines
     neuronrw-mlir-opt, neuronrw-opt, mlir-opt   the tools under test (PATH)
     FileCheck [--check-prefix=P | --check-prefixes=P,Q] FILE
         checks its standard input against the CHECK lines of FILE with the built-in matcher
         (CHECK, -NEXT, -SAME, -NOT, -EMPTY, -COUNT-n; `{{regex}}`; `[[V:regex]]` / `[[V]]`);
         when the real FileCheck exists, it must agree.
     not CMD...         succeeds iff CMD exits with 1..127 (a crash is a failure)
     exit-code N CMD... succeeds iff CMD exits with exactly N
     count N            succeeds iff its standard input has N lines
   A RUN line that mentions mlir-opt (the tool, or a file named after it, which it wrote) is
   skipped, with a message, when --mlir-opt does not exist.
3. --mlir-pass-statistics: exact counter values (clusters, moves, refusals by code, composites)
   for both flavours and FusionToComposite; when the libMLIR the tool links was built without
   statistics (LLVM_ENABLE_STATS=0, e.g. Debian's release build, where mlir-opt --cse prints none
   either) the report must be the bare header, and the values are skipped with a message.
4. The issue's done-when, for every examples/mlir/*.mlir: neuronrw-mlir-opt's
   `neuronrw-schedule-fusion,neuronrw-fusion-to-composite` and its composites flavour equal
   `neuronrw-opt --schedule-fusion --fusion-to-composite` once both are printed by mlir-opt,
   which verifies them with --verify-each (without mlir-opt, neuronrw-mlir-opt itself prints and
   verifies, and the mlir-opt half is skipped with a message). A mismatch prints both texts.

Internal entry points (used through PATH by the RUN lines): --as-filecheck ARGS,
--as-not CMD, --as-exit-code N CMD, --as-count N.
"""
import argparse
import difflib
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# ===================================================================== the built-in CHECK matcher
# A subset of FileCheck, with its semantics: patterns match inside one line; horizontal
# whitespace runs match any run of horizontal whitespace; `{{re}}` is a regex, `[[V:re]]` defines
# V, `[[V]]` uses it; CHECK-NOT holds between the previous positive match and the next one.

DIRECTIVE = re.compile(r"(?<![A-Za-z0-9_-])(?P<prefix>[A-Za-z][A-Za-z0-9_-]*?)"
                       r"(?P<kind>-NEXT|-SAME|-NOT|-EMPTY|-COUNT-[0-9]+|-LABEL|-DAG)?:(?P<rest>.*)$")


MLIR_RUN = re.compile(r"\s*//\s*RUN:(.*)$")


def run_lines(path, run=MLIR_RUN):
    """The RUN commands of a test file: lines `run` matches (group 1: the command), `\\` continues
    a command. Also used by tests/driver/lit_runner.py (with `#` comments for host programs)."""
    cmds, cur = [], None
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            m = run.match(line)
            if not m:
                if cur is not None:
                    raise ValueError(f"{path}:{no}: RUN line continued by a non-RUN line")
                continue
            text = m.group(1).strip()
            cont = text.endswith("\\")
            if cont:
                text = text[:-1].rstrip()
            if cur is None:
                cur = [no, text]
            else:
                cur[1] += " " + text
            if not cont:
                cmds.append(tuple(cur))
                cur = None
    if cur is not None:
        raise ValueError(f"{path}: the last RUN line ends with a continuation")
    return cmds


class CheckError(Exception):
    pass


def parse_checks(text, prefixes):
    """[(kind, pattern, line_no)] for the directives of `prefixes` in `text`."""
    checks = []
    for no, line in enumerate(text.split("\n"), 1):
        for m in DIRECTIVE.finditer(line):
            if m.group("prefix") not in prefixes:
                continue
            kind = (m.group("kind") or "")[1:] or "CHECK"
            if kind in ("LABEL", "DAG"):
                raise CheckError(f"line {no}: {m.group('prefix')}-{kind} is not supported by the built-in matcher")
            checks.append((kind, m.group("rest").strip(), no))
            break
    return checks


def compile_pattern(pattern, variables):
    """The regex of a CHECK pattern; `[[V]]` uses the values defined so far."""
    out, defs, i = [], [], 0
    while i < len(pattern):
        if pattern.startswith("{{", i):
            j = pattern.find("}}", i + 2)
            if j < 0:
                raise CheckError(f"unterminated {{{{ in '{pattern}'")
            out.append("(?:" + pattern[i + 2:j] + ")")
            i = j + 2
        elif pattern.startswith("[[", i):
            j = pattern.find("]]", i + 2)
            if j < 0:
                raise CheckError(f"unterminated [[ in '{pattern}'")
            body = pattern[i + 2:j]
            if ":" in body:
                name, rx = body.split(":", 1)
                defs.append(name)
                out.append(f"(?P<{name}>{rx})")
            else:
                if body not in variables:
                    raise CheckError(f"undefined variable [[{body}]] in '{pattern}'")
                out.append(re.escape(variables[body]))
            i = j + 2
        elif pattern[i] in " \t":
            while i < len(pattern) and pattern[i] in " \t":
                i += 1
            out.append(r"[ \t]+")
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out)), defs


def run_checks(input_text, check_text, prefixes):
    """None when the input satisfies the checks, else the reason."""
    try:
        checks = parse_checks(check_text, prefixes)
    except CheckError as e:
        return str(e)
    if not checks:
        return f"no check strings found with prefix{'es' if len(prefixes) > 1 else ''} {', '.join(p + ':' for p in prefixes)}"
    lines = input_text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    variables = {}
    line, col = 0, 0  # the end of the last positive match
    matched_any = False
    pending_not = []  # CHECK-NOTs waiting for the next positive match

    def find(rx, from_line, from_col, to_line=None):
        last = len(lines) if to_line is None else to_line
        for ln in range(from_line, min(last, len(lines))):
            m = rx.search(lines[ln], from_col if ln == from_line else 0)
            if m:
                return ln, m
        return None

    def check_nots(upto_line, upto_col):
        for pat, no in pending_not:
            rx, _ = compile_pattern(pat, variables)
            for ln in range(line, min(upto_line + 1, len(lines))):
                start = col if ln == line and matched_any else 0
                end = upto_col if ln == upto_line else None
                seg = lines[ln][:end] if end is not None else lines[ln]
                m = rx.search(seg, start)
                if m:
                    return f"line {no}: CHECK-NOT '{pat}' matched input line {ln + 1}: {lines[ln]}"
        pending_not.clear()
        return None

    for kind, pat, no in checks:
        try:
            if kind == "NOT":
                pending_not.append((pat, no))
                continue
            if kind == "EMPTY":
                target = line + 1 if matched_any else 0
                if target >= len(lines) or lines[target].strip(" \t") != "":
                    return f"line {no}: CHECK-EMPTY: input line {target + 1} is not empty"
                err = check_nots(target, 0)
                if err:
                    return err
                line, col, matched_any = target, 0, True
                continue
            rx, defs = compile_pattern(pat, variables)
            count = int(kind.split("-")[1]) if kind.startswith("COUNT-") else 1
            for _ in range(count):
                if kind == "SAME":
                    if not matched_any:
                        return f"line {no}: CHECK-SAME '{pat}' without a previous match"
                    m = rx.search(lines[line], col) if line < len(lines) else None
                    found = (line, m) if m else None
                elif kind == "NEXT":
                    if not matched_any:
                        return f"line {no}: CHECK-NEXT '{pat}' without a previous match"
                    m = rx.search(lines[line + 1]) if line + 1 < len(lines) else None
                    found = (line + 1, m) if m else None
                else:
                    found = find(rx, line, col if matched_any else 0)
                if not found:
                    where = f"after input line {line + 1}" if matched_any else "in the input"
                    return f"line {no}: {'CHECK' if kind == 'CHECK' else 'CHECK-' + kind} '{pat}' not found {where}"
                ln, m = found
                err = check_nots(ln, m.start())
                if err:
                    return err
                for d in defs:
                    variables[d] = m.group(d)
                line, col, matched_any = ln, m.end(), True
        except re.error as e:
            return f"line {no}: bad regex in '{pat}': {e}"
        except CheckError as e:
            return f"line {no}: {e}"
    if pending_not:
        return check_nots(len(lines) - 1, None) if lines else None
    return None


def filecheck_args(argv):
    """(check file, prefixes) from FileCheck's command line (the subset the tests use)."""
    prefixes, files = [], []
    for a in argv:
        if a.startswith("--check-prefix=") or a.startswith("-check-prefix="):
            prefixes.append(a.split("=", 1)[1])
        elif a.startswith("--check-prefixes=") or a.startswith("-check-prefixes="):
            prefixes.extend(a.split("=", 1)[1].split(","))
        elif a.startswith("-"):
            raise CheckError(f"FileCheck option {a} is not supported by the built-in matcher")
        else:
            files.append(a)
    if len(files) != 1:
        raise CheckError("FileCheck needs exactly one check file")
    return files[0], prefixes or ["CHECK"]


def as_filecheck(argv):
    """FileCheck in the RUN lines: the built-in matcher, cross-checked by the real FileCheck."""
    data = sys.stdin.read()
    try:
        path, prefixes = filecheck_args(argv)
        with open(path, encoding="utf-8") as f:
            why = run_checks(data, f.read(), prefixes)
    except (CheckError, OSError) as e:
        why = str(e)
    real = os.environ.get("NEURONRW_REAL_FILECHECK", "")
    if real:
        r = subprocess.run([real] + argv, input=data, capture_output=True, text=True)
        if (r.returncode == 0) != (why is None):
            sys.stderr.write(f"FileCheck disagreement: the built-in matcher says "
                             f"{'pass' if why is None else 'fail: ' + why}, FileCheck exits {r.returncode}:\n"
                             f"{r.stderr}\n")
            return 2
    if why is not None:
        sys.stderr.write(f"FileCheck (built-in): {why}\n--- input ---\n{data}\n")
        return 1
    return 0


def as_not(argv):
    r = subprocess.run(argv)
    if r.returncode == 0:
        sys.stderr.write(f"not: '{argv[0]}' succeeded\n")
        return 1
    if r.returncode < 0 or r.returncode >= 128:
        sys.stderr.write(f"not: '{argv[0]}' crashed (status {r.returncode})\n")
        return 1
    return 0


def as_count(argv):
    n = len(sys.stdin.read().splitlines())
    if n != int(argv[0]):
        sys.stderr.write(f"count: {n} lines, expected {argv[0]}\n")
        return 1
    return 0


def as_exit_code(argv):
    want, cmd = int(argv[0]), argv[1:]
    r = subprocess.run(cmd)
    if r.returncode != want:
        sys.stderr.write(f"exit-code: '{cmd[0]}' exited {r.returncode}, expected {want}\n")
        return 1
    return 0


# ===================================================================== the harness

class Harness:
    def __init__(self, args):
        self.args = args
        self.failures = 0
        self.skips = 0
        self.mlir_opt = args.mlir_opt if args.mlir_opt and os.path.isfile(args.mlir_opt) else None
        self.filecheck = args.filecheck if args.filecheck and os.path.isfile(args.filecheck) else None
        self.tmp = tempfile.mkdtemp(prefix="neuronrw-mlir-opt-tests.")
        self.bin = os.path.join(self.tmp, "bin")
        os.mkdir(self.bin)
        for name, path in (("neuronrw-mlir-opt", args.tool), ("neuronrw-opt", args.neuronrw_opt),
                           ("mlir-opt", self.mlir_opt)):
            if path:
                os.symlink(os.path.abspath(path), os.path.join(self.bin, name))
        me = os.path.abspath(__file__)
        for name, mode in (("FileCheck", "--as-filecheck"), ("not", "--as-not"), ("exit-code", "--as-exit-code"),
                          ("count", "--as-count")):
            p = os.path.join(self.bin, name)
            with open(p, "w", encoding="utf-8") as f:
                f.write(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(me)} {mode} \"$@\"\n")
            os.chmod(p, 0o755)
        self.env = dict(os.environ)
        self.env["PATH"] = self.bin + os.pathsep + self.env.get("PATH", "")
        self.env["NEURONRW_REAL_FILECHECK"] = self.filecheck or ""
        # In a sanitizer build, a finding aborts the tool: a crash, which every check reports.
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

    def skip(self, name, why):
        self.skips += 1
        print(f"skip {name}: {why}", flush=True)

    def run(self, argv, **kw):
        return subprocess.run(argv, capture_output=True, text=True, env=self.env, **kw)

    def shell(self, script, cwd=None):
        return subprocess.run(["bash", "-c", "set -o pipefail\n" + script], capture_output=True, text=True,
                              env=self.env, cwd=cwd)

    # ---------------------------------------------------------------- RUN lines


    def substitute(self, cmd, path, scratch):
        return (cmd.replace("%s", shlex.quote(path)).replace("%S", shlex.quote(os.path.dirname(path)))
                .replace("%t", shlex.quote(scratch)))

    def run_file(self, path):
        rel = os.path.relpath(path, self.args.source_dir)
        try:
            cmds = run_lines(path)
        except ValueError as e:
            return self.check(rel, False, str(e))
        if not self.check(f"{rel}: has RUN lines", bool(cmds)):
            return
        scratch_dir = tempfile.mkdtemp(dir=self.tmp)  # %t: one per file, shared by its RUN lines
        scratch = os.path.join(scratch_dir, os.path.basename(path) + ".tmp")
        for no, cmd in cmds:
            name = f"{rel}:{no}"
            if re.search(r"(?<![\w-])mlir-opt(?![\w-])", cmd) and not self.mlir_opt:
                self.skip(name, f"mlir-opt not found at '{self.args.mlir_opt}' (meson option mlir_opt)")
                continue
            r = self.shell(self.substitute(cmd, path, scratch), cwd=scratch_dir)
            self.check(f"{name}: {cmd}", r.returncode == 0,
                       f"exit {r.returncode}\n--- stderr ---\n{r.stderr}\n--- stdout ---\n{r.stdout[:4000]}")

    # ---------------------------------------------------------------- self-tests

    MATCHER_CASES = [
        # (name, input, checks, prefixes, passes)
        ("CHECK in order", "a\nb\nc\n", "// CHECK: a\n// CHECK: c\n", ["CHECK"], True),
        ("CHECK out of order", "a\nb\nc\n", "// CHECK: c\n// CHECK: a\n", ["CHECK"], False),
        ("CHECK substring", "  %0 = foo.bar\n", "// CHECK: = foo.\n", ["CHECK"], True),
        ("CHECK-NEXT", "a\nb\nc\n", "// CHECK: a\n// CHECK-NEXT: b\n", ["CHECK"], True),
        ("CHECK-NEXT skips a line", "a\nb\nc\n", "// CHECK: a\n// CHECK-NEXT: c\n", ["CHECK"], False),
        ("CHECK-SAME", "a b c\n", "// CHECK: a\n// CHECK-SAME: c\n", ["CHECK"], True),
        ("CHECK-SAME on the next line", "a b\nc\n", "// CHECK: a\n// CHECK-SAME: c\n", ["CHECK"], False),
        ("CHECK-NOT between", "a\nx\nb\n", "// CHECK: a\n// CHECK-NOT: x\n// CHECK: b\n", ["CHECK"], False),
        ("CHECK-NOT elsewhere", "x\na\nb\nx\n", "// CHECK: a\n// CHECK-NOT: x\n// CHECK: b\n", ["CHECK"], True),
        ("CHECK-NOT at the end", "a\nb\nx\n", "// CHECK: a\n// CHECK-NOT: x\n", ["CHECK"], False),
        ("CHECK-NOT first", "a\nx\n", "// CHECK-NOT: x\n// CHECK: a\n", ["CHECK"], True),
        ("CHECK-EMPTY", "a\n\nb\n", "// CHECK: a\n// CHECK-EMPTY:\n// CHECK-NEXT: b\n", ["CHECK"], True),
        ("CHECK-EMPTY on text", "a\nb\n", "// CHECK: a\n// CHECK-EMPTY:\n", ["CHECK"], False),
        ("CHECK-COUNT", "r\nr\nr\n", "// CHECK-COUNT-3: r\n", ["CHECK"], True),
        ("CHECK-COUNT too many", "r\nr\n", "// CHECK-COUNT-3: r\n", ["CHECK"], False),
        ("regex", "%12 = x\n", "// CHECK: %{{[0-9]+}} = x\n", ["CHECK"], True),
        ("regex mismatch", "%ab = x\n", "// CHECK: %{{[0-9]+}} = x\n", ["CHECK"], False),
        ("variables", "%3 = g\nuse %3\n", "// CHECK: %[[G:[0-9]+]] = g\n// CHECK: use %[[G]]\n", ["CHECK"], True),
        ("variables mismatch", "%3 = g\nuse %4\n", "// CHECK: %[[G:[0-9]+]] = g\n// CHECK: use %[[G]]\n",
         ["CHECK"], False),
        ("whitespace runs", "a    b\n", "// CHECK: a b\n", ["CHECK"], True),
        ("other prefix", "a\n", "// CHECK: z\n// OTHER: a\n", ["OTHER"], True),
        ("two prefixes", "a\nz\n", "// P: a\n// Q: z\n", ["P", "Q"], True),
        ("no directive", "a\n", "// OTHER: a\n", ["CHECK"], False),
    ]

    def self_test_matcher(self):
        for name, inp, checks, prefixes, passes in self.MATCHER_CASES:
            why = run_checks(inp, checks, prefixes)
            self.check(f"self-test: matcher: {name} {'passes' if passes else 'fails'}", (why is None) == passes,
                       why or "passed but should fail")
            if self.filecheck:
                path = os.path.join(self.tmp, "case.check")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(checks)
                r = self.run([self.filecheck, "--check-prefixes=" + ",".join(prefixes), path], input=inp)
                self.check(f"self-test: FileCheck agrees: {name}", (r.returncode == 0) == passes, r.stderr)
        if not self.filecheck:
            self.skip("self-test: FileCheck agreement", f"FileCheck not found at '{self.args.filecheck}'")

    def self_test_statistics_parser(self):
        report = (self.STATS_HEADER + "neuronrw-schedule-fusion\n  (S)  2 candidates          - Candidate consumers examined\n"
                  "  (S) 10 refused-non_convex  - Refused: cluster not convex\n"
                  "neuronrw-fusion-to-composite\n  (S)  1 composites - Composites created\n\n")
        got = self.parse_statistics(report)
        want = {"neuronrw-schedule-fusion": {"candidates": 2, "refused-non_convex": 10},
                "neuronrw-fusion-to-composite": {"composites": 1}}
        self.check("self-test: the statistics report parser", got == want, str(got))
        self.check("self-test: the statistics report parser on a bare header",
                   self.parse_statistics(self.STATS_HEADER + "\n") == {})

    def self_test_failing(self):
        """The failing cases must fail: wrong and missing expectations, wrong CHECK lines."""
        tool = self.args.tool
        sf = os.path.join(HERE, "schedule_fusion_refusals.mlir")
        f2c = os.path.join(HERE, "fusion_to_composite_problems.mlir")
        base = ["--allow-unregistered-dialect", "--split-input-file", "--verify-diagnostics", "-o", os.devnull]
        sf_pass = ["--pass-pipeline=builtin.module(neuronrw-schedule-fusion{budget=3 remarks=true})"]
        f2c_pass = ["--pass-pipeline=builtin.module(neuronrw-fusion-to-composite{validate-fusion-kind=true})"]
        with open(sf, encoding="utf-8") as f:
            sf_text = f.read()
        with open(f2c, encoding="utf-8") as f:
            f2c_text = f.read()

        r = self.run([tool, sf] + base + sf_pass)
        self.check("self-test: the refusal file passes unmodified", r.returncode == 0, r.stderr)

        def mutated(name, text, old, new, argv, expect_in_stderr):
            if not self.check(f"self-test: {name}: the text to change exists", text.count(old) == 1,
                              f"'{old}' occurs {text.count(old)} times"):
                return
            path = os.path.join(self.tmp, os.path.basename(argv[0]))
            with open(path, "w", encoding="utf-8") as f:
                f.write(text.replace(old, new))
            r = self.run([tool, path] + argv[1:])
            self.check(f"self-test: {name} makes --verify-diagnostics fail (exit 1)",
                       r.returncode == 1 and all(s in r.stderr for s in expect_in_stderr),
                       f"exit {r.returncode}\n{r.stderr}")

        mutated("a wrong expected-remark (non_convex -> budget_exceeded)", sf_text,
                "{{refused this candidate: non_convex:", "{{refused this candidate: budget_exceeded:",
                [sf] + base + sf_pass,
                ['expected remark "refused this candidate: budget_exceeded:', "was not produced",
                 "unexpected remark: neuronrw-schedule-fusion refused this candidate: non_convex:"])
        mutated("a missing expected-note", sf_text,
                "// expected-note@+1 {{this op depends on the producer and feeds the candidate}}\n", "",
                [sf] + base + sf_pass, ["unexpected note: this op depends on the producer and feeds the candidate"])
        mutated("an expected-remark on the wrong line", sf_text,
                "// expected-remark@+1 {{refused this candidate: splits_cluster:",
                "// expected-remark@+2 {{refused this candidate: splits_cluster:",
                [sf] + base + sf_pass, ["was not produced", "unexpected remark"])
        mutated("a wrong expected-error (captured_value operand #0)", f2c_text,
                "{{neuronrw-fusion-to-composite: captured_value: operand #1 uses",
                "{{neuronrw-fusion-to-composite: captured_value: operand #0 uses",
                [f2c] + base + f2c_pass,
                ['expected error "neuronrw-fusion-to-composite: captured_value: operand #0', "was not produced"])
        # Remarks only with remarks=true: the refusal file's expectations then all fail.
        r = self.run([tool, sf] + base + ["--pass-pipeline=builtin.module(neuronrw-schedule-fusion{budget=3})"])
        self.check("self-test: without remarks=true the expected remarks are missing (exit 1)",
                   r.returncode == 1 and r.stderr.count("was not produced") >= 8, r.stderr)

        # A wrong CHECK line fails through the FileCheck of the RUN lines (both checkers).
        layer = os.path.join(self.args.source_dir, "examples", "mlir", "layer.mlir")
        checks = os.path.join(self.tmp, "wrong.check")
        with open(checks, "w", encoding="utf-8") as f:
            f.write("// CHECK: mhlo.fusion\n")
        r = self.shell(f"neuronrw-mlir-opt --allow-unregistered-dialect --neuronrw-schedule-fusion "
                       f"{shlex.quote(layer)} | FileCheck {shlex.quote(checks)}")
        self.check("self-test: a wrong CHECK line fails the RUN pipeline",
                   r.returncode == 1 and "CHECK 'mhlo.fusion' not found" in r.stderr, r.stderr)
        r = self.shell("exit-code 1 true")
        self.check("self-test: exit-code 1 rejects exit 0", r.returncode == 1, r.stderr)
        r = self.shell("not true")
        self.check("self-test: not rejects exit 0", r.returncode == 1, r.stderr)
        r = self.shell("not sh -c 'kill -SEGV $$'")
        self.check("self-test: not rejects a crash", r.returncode == 1 and "crashed" in r.stderr, r.stderr)

    # ---------------------------------------------------------------- statistics

    # One cluster (the multiply that reads the gathered value moves after it: 1 move) and one
    # non-convex pair.
    STATS_INPUT = """
func.func @stats(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<16x8xf32>, tensor<4x8xf32>) {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %f = "mhlo.multiply"(%g, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  %g2 = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %y = "mhlo.multiply"(%g2, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %r2 = "mhlo.reduce_scatter"(%g2, %y) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r, %f, %r2 : tensor<4x8xf32>, tensor<16x8xf32>, tensor<4x8xf32>
}
"""
    REFUSALS = ["no_producer_operand", "already_fused", "producer_claimed", "different_block", "budget_exceeded",
                "non_convex", "splits_cluster", "reschedule_refused"]
    STATS_HEADER = ("===" + "-" * 73 + "===\n" + " " * 25 + "... Pass statistics report ...\n" + "===" + "-" * 73 +
                    "===\n")

    @staticmethod
    def parse_statistics(text):
        """{pass name: {statistic: value}} from a --mlir-pass-statistics report."""
        stats, current = {}, None
        for line in text.splitlines():
            m = re.match(r"\s*\(S\)\s+(\d+)\s+(\S+)\s+-", line)
            if m and current is not None:
                stats[current][m.group(2)] = int(m.group(1))
            elif line.strip() and not line.startswith("===") and "Pass statistics report" not in line:
                current = line.strip().strip("'")
                stats.setdefault(current, {})
        return {k: v for k, v in stats.items() if v}

    def statistics(self):
        tool = self.args.tool
        sf = {"candidates": 2, "clusters": 1, "moves": 1, "composites": 0}
        sf.update({"refused-" + r: 0 for r in self.REFUSALS})
        sf["refused-non_convex"] = 1
        sfc = dict(sf, composites=1)
        cases = [
            ("builtin.module(neuronrw-schedule-fusion,neuronrw-fusion-to-composite)",
             {"neuronrw-schedule-fusion": sf, "neuronrw-fusion-to-composite": {"composites": 1, "refused": 0}}),
            ("builtin.module(neuronrw-schedule-fusion-composites)", {"neuronrw-schedule-fusion-composites": sfc}),
        ]
        for pipeline, want in cases:
            name = f"--mlir-pass-statistics: {pipeline}"
            r = self.run([tool, "--allow-unregistered-dialect", f"--pass-pipeline={pipeline}", "--mlir-pass-statistics",
                          "-o", os.devnull, "-"], input=self.STATS_INPUT)
            if not self.check(f"{name}: exits 0 and prints the report", r.returncode == 0 and
                              r.stderr.startswith(self.STATS_HEADER), f"exit {r.returncode}\n{r.stderr}"):
                continue
            got = self.parse_statistics(r.stderr)
            if not got and r.stderr == self.STATS_HEADER + "\n":
                # The statistics are compiled out of libMLIR (LLVM_ENABLE_STATS=0: a release build
                # such as Debian's): MLIR prints the header and nothing else, for every pass.
                why = "the libMLIR this tool links prints no statistics (built without LLVM_ENABLE_STATS)"
                if self.mlir_opt:
                    c = self.run([self.mlir_opt, "--cse", "--mlir-pass-statistics", "-o", os.devnull, "-"],
                                 input="func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n"
                                       "  %1 = arith.addi %a, %a : i32\n  %2 = arith.muli %0, %1 : i32\n"
                                       "  return %2 : i32\n}\n")
                    self.check(f"{name}: mlir-opt --cse prints no statistics either (the library, not the pass)",
                               c.returncode == 0 and c.stderr == self.STATS_HEADER + "\n", c.stderr)
                    why += "; mlir-opt --cse prints none either"
                self.skip(f"{name}: the counters' values", why)
                continue
            self.check(f"{name}: the counters", got == want,
                       f"got  {sorted(got.items())}\nwant {sorted(want.items())}\n{r.stderr}")

    # ---------------------------------------------------------------- the done-when

    def print_through(self, text, what):
        """`text` printed by mlir-opt --verify-each (or neuronrw-mlir-opt without mlir-opt)."""
        printer = self.mlir_opt or self.args.tool
        r = self.run([printer, "--verify-each", "--allow-unregistered-dialect", "-"], input=text)
        self.check(f"{what}: {os.path.basename(printer)} --verify-each accepts it", r.returncode == 0,
                   r.stderr + "\n--- input ---\n" + text)
        return r.stdout if r.returncode == 0 else None

    def compare(self, name, a, a_name, b, b_name):
        if a is None or b is None:
            return self.check(name, False, "an output is missing (see above)")
        diff = "".join(difflib.unified_diff(a.splitlines(True), b.splitlines(True), a_name, b_name))
        return self.check(name, a == b, f"{diff}\n--- {a_name} ---\n{a}\n--- {b_name} ---\n{b}")

    def done_when(self):
        src = self.args.source_dir
        examples = sorted(glob.glob(os.path.join(src, "examples", "mlir", "*.mlir")))
        self.check("done-when: examples/mlir/*.mlir found", len(examples) >= 3, str(examples))
        if not self.mlir_opt:
            self.skip("done-when: mlir-opt as the printer and verifier",
                      f"mlir-opt not found at '{self.args.mlir_opt}'; neuronrw-mlir-opt prints and verifies instead")
        oracle = "mlir-opt" if self.mlir_opt else "neuronrw-mlir-opt"
        for path in examples:
            rel = os.path.relpath(path, src)  # as the command line spells it
            pipeline = "builtin.module(neuronrw-schedule-fusion,neuronrw-fusion-to-composite)"
            a = self.run([self.args.tool, "--allow-unregistered-dialect", f"--pass-pipeline={pipeline}", rel], cwd=src)
            self.check(f"done-when: {rel}: neuronrw-mlir-opt {pipeline} exits 0", a.returncode == 0 and a.stderr == "",
                       a.stderr)
            b = self.run([self.args.neuronrw_opt, "--schedule-fusion", "--fusion-to-composite", rel], cwd=src)
            self.check(f"done-when: {rel}: neuronrw-opt --schedule-fusion --fusion-to-composite exits 0",
                       b.returncode == 0, b.stderr)
            a_p = self.print_through(a.stdout, f"done-when: {rel}: neuronrw-mlir-opt's output")
            b_p = self.print_through(b.stdout, f"done-when: {rel}: neuronrw-opt's output")
            self.compare(f"done-when: {rel}: neuronrw-mlir-opt == neuronrw-opt, both printed by {oracle}",
                         a_p, "neuronrw-mlir-opt", b_p, "neuronrw-opt")
            self.compare(f"done-when: {rel}: {oracle} prints neuronrw-mlir-opt's output unchanged",
                         a.stdout, "neuronrw-mlir-opt", a_p, oracle)
            # The StableHLO flavour: clusters become composites in one pass, the same module.
            c = self.run([self.args.tool, "--allow-unregistered-dialect",
                          "--pass-pipeline=builtin.module(neuronrw-schedule-fusion-composites)", rel], cwd=src)
            self.check(f"done-when: {rel}: neuronrw-schedule-fusion-composites exits 0",
                       c.returncode == 0 and c.stderr == "", c.stderr)
            c_p = self.print_through(c.stdout, f"done-when: {rel}: the composites flavour's output")
            self.compare(f"done-when: {rel}: neuronrw-schedule-fusion-composites == neuronrw-opt "
                         f"--schedule-fusion --fusion-to-composite, both printed by {oracle}",
                         c_p, "neuronrw-schedule-fusion-composites", b_p, "neuronrw-opt")
            # ScheduleFusion alone against the driver's.
            s = self.run([self.args.tool, "--allow-unregistered-dialect", "--neuronrw-schedule-fusion", rel], cwd=src)
            t = self.run([self.args.neuronrw_opt, "--schedule-fusion", rel], cwd=src)
            self.check(f"done-when: {rel}: --neuronrw-schedule-fusion and neuronrw-opt --schedule-fusion exit 0",
                       s.returncode == 0 and t.returncode == 0, s.stderr + t.stderr)
            self.compare(f"done-when: {rel}: --neuronrw-schedule-fusion == neuronrw-opt --schedule-fusion, "
                         f"both printed by {oracle}",
                         self.print_through(s.stdout, f"done-when: {rel}: --neuronrw-schedule-fusion's output"),
                         "neuronrw-mlir-opt",
                         self.print_through(t.stdout, f"done-when: {rel}: neuronrw-opt --schedule-fusion's output"),
                         "neuronrw-opt")
            # Every fusion ScheduleFusion made became a composite, and no fusion is left.
            fusions = s.stdout.count('"mhlo.fusion"')
            composites = a.stdout.count('"stablehlo.composite"')
            self.check(f"done-when: {rel}: {fusions} fusion(s) made, {composites} composite(s) in the end, "
                       f"no fusion left", fusions == composites and '"mhlo.fusion"' not in a.stdout, a.stdout)
            expected = self.EXPECTED_CLUSTERS.get(os.path.basename(path))
            if expected is not None:
                self.check(f"done-when: {rel}: {expected} cluster(s)", fusions == expected, s.stdout)

    # The examples' cluster counts (their comments explain them): the comparisons above are not
    # vacuous.
    EXPECTED_CLUSTERS = {"fsdp_layer.mlir": 2, "layer.mlir": 0, "stablehlo_tp_layer.mlir": 2}

def main():
    entry = {"--as-filecheck": as_filecheck, "--as-not": as_not, "--as-exit-code": as_exit_code,
             "--as-count": as_count}
    if len(sys.argv) > 1 and sys.argv[1] in entry:
        return entry[sys.argv[1]](sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", required=True, help="neuronrw-mlir-opt")
    ap.add_argument("--neuronrw-opt", required=True, help="neuronrw-opt (the reference-IR driver)")
    ap.add_argument("--mlir-opt", default="", help="mlir-opt; its checks are skipped when it does not exist")
    ap.add_argument("--filecheck", default="", help="FileCheck; cross-checks the built-in matcher when it exists")
    ap.add_argument("--source-dir", required=True, help="the source tree (for examples/mlir)")
    ap.add_argument("tests", nargs="*", help="test files (default: every *.mlir next to this script)")
    args = ap.parse_args()
    # Meson passes build-directory-relative paths; some checks run elsewhere.
    args.tool, args.neuronrw_opt = os.path.abspath(args.tool), os.path.abspath(args.neuronrw_opt)
    args.source_dir = os.path.abspath(args.source_dir)
    for p, what in ((args.tool, "--tool"), (args.neuronrw_opt, "--neuronrw-opt")):
        if not os.path.isfile(p):
            print(f"FAIL {what} '{p}' does not exist")
            return 1
    h = Harness(args)
    try:
        h.self_test_matcher()
        h.self_test_statistics_parser()
        h.self_test_failing()
        for path in args.tests or sorted(glob.glob(os.path.join(HERE, "*.mlir"))):
            h.run_file(os.path.abspath(path))
        h.statistics()
        h.done_when()
    finally:
        h.close()
    print(f"{h.failures} failed, {h.skips} skipped")
    return 1 if h.failures else 0


if __name__ == "__main__":
    sys.exit(main())
