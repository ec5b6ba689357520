#!/usr/bin/env python3
"""neuronrw-opt follows mlir-opt's command-line conventions: every flag, with its exact output or
exact error text, its exit code, and -o left untouched when the run fails.

Usage: conventions_test.py NEURONRW_OPT SOURCE_ROOT

Covered: --version, --list-passes and --help (goldens), -o FILE / -o=FILE, single-dash long
flags, --allow-unregistered-dialect, --pass-pipeline with pass options (and the same options on
pass flags, the neuronrw-mlir-opt names, host.program), --dump-pass-pipeline, every usage error
of the pipeline and option syntax (exit 2, caret under the column), diagnostics with their source
line and caret, --remarks, --split-input-file (chunks, markers, whole-file lines),
--verify-diagnostics (each designator, -re, near misses, unexpected and missing diagnostics,
only-expected), the IR dumps, --mlir-timing, --mlir-pass-statistics, and --quiet / no progress
when stderr is not a terminal (on a terminal: tests/lit/neuronrw-opt/progress.mlir). Each check
prints one line; the script exits 1 if any failed.
"""
import json
import os
import re
import stat
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../support"))
from checks import Checks  # noqa: E402

opt, root = sys.argv[1:3]
check = Checks()
golden_dir = os.path.join(root, "tests", "driver", "golden")
examples = os.path.join(root, "examples")
fsdp = os.path.join(examples, "mlir", "fsdp_layer.mlir")
layer = os.path.join(examples, "mlir", "layer.mlir")
host = os.path.join(examples, "host", "pipeline.py")
tmp = tempfile.mkdtemp(prefix="neuronrw-opt-conventions.")


def run(args, stdin=None, cwd=None):
    return subprocess.run([opt] + args, input=stdin, capture_output=True, text=True, cwd=cwd)


def read(p):
    with open(p, encoding="utf-8") as f:
        return f.read()


def write(name, text):
    p = os.path.join(tmp, name)
    with open(p, "w", encoding="utf-8") as f:
        f.write(text)
    return p


def expect(name, r, rc, stdout=None, stderr=None):
    """Exit code and, when given, the exact standard output and error (tests/support/checks.py)."""
    check.expect_run(name, r, rc, stdout, stderr)


# A file that -o must leave alone whenever the run fails (and never a temporary beside it).
GUARD = "an earlier output\n"


def leftovers(out):
    """Entries beside `out` named like a temporary of it (`out.tmp`, mkstemp's `out.XXXXXX`)."""
    d, base = os.path.split(out)
    return sorted(e for e in os.listdir(d or ".") if e.startswith(base + "."))


def untouched(name, args, rc, stdin=None, stderr=None):
    out = write("guard.out", GUARD)
    r = run(args + ["-o", out], stdin=stdin)
    expect(f"{name}: exit {rc}", r, rc, stdout="", stderr=stderr)
    check(f"{name}: -o untouched, no temporary left", read(out) == GUARD and leftovers(out) == [])
    return r


# ------------------------------------------------------------------ --version, --list-passes, --help
version = re.search(r"version:\s*'([^']+)'", read(os.path.join(root, "meson.build"))).group(1)
for flag in ("--version", "-version"):
    expect(f"{flag} prints the project's version", run([flag]), 0,
           stdout=f"neuronrw-opt (neuronrw) version {version}\n", stderr="")
for flag in ("--list-passes", "-list-passes"):
    expect(f"{flag} prints every pass and option (golden)", run([flag]), 0,
           stdout=read(os.path.join(golden_dir, "list-passes.txt")), stderr="")
expect("--help (golden)", run(["--help"]), 0, stdout=read(os.path.join(golden_dir, "help.txt")), stderr="")
expect("-h is --help", run(["-h"]), 0, stdout=read(os.path.join(golden_dir, "help.txt")))
check("--help holds --list-passes's text", read(os.path.join(golden_dir, "list-passes.txt")) in run(["--help"]).stdout)

# The docs list what --list-passes lists: every pass flag in README's table, every pass and
# option in docs/driver.md's.
listed = run(["--list-passes"]).stdout
readme, driver_md = read(os.path.join(root, "README.md")), read(os.path.join(root, "docs", "driver.md"))
for name in re.findall(r"^  --([\w-]+) ", listed, re.M):
    if name.startswith("neuronrw-"):
        check(f"docs/driver.md names the alias {name}", f"`{name}`" in driver_md)
        continue
    check(f"README's table has --{name}", f"| `--{name}` |" in readme)
    check(f"docs/driver.md names the pass {name}", f"`{name}`" in driver_md)
for name in sorted(set(re.findall(r"^    --([\w-]+)", listed, re.M))):
    check(f"docs/driver.md's table has the option {name}", f"`{name}`" in driver_md)

# ------------------------------------------------------------------ -o, single dash, no-op flag
plain = run([layer]).stdout
check("the round trip of layer.mlir prints a module", plain.startswith("module {"), plain)
for form in (["-o=OUT"], ["-o", "OUT"], ["--o=OUT"]):
    out = os.path.join(tmp, "o.mlir")
    args = [a.replace("OUT", out) for a in form]
    r = run(args + [layer])
    check(f"{' '.join(form)} writes the output file, nothing on stdout",
          r.returncode == 0 and r.stdout == "" and read(out) == plain, r.stderr)
    os.unlink(out)
