#!/usr/bin/env python3
"""README's two commands in any order, after anything: the test command always runs the MLIR tests.

Usage: build_order_test.py SOURCE_ROOT

Each case copies the source tree (the files git tracks or would track: a fresh clone with the
working tree's changes) to a scratch directory and runs scripts/demo and scripts/test there with
NEURONRW_DRY_RUN=1: they install what is missing and configure build/ exactly as they do for
real, then print what they would build and run instead of building it. The list scripts/test
prints is `meson test --list`, the tests a real run runs.

  demo, then test          the MLIR tests and both lit suites are in the list; no reconfigure
  test, then demo          the same; the demo leaves build/ as the test command configured it
  build/ without MLIR      (configured by hand with -Dmlir=disabled, as an older demo did
                           before the MLIR packages existed): the test command says so,
                           reconfigures, and lists the MLIR tests
  MLIR cannot be built     (an llvm-config that does not exist): the test command fails, saying
                           why, and lists nothing
  a configure cut short    (meson-private/ without build.ninja): configured afresh

Each check prints one line; exit 1 if any failed. Needs the packages scripts/install-deps
installs (it is a no-op then) and takes a few configures' time.
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../support"))
from checks import Checks  # noqa: E402

root = os.path.abspath(sys.argv[1])
check = Checks()
tmp = tempfile.mkdtemp(prefix="build-order-test.")
env = dict(os.environ, NEURONRW_DRY_RUN="1")
for v in ("MESON_TEST_ITERATION", "MALLOC_PERTURB_", "ASAN_OPTIONS", "UBSAN_OPTIONS"):
    env.pop(v, None)


def tree_files():
    r = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                       capture_output=True)
    if r.returncode == 0:
        return [f for f in r.stdout.decode().split("\0") if f and os.path.isfile(os.path.join(root, f))]
    out = []  # not a git checkout (an unpacked release): everything but build directories
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        dirnames[:] = [d for d in dirnames if not (rel == "." and (d.startswith("build") or d == ".git"))]
        out += [os.path.normpath(os.path.join(rel, f)) for f in filenames]
    return out


FILES = tree_files()


def clone(name):
    dest = os.path.join(tmp, name)
    for f in FILES:
        os.makedirs(os.path.dirname(os.path.join(dest, f)), exist_ok=True)
        shutil.copy2(os.path.join(root, f), os.path.join(dest, f))
    return dest


def run(where, *argv):
    return subprocess.run(list(argv), cwd=where, capture_output=True, text=True, env=env, timeout=900)


def mlir_tests_listed(r):
    names = [line for line in r.stdout.splitlines() if " / " in line]
    mlir = [n for n in names if n.startswith("neuronrw:mlir / ")]
    return (r.returncode == 0 and len(mlir) >= 5 and any(n.endswith("/ lit_neuronrw_mlir_opt") for n in mlir)
            and any(n.endswith("/ lit_neuronrw_opt") for n in names))


def options(where):
    r = subprocess.run(["meson", "introspect", "--buildoptions", os.path.join(where, "build")], capture_output=True,
                       text=True)
    import json
    return {o["name"]: o["value"] for o in json.loads(r.stdout)} if r.returncode == 0 else {}


# demo, then test
a = clone("demo_then_test")
demo = run(a, "scripts/demo")
check("demo first: exit 0, would run the driver", demo.returncode == 0 and "would build examples/neuronrw-opt" in demo.stdout,
      demo.stdout + demo.stderr)
check("demo first: build/ configured with MLIR required, as the test command configures it",
      options(a).get("mlir") == "enabled" and options(a).get("werror") is True, options(a))
test = run(a, "scripts/test")
check("then test: the MLIR tests and both lit suites would run", mlir_tests_listed(test), test.stdout + test.stderr)
check("then test: build/ is used as the demo left it (no reconfigure)", "reconfiguring" not in test.stderr, test.stderr)

# test, then demo
b = clone("test_then_demo")
test = run(b, "scripts/test")
check("test first: the MLIR tests and both lit suites would run", mlir_tests_listed(test), test.stdout + test.stderr)
demo = run(b, "scripts/demo")
check("then demo: exit 0, no reconfigure", demo.returncode == 0 and "reconfiguring" not in demo.stderr,
      demo.stdout + demo.stderr)
test = run(b, "scripts/test")
check("then test again: still the MLIR tests", mlir_tests_listed(test), test.stdout + test.stderr)

# build/ configured without MLIR (as the demo did before this fix, before the MLIR packages)
c = clone("without_mlir")
setup = run(c, "meson", "setup", "build", "-Dwerror=true", "-Dmlir=disabled")
check("by hand: a build/ without MLIR", setup.returncode == 0 and options(c).get("mlir") == "disabled", setup.stdout)
test = run(c, "scripts/test")
check("test: says build/ was configured differently and reconfigures it",
      "build was configured differently (mlir: disabled -> enabled)" in test.stderr, test.stderr)
check("test: then the MLIR tests would run", mlir_tests_listed(test), test.stdout + test.stderr)

# MLIR cannot be built: fail loudly
d = clone("no_llvm_config")
setup = run(d, "meson", "setup", "build", "-Dwerror=true", "-Dllvm_config=/nonexistent/llvm-config")
test = run(d, "scripts/test")
check("MLIR unavailable: the test command fails and says why, listing nothing",
      test.returncode != 0 and "mlir=enabled but the MLIR adapter cannot be built: llvm-config not found at "
      "/nonexistent/llvm-config" in test.stderr and not test.stdout, f"exit {test.returncode}\n{test.stdout}\n{test.stderr}")

# a configure that was cut short
e = clone("cut_short")
setup = run(e, "meson", "setup", "build", "-Dwerror=true")
os.remove(os.path.join(e, "build", "build.ninja"))
test = run(e, "scripts/test")
check("a configure cut short: configured afresh, the MLIR tests would run",
      "did not finish; configuring it afresh" in test.stderr and mlir_tests_listed(test), test.stdout + test.stderr)

shutil.rmtree(tmp, ignore_errors=True)
check.exit()
