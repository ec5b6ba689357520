#!/usr/bin/env python3
"""Whole-process parse+print of the same file: neuronrw-opt (the reference IR) against mlir-opt.

Writes tests/driver/gen_large.py's inputs (MLIR: functions of 40 chained "mhlo.multiply" ops;
host: host orchestrators) of 1 and 10 MiB to a temporary directory and times, as whole processes,
with no pass (each tool parses, verifies and prints):

  bm_process_ref/MB       neuronrw-opt IN.mlir -o OUT
  bm_process_mlir_opt/MB  mlir-opt --allow-unregistered-dialect IN.mlir -o OUT  (the baseline;
                          mlir-opt's defaults, so its context may verify on a second thread)
  bm_process_host/MB      neuronrw-opt IN.py -o OUT  (host programs; no baseline: MLIR has no
                          such format)
  bm_process_stablehlo/MB           neuronrw-opt SH.mlir -o OUT: a JAX-export-shaped module in
                                    StableHLO's custom forms (gen_large.py stablehlo), read and
                                    printed in those forms
  bm_process_mlir_opt_generic/MB    the baseline: mlir-opt --allow-unregistered-dialect
                                    --mlir-print-op-generic GEN.mlir -o OUT, GEN being the same
                                    module in the generic form (neuronrw-opt
                                    --mlir-print-op-generic --mlir-style-names SH.mlir, untimed),
                                    which is all mlir-opt without the StableHLO dialect can read;
                                    MB is the pretty module's size, bytes_per_second each tool's
                                    own input over its time (compare real_time: the same module)

real_time is the wall time of one process run (fork to exit), cpu_time its user+system time;
bytes_per_second = the input's size / real_time; max_rss_bytes = the process's peak resident set.
Each repetition is one run; the medians come from --benchmark_repetitions (default 5).

Checks, once per size before the timed runs (which they also warm up): mlir-opt's output of
neuronrw-opt's output equals mlir-opt's output of the input (both tools read the file alike),
neuronrw-opt's output of a host program is a fixed point (printing it again gives it back), the
pretty StableHLO module prints back unchanged, and mlir-opt reprints its generic form unchanged
(blank lines aside). A
failed check or a failed run is reported as Google Benchmark reports an error (error_occurred,
error_message) and the script exits 1.

Output: Google Benchmark's console table, or its JSON (--benchmark_format=json, --benchmark_out=FILE
with --benchmark_out_format=json), with the same names, fields and aggregates (mean, median,
stddev, cv; --benchmark_report_aggregates_only=true keeps only those), so bench/report reads it
like a suite. Other accepted flags: --benchmark_filter=REGEX; --benchmark_min_time and
--benchmark_display_aggregates_only are accepted and ignored.

When neuronrw-opt or mlir-opt is missing the script says so on stderr, reports an empty benchmark
list and exits 0. NEURONRW_BENCH_SMOKE set: 1 MiB only, one repetition.

usage: text_vs_mlir_opt.py [--build DIR | --driver NEURONRW_OPT] [--mlir-opt MLIR_OPT] [--sizes 1,10]
                           [--benchmark_* flags]
  --build     a build directory with the examples built: its examples/neuronrw-opt
  --driver    default: $NEURONRW_OPT, else neuronrw-opt on PATH
  --mlir-opt  default: $MLIR_OPT, else /usr/lib/llvm-22/bin/mlir-opt, else mlir-opt on PATH
"""
import argparse
import importlib.util
import os
import pathlib
import re
import shutil
import sys
import tempfile

from gbench_json import Output, add_flags, check_flags, first_line, run

HERE = pathlib.Path(__file__).resolve().parent
MIB = 1024 * 1024