# -o on something that is not a regular file is written in place: renaming a temporary over a
# device, a pipe or a symbolic link would replace it by a plain file (-o /dev/null must stay
# /dev/null). Checked on a FIFO and a symbolic link of our own.
fifo = os.path.join(tmp, "fifo")
os.mkfifo(fifo)
got = []
reader = threading.Thread(target=lambda: got.append(open(fifo, encoding="utf-8").read()), daemon=True)
reader.start()
r = subprocess.run([opt, layer, "-o", fifo], capture_output=True, text=True, timeout=60)
reader.join(10)
check("-o FIFO: written through the pipe, which stays a pipe",
      r.returncode == 0 and got == [plain] and stat.S_ISFIFO(os.lstat(fifo).st_mode) and leftovers(fifo) == [],
      f"{r.stderr} {got}")
target, link = os.path.join(tmp, "target.mlir"), os.path.join(tmp, "link.mlir")
with open(target, "w", encoding="utf-8") as f:
    f.write(GUARD)
os.symlink(target, link)
r = run([layer, "-o", link])
check("-o SYMLINK: written through the link, which stays a link",
      r.returncode == 0 and os.path.islink(link) and read(target) == plain, r.stderr)
expect("-o= (empty) is a usage error", run(["-o=", layer]), 2,
       stderr="neuronrw-opt: option '-o' needs a file name\nTry 'neuronrw-opt --help'.\n")
want = run(["--schedule-fusion", "--fusion-to-composite", "--mlir-style-names", fsdp]).stdout
expect("single-dash long flags equal the double-dash ones",
       run(["-schedule-fusion", "-fusion-to-composite", "-mlir-style-names", fsdp]), 0, stdout=want, stderr="")
expect("--allow-unregistered-dialect changes nothing", run(["--allow-unregistered-dialect", layer]), 0, stdout=plain,
       stderr="")
expect("-- ends the options", run(["--schedule-fusion", "--", layer]), 0, stdout=run(["--schedule-fusion", layer]).stdout)
expect("a flag that takes no value refuses one", run(["--quiet=1", layer]), 2,
       stderr="neuronrw-opt: option '--quiet' takes no value\nTry 'neuronrw-opt --help'.\n")
expect("an unknown option close to a known one gets a suggestion", run(["--schedule-fusoin", layer]), 2,
       stderr="neuronrw-opt: unknown option '--schedule-fusoin'\nneuronrw-opt: did you mean '--schedule-fusion'?\n"
              "Try 'neuronrw-opt --help'.\n")
expect("--input-kind takes mlir or host", run(["--input-kind=c", layer]), 2,
       stderr="neuronrw-opt: --input-kind takes 'mlir' or 'host', not 'c'\nTry 'neuronrw-opt --help'.\n")

# ------------------------------------------------------------------ --pass-pipeline and pass options
golden_pipeline = read(os.path.join(golden_dir, "fsdp_layer.mlir.pipeline"))
for pipeline in ("builtin.module(schedule-fusion,fusion-to-composite)",
                 " builtin.module( schedule-fusion , fusion-to-composite ) ",
                 "builtin.module(neuronrw-schedule-fusion,neuronrw-fusion-to-composite)",
                 "builtin.module(schedule-fusion{budget=100 kind=ScheduleFusion},fusion-to-composite{})",
                 "builtin.module(neuronrw-schedule-fusion-composites)"):
    expect(f"--pass-pipeline='{pipeline}' equals the pass flags (golden)", run(["--pass-pipeline=" + pipeline, fsdp]), 0,
           stdout=golden_pipeline, stderr="")
expect("--pass-pipeline PIPELINE (the value as the next argument)",
       run(["--pass-pipeline", "builtin.module(schedule-fusion,fusion-to-composite)", fsdp]), 0, stdout=golden_pipeline)
mine = run(["--pass-pipeline=builtin.module(schedule-fusion{budget=64 kind=MyOverlap},fusion-to-composite)", fsdp])
check("kind=MyOverlap: the composites carry CompositeKind = \"MyOverlap\"",
      mine.returncode == 0 and mine.stdout.count('CompositeKind = "MyOverlap"') == 2 and "ScheduleFusion" not in mine.stdout,
      mine.stdout + mine.stderr)
for flags in (["--schedule-fusion=budget=64 kind=MyOverlap", "--fusion-to-composite"],
              ["--schedule-fusion=budget=64,kind=MyOverlap", "--fusion-to-composite"],
              ["-schedule-fusion=fusion-kind='MyOverlap' budget=64", "-fusion-to-composite"]):
    expect(f"{flags[0]}: the same options on the pass flag", run(flags + [fsdp]), 0, stdout=mine.stdout, stderr="")
expect("schedule-fusion{dry-run=true} is --schedule-fusion-dry-run",
       run(["--pass-pipeline=builtin.module(schedule-fusion{dry-run=true})", fsdp]), 0,
       stdout=run(["--schedule-fusion-dry-run", fsdp]).stdout, stderr="")
