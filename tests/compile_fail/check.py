#!/usr/bin/env python3
"""Compile-fail check: compile a snippet that must NOT compile and require the diagnostic text.

Usage: check.py SNIPPET.cpp -- COMPILER [ARGS...]

The snippet states what it expects in comments, one per line:
    // expected-error: text that must appear in the compiler's output
Every expected line must appear (verbatim, after collapsing whitespace); the compile must fail.
A snippet compiled with -DNEURONRW_COMPILE_FAIL_CONTROL must succeed: this proves the snippet
fails for the stated reason and not because of an unrelated typo.
"""
import re
import subprocess
import sys
import tempfile
import os


def norm(s):
    return re.sub(r"\s+", " ", s)


def main():
    args = sys.argv[1:]
    if "--" not in args:
        print("usage: check.py SNIPPET -- COMPILER ARGS...", file=sys.stderr)
        return 2
    i = args.index("--")
    snippet = args[0]
    cmd = args[i + 1:]
    with open(snippet, encoding="utf-8") as f:
        text = f.read()
    expected = [m.group(1).strip() for m in re.finditer(r"//\s*expected-error:\s*(.*)", text)]
    if not expected:
        print(f"{snippet}: no '// expected-error:' line", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "x.o")
        base = cmd + ["-std=c++20", "-fsyntax-only", snippet]
        ctl = subprocess.run(base + ["-DNEURONRW_COMPILE_FAIL_CONTROL"], capture_output=True, text=True)
        if ctl.returncode != 0:
            print(f"{snippet}: control build (-DNEURONRW_COMPILE_FAIL_CONTROL) failed; the snippet is broken:")
            print(ctl.stderr[-4000:])
            return 1
        r = subprocess.run(base, capture_output=True, text=True)
    if r.returncode == 0:
        print(f"{snippet}: compiled, but it must not")
        return 1
    diag = norm(r.stdout + r.stderr)
    missing = [e for e in expected if norm(e) not in diag]
    if missing:
        print(f"{snippet}: the diagnostic lacks:")
        for m in missing:
            print(f"  {m}")
        print("--- compiler output (tail) ---")
        print((r.stdout + r.stderr)[-4000:])
        return 1
    print(f"{snippet}: failed to compile with the expected diagnostic ({len(expected)} line(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
