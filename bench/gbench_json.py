"""Google Benchmark's command line and output for the benchmark scripts of bench/ (NAME.py).

bench/report runs a script suite like a benchmark binary and reads its JSON; the scripts share
this module for what they have to look like to it:

  add_flags(parser)       --benchmark_format=console|json, --benchmark_out=FILE,
                          --benchmark_out_format=json, --benchmark_repetitions=N (default 5),
                          --benchmark_report_aggregates_only, --benchmark_filter=REGEX (default
                          '.'); --benchmark_min_time and --benchmark_display_aggregates_only are
                          accepted and ignored
  run(cmd)                one child process: wall time, user+system time and peak RSS of that
                          child only (os.wait4), exit status, stderr
  Output(script, args, counters)
                          the document ({"context", "benchmarks"}): add() one benchmark instance
                          (its repetitions, then mean/median/stddev/cv; or its error), emit() it
                          to --benchmark_out and stdout (JSON or the console table)

A repetition ("run") is a dict of numbers: real_time and cpu_time in the output's time unit, then
the user counters; every key is aggregated. Python 3 standard library only.
"""
import datetime
import json
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import tempfile
import time


def add_flags(parser, repetitions=5):
    """Google Benchmark's flags, as the scripts accept them."""
    parser.add_argument("--benchmark_format", default="console", choices=["console", "json"])
    parser.add_argument("--benchmark_out")
    parser.add_argument("--benchmark_out_format", default="json", choices=["json"])
    parser.add_argument("--benchmark_repetitions", type=int, default=repetitions)
    parser.add_argument("--benchmark_report_aggregates_only", default="false")
    parser.add_argument("--benchmark_display_aggregates_only", default="false")
    parser.add_argument("--benchmark_filter", default=".")
    parser.add_argument("--benchmark_min_time")


def check_flags(parser, args):
    if args.benchmark_repetitions < 1:
        parser.error("--benchmark_repetitions must be at least 1")


def truthy(s: str) -> bool:
    return s.lower() in ("true", "1", "yes")


def run(cmd, cwd=None):
    """Runs `cmd`; returns (wall seconds, user+sys seconds, peak RSS bytes, exit status, stderr).
    The times and the RSS are the child's own (os.wait4), not those of other children."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, cwd=cwd)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        message = err.read().decode(errors="replace").strip()
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, proc.returncode, message


def first_line(message):
    return message.splitlines()[0] if message else "(no message)"


def context(script, **extra):
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "host_name": platform.node(),
        "executable": str(pathlib.Path(script).resolve()),
        "num_cpus": os.cpu_count(),
        "load_avg": list(os.getloadavg()),
        "library_build_type": "release",
        **extra,
    }


def aggregates(name, common, runs, time_unit):
    """Google Benchmark's mean/median/stddev/cv entries for the repetitions `runs`."""
    out = []
    n = len(runs)
    for agg in ("mean", "median", "stddev", "cv"):
        entry = {"name": f"{name}_{agg}", **common, "run_type": "aggregate", "aggregate_name": agg,
                 "aggregate_unit": "percentage" if agg == "cv" else "time", "iterations": n, "time_unit": time_unit}
        for key in runs[0]:
            values = [r[key] for r in runs]
            mean = statistics.fmean(values)
            sd = statistics.stdev(values) if n > 1 else 0.0
            entry[key] = {"mean": mean, "median": statistics.median(values), "stddev": sd,
                          "cv": sd / mean if mean else 0.0}[agg]
        out.append(entry)
    return out


class Output:
    """The JSON document of one script run. `counters(entry)` → the console's counter text."""

    def __init__(self, script, args, counters, time_unit="ms", digits=1, **context_extra):
        self.args = args
        self.counters = counters
        self.time_unit = time_unit
        self.digits = digits  # the console's decimals of the times
        self.reps = args.benchmark_repetitions
        self.aggregates_only = truthy(args.benchmark_report_aggregates_only)
        self.doc = {"context": context(script, **context_extra), "benchmarks": []}
        self.failed = False

    def add(self, family_index, instance, name, runs, error=None):
        """One benchmark instance: its repetitions (with aggregates when more than one), or its
        error (error_occurred, error_message) when `error` is set."""
        common = {"family_index": family_index, "per_family_instance_index": instance, "run_name": name,
                  "repetitions": self.reps, "threads": 1}
        bench = self.doc["benchmarks"]
        if error is not None:
            self.failed = True
            bench.append({"name": name, **common, "run_type": "iteration", "repetition_index": 0,
                          "error_occurred": True, "error_message": error})
            return
        if not (self.aggregates_only and self.reps > 1):
            for rep, r in enumerate(runs):
                bench.append({"name": name, **common, "run_type": "iteration", "repetition_index": rep,
                              "iterations": 1, "time_unit": self.time_unit, **r})
        if self.reps > 1:
            bench += aggregates(name, common, runs, self.time_unit)

    def console(self, file):
        unit, digits = self.time_unit, self.digits
        w = max([40] + [len(e["name"]) + 1 for e in self.doc["benchmarks"]])  # the names' column
        print(f"{'Benchmark':<{w}}{'Time':>14}{'CPU':>14}   UserCounters...", file=file)
        print("-" * (w + 50), file=file)
        for e in self.doc["benchmarks"]:
            if e.get("error_occurred"):
                print(f"{e['name']:<{w}} ERROR OCCURRED: '{e['error_message']}'", file=file)
                continue
            if e.get("aggregate_name") == "cv":
                print(f"{e['name']:<{w}}{e['real_time'] * 100:>12.2f} %{e['cpu_time'] * 100:>12.2f} %", file=file)
                continue
            print(f"{e['name']:<{w}}{e['real_time']:>{13 - len(unit)}.{digits}f} {unit}"
                  f"{e['cpu_time']:>{13 - len(unit)}.{digits}f} {unit}   {self.counters(e)}", file=file)

    def emit(self, code=None):
        """Writes the document; returns `code`, or 1 when an instance failed and 0 otherwise."""
        text = json.dumps(self.doc, indent=2) + "\n"
        if self.args.benchmark_out:
            pathlib.Path(self.args.benchmark_out).write_text(text)
        if self.args.benchmark_format == "json":
            sys.stdout.write(text)
        else:
            self.console(sys.stdout)
        if code is None:
            code = 1 if self.failed else 0
        return code