scopes = read(os.path.join(golden_dir, "pipeline.py.scopes"))
expect("host.program(materialize-comm-domain-scopes) (golden)",
       run(["--pass-pipeline=host.program(materialize-comm-domain-scopes)", host]), 0, stdout=scopes, stderr="")
expect("a host.program pipeline reads standard input as a host program",
       run(["--pass-pipeline=host.program(materialize-comm-domain-scopes)", "-"], stdin=read(host)), 0, stdout=scopes)
expect("builtin.module() runs no pass", run(["--pass-pipeline=builtin.module()", layer]), 0, stdout=plain)
expect("--dump-pass-pipeline prints every option, sorted, on stderr",
       run(["--pass-pipeline=builtin.module(schedule-fusion{kind=K budget=7},fusion-to-composite{symbol-prefix=\"my fused.\"})",
            "--dump-pass-pipeline", layer]), 0, stdout=plain,
       stderr="Pass Manager with 2 passes:\nbuiltin.module(\n"
              "  schedule-fusion{boundary=\"all_gather,reduce_scatter,all_reduce,all_to_all\" budget=7 consumer=reduce_scatter dry-run=false fusion-kind=K group-op=mhlo.fusion "
              "kinds=\"\" producer=all_gather remarks=false "
              "skip-functions-with=genComposite symbol-prefix=hilo.FusedComposite. terminator=mhlo.return "
              "verify-rewrites=false},\n"
              "  fusion-to-composite{composite-op=stablehlo.composite dry-run=false kinds=\"\" symbol-prefix=\"my fused.\" validate-fusion-kind=false verify-rewrites=false}\n"
              ")\n\n")
expect("--remarks sets remarks=true where not given", run(["--schedule-fusion", "--remarks", "--dump-pass-pipeline",
                                                            "--schedule-fusion=remarks=false", layer]), 0,
       stderr="Pass Manager with 2 passes:\nbuiltin.module(\n"
              "  schedule-fusion{boundary=\"all_gather,reduce_scatter,all_reduce,all_to_all\" budget=100 consumer=reduce_scatter dry-run=false fusion-kind=ScheduleFusion group-op=mhlo.fusion "
              "kinds=\"\" producer=all_gather remarks=true "
              "skip-functions-with=genComposite symbol-prefix=hilo.FusedComposite. terminator=mhlo.return "
              "verify-rewrites=false},\n"
              "  schedule-fusion{boundary=\"all_gather,reduce_scatter,all_reduce,all_to_all\" budget=100 consumer=reduce_scatter dry-run=false fusion-kind=ScheduleFusion group-op=mhlo.fusion "
              "kinds=\"\" producer=all_gather remarks=false "
              "skip-functions-with=genComposite symbol-prefix=hilo.FusedComposite. terminator=mhlo.return "
              "verify-rewrites=false}\n"
              ")\n\n"
              f"{layer}:6:3: remark: schedule-fusion refused this candidate: no_producer_operand: no operand is defined by "
              "an op of kind all_gather\n"
              "  %r = \"mhlo.reduce_scatter\"(%y) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>\n"
              "  ^\n")

