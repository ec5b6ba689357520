#!/usr/bin/env python3
"""neuronrw-opt's --verify-diagnostics and --split-input-file on the inputs the reliability round 3
red team made quadratic, each check failing before its fix:

- 200K diagnostics against 200K expectations (--verify-diagnostics): every expectation matched,
  exit 0; the verifier scanned every expectation per diagnostic (5.6 s at 100K, over 60 s at 200K);
- 100K `// -----` marker lines (--split-input-file): 100K empty modules, exit 0; each chunk was
  parsed behind a line break per line before it (15.5 s at 100K);
- the same with a host program and `# -----`: a blank chunk (here every one) is accepted;
- growth: the CPU time of 8x the input must stay below 24x (linear: about 8x; quadratic: 64x).
  Ratios of the tool's own CPU time (getrusage of the children), so the check holds on a loaded
  machine and in sanitizer builds alike; the larger run is 400K diagnostics and 800K markers,
  which a quadratic algorithm would not finish within the timeout either.

Usage: scaling_test.py NEURONRW_OPT
Each check prints one line; the script exits 1 if any failed.
"""
import os
import resource
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../support"))
from checks import Checks  # noqa: E402

opt = os.path.abspath(sys.argv[1])
check = Checks()
tmp = tempfile.mkdtemp(prefix="neuronrw-opt-scaling.")
TIMEOUT = 300  # seconds per run: generous for sanitizer builds; a quadratic run takes far longer
GROWTH_MAX = 24  # CPU-time ratio allowed for 8x the input


def write(name, text):
    path = os.path.join(tmp, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def run(args):
    """The run and the CPU seconds (user + system) it took; None on a timeout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        r = subprocess.run([opt] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def calls(n):
    """One function of n calls of an undefined function, each expecting the verifier's error."""
    line = "  func.call @nope() : () -> () // expected-error {{does not reference a valid function}}\n"
    return "func.func @f() {\n" + line * n + "  return\n}\n"


def verify_run(name, n):
    r, cpu = run([write(name, calls(n)), "--verify-diagnostics", "-o", os.devnull])
    ok = r is not None and r.returncode == 0 and r.stderr == b""
    check(f"--verify-diagnostics: {n} diagnostics against {n} expectations, all matched, exit 0", ok,
          "timed out" if r is None else f"exit {r.returncode}: {r.stderr[:300]!r}")
    return cpu if ok else None


def split_run(name, marker, n, kind_args, chunk_out):
    r, cpu = run([write(name, (marker + "\n") * n), "--split-input-file"] + kind_args)
    expected = (chunk_out + "\n" + marker + "\n") * n + chunk_out + "\n"
    ok = r is not None and r.returncode == 0 and r.stderr == b"" and r.stdout == expected.encode()
    check(f"--split-input-file: {n} '{marker}' lines, {n + 1} blank chunks printed, exit 0", ok,
          "timed out" if r is None else f"exit {r.returncode}: {r.stderr[:300]!r} {r.stdout[:100]!r}")
    return cpu if ok else None


def growth(name, small, large):
    if small is None or large is None:
        check.fail(f"{name}: linear growth", "a run failed")
        return
    ratio = large / max(small, 0.01)
    check(f"{name}: 8x the input takes {ratio:.1f}x the CPU time (at most {GROWTH_MAX}x)", ratio <= GROWTH_MAX,
          f"{small:.2f} s, then {large:.2f} s")


verify_run("v200k.mlir", 200_000)
growth("--verify-diagnostics", verify_run("v50k.mlir", 50_000), verify_run("v400k.mlir", 400_000))

split_run("m100k.mlir", "// -----", 100_000, [], "module {\n}\n")
growth("--split-input-file",
       split_run("m100k-again.mlir", "// -----", 100_000, [], "module {\n}\n"),
       split_run("m800k.mlir", "// -----", 800_000, [], "module {\n}\n"))
# Host programs: a blank chunk holds no program and prints nothing (its output line is empty).
split_run("m100k.py", "# -----", 100_000, ["--input-kind=host"], "")

shutil.rmtree(tmp, ignore_errors=True)  # about 50 MB of generated inputs
check.exit()
