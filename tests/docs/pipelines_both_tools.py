#!/usr/bin/env python3
"""Every `builtin.module(...)` pipeline string of README.md, docs/*.md and examples/*/README.md means the same to
neuronrw-opt and neuronrw-mlir-opt (docs/driver.md, docs/mlir.md): run through both on one input,
both succeed and give the same module once mlir-opt prints both (--verify-each), or both refuse it.

A pipeline is skipped only when it names a pass neither tool has (a user's own pass the docs show
registering, e.g. `my-overlap`) or nests a pipeline (`func.func(...)`, MLIR's own passes); each
skip is printed with its reason. The script fails when fewer than `min_run` pipelines ran.

usage: pipelines_both_tools.py NEURONRW_OPT NEURONRW_MLIR_OPT MLIR_OPT SOURCE_ROOT INPUT
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import Checks  # noqa: E402

opt, mlir_opt_tool, mlir_opt, root, source = sys.argv[1:6]
min_run = 3
check = Checks(label="pipelines_both_tools")


def run(args):
    return subprocess.run(args, capture_output=True, text=True)


def pipelines(text):
    """Every builtin.module(...) with balanced parentheses, in order."""
    out = []
    for m in re.finditer(r"builtin\.module\(", text):
        depth, i = 0, m.start() + len("builtin.module")
        while i < len(text):
            depth += text[i] == "("
            depth -= text[i] == ")"
            if depth == 0:
                break
            i += 1
        if depth == 0:
            out.append(text[m.start():i + 1])
    return out


def pass_names(pipe):
    """The top-level pass names of a pipeline, and whether it nests another pipeline."""
    inner = pipe[len("builtin.module("):-1]
    names, depth, brace, cur = [], 0, 0, ""
    nested = False
    for c in inner + ",":
        if c == "{":
            brace += 1
        elif c == "}":
            brace -= 1
        elif c == "(" and brace == 0:
            nested = True
            depth += 1
        elif c == ")" and brace == 0:
            depth -= 1
        if c == "," and depth == 0 and brace == 0:
            names.append(re.split(r"[{(]", cur.strip(), 1)[0])
            cur = ""
        else:
            cur += c
    return [n for n in names if n], nested


listing = run([opt, "--list-passes"]).stdout
driver_passes = set(re.findall(r"^  --([\w-]+) ", listing, re.M))
mlir_help = run([mlir_opt_tool, "--help"]).stdout
mlir_passes = set(re.findall(r"^ {6}--([\w-]+)\s", mlir_help, re.M))
check("neuronrw-mlir-opt has neuronrw-opt's names for the library's passes",
      {"schedule-fusion", "schedule-fusion-composites", "fusion-to-composite"} <= mlir_passes, str(sorted(mlir_passes)))

seen = []
for path in ([os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md"))) +
             sorted(glob.glob(os.path.join(root, "examples", "*", "README.md")))):
    with open(path, encoding="utf-8") as f:
        for p in pipelines(f.read()):
            if p not in seen:
                seen.append(p)

ran = 0
with tempfile.TemporaryDirectory() as tmp:
    for k, p in enumerate(seen):
        names, nested = pass_names(p)
        if nested or "..." in p:
            print(f"skip {p}: a nested MLIR pipeline, not a pipeline of neuronrw's passes")
            continue
        unknown = [n for n in names if n not in driver_passes and n not in mlir_passes]
        if unknown:
            print(f"skip {p}: names {', '.join(unknown)}, a pass of neither tool (a user's own, as the docs show)")
            continue
        one_tool = [n for n in names if (n in driver_passes) != (n in mlir_passes)]
        check(f"{p}: every pass is in both tools", not one_tool, ", ".join(one_tool))
        if one_tool:
            continue
        ran += 1
        a = run([opt, "--pass-pipeline=" + p, source, "-o", os.path.join(tmp, f"{k}.ref")])
        b = run([mlir_opt_tool, "--allow-unregistered-dialect", "--pass-pipeline=" + p, source,
                 "-o", os.path.join(tmp, f"{k}.mlir")])
        check(f"{p}: both tools agree whether it runs (exit {a.returncode} / {b.returncode})",
              (a.returncode == 0) == (b.returncode == 0), a.stderr + b.stderr)
        if a.returncode != 0 or b.returncode != 0:
            continue
        printed = []
        for suffix in ("ref", "mlir"):
            r = run([mlir_opt, "--verify-each", "--allow-unregistered-dialect", os.path.join(tmp, f"{k}.{suffix}")])
            check(f"{p}: mlir-opt reads neuronrw-{'opt' if suffix == 'ref' else 'mlir-opt'}'s output", r.returncode == 0, r.stderr)
            printed.append(r.stdout)
        check(f"{p}: the same module from both tools", printed[0] == printed[1],
              "neuronrw-opt:\n" + printed[0] + "\nneuronrw-mlir-opt:\n" + printed[1])

check(f"at least {min_run} pipelines of the docs ran through both tools ({ran})", ran >= min_run)
print(f"{ran} pipelines ran, {len(seen) - ran} skipped")
check.exit()