# Every usage error of the syntax: exit 2, the text with a caret under the column, -o untouched.
HINT = "Try 'neuronrw-opt --help'.\n"
PIPELINE_ERRORS = [
    ("builtin.module(foo)", 16, "'foo' does not refer to a registered pass (see --list-passes)"),
    ("builtin.module(schedule-fusion{bogus=1})", 32,
     "pass 'schedule-fusion' has no option 'bogus' (options: budget boundary consumer dry-run fusion-kind group-op "
     "producer remarks skip-functions-with symbol-prefix terminator kinds verify-rewrites)"),
    ("builtin.module(validate-kinds{x=1})", 31, "pass 'validate-kinds' has no option 'x' (options: kinds)"),
    ("builtin.module(schedule-fusion{budget=abc})", 39,
     "option 'budget' of pass 'schedule-fusion' takes an unsigned integer, not 'abc'"),
    ("builtin.module(schedule-fusion{budget=-1})", 39,
     "option 'budget' of pass 'schedule-fusion' takes an unsigned integer, not '-1'"),
    ("builtin.module(schedule-fusion{budget=99999999999999999999})", 39,
     "option 'budget' of pass 'schedule-fusion' takes an unsigned integer below 2^64, not '99999999999999999999'"),
    ("builtin.module(schedule-fusion{budget})", 32, "option 'budget' of pass 'schedule-fusion' needs a value: budget=<ulong>"),
    ("builtin.module(schedule-fusion{remarks=yes})", 40,
     "option 'remarks' of pass 'schedule-fusion' takes true or false, not 'yes'"),
    ("builtin.module(schedule-fusion{group-op=fusion})", 41,
     "option 'group-op' of pass 'schedule-fusion' must be an op name 'dialect.op', not 'fusion'"),
    ("builtin.module(schedule-fusion{kind=\"\"})", 37, "option 'kind' of pass 'schedule-fusion' must not be empty"),
    ("builtin.module(schedule-fusion{kind=x)", 31, "unterminated '{' of the options of pass 'schedule-fusion'"),
    ("builtin.module(schedule-fusion{kind=\"a})\")", 31, "unterminated '{' of the options of pass 'schedule-fusion'"),
    ("schedule-fusion,fusion-to-composite", 1,
     "expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)' "
     "('schedule-fusion' is a pass: write 'builtin.module(schedule-fusion,...)' or 'host.program(...)')"),
    ("", 1, "expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'"),
    ("func.func(schedule-fusion)", 1,
     "'func.func' is not an anchor of neuronrw-opt: pipelines run on 'builtin.module' (MLIR input) or "
     "'host.program' (host programs)"),
    ("builtin.module(func.func(schedule-fusion))", 16,
     "nested pipeline 'func.func(...)': neuronrw-opt's passes run on the whole module, directly in 'builtin.module(...)'"),
    ("builtin.module(schedule-fusion", 31, "expected ')' to close 'builtin.module(' at column 15"),
    ("builtin.module(schedule-fusion,", 32, "expected a pass name and ')' to close 'builtin.module(' at column 15"),
    ("builtin.module(schedule-fusion,,x)", 32, "expected a pass name, found ','"),
    ("builtin.module(schedule-fusion;x)", 31, "expected ',' or ')' after pass 'schedule-fusion', found ';'"),
    ("builtin.module(schedule-fusion) x", 33, "unexpected text after the pipeline: 'x'"),
    ("builtin.module(materialize-comm-domain-scopes)", 16,
     "pass 'materialize-comm-domain-scopes' runs on host programs, not in 'builtin.module(...)' (use 'host.program(...)')"),
]
for text, col, msg in PIPELINE_ERRORS:
    caret = " " * (col - 1) + "^"
    untouched(f"--pass-pipeline='{text}'", ["--pass-pipeline=" + text, layer], 2,
              stderr=f"neuronrw-opt: --pass-pipeline:1:{col}: error: {msg}\n{text}\n{caret}\n{HINT}")
FLAG_ERRORS = [
    ("--schedule-fusion=bogus=1", "--schedule-fusion", "bogus=1", 1,
     "pass 'schedule-fusion' has no option 'bogus' (options: budget boundary consumer dry-run fusion-kind group-op "
     "producer remarks skip-functions-with symbol-prefix terminator kinds verify-rewrites)"),
    ("--schedule-fusion=budget=3 kind=", "--schedule-fusion", "budget=3 kind=", 15,
     "option 'kind' of pass 'schedule-fusion' must not be empty"),
    ("-fusion-to-composite=validate-fusion-kind=maybe", "--fusion-to-composite", "validate-fusion-kind=maybe", 22,
     "option 'validate-fusion-kind' of pass 'fusion-to-composite' takes true or false, not 'maybe'"),
    ("--schedule-fusion=budget=3\"x\"", "--schedule-fusion", "budget=3\"x\"", 8,
     "option 'budget' of pass 'schedule-fusion' takes an unsigned integer, not '3\"x\"'"),
    ("--schedule-fusion=kind=\"x\"y", "--schedule-fusion", "kind=\"x\"y", 9,
     "expected a space after the value of option 'kind' of pass 'schedule-fusion'"),
    ("--schedule-fusion=kind=\"a b", "--schedule-fusion", "kind=\"a b", 6,
     "unterminated \" in the value of option 'kind' of pass 'schedule-fusion'"),
    ("--schedule-fusion=group-op={my.group", "--schedule-fusion", "group-op={my.group", 10,
     "unterminated '{' in the value of option 'group-op' of pass 'schedule-fusion'"),
]
for arg, source, text, col, msg in FLAG_ERRORS:
    caret = " " * (col - 1) + "^"
    untouched(f"{arg}", [arg, layer], 2, stderr=f"neuronrw-opt: {source}:1:{col}: error: {msg}\n{text}\n{caret}\n{HINT}")
untouched("--pass-pipeline with a pass flag", ["--schedule-fusion", "--pass-pipeline=builtin.module()", layer], 2,
          stderr="neuronrw-opt: '--pass-pipeline' cannot be combined with individual pass flags ('--schedule-fusion')\n"
                 + HINT)
untouched("--pass-pipeline twice", ["--pass-pipeline=builtin.module()", "--pass-pipeline=builtin.module()", layer], 2,
          stderr="neuronrw-opt: option '--pass-pipeline' may be given only once\n" + HINT)
untouched("a builtin.module pipeline with --input-kind=host",
          ["--input-kind=host", "--pass-pipeline=builtin.module(schedule-fusion)", host], 2,
          stderr="neuronrw-opt: --pass-pipeline:1:1: error: a 'builtin.module' pipeline cannot run on host programs "
                 "(--input-kind=host)\nbuiltin.module(schedule-fusion)\n^\n" + HINT)
untouched("a host pass flag on MLIR input", ["--materialize-comm-domain-scopes", layer], 2,
          stderr="neuronrw-opt: pass '--materialize-comm-domain-scopes' does not apply to MLIR input (use --input-kind= "
                 "to choose)\n" + HINT)

