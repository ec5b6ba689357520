#!/usr/bin/env python3
"""bench/report's test (suite 'bench').

  report_test.py REPORT FIXTURE BUILD

1. `--from FIXTURE` (tests/bench/report_fixture.json: four suites with known medians, a mean and
   a stddev that differ from them, and one suite run without aggregates): the header lines and
   the column line exactly; one row per declared figure of those suites (bench/report's ROWS)
   and none of any other suite; the rows whose figures the fixture holds, cell for cell (ratios,
   time sums, fits, targets, pass/short); the notes; exit status 0.
1b. The fixture with the host's caches in its header: they follow the cores on the machine line.
2. An error in the fixture (a benchmark with error_occurred): its row says error, a note names
   it, exit status 1. A suite that ran no benchmark: a note, exit status 0.
3. Usage errors: an unknown suite, a build directory without bench/, a bad saved run: exit
   status 2 with the exact message.
3b. Counters with units (compile_cost.py's rows, from a run made here): '<= 3 s' on a *_seconds
   counter, '<= 100 MB' on a *_bytes counter (decimal, exactly at the target passes), the values
   shown with their units; a script suite that needs nothing built needs no build directory.
4. A live smoke run (NEURONRW_BENCH_SMOKE=1) of order_bench in BUILD, saved with --out: the
   header's shape, the one row at the smallest size; `--from` that file prints the same text.
4b. The build line's compiler from meson's log, with and without a compiler wrapper (ccache).
5. --plot: without gnuplot on PATH, the exact error (exit 2); with gnuplot (when installed; a
   message says it is skipped otherwise), the SVG files of exactly the suites with sized rows,
   naming each figure and baseline.
"""
import importlib.machinery
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # loading bench/report writes nothing into the source tree

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import Checks  # noqa: E402

# Only the failures are printed (the fixture's rows make hundreds of checks).
check = Checks(verbose=False, label="bench/report")


