#!/usr/bin/env python3
"""Compile-fail check: compile a snippet that must NOT compile and require the diagnostic text.

Usage: check.py SNIPPET.cpp -- COMPILER [ARGS...]

The snippet states what it expects in comments, one per line:
    // expected-error: text that must appear in the compiler's output
    // expected-error-count: N   (optional) the compiler reports exactly N errors
Every expected line must appear (verbatim, after collapsing whitespace); the compile must fail.
An error count makes "this message and no other" checkable: a requirement check that fired two
static_asserts, or one plus a follow-up error, fails it.
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
    counts = [int(m.group(1)) for m in re.finditer(r"//\s*expected-error-count:\s*(\d+)", text)]
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
    # g++ and clang++ both start every error with "<location>: error: " (clang's
    # "N errors generated." summary does not match).
    errors = re.findall(r"(?m)^.*?\berror: ", r.stdout + r.stderr)
    if counts and len(errors) != counts[0]:
        print(f"{snippet}: expected exactly {counts[0]} error(s), the compiler reported {len(errors)}:")
        print((r.stdout + r.stderr)[-4000:])
        return 1
    print(f"{snippet}: failed to compile with the expected diagnostic ({len(expected)} line(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