# ------------------------------------------------------------------ diagnostics: severity, source line, caret
bad = 'func.func @f() {\n\t%0 = "foo.bar"( : () -> i32\n  return\n}\n'
untouched("a parse error shows its line and a caret (the tab kept)", ["-"], 1, stdin=bad,
          stderr="<stdin>:2:18: error: expected SSA operand\n\t%0 = \"foo.bar\"( : () -> i32\n\t                ^\n")
utf8 = 'func.func @f() {\n  %0 = "foo.é"( : () -> i32\n  return\n}\n'
expect("a multi-byte character before the column takes one caret column", run(["-"], stdin=utf8), 1,
       stderr="<stdin>:2:18: error: expected SSA operand\n  %0 = \"foo.é\"( : () -> i32\n                ^\n")
non_convex = os.path.join(root, "tests", "corpus", "schedule_fusion", "08_non_convex_compute.mlir")
nc_lines = read(non_convex).split("\n")
remark = (f"{non_convex}:6:3: remark: schedule-fusion refused this candidate: non_convex: an op outside the cluster "
          f"depends on the all_gather and feeds the reduce_scatter\n{nc_lines[5]}\n  ^\n"
          f"{non_convex}:5:3: note: this op depends on the producer and feeds the candidate\n{nc_lines[4]}\n  ^\n")
unchanged = run([non_convex]).stdout
for args in (["--remarks", "--schedule-fusion"], ["--schedule-fusion=remarks"],
             ["--pass-pipeline=builtin.module(schedule-fusion{remarks=true})"]):
    expect(f"{' '.join(args)}: the refusal as a remark with its note, exit 0", run(args + [non_convex]), 0,
           stdout=unchanged, stderr=remark)
expect("no remarks unless asked", run(["--schedule-fusion", non_convex]), 0, stdout=unchanged, stderr="")
f2c_bad = ('func.func @f(%w: tensor<4xf32>) -> tensor<4xf32> {\n'
           '  %f = "mhlo.fusion"(%w) ({\n  ^bb0(%a: tensor<4xf32>):\n    "mhlo.return"(%a) : (tensor<4xf32>) -> ()\n'
           '  }) {FusionKind = 3 : i32} : (tensor<4xf32>) -> tensor<4xf32>\n'
           '  return %f : tensor<4xf32>\n}\n')
untouched("a pass error names the pass and the code, at the op", ["--fusion-to-composite", "-"], 1, stdin=f2c_bad,
          stderr="<stdin>:2:3: error: fusion-to-composite: non_string_kind: fusion attribute 'FusionKind' must be a "
                 "string, e.g. FusionKind = \"ScheduleFusion\"\n  %f = \"mhlo.fusion\"(%w) ({\n  ^\n")
expect("a missing input file: exit 1, no caret", run(["/nonexistent/in.mlir"]), 1,
       stderr="/nonexistent/in.mlir: error: cannot open input file: No such file or directory\n")

# ------------------------------------------------------------------ --split-input-file
chunks = ('func.func @a() {\n  return\n}\n'
          '// -----\n'
          'func.func @b() {\n  %0 = "foo.bar"( : () -> i32\n  return\n}\n'
          '   // -----   \n'
          'func.func @c() {\n  return\n}\n')
chunks_file = write("chunks.mlir", chunks)
mod = lambda n: f"module {{\n  func.func @{n}() {{\n    return\n  }}\n}}\n"
expect("--split-input-file: each chunk printed, the marker between, lines of the whole file", run(["--split-input-file", chunks_file]), 1,
       stdout=mod("a") + "\n// -----\n// -----\n" + mod("c") + "\n",
       stderr=f"{chunks_file}:6:19: error: expected SSA operand\n  %0 = \"foo.bar\"( : () -> i32\n                  ^\n"
              f"{chunks_file}: note: chunk 2 of 3 (lines 5-8) failed\n")
untouched("--split-input-file: a failed chunk fails the run", ["--split-input-file", chunks_file], 1,
          stderr=f"{chunks_file}:6:19: error: expected SSA operand\n  %0 = \"foo.bar\"( : () -> i32\n                  ^\n"
                 f"{chunks_file}: note: chunk 2 of 3 (lines 5-8) failed\n")
good_chunks = write("good_chunks.mlir", chunks.replace('  %0 = "foo.bar"( : () -> i32\n', ""))
out = os.path.join(tmp, "chunks.out")
r = run(["-split-input-file", good_chunks, "-o", out])
check("--split-input-file -o: every chunk in the file", r.returncode == 0 and r.stdout == "" and
      read(out) == mod("a") + "\n// -----\n" + mod("b") + "\n// -----\n" + mod("c") + "\n", r.stderr)
expect("--split-input-file=MARKER and --output-split-marker",
       run(["--split-input-file=;;", "--output-split-marker=# next", "-"], stdin="func.func @a() {\n  return\n}\n;;\nfunc.func @c() {\n  return\n}\n"),
       0, stdout=mod("a") + "\n# next\n" + mod("c") + "\n", stderr="")
