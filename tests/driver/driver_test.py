#!/usr/bin/env python3
"""End-to-end tests of neuronrw-opt: exit codes, messages, output files, goldens.

Usage: driver_test.py NEURONRW_OPT TESTS_DIR EXAMPLES_DIR QUICKSTART CUSTOM_IR_EXAMPLE
Each check prints one line; the script exits 1 if any failed.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../support"))
from checks import Checks  # noqa: E402

opt, tests_dir, examples_dir, quickstart, custom_ir = sys.argv[1:6]
check = Checks()
mlir_opt = os.environ.get("NEURONRW_MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt")
golden_dir = os.path.join(tests_dir, "driver", "golden")


def run(args, stdin=None):
    return subprocess.run([opt] + args, input=stdin, capture_output=True, text=True)


def read(p):
    with open(p, encoding="utf-8") as f:
        return f.read()


# --help: exit 0, lists the options and the exit codes.
r = run(["--help"])
check("--help exits 0", r.returncode == 0, r.stderr)
check("--help lists -o and exit codes", "-o FILE" in r.stdout and "EXIT CODES" in r.stdout, r.stdout)

# Usage errors: exit 2, message on stderr, nothing on stdout.
r = run(["--no-such-pass", "x.mlir"])
check("unknown flag exits 2", r.returncode == 2 and r.stdout == "", f"rc={r.returncode}")
check("unknown flag message",
      r.stderr == "neuronrw-opt: unknown option '--no-such-pass'\nTry 'neuronrw-opt --help'.\n", r.stderr)
r = run(["a.mlir", "b.mlir"])
check("two inputs exit 2", r.returncode == 2 and "more than one input file ('a.mlir' and 'b.mlir')" in r.stderr, r.stderr)
r = run(["-o"])
check("-o without a file exits 2", r.returncode == 2 and "option '-o' needs a file name" in r.stderr, r.stderr)

# Input errors: exit 1, located message, no output.
r = run(["/nonexistent/in.mlir"])
check("missing input exits 1", r.returncode == 1 and r.stderr == "/nonexistent/in.mlir: error: cannot open input file: No such file or directory\n", r.stderr)
bad = 'func.func @f() {\n  %0 = "foo.bar"( : () -> i32\n  return\n}\n'
r = run(["-"], stdin=bad)
check("parse error exits 1 with a located message and no output",
      r.returncode == 1 and r.stdout == "" and r.stderr.startswith("<stdin>:2:"), r.stderr)
unverified = 'func.func @f() -> i32 {\n  %0 = "foo.bar"() : () -> i32\n}\n'
r = run(["-"], stdin=unverified)
check("verifier error exits 1 with a located message",
      r.returncode == 1 and r.stdout == "" and r.stderr.startswith("<stdin>:1:"), r.stderr)

# Round trip of every shipped example: exit 0, output equals the golden, and is a fixed point.
for name in sorted(os.listdir(os.path.join(examples_dir, "mlir"))):
    if not name.endswith(".mlir"):
        continue
    path = os.path.join(examples_dir, "mlir", name)
    r = run([path])
    check(f"round trip {name} exits 0", r.returncode == 0, r.stderr)
    golden = os.path.join(golden_dir, name + ".roundtrip")
    if os.path.exists(golden):
        check(f"round trip {name} matches golden", r.stdout == read(golden),
              "--- got ---\n" + r.stdout)
    r2 = run(["-"], stdin=r.stdout)
    check(f"round trip {name} is a fixed point", r2.returncode == 0 and r2.stdout == r.stdout, r2.stderr)
    # The full pipeline (README's first command runs it on fsdp_layer.mlir); the driver verifies
    # after each pass, and mlir-opt must accept the result when it is installed.
    p = run(["--schedule-fusion", "--fusion-to-composite", path])
    check(f"pipeline on {name} exits 0", p.returncode == 0, p.stderr)
    golden = os.path.join(golden_dir, name + ".pipeline")
    if os.path.exists(golden):
        check(f"pipeline on {name} matches golden", p.stdout == read(golden), "--- got ---\n" + p.stdout)
    if os.path.exists(mlir_opt):
        # In the generic form: mlir-opt has no StableHLO dialect to read custom forms with.
        g = run(["--schedule-fusion", "--fusion-to-composite", "--mlir-print-op-generic", path])
        check(f"pipeline on {name} prints generic", g.returncode == 0, g.stderr)
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as t:
            t.write(g.stdout)
        o = subprocess.run([mlir_opt, "--allow-unregistered-dialect", "--verify-each", t.name], capture_output=True, text=True)
        os.unlink(t.name)
        check(f"mlir-opt accepts the pipeline output of {name}", o.returncode == 0, o.stderr)
    else:
        print(f"skip mlir-opt check of {name}: {mlir_opt} not found")
    e = run(["--schedule-fusion", "--fusion-to-composite", "--emit-python", path])
    check(f"pipeline + --emit-python on {name} exits 0", e.returncode == 0 and e.stdout.startswith("def "), e.stderr)

# Host programs (chosen by the .py extension): round trip, the pass, idempotence, dry run.
for name in sorted(os.listdir(os.path.join(examples_dir, "host"))):
    if not name.endswith(".py"):
        continue
    path = os.path.join(examples_dir, "host", name)
    r = run([path])
    check(f"host round trip {name} exits 0", r.returncode == 0 and r.stdout != "", r.stderr)
    r2 = run(["--input-kind=host", "-"], stdin=r.stdout)
    check(f"host round trip {name} is a fixed point", r2.returncode == 0 and r2.stdout == r.stdout, r2.stderr)
    # pypto's pipeline order: a no-op for the examples whose allreduces all have their signal.
    pipeline = "--pass-pipeline=host.program(synthesize-allreduce-signals,materialize-comm-domain-scopes)"
    p1 = run([pipeline, path])
    check(f"--materialize-comm-domain-scopes {name} exits 0 with scopes",
          p1.returncode == 0 and "pl._dump.comm_domain(" in p1.stdout, p1.stderr)
    p2 = run(["--input-kind=host", pipeline, "-"], stdin=p1.stdout)
    check(f"--materialize-comm-domain-scopes {name} is idempotent", p2.returncode == 0 and p2.stdout == p1.stdout, p2.stderr)
    d = run(["--pass-pipeline=host.program(synthesize-allreduce-signals,materialize-comm-domain-scopes{dry-run=true})", path])
    check(f"dry run {name} prints a plan and no program",
          d.returncode == 0 and "scope comm_d0" in d.stdout and "def " not in d.stdout, d.stdout + d.stderr)
    golden = os.path.join(golden_dir, name + ".scopes")
    if os.path.exists(golden):
        check(f"--materialize-comm-domain-scopes {name} matches golden", p1.stdout == read(golden), p1.stdout)

r = run(["--materialize-comm-domain-scopes", os.path.join(examples_dir, "mlir", "layer.mlir")])
check("a host pass on MLIR input is a usage error", r.returncode == 2 and "does not apply to MLIR input" in r.stderr, r.stderr)
r = run(["--fusion-to-composite", os.path.join(examples_dir, "host", "pipeline.py")])
check("an MLIR pass on a host program is a usage error", r.returncode == 2 and "does not apply to host programs" in r.stderr, r.stderr)
bad_host = "@pl.program\nclass P:\n    def f(self\n"
r = run(["--input-kind=host", "-"], stdin=bad_host)
check("host parse error exits 1 with a located message", r.returncode == 1 and r.stdout == "" and r.stderr.startswith("<stdin>:"), r.stderr)

# -o writes the file only on success and never leaves a partial file behind.
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "out.mlir")
    r = run(["-o", out, os.path.join(examples_dir, "mlir", "layer.mlir")])
    check("-o writes the output file", r.returncode == 0 and r.stdout == "" and os.path.exists(out), r.stderr)
    good = read(out) if os.path.exists(out) else ""
    r = run(["-o", out, "-"], stdin=bad)
    check("-o leaves an existing file untouched on error",
          r.returncode == 1 and os.path.exists(out) and read(out) == good
          and not [e for e in os.listdir(os.path.dirname(out)) if e.startswith(os.path.basename(out) + ".")])
    out2 = os.path.join(tmp, "never.mlir")
    r = run(["-o", out2, "-"], stdin=bad)
    check("-o creates nothing on error", r.returncode == 1 and not os.path.exists(out2))

# --mlir-style-names numbers values like mlir-opt.
r = run(["--mlir-style-names", os.path.join(examples_dir, "mlir", "layer.mlir")])
check("--mlir-style-names prints %arg0 and %0", r.returncode == 0 and "%arg0" in r.stdout and "%0 =" in r.stdout, r.stdout)

# The README's example prints exactly its golden.
r = subprocess.run([quickstart], capture_output=True, text=True)
check("quickstart prints its golden", r.returncode == 0 and r.stdout == read(os.path.join(golden_dir, "quickstart.out")),
      r.stdout + r.stderr)

# The custom-IR example (a user's own IR adapted in one header) prints exactly its golden.
r = subprocess.run([custom_ir], capture_output=True, text=True)
check("custom_ir_example prints its golden",
      r.returncode == 0 and r.stdout == read(os.path.join(examples_dir, "custom_ir", "expected_output.txt")), r.stdout + r.stderr)

check.exit()
