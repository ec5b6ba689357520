#!/usr/bin/env python3
"""examples/mlir-consumer builds as a CMake project against MLIR and its tool works.

Usage: cmake_consumer_test.py ROOT BUILD_DIR MLIR_DIR CXX...

Configures examples/mlir-consumer with cmake into BUILD_DIR (find_package(MLIR) from MLIR_DIR,
neuronrw's headers from ROOT/include, the compiler command CXX... — the one meson uses, a
launcher such as ccache first — and the project's warnings as errors), builds my-compiler-opt,
then checks, exactly:
  * --help lists the tool's own passes and the library's, with their descriptions;
  * the pipeline of moe_layer.mlir's header comment prints expected_output.mlir: the custom
    pattern fused the `my.all_to_all` pair (the custom kind table entries) into an mhlo.fusion
    tagged FusionKind = "MoEOverlap", the default pattern the `my.all_gather` pair;
  * with remarks=true, the refused candidates get their remarks and notes, as the pass words them;
  * the tool's own pass (my-overlap), which calls the library directly, prints the same module.
Exit 77 (meson: skipped) only when cmake is not installed.
"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "support"))
from checks import Checks  # noqa: E402

check = Checks(verbose=False)


def run(cmd, cwd=None, check=True):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)
    if check and p.returncode != 0:
        print(f"$ {' '.join(cmd)}\nexit {p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}")
        sys.exit(1)
    return p


def main(argv):
    if len(argv) < 5:
        print(__doc__)
        return 2
    root, build, mlir_dir, cxx = argv[1], argv[2], argv[3], argv[4:]
    cmake = shutil.which("cmake")
    if cmake is None:
        print("SKIP: cmake is not installed (Debian: apt-get install cmake); the CMake consumer "
              "example cannot be built")
        return 77
    example = os.path.join(root, "examples", "mlir-consumer")
    configure = [cmake, "-S", example, "-B", build, "-G", "Ninja",
                 f"-DMLIR_DIR={mlir_dir}",
                 f"-DNEURONRW_INCLUDE_DIR={os.path.join(root, 'include')}",
                 f"-DCMAKE_CXX_COMPILER={cxx[-1]}",
                 "-DCMAKE_CXX_FLAGS=-Wall -Wextra -Wpedantic -Werror"]
    if len(cxx) > 1:
        configure.append(f"-DCMAKE_CXX_COMPILER_LAUNCHER={';'.join(cxx[:-1])}")
    run(configure)
    run([cmake, "--build", build])
    tool = os.path.join(build, "my-compiler-opt")

    # The passes are registered under their names, with their descriptions.
    help_text = run([tool, "--help"]).stdout
    for name, desc in [
        ("my-moe-overlap", "Overlap MoE dispatch and combine (all_to_all -> all_to_all)"),
        ("my-schedule-fusion", "ScheduleFusion over my.all_gather -> my.reduce_scatter"),
        ("my-overlap", "my-moe-overlap then my-schedule-fusion, as one pass"),
        ("neuronrw-schedule-fusion", "Co-schedule collective pairs (all_gather -> reduce_scatter) into fusions "
                                     "tagged FusionKind"),
        ("neuronrw-schedule-fusion-composites", "Co-schedule collective pairs (all_gather -> reduce_scatter) "
                                                "and lower each cluster to a stablehlo.composite with a "
                                                "private decomposition"),
        ("neuronrw-fusion-to-composite", "Lower every fusion to a stablehlo.composite and a private "
                                         "decomposition function"),
    ]:
        if not re.search(rf"^ +--{re.escape(name)} +- +{re.escape(desc)}$", help_text, re.M):
            check.fail(f"--help does not list `--{name}` with the description {desc!r}")

    # The example's pipeline, run from the repository root so locations read examples/...
    pipeline = "builtin.module(my-moe-overlap{remarks=true},my-schedule-fusion)"
    p = run([tool, "--allow-unregistered-dialect", "--mlir-print-op-on-diagnostic=false",
             f"--pass-pipeline={pipeline}", "examples/mlir-consumer/moe_layer.mlir"], cwd=root)
    with open(os.path.join(example, "expected_output.mlir"), encoding="utf-8") as f:
        expected = f.read()
    if p.stdout != expected:
        check.fail(f"the output differs from examples/mlir-consumer/expected_output.mlir:\n--- printed:\n{p.stdout}"
             f"--- expected:\n{expected}")
    for line in [
        '    }) {FusionKind = "MoEOverlap"} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)',
        '      %4 = "my.all_to_all"(%arg3) {split_count = 4 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>',
        '      %5 = "my.all_to_all"(%4) {split_count = 4 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>',
        '    }) {FusionKind = "ScheduleFusion"} : (tensor<4x16xf32>, tensor<16x16xf32>) -> '
        '(tensor<16x16xf32>, tensor<4x16xf32>)',
    ]:
        if line not in p.stdout.split("\n"):
            check.fail(f"the output lacks the line\n{line}")
    diagnostics = [l for l in p.stderr.split("\n") if re.match(r"^examples/\S+: (remark|note|warning|error):", l)]
    want = [
        "examples/mlir-consumer/moe_layer.mlir:14:8: remark: my-moe-overlap refused this candidate: "
        "no_producer_operand: no operand is defined by an op of kind all_to_all",
        "examples/mlir-consumer/moe_layer.mlir:17:9: remark: my-moe-overlap refused this candidate: "
        "producer_claimed: its all_to_all belongs to cluster 0",
        "examples/mlir-consumer/moe_layer.mlir:16:8: note: its producer, already in an earlier cluster",
    ]
    if diagnostics != want:
        check.fail("the remarks differ:\n--- printed:\n" + "\n".join(diagnostics) + "\n--- expected:\n" + "\n".join(want)
             + f"\n--- stderr:\n{p.stderr}")

    # The tool's own pass, calling the library directly, makes the same module.
    p = run([tool, "--allow-unregistered-dialect", "--pass-pipeline=builtin.module(my-overlap)",
             "examples/mlir-consumer/moe_layer.mlir"], cwd=root)
    if p.stdout != expected:
        check.fail(f"my-overlap prints something else than expected_output.mlir:\n--- printed:\n{p.stdout}")
    if p.stderr:
        check.fail(f"my-overlap wrote to stderr:\n{p.stderr}")

    if check.failures:
        return check.done()
    print(f"ok: {tool} built with CMake against {mlir_dir}; --help, output and remarks as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