expect("--split-input-file without a marker line: one chunk, mlir-opt's trailing blank line",
       run(["--split-input-file", layer]), 0, stdout=plain + "\n")
host_chunks = read(host) + "# -----\n" + read(host)
expect("host programs split at '# -----'", run(["--split-input-file", "--materialize-comm-domain-scopes", "--input-kind=host", "-"],
                                               stdin=host_chunks), 0, stdout=scopes + "\n# -----\n" + scopes + "\n")

# ------------------------------------------------------------------ --verify-diagnostics
vd = ('func.func @a() {\n'                                             # 1
      '  // expected-error@+1 {{expected SSA operand}}\n'               # 2
      '  %0 = "foo.bar"( : () -> i32\n'                                 # 3
      '  return\n}\n'                                                  # 4-5
      '// -----\n'                                                     # 6
      'func.func @c() -> i32 {\n'                                      # 7
      '  %0 = "foo.bar"() : () -> i32\n'                               # 8
      '  // expected-error@+1 {{has 1 operands}}\n'                     # 9
      '  return\n}\n'                                                  # 10-11
      '// -----\n'                                                     # 12
      'func.func @d() -> i32 {\n'                                      # 13
      '  // expected-remark {{nothing}}\n'                              # 14
      '  %0 = "foo.bar"() : () -> i32\n'                               # 15
      '  return %0 : i32\n}\n')                                        # 16-17
vd_file = write("vd.mlir", vd)
d_out = "module {\n  func.func @d() -> i32 {\n    %0 = \"foo.bar\"() : () -> i32\n    return %0 : i32\n  }\n}\n"
vd_err = (f"{vd_file}:10:3: error: unexpected error: 'func.return' op has 0 operands, but enclosing function (@c) returns 1\n"
          "  return\n  ^\n"
          f"{vd_file}:9:6: error: expected error \"has 1 operands\" was not produced\n"
          "  // expected-error@+1 {{has 1 operands}}\n     ^~~~~~~~~~~~~~\n"
          f"{vd_file}:14:6: error: expected remark \"nothing\" was not produced\n"
          "  // expected-remark {{nothing}}\n     ^~~~~~~\n")
expect("--verify-diagnostics: mlir-opt's reports (unexpected, not produced), exit 1",
       run(["--split-input-file", "--verify-diagnostics", vd_file]), 1, stdout="// -----\n// -----\n" + d_out + "\n",
       stderr=vd_err)
untouched("--verify-diagnostics: a mismatch leaves -o alone", ["--split-input-file", "--verify-diagnostics", vd_file], 1,
          stderr=vd_err)
fixed = write("vd_fixed.mlir", vd.replace("has 1 operands", "has 0 operands").replace("  // expected-remark {{nothing}}\n", "\n"))
out = os.path.join(tmp, "vd.out")
r = run(["--split-input-file", "--verify-diagnostics", fixed, "-o", out])
check("--verify-diagnostics: every diagnostic expected: exit 0 although chunks failed, -o written",
      r.returncode == 0 and r.stderr == "" and read(out) == "// -----\n// -----\n" + d_out + "\n", r.stderr)
expect("--verify-diagnostics=only-expected ignores unexpected diagnostics",
       run(["--split-input-file", "--verify-diagnostics=only-expected", write("oe.mlir", vd.replace("  // expected-error@+1 {{has 1 operands}}\n", "\n").replace("  // expected-remark {{nothing}}\n", "\n"))]),
       0, stderr="")
designators = ('// expected-error@below {{use of undeclared SSA value name}}\n'  # 1
               'func.func @f() -> tensor<4xf32> {\n'                            # 2
               '  return %z : tensor<4xf32>\n'                                  # 3
               '}\n')
expect("@below: the next line without an expectation... is line 2, not the error's line 3",
       run(["--verify-diagnostics", "-"], stdin=designators), 1,
       stderr="<stdin>:3:10: error: unexpected error: use of undeclared SSA value name '%z'\n"
              "  return %z : tensor<4xf32>\n         ^\n"
              "<stdin>:1:4: error: expected error \"use of undeclared SSA value name\" was not produced\n"
              "// expected-error@below {{use of undeclared SSA value name}}\n   ^" + "~" * 31 + "\n")
for name, text in (
        ("@below", 'func.func @f() -> tensor<4xf32> {\n  // expected-error@below {{undeclared}}\n'
                   '  // expected-remark@below {{unused}}\n  return %z : tensor<4xf32>\n}\n'),
        ("@above", 'func.func @f() -> tensor<4xf32> {\n  return %z : tensor<4xf32>\n  // expected-error@above {{undeclared}}\n}\n'),
        ("@-N", 'func.func @f() -> tensor<4xf32> {\n  return %z : tensor<4xf32>\n\n  // expected-error@-2 {{undeclared}}\n}\n'),
        ("@N", '// expected-error@3 {{undeclared}}\nfunc.func @f() -> tensor<4xf32> {\n  return %z : tensor<4xf32>\n}\n'),
        ("the same line", 'func.func @f() -> tensor<4xf32> {\n  return %z : tensor<4xf32> // expected-error {{undeclared}}\n}\n'),
        ("-re", 'func.func @f() -> tensor<4xf32> {\n  // expected-error-re@+1 {{use of {{[a-z]+}} SSA value name {{.%[a-z]}}}}\n'
                '  return %z : tensor<4xf32>\n}\n')):
    r = run(["--verify-diagnostics", "-"], stdin=text)
    if name == "@below":  # both @below lines apply to the return; the remark is never produced
        check(f"{name}: consecutive designators apply to the next plain line", r.returncode == 1 and r.stderr ==
              "<stdin>:3:6: error: expected remark \"unused\" was not produced\n"
              "  // expected-remark@below {{unused}}\n     ^~~~~~\n", r.stderr)
    else:
        expect(f"{name} matches", r, 0, stdout="", stderr="")