def run(report, *args, env=None):
    p = subprocess.run([sys.executable, report, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def load_rows(report):
    loader = importlib.machinery.SourceFileLoader("bench_report", report)
    spec = importlib.util.spec_from_loader("bench_report", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def table(text):
    """The table's data rows as cell lists, and every table line (for the alignment check)."""
    lines = [l for l in text.splitlines() if l.startswith("|")]
    rows = [[c.strip() for c in l.strip("|").split("|")] for l in lines[2:]]
    return rows, lines


HEADER = [
    "bench/report, 2026-11-30 12:00 UTC",
    "machine: Test CPU @ 2.00GHz, 2 cores; load average 0.05 0.1 0.2 at start, 1.0 0.5 0.25 at end",
    "build: build-bench (release, g++ 12.2.0); 5 repetitions per benchmark, medians, one process per suite",
    "",
]
COLUMNS = ["suite", "figure", "size", "value", "baseline", "baseline value", "ratio", "target", "result"]

# Rows computed from the fixture's medians (the means are 1.5x off: reading them fails these).
EXPECTED = [
    ["walk_bench", "bm_walk_ref", "1000", "60M/s", "bm_csr_bfs", "100M/s", "0.6", ">= 0.5", "pass"],
    ["walk_bench", "bm_walk_ref", "1000000", "30M/s", "bm_csr_bfs", "80M/s", "0.375", ">= 0.5", "short"],
    ["walk_bench", "bm_walk_ref", "1000", "60M/s", "bm_boost_bfs", "20M/s", "3", ">= 2", "pass"],
    ["walk_bench", "bm_walk_ref", "1000000", "30M/s", "bm_boost_bfs", "17M/s", "1.76", ">= 2", "short"],
    ["walk_bench", "bm_move_query", "1000000", "7.55M/s", "—", "—", "—", ">= 1M/s", "pass"],
    ["boost_graph_view_bench", "bm_bfs_dense_view/warm", "1000", "20M/s", "bm_bfs_adjacency_copy", "20M/s",
     "1", ">= 1", "pass"],  # exactly at the target
    ["boost_graph_view_bench", "bm_bfs_dense_view/cold", "1000", "80 us",
     "bm_copy_to_adjacency_list + bm_bfs_adjacency_copy", "200 us", "0.4", "<= 1", "pass"],
    ["boost_graph_view_bench", "bm_bfs_block_view/warm", "1000", "16M/s", "bm_bfs_adjacency_copy", "20M/s",
     "0.8", "—", "—"],  # a ratio without a target
    ["boost_graph_view_bench", "bm_bfs_block_view/cold", "1000", "80 us",
     "bm_copy_to_adjacency_list + bm_bfs_adjacency_copy", "200 us", "0.4", "<= 1", "pass"],
    ["schedule_fusion_bench", "BM_schedule_fusion_full", "—", "420 ns × N, RMS 3%", "—", "—", "—", "linear", "pass"],
    ["schedule_fusion_bench", "BM_schedule_fusion_plan", "—", "100 ns × N, RMS 25%", "—", "—", "—", "linear", "short"],
    ["schedule_fusion_bench", "BM_schedule_fusion_full", "1000000", "420 ms", "—", "—", "—", "<= 1 s", "pass"],
    ["parallel_bench", "BM_ref_plan_parallel", "1", "110 ms", "BM_ref_plan_sequential", "100 ms", "1.1", "<= 1", "short"],
    ["parallel_bench", "BM_ref_plan_parallel", "2", "60 ms", "BM_ref_plan_sequential", "100 ms", "0.6", "<= 1", "pass"],
]


def check_fixture(report, fixture, mod):
    rc, out, err = run(report, "--from", fixture)
    check(f"--from fixture: exit status {rc} (stderr: {err.strip()})", rc == 0)
    lines = out.splitlines()
    check(f"--from fixture: header lines {lines[:4]!r}", lines[:4] == HEADER)
    rows, tlines = table(out)
    check(f"column line {tlines[0]!r}", [c.strip() for c in tlines[0].strip("|").split("|")] == COLUMNS)
    check(f"separator line {tlines[1]!r}", re.fullmatch(r"\|(-+\|){9}", tlines[1]) is not None)
    check("table lines of different widths", len({len(l) for l in tlines}) == 1)
    check("a row without 9 cells", all(len(r) == 9 for r in rows))
    for e in EXPECTED:
        check(f"row missing or different: {e}", e in rows)
    # One row or more per declared figure of the fixture's suites; none for any other suite.
    suites = {"walk_bench", "schedule_fusion_bench", "boost_graph_view_bench", "parallel_bench"}
    for r in mod.ROWS:
        if r.suite not in suites:
            continue
        shown = mod.shown_name(mod.split_counter(r.figure)[0])
        fixed = re.match(r"^(.*)/(\d+)$", shown)
        name = fixed.group(1) if fixed and "{n}" not in r.figure and r.compare != "fit" else shown
        check(f"no row for {r.suite} {r.figure}", any(x[0] == r.suite and x[1] == name for x in rows))
    check(f"suites in the table: {sorted({r[0] for r in rows})}", {r[0] for r in rows} == suites)
    # A declared figure the fixture lacks: one 'missing' row and a note naming it.
    check("the missing fit row", ["schedule_fusion_bench", "BM_schedule_fusion_shared_full", "—", "no fit", "—", "—", "—", "linear",
           "missing"] in rows)
    check("the not-built note", "not built: mlir_bench (ninja -C build-bench bench/mlir_bench)" in lines)
    check("the not-configured note", "not in this build: memory_bench (not configured in it: the MLIR suites need MLIR 22, "
          "scripts/install-deps --mlir, and -Dmlir not disabled)" in lines)
    n_rows = len(rows)
    counts = {k: sum(1 for r in rows if r[8] == k) for k in ("pass", "short", "—")}
    summary = (f"{n_rows} rows: {counts['pass']} pass, {counts['short']} short, {counts['—']} without target, "
               f"{n_rows - sum(counts.values())} missing or in error")
    check(f"summary line {summary!r} not in the output", summary in lines)


def load(fixture):
    with open(fixture, encoding="utf-8") as f:
        return json.load(f)


def save(data, tmp, name):
    """Writes `data` to tmp/name (a saved run for --from); returns the path."""
    path = os.path.join(tmp, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f)
    return path


def run_saved(report, data, tmp, name, suite):
    """Saves `data` as tmp/name and prints it again with `--from`, for one suite."""
    return run(report, "--from", save(data, tmp, name), "--filter", suite)


def check_caches(report, fixture, tmp):
    """A saved run whose header names the host's caches prints them after the cores (the
    fixture, saved before there were any, prints none: HEADER)."""
    data = load(fixture)
    data["header"]["machine"]["caches"] = ["L2 512K", "L3 32768K"]
    rc, out, err = run_saved(report, data, tmp, "caches.json", "walk_bench")
    check(f"caches: exit status {rc} (stderr: {err.strip()})", rc == 0)
    want = ("machine: Test CPU @ 2.00GHz, 2 cores, L2 512K, L3 32768K; load average 0.05 0.1 0.2 at start, "
            "1.0 0.5 0.25 at end")
    check(f"caches: header line {out.splitlines()[1:2]!r}", out.splitlines()[1:2] == [want])


def check_error(report, fixture, tmp):
    data = load(fixture)
    for b in data["suites"]["walk_bench"]["benchmarks"]:
        if b["run_name"] == "bm_walk_ref/1000":
            b["error_occurred"] = True
            b["error_message"] = "the walk did not reach every op"
    rc, out, _ = run_saved(report, data, tmp, "error.json", "walk_bench")
    check(f"error fixture: exit status {rc}, want 1", rc == 1)
    rows, _ = table(out)
    check("error fixture: the error row",
          ["walk_bench", "bm_walk_ref", "1000", "error", "bm_csr_bfs", "—", "—", ">= 0.5", "error"] in rows)
    check("error fixture: the failed note",
          "failed: walk_bench: bm_walk_ref/1000: the walk did not reach every op" in out.splitlines())
    check("--filter walk_bench printed other suites", all(r[0] == "walk_bench" for r in rows))
    # A suite that ran nothing (a script whose tool is missing): no rows, a note, not a failure.
    data["suites"]["text_bench"] = {"context": {}, "benchmarks": []}
    rc, out, _ = run_saved(report, data, tmp, "error.json", "text_bench")
    check(f"empty suite: exit status {rc}, output {out!r}",
          rc == 0 and table(out)[0] == [] and "ran no benchmark: text_bench (its output says why)" in out.splitlines())


def check_lost_size(report, fixture, tmp):
    """A size the baseline ran and the figure did not is a 'missing' row with a note, not a row
    left out of the table."""
    data = load(fixture)
    bench = data["suites"]["walk_bench"]["benchmarks"]
    data["suites"]["walk_bench"]["benchmarks"] = [b for b in bench if b["run_name"] != "bm_walk_ref/1000000"]
    rc, out, _ = run_saved(report, data, tmp, "lost.json", "walk_bench")
    check(f"lost size: exit status {rc}, want 0 (as for any missing row)", rc == 0)
    rows, _ = table(out)
    check("lost size: the missing row",
          ["walk_bench", "bm_walk_ref", "1000000", "missing", "bm_csr_bfs", "—", "—", ">= 0.5", "missing"] in rows)
    check("lost size: the size that ran is still there",
          any(r[:3] == ["walk_bench", "bm_walk_ref", "1000"] and r[8] != "missing" for r in rows))
    check("lost size: the missing note", "missing: walk_bench: bm_walk_ref/1000000" in out.splitlines())


def check_usage(report, tmp):
    rc, _, err = run(report, "--from", os.devnull, "--filter", "nosuch_bench")
    check(f"unknown suite: {rc} {err!r}",
          rc == 2 and err.startswith("bench/report: unknown suite nosuch_bench (suites: walk_bench, "))
    rc, _, err = run(report, "--build", os.path.join(tmp, "nobuild"))
    want = (f"bench/report: {tmp}/nobuild/bench not found: configure and build the suites first: "
            f"bench/report --setup --build {tmp}/nobuild && ninja -C {tmp}/nobuild\n")
    check(f"missing build: {rc} {err!r}", rc == 2 and err == want)
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w", encoding="utf-8") as f:
        f.write("{}")
    rc, _, err = run(report, "--from", bad)
    check(f"bad saved run: {rc} {err!r}",
          rc == 2 and err == f"bench/report: {bad}: not a saved bench/report run ('header')\n")


def check_counter_units(report, fixture, tmp, mod):
    header = load(fixture)["header"]

    def median(name, cpu, **counters):
        return {"name": name + "_median", "run_name": name, "run_type": "aggregate", "aggregate_name": "median",
                "iterations": 3, "time_unit": "s", "real_time": cpu * 1.05, "cpu_time": cpu, **counters}

    runs = []
    for c, base, mine, base_rss, mine_rss in (("gcc", 4.2, 13.7, 359e6, 635e6), ("clang", 4.0, 6.5, 300e6, 400e6)):
        runs += [median(f"bm_compile_mlir_pass_base/{c}", base, cpu_seconds=base, max_rss_bytes=base_rss),
                 median(f"bm_compile_mlir_pass_neuronrw/{c}", mine, cpu_seconds=mine, max_rss_bytes=mine_rss),
                 median(f"bm_compile_mlir_pass_added/{c}", mine - base, added_cpu_seconds=mine - base,
                        added_rss_bytes=mine_rss - base_rss)]
    # The pass with ScheduleFusion's instances compiled elsewhere (extern − base), and their TU.
    runs += [median("bm_compile_mlir_pass_extern/gcc", 6.0, cpu_seconds=6.0, max_rss_bytes=430e6),
             median("bm_compile_mlir_pass_extern_added/gcc", 1.8, added_cpu_seconds=1.8, added_rss_bytes=71e6),
             median("bm_compile_mlir_instance/gcc", 10.5, cpu_seconds=10.5, max_rss_bytes=531e6)]
    data = {"header": header, "suites": {"compile_cost.py": {"context": {}, "benchmarks": runs}}}
    rc, out, err = run_saved(report, data, tmp, "compile_cost.json", "compile_cost.py")
    check(f"compile_cost.py: exit status {rc} ({err.strip()})", rc == 0)
    rows, _ = table(out)
    s = "compile_cost.py"
    for want in (
            [s, "bm_compile_mlir_pass_neuronrw/gcc", "—", "13.7 s", "bm_compile_mlir_pass_base/gcc", "4.2 s", "3.26",
             "—", "—"],
            [s, "bm_compile_mlir_pass_neuronrw/gcc[max_rss_bytes]", "—", "635MB",
             "bm_compile_mlir_pass_base/gcc[max_rss_bytes]", "359MB", "1.77", "—", "—"],
            [s, "bm_compile_mlir_pass_added/gcc[added_cpu_seconds]", "—", "9.5 s", "—", "—", "—", "<= 3 s", "short"],
            [s, "bm_compile_mlir_pass_added/gcc[added_rss_bytes]", "—", "276MB", "—", "—", "—", "<= 100 MB", "short"],
            [s, "bm_compile_mlir_pass_added/clang[added_cpu_seconds]", "—", "2.5 s", "—", "—", "—", "<= 3 s", "pass"],
            [s, "bm_compile_mlir_pass_added/clang[added_rss_bytes]", "—", "100MB", "—", "—", "—", "<= 100 MB",
             "pass"],  # exactly at the target
            [s, "bm_compile_mlir_pass_extern/gcc", "—", "6 s", "bm_compile_mlir_pass_base/gcc", "4.2 s", "1.43",
             "—", "—"],
            [s, "bm_compile_mlir_pass_extern_added/gcc[added_cpu_seconds]", "—", "1.8 s", "—", "—", "—", "<= 3 s",
             "pass"],
            [s, "bm_compile_mlir_pass_extern_added/gcc[added_rss_bytes]", "—", "71MB", "—", "—", "—", "<= 100 MB",
             "pass"],
            [s, "bm_compile_mlir_pass_extern_added/clang[added_rss_bytes]", "—", "missing", "—", "—", "—",
             "<= 100 MB", "missing"],
            [s, "bm_compile_mlir_instance/gcc[max_rss_bytes]", "—", "531MB", "—", "—", "—", "—", "—"],
            [s, "bm_compile_ref_driver_added/gcc[added_cpu_seconds]", "—", "missing", "—", "—", "—", "—", "missing"]):
        check(f"compile_cost.py row missing or different: {want}", want in rows, detail="\n".join(map(str, rows)))
    check("compile_cost.py needs nothing built", not mod.needs_build("compile_cost.py")
          and mod.needs_build("text_vs_mlir_opt.py") and mod.needs_build("walk_bench"))
    check("a negative *_seconds counter", mod.fmt_quantity(-0.25, "counter", "added_cpu_seconds") == "-250 ms")


def check_live(report, build, tmp):
    saved = os.path.join(tmp, "live.json")
    env = dict(os.environ, NEURONRW_BENCH_SMOKE="1")
    rc, out, err = run(report, "--build", build, "--repetitions", "1", "--filter", "order_bench", "--out", saved,
                       env=env)
    check(f"live run: exit status {rc} (stderr: {err.strip()})", rc == 0)
    lines = out.splitlines()
    check(f"live: {lines[0]!r}", re.fullmatch(r"bench/report, \d{4}-\d\d-\d\d \d\d:\d\d UTC", lines[0]) is not None)
    load = r"\d+(\.\d+)? \d+(\.\d+)? \d+(\.\d+)?"
    check(f"live: {lines[1]!r}",
          re.fullmatch(rf"machine: .+, \d+ cores(, L\d \S+)*; load average {load} at start, {load} at end", lines[1])
          is not None)
    check(f"live: {lines[2]!r}", re.fullmatch(re.escape(f"build: {build} (") + r"\w+, .+\); 1 repetition per benchmark, medians, "
                       r"one process per suite", lines[2]) is not None)
    rows, _ = table(out)
    check(f"live rows: {rows}", len(rows) == 1 and rows[0][:3] == ["order_bench", "bm_order_maintenance", "1000"]
          and rows[0][4] == "bm_renumber_baseline" and rows[0][7:] == ["—", "—"]
          and re.fullmatch(r"[\d.]+[kMG]?/s", rows[0][3]) is not None
          and re.fullmatch(r"[\d.e+-]+", rows[0][6]) is not None)
    rc2, out2, _ = run(report, "--from", saved, "--filter", "order_bench")
    check("--from the saved live run printed another text", rc2 == 0 and out2 == out)


def check_build_info(mod, tmp):
    """The build line's compiler, read from meson's log: plain, behind a wrapper (ccache), clang."""
    cases = [
        ("C++ compiler for the host machine: c++ (gcc 12.2.0 \"c++ (Debian 12.2.0-14) 12.2.0\")", "g++ 12.2.0"),
        ("C++ compiler for the host machine: ccache c++ (gcc 12.2.0 \"c++ (Debian 12.2.0-14) 12.2.0\")", "g++ 12.2.0"),
        ("C++ compiler for the host machine: ccache clang++ (clang 14.0.6 \"Debian clang version 14.0.6\")",
         "clang 14.0.6"),
        ("C++ linker for the host machine: c++ ld.bfd 2.40", "unknown"),
    ]
    for i, (line, expected) in enumerate(cases):
        build = os.path.join(tmp, f"b{i}")
        os.makedirs(os.path.join(build, "meson-logs"))
        with open(os.path.join(build, "meson-logs", "meson-log.txt"), "w", encoding="utf-8") as f:
            f.write("Sanity testing C++ compiler: ccache c++\n" + line + "\n")
        got = mod.build_info(build)
        check(f"build_info from {line!r}: {got}", got == {"dir": build, "buildtype": "unknown", "compiler": expected})


def check_plots(report, fixture, tmp):
    empty = os.path.join(tmp, "empty-path")
    os.makedirs(empty)
    rc, _, err = run(report, "--from", fixture, "--plot", os.path.join(tmp, "p0"), env=dict(os.environ, PATH=empty))
    check(f"--plot without gnuplot: {rc} {err!r}", rc == 2 and err == "bench/report: --plot needs gnuplot (Debian package gnuplot-nox): "
          "scripts/install-deps --plot\n")
    if not shutil.which("gnuplot"):
        print("gnuplot not installed (scripts/install-deps --plot): the plot files are not checked")
        return
    plots = os.path.join(tmp, "plots")
    rc, out, err = run(report, "--from", fixture, "--plot", plots)
    check(f"--plot: exit status {rc} ({err.strip()})", rc == 0)
    # parallel_bench's argument is a thread count (no plot); schedule_fusion_bench's sized rows are
    # the rewrite check against the full pass (docs/validation.md).
    check(f"plot files {sorted(os.listdir(plots))}",
          sorted(os.listdir(plots)) == ["boost_graph_view_bench.svg", "schedule_fusion_bench.svg", "walk_bench.svg"])
    for name, titles in (("walk_bench.svg", ["bm_walk_ref", "bm_csr_bfs", "bm_boost_bfs"]),
                         ("boost_graph_view_bench.svg", ["bm_bfs_block_view/warm", "bm_bfs_adjacency_copy",
                                                         "bm_bfs_block_view/cold", "bm_copy_to_adjacency_list"])):
        path = os.path.join(plots, name)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            svg = f.read()
        check(f"{name}: not an SVG", "<svg" in svg)
        for t in titles:
            check(f"{name}: no line titled {t}", f">{t}</" in svg)
        check(f"no 'plot: {path}' line", f"plot: {path}" in out.splitlines())


def main(argv):
    if len(argv) != 4:
        print("usage: report_test.py REPORT FIXTURE BUILD", file=sys.stderr)
        return 2
    report, fixture, build = argv[1:]
    mod = load_rows(report)
    with tempfile.TemporaryDirectory() as tmp:
        check_fixture(report, fixture, mod)
        check_caches(report, fixture, tmp)
        check_error(report, fixture, tmp)
        check_lost_size(report, fixture, tmp)
        check_usage(report, tmp)
        check_counter_units(report, fixture, tmp, mod)
        check_live(report, build, tmp)
        check_build_info(mod, tmp)
        check_plots(report, fixture, tmp)
    return check.done()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
