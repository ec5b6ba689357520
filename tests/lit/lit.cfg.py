# -*- Python -*-
# The lit configuration of neuronrw's tool tests, the way MLIR's own test/lit.cfg.py is written.
# LLVM's lit runs them (llvm-22-tools: /usr/lib/llvm-22/bin/lit) with LLVM's FileCheck, not,
# count and split-file; the build writes lit.site.cfg.py (tests/lit/meson.build) with the paths
# of the tools under test, then loads this file.
#
#   neuronrw-opt/        the driver on the reference IR and host programs
#   neuronrw-mlir-opt/   the passes inside MLIR (REQUIRES: mlir)
#
# Substitutions: neuronrw-opt, neuronrw-mlir-opt, mlir-opt (the tools, by full path); FileCheck,
# not, count, split-file (LLVM's); %examples (the source tree's examples/).
# Features:
#   mlir              neuronrw-mlir-opt was built (the MLIR adapter)
#   mlir-opt          mlir-opt 22, the oracle, exists
#   mlir-statistics   the libMLIR the tools link prints pass statistics (built with
#                     LLVM_ENABLE_STATS; Debian's release build is not, and prints only the header)
#   terminal          a pseudo-terminal can be opened and util-linux's `script` runs a command on one
#   dot               Graphviz's `dot` is on PATH and renders a graph (apt-get install graphviz);
#                     the substitution %dot is its full path
#
# Run one directory or one file from the build directory:
#   /usr/lib/llvm-22/bin/lit -v build/tests/lit/neuronrw-opt
#   /usr/lib/llvm-22/bin/lit -v build/tests/lit/neuronrw-opt/pass_options.mlir

import os
import shutil
import subprocess
import sys

import lit.formats
import lit.util
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "neuronrw"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
# Host programs (.py) carry `# RUN:` lines like the .mlir files' `// RUN:`.
config.suffixes = [".mlir", ".py", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "lit.local.cfg"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.neuronrw_obj_root, "tests", "lit")

if not os.path.isfile(os.path.join(config.llvm_tools_dir, "FileCheck")):
    lit_config.fatal(f"FileCheck not found in {config.llvm_tools_dir} (Debian: apt-get install llvm-22-tools)")

llvm_config.use_default_substitutions()
# LLVM's not, count and split-file by name anywhere in a RUN line, as in MLIR's own suites.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
config.substitutions.append(("%examples", os.path.join(config.neuronrw_src_root, "examples")))
# %srcroot: the source tree (docs and README, which tests/docs/pipelines_both_tools.py reads);
# %python: the Python running lit.
config.substitutions.append(("%srcroot", config.neuronrw_src_root))
config.substitutions.append(("%python", sys.executable))

# Sanitizer builds: a finding aborts the tool under test, which fails its RUN line.
llvm_config.with_system_environment(["ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS"])
# Diagnostics and printed values must not depend on the user's locale or terminal.
llvm_config.with_environment("LC_ALL", "C")

tools = [ToolSubst("neuronrw-opt", command=config.neuronrw_opt, unresolved="fatal")]
if config.neuronrw_mlir_opt:
    config.available_features.add("mlir")
    tools.append(ToolSubst("neuronrw-mlir-opt", command=config.neuronrw_mlir_opt, unresolved="fatal"))
if config.mlir_opt and os.path.isfile(config.mlir_opt):
    config.available_features.add("mlir-opt")
    tools.append(ToolSubst("mlir-opt", command=config.mlir_opt, unresolved="fatal"))
    # Statistics are compiled out of a libMLIR built without LLVM_ENABLE_STATS: mlir-opt --cse
    # then reports no counter, for any pass.
    probe = subprocess.run([config.mlir_opt, "--cse", "--mlir-pass-statistics", "-o", os.devnull, "-"],
                           input="func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n"
                                 "  %1 = arith.addi %a, %a : i32\n  %2 = arith.muli %0, %1 : i32\n"
                                 "  return %2 : i32\n}\n", capture_output=True, text=True)
    if "(S)" in probe.stderr:
        config.available_features.add("mlir-statistics")
llvm_config.add_tool_substitutions(tools, [])


def can_open_terminal():
    script = shutil.which("script")
    if not script:
        return False
    try:
        r = subprocess.run([script, "-qec", "test -t 2", os.devnull], stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return False
    return r.returncode == 0


if can_open_terminal():
    config.available_features.add("terminal")


def graphviz_dot():
    """The path of a `dot` that renders a one-node graph to SVG, or None."""
    dot = shutil.which("dot")
    if not dot:
        return None
    try:
        r = subprocess.run([dot, "-Tsvg"], input=b"digraph G { a; }\n", capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return dot if r.returncode == 0 and b"<svg" in r.stdout else None


dot_path = graphviz_dot()
if dot_path:
    config.available_features.add("dot")
    config.substitutions.append(("%dot", dot_path))