expect("a near miss: right text, wrong severity", run(["--verify-diagnostics", "-"],
       stdin='func.func @f() -> tensor<4xf32> {\n  // expected-remark@+1 {{undeclared}}\n  return %z : tensor<4xf32>\n}\n'), 1,
       stderr="<stdin>:2:6: error: 'error' diagnostic emitted when expecting a 'remark'\n"
              "  // expected-remark@+1 {{undeclared}}\n     ^\n"
              "<stdin>:2:6: error: expected remark \"undeclared\" was not produced\n"
              "  // expected-remark@+1 {{undeclared}}\n     ^~~~~~~~~~\n")
expect("a designator outside the file is reported", run(["--verify-diagnostics", "-"],
       stdin='func.func @f() {\n  // expected-error@+9 {{x}}\n  return\n}\n'), 1,
       stderr="<stdin>:2:6: error: bad designator '@+9' (expected @+N, @-N, @N inside the file, @above, @below or @unknown)\n"
              "  // expected-error@+9 {{x}}\n     ^\n")
expect("a bad -re regex is reported", run(["--verify-diagnostics", "-"],
       stdin='func.func @f() {\n  // expected-error-re {{a{{(}}}}\n  return\n}\n'), 1)
hv = read(os.path.join(root, "tests", "corpus", "host", "12_err_dead_alloc.py")).replace(
    '        dead = pld.tensor.alloc_window_buffer(8, name="dead")\n',
    '        # expected-error@+1 {{MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer \'dead\' has no}}\n'
    '        dead = pld.tensor.alloc_window_buffer(8, name="dead")\n')
expect("host programs: `#` expectations", run(["--verify-diagnostics", "--input-kind=host",
                                               "--materialize-comm-domain-scopes", "-"], stdin=hv), 0, stdout="", stderr="")

# ------------------------------------------------------------------ instrumentation
small = write("small.mlir", 'func.func @f(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {\n'
                            '  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>\n'
                            '  %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>\n'
                            '  return %r : tensor<4x8xf32>\n}\n')
before = run([small]).stdout
after = run(["--schedule-fusion", small]).stdout
expect("--mlir-print-ir-before-all / -after-all: mlir-opt's headers, two blank lines after each dump",
       run(["--schedule-fusion", "--mlir-print-ir-before-all", "--mlir-print-ir-after-all", small]), 0, stdout=after,
       stderr="// -----// IR Dump Before ScheduleFusion (schedule-fusion) //----- //\n" + before + "\n\n"
              "// -----// IR Dump After ScheduleFusion (schedule-fusion) //----- //\n" + after + "\n\n")
expect("--mlir-print-ir-after-change: nothing after a pass that changed nothing",
       run(["--validate-kinds", "--mlir-print-ir-after-all", "--mlir-print-ir-after-change", small]), 0, stdout=before, stderr="")
expect("--mlir-print-ir-after-failure", run(["--fusion-to-composite", "--mlir-print-ir-after-failure", "-"], stdin=f2c_bad), 1,
       stdout="", stderr="<stdin>:2:3: error: fusion-to-composite: non_string_kind: fusion attribute 'FusionKind' must be a "
                         "string, e.g. FusionKind = \"ScheduleFusion\"\n  %f = \"mhlo.fusion\"(%w) ({\n  ^\n"
                         "// -----// IR Dump After FusionToComposite Failed (fusion-to-composite) //----- //\n"
                         + run(["-"], stdin=f2c_bad).stdout + "\n\n")
banner = "===" + "-" * 73 + "===\n"
expect("--mlir-pass-statistics: mlir-opt's layout (host pass)",
       run(["--materialize-comm-domain-scopes", "--mlir-pass-statistics", host]), 0, stdout=scopes,
       stderr=banner + " " * 25 + "... Pass statistics report ...\n" + banner +
              "MaterializeCommDomainScopes\n"
              "  (S) 4 buffers     - Window buffers materialized\n"
              "  (S) 0 collectives - Collectives whose buffers share a domain\n"
              "  (S) 5 dispatches  - Device-tagged chip dispatches\n"
              "  (S) 1 functions   - Host orchestrators materialized\n"
              "  (S) 0 refused     - Refusals (the program is then unchanged)\n"
              "  (S) 4 scopes      - Comm-domain scopes created\n"
              "  (S) 4 views       - Window views re-typed\n\n")
