#!/usr/bin/env python3
"""Smoke run of one benchmark binary of bench/ (suite 'bench'): runs it with NEURONRW_BENCH_SMOKE=1
(bench/bench_support.hpp: every benchmark once, at its smallest size) and its JSON output, and
fails when the binary exits non-zero, when a benchmark reports an error (SkipWithError: a wrong
count, a baseline that did not reach the same result), or when no benchmark ran.

  smoke.py [--skip-empty] BINARY [ARG...]

--skip-empty: an empty run is a skip (exit status 77), not a failure: for a script that runs no
benchmark when a tool it times is not installed (bench/text_vs_mlir_opt.py without mlir-opt).

The JSON goes to a file (--benchmark_out), not stdout: a binary may print its own console
table (boost_graph_bench's ratio reporter does), which stays in the test log.
"""
import json
import os
import subprocess
import sys
import tempfile


def main(argv):
    skip_empty = len(argv) > 1 and argv[1] == "--skip-empty"
    if skip_empty:
        argv = argv[:1] + argv[2:]
    if len(argv) < 2:
        print("usage: smoke.py [--skip-empty] BINARY [ARG...]", file=sys.stderr)
        return 2
    binary = argv[1]
    name = os.path.basename(binary)
    env = dict(os.environ, NEURONRW_BENCH_SMOKE="1")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.json")
        cmd = [binary, "--benchmark_out=" + out, "--benchmark_out_format=json"] + argv[2:]
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        sys.stdout.write(proc.stdout)
        sys.stderr.write(proc.stderr)
        if proc.returncode != 0:
            print(f"{name}: exit status {proc.returncode}", file=sys.stderr)
            return 1
        try:
            with open(out, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{name}: no JSON output: {e}", file=sys.stderr)
            return 1
    runs = data.get("benchmarks", [])
    if not runs:
        print(f"{name}: no benchmark ran{' (skipped)' if skip_empty else ''}", file=sys.stderr)
        return 77 if skip_empty else 1
    failed = [r for r in runs if r.get("error_occurred")]
    for r in failed:
        print(f"{name}: {r.get('name', '?')}: {r.get('error_message', '')}", file=sys.stderr)
    if failed:
        return 1
    print(f"{name}: {len(runs)} benchmark{'' if len(runs) == 1 else 's'} ran")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