def load_gen_large():
    spec = importlib.util.spec_from_file_location("gen_large", HERE.parent / "tests" / "driver" / "gen_large.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def write_input(gen, kind: str, megabytes: int, path: pathlib.Path) -> int:
    """gen_large.py's output of `kind` and `megabytes`, written to `path`; returns its size."""
    target = megabytes * MIB
    parts = []
    size = 0
    if kind in ("mlir", "stablehlo"):
        make = gen.mlir_function if kind == "mlir" else gen.stablehlo_function
        i = 0
        while size < target:
            s = make(i)
            parts.append(s)
            size += len(s)
            i += 1
    else:
        # gen_large.py's main() writes this header before the host functions.
        head = ("import pypto.language as pl\nimport pypto.language.distributed as pld\n\n\n@pl.program\nclass Big:\n"
                " @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
                " def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):\n  return a\n")
        parts.append(head)
        size = len(head)
        i = 0
        while size < target:
            s = gen.host_function(i)
            parts.append(s)
            size += len(s)
            i += 1
    data = "".join(parts).encode()
    path.write_bytes(data)
    return len(data)


def check(cmd, what):
    """Runs `cmd` once (untimed); returns an error message, or None."""
    _, _, _, rc, message = run(cmd)
    if rc != 0:
        return f"{what} exited {rc}: {first_line(message)}"
    return None


def parse_args(argv):
    p = argparse.ArgumentParser(description="neuronrw-opt against mlir-opt, whole processes (see the module doc)")
    p.add_argument("--build", help="a build directory: its examples/neuronrw-opt is the driver")
    p.add_argument("--driver")
    default_mlir_opt = os.environ.get("MLIR_OPT")
    if not default_mlir_opt:
        default_mlir_opt = "/usr/lib/llvm-22/bin/mlir-opt" if os.path.exists("/usr/lib/llvm-22/bin/mlir-opt") \
            else shutil.which("mlir-opt")
    p.add_argument("--mlir-opt", default=default_mlir_opt)
    p.add_argument("--sizes", default="1,10", help="input sizes in MiB, comma-separated (default 1,10)")
    add_flags(p)
    args = p.parse_args(argv)
    if args.build and args.driver:
        p.error("--build and --driver cannot be combined")
    if args.build:
        args.driver = os.path.join(args.build, "examples", "neuronrw-opt")
    elif not args.driver:
        args.driver = os.environ.get("NEURONRW_OPT") or shutil.which("neuronrw-opt")
    try:
        args.sizes = [int(s) for s in args.sizes.split(",")]
        if not args.sizes or min(args.sizes) < 1:
            raise ValueError
    except ValueError:
        p.error(f"--sizes: expected positive integers separated by commas, got '{args.sizes}'")
    check_flags(p, args)
    return args


def counters(e):
    """The console's counter text of one entry."""
    return f"bytes_per_second={e['bytes_per_second'] / MIB:.1f}Mi/s max_rss={e['max_rss_bytes'] / MIB:.0f}Mi"


def main(argv) -> int:
    args = parse_args(argv)
    smoke = os.environ.get("NEURONRW_BENCH_SMOKE") is not None
    sizes = args.sizes[:1] if smoke else args.sizes
    if smoke:
        args.benchmark_repetitions = 1
    reps = args.benchmark_repetitions
    out = Output(__file__, args, counters)

    missing = [f"{what} not found ({path or 'not given and not on PATH'})"
               for what, path in (("neuronrw-opt", args.driver), ("mlir-opt", args.mlir_opt))
               if not path or not os.access(path, os.X_OK)]
    if missing:
        print("text_vs_mlir_opt: skipped, no benchmark run: " + "; ".join(missing), file=sys.stderr)
        return out.emit(0)

    wanted = re.compile(args.benchmark_filter)
    gen = load_gen_large()
    families = ["bm_process_ref", "bm_process_mlir_opt", "bm_process_host", "bm_process_stablehlo",
                "bm_process_mlir_opt_generic"]
    with tempfile.TemporaryDirectory(prefix="text_vs_mlir_opt.") as tmp:
        d = pathlib.Path(tmp)
        # Per size: the inputs, the commands, the checks (which warm the page cache up), then the
        # timed runs, the three tools' runs interleaved so that a change of the machine's load
        # falls on all of them alike.
        results = {}  # (family, mb) -> (runs, error)
        for mb in sizes:
            selected = [f for f in families if wanted.search(f"{f}/{mb}")]
            if not selected:
                continue
            mlir_in, host_in = d / f"in{mb}.mlir", d / f"in{mb}.py"
            input_size = {f: 0 for f in families}
            if "bm_process_ref" in selected or "bm_process_mlir_opt" in selected:
                input_size["bm_process_ref"] = input_size["bm_process_mlir_opt"] = write_input(gen, "mlir", mb, mlir_in)
            if "bm_process_host" in selected:
                input_size["bm_process_host"] = write_input(gen, "host", mb, host_in)
            sh_in, gen_in = d / f"sh{mb}.mlir", d / f"gen{mb}.mlir"
            sh_error = None
            if "bm_process_stablehlo" in selected or "bm_process_mlir_opt_generic" in selected:
                input_size["bm_process_stablehlo"] = write_input(gen, "stablehlo", mb, sh_in)
                sh_error = check([args.driver, "--mlir-print-op-generic", "--mlir-style-names", str(sh_in), "-o",
                                  str(gen_in)], "neuronrw-opt --mlir-print-op-generic")
                input_size["bm_process_mlir_opt_generic"] = gen_in.stat().st_size if gen_in.exists() else 0
            commands = {
                "bm_process_stablehlo": [args.driver, str(sh_in), "-o", str(d / "out_sh.mlir")],
                "bm_process_mlir_opt_generic": [args.mlir_opt, "--allow-unregistered-dialect", "--mlir-print-op-generic",
                                                str(gen_in), "-o", str(d / "out_gen.mlir")],
                "bm_process_ref": [args.driver, str(mlir_in), "-o", str(d / "out_ref.mlir")],
                "bm_process_mlir_opt": [args.mlir_opt, "--allow-unregistered-dialect", str(mlir_in),
                                        "-o", str(d / "out_mlir_opt.mlir")],
                "bm_process_host": [args.driver, str(host_in), "-o", str(d / "out_host.py")],
            }
            error = None
            if "bm_process_ref" in selected or "bm_process_mlir_opt" in selected:
                error = (check(commands["bm_process_ref"], "neuronrw-opt")
                         or check(commands["bm_process_mlir_opt"], "mlir-opt")
                         or check([args.mlir_opt, "--allow-unregistered-dialect", str(d / "out_ref.mlir"), "-o",
                                   str(d / "again.mlir")], "mlir-opt on neuronrw-opt's output"))
                if error is None and (d / "again.mlir").read_bytes() != (d / "out_mlir_opt.mlir").read_bytes():
                    error = "mlir-opt's output of neuronrw-opt's output differs from mlir-opt's output of the input"
            errors = {"bm_process_ref": error, "bm_process_mlir_opt": error, "bm_process_host": None,
                      "bm_process_stablehlo": None, "bm_process_mlir_opt_generic": None}
            if "bm_process_stablehlo" in selected or "bm_process_mlir_opt_generic" in selected:
                sh_error = (sh_error or check(commands["bm_process_stablehlo"], "neuronrw-opt on StableHLO")
                            or check(commands["bm_process_mlir_opt_generic"], "mlir-opt on the generic form"))
                if sh_error is None:
                    expected = "module {\n" + "".join("  " + line if line.strip() else line
                                                       for line in sh_in.read_text().splitlines(True)) + "}\n"
                    if (d / "out_sh.mlir").read_text() != expected:
                        sh_error = "neuronrw-opt's output of the StableHLO module is not the module"
                    elif [l for l in (d / "out_gen.mlir").read_text().splitlines() if l.strip()] != \
                            [l for l in gen_in.read_text().splitlines() if l.strip()]:
                        sh_error = "mlir-opt's output of the generic form differs from it"
                errors["bm_process_stablehlo"] = errors["bm_process_mlir_opt_generic"] = sh_error
            if "bm_process_host" in selected:
                host_error = (check(commands["bm_process_host"], "neuronrw-opt on the host program")
                              or check([args.driver, str(d / "out_host.py"), "-o", str(d / "again.py")],
                                       "neuronrw-opt on its host output"))
                if host_error is None and (d / "again.py").read_bytes() != (d / "out_host.py").read_bytes():
                    host_error = "neuronrw-opt's host output is not a fixed point"
                errors["bm_process_host"] = host_error
            runs = {f: [] for f in selected}
            for rep in range(reps):
                for f in selected:
                    if errors[f] is not None:
                        continue
                    wall, cpu, rss, rc, message = run(commands[f])
                    if rc != 0:
                        errors[f] = f"run {rep + 1} exited {rc}: {message.splitlines()[0] if message else '(no message)'}"
                        continue
                    runs[f].append({"real_time": wall * 1e3, "cpu_time": cpu * 1e3,
                                    "bytes_per_second": input_size[f] / wall, "max_rss_bytes": float(rss),
                                    "input_bytes": float(input_size[f])})
            for f in selected:
                results[(f, mb)] = (runs[f], errors[f])
        # Google Benchmark's order: family by family, sizes in order.
        for family_index, f in enumerate(families):
            instance = 0
            for mb in sizes:
                if (f, mb) not in results:
                    continue
                runs, err = results[(f, mb)]
                out.add(family_index, instance, f"{f}/{mb}", runs, err)
                instance += 1
    return out.emit()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