r = run(["--split-input-file", "--schedule-fusion", "--mlir-timing", "--mlir-pass-statistics", good_chunks, "-o", os.devnull])
check("--split-input-file: one statistics and one timing report per chunk",
      r.returncode == 0 and r.stderr.count("Pass statistics report") == 3 and r.stderr.count("Execution time report") == 3,
      r.stderr)
masked = re.sub(r"\d+\.\d+", "N", run(["--schedule-fusion", "--mlir-timing", small, "-o", os.devnull]).stderr)
check("--mlir-timing: mlir-opt's layout (times masked)", re.fullmatch(
    re.escape(banner + " " * 25 + "... Execution time report ...\n" + banner +
              "  Total Execution Time: N seconds\n\n  ----Wall Time----  ----Name----\n") +
    r" +N \( *N%\)  Parser\n +N \( *N%\)  ScheduleFusion\n +N \( *N%\)  Output\n +N \( *N%\)  Rest\n +N \(N%\)  Total\n",
    masked) is not None, masked)

# ------------------------------------------------------------------ --plan-format
# Every dry run prints its plan as JSON (docs/plan-format.md); plan_json_schema validates the
# documents of every dry-run input against docs/plan-schema.json and compares them with
# plan_json_dump's. Here: the flag's spellings, its errors, and that it changes only dry runs.
fsdp = os.path.join(root, "examples", "mlir", "fsdp_layer.mlir")
j = run(["--plan-format=json", "--schedule-fusion-dry-run", fsdp])
check("--plan-format=json --schedule-fusion-dry-run prints one JSON document",
      j.returncode == 0 and j.stdout.startswith('{\n  "format": "neuronrw-plan",\n  "version": 1,\n  "pass": "schedule-fusion",')
      and j.stdout.endswith("}\n") and json.loads(j.stdout)["clusters"], j.stdout[:400] + j.stderr)
for spelling in (["-plan-format=json"], ["--plan-format", "json"]):
    expect(f"{' '.join(spelling)} is --plan-format=json", run(spelling + ["--schedule-fusion-dry-run", fsdp]), 0,
           stdout=j.stdout)
t = run(["--schedule-fusion-dry-run", fsdp])
expect("--plan-format=text is the default", run(["--plan-format=text", "--schedule-fusion-dry-run", fsdp]), 0,
       stdout=t.stdout)
check("the text plan is not JSON", t.returncode == 0 and t.stdout.startswith("schedule-fusion plan"), t.stdout[:200])
expect("--plan-format=json leaves a run without a dry run alone",
       run(["--plan-format=json", "--schedule-fusion", fsdp]), 0, stdout=run(["--schedule-fusion", fsdp]).stdout)
f2c = run(["--plan-format=json", "--schedule-fusion", "--fusion-to-composite-dry-run", fsdp])
check("--fusion-to-composite-dry-run: a FusionToComposite plan in JSON",
      f2c.returncode == 0 and json.loads(f2c.stdout)["pass"] == "fusion-to-composite"
      and len(json.loads(f2c.stdout)["conversions"]) == 2, f2c.stdout[:400] + f2c.stderr)
expect("--fusion-to-composite-dry-run is fusion-to-composite{dry-run=true}",
       run(["--pass-pipeline=builtin.module(schedule-fusion,fusion-to-composite{dry-run=true})", fsdp]), 0,
       stdout=run(["--schedule-fusion", "--fusion-to-composite-dry-run", fsdp]).stdout)
host_json = run(["--plan-format=json", "--materialize-comm-domain-scopes-dry-run",
                 os.path.join(root, "examples", "host", "pipeline.py")])
check("--plan-format=json on a host program's dry run", host_json.returncode == 0
      and json.loads(host_json.stdout)["pass"] == "materialize-comm-domain-scopes", host_json.stdout[:300] + host_json.stderr)
untouched("--plan-format=xml", ["--plan-format=xml", "--schedule-fusion-dry-run", fsdp], 2,
          stderr="neuronrw-opt: --plan-format takes 'text' or 'json', not 'xml'\nTry 'neuronrw-opt --help'.\n")
expect("--plan-format without a value", run(["--schedule-fusion-dry-run", fsdp, "--plan-format"]), 2, stdout="",
       stderr="neuronrw-opt: --plan-format takes 'text' or 'json'\nTry 'neuronrw-opt --help'.\n")

# ------------------------------------------------------------------ progress and --quiet
for args in (["--progress-delay=0"], ["--progress-delay=0", "--quiet"], ["--quiet"]):
    expect(f"{' '.join(args)}: no progress when stderr is not a terminal", run(args + ["--schedule-fusion", small]), 0,
           stdout=after, stderr="")
expect("--progress-delay takes milliseconds", run(["--progress-delay=soon", small]), 2,
       stderr="neuronrw-opt: --progress-delay takes a number of milliseconds\n" + HINT)

# On a terminal (a progress line per step, erased; none with --quiet or under the delay):
# tests/lit/neuronrw-opt/progress.mlir, which needs lit's feature `terminal`.

check.exit()
