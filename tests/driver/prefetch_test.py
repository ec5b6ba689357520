#!/usr/bin/env python3
"""The user pass of docs/passes.md (examples/prefetch/prefetch.hpp) in neuronrw-opt, from its
descriptor alone: prefetch-opt is neuronrw-opt with `register_pass<prefetch>()` and nothing else.
Checks its flag, dry-run flag, pipeline element and alias, its options (parsed, checked and
printed by --dump-pass-pipeline as the schema says), its --list-passes entry, its remarks, and
that the built-in passes' listing is neuronrw-opt's unchanged.

usage: prefetch_test.py PREFETCH_OPT NEURONRW_OPT
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import Checks  # noqa: E402

prefetch_opt, neuronrw_opt = (os.path.abspath(a) for a in sys.argv[1:3])
check = Checks()

SOURCE = """func.func @f(%w: tensor<4xf32>, %x: tensor<16xf32>) -> tensor<16xf32> {
  %a = "mhlo.exp"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %k = "mhlo.all_gather"(%a) : (tensor<16xf32>) -> tensor<64xf32>
  %b = "mhlo.log"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %g = "mhlo.all_gather"(%w) : (tensor<4xf32>) -> tensor<16xf32>
  %h = "mhlo.all_gather"(%g) : (tensor<16xf32>) -> tensor<16xf32>
  %y = "mhlo.add"(%b, %h) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
"""
MOVED = """module {
  func.func @f(%w: tensor<4xf32>, %x: tensor<16xf32>) -> tensor<16xf32> {
    %g = "mhlo.all_gather"(%w) : (tensor<4xf32>) -> tensor<16xf32>
    %h = "mhlo.all_gather"(%g) : (tensor<16xf32>) -> tensor<16xf32>
    %a = "mhlo.exp"(%x) : (tensor<16xf32>) -> tensor<16xf32>
    %k = "mhlo.all_gather"(%a) : (tensor<16xf32>) -> tensor<64xf32>
    %b = "mhlo.log"(%a) : (tensor<16xf32>) -> tensor<16xf32>
    %y = "mhlo.add"(%b, %h) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    return %y : tensor<16xf32>
  }
}
"""
DRY = """move "mhlo.all_gather" (5:3) before "mhlo.exp" (2:3)
move "mhlo.all_gather" (6:3) after "mhlo.all_gather" (5:3)
refused "mhlo.all_gather" (3:3): its operands are defined just before it
"""

with tempfile.TemporaryDirectory() as tmp:
    src = os.path.join(tmp, "prefetch.mlir")
    with open(src, "w") as f:
        f.write(SOURCE)

    def run(*args, exe=prefetch_opt):
        return subprocess.run([exe, "--quiet", *args], capture_output=True, text=True, cwd=tmp)

    for flag in ["--prefetch", "--neuronrw-prefetch", "--pass-pipeline=builtin.module(prefetch)",
                 "--pass-pipeline=builtin.module(neuronrw-prefetch{max-distance=16})", "--prefetch=max-distance=3"]:
        check.expect_run(flag, run(flag, "prefetch.mlir"), 0, stdout=MOVED, stderr="")
    check.expect_run("--prefetch-dry-run", run("--prefetch-dry-run", "prefetch.mlir"), 0, stdout=DRY, stderr="")
    check.expect_run("--prefetch=dry-run=true", run("--prefetch=dry-run=true", "prefetch.mlir"), 0, stdout=DRY)
    # max-distance=2: the first all_gather would pass three ops; the second then stays after it.
    r = run("--pass-pipeline=builtin.module(prefetch{max-distance=2 remarks})", "prefetch.mlir")
    check.expect_run("max-distance=2 with remarks", r, 0)
    check("max-distance=2: the module is unchanged", "mhlo.exp" in r.stdout.split("all_gather")[0], r.stdout)
    want = ["prefetch.mlir:3:3: remark: prefetch: already_early: its operands are defined just before it",
            "prefetch.mlir:5:3: remark: prefetch: too_far: it would move past 3 ops",
            "prefetch.mlir:6:3: remark: prefetch: already_early: its operands are defined just before it"]
    got = [l for l in r.stderr.splitlines() if ": remark: " in l]
    check("max-distance=2: one remark per all_gather left in place, in order", got == want, r.stderr)
    r = run("--pass-pipeline=builtin.module(neuronrw-prefetch{max-distance=3},validate-kinds)",
            "--dump-pass-pipeline", "prefetch.mlir")
    check("--dump-pass-pipeline prints every option of prefetch, sorted",
          "  prefetch{dry-run=false kinds=\"\" max-distance=3 remarks=false},\n" in r.stderr, r.stderr)
    r = run("--prefetch=max-distance=x", "prefetch.mlir")
    check.expect_run("--prefetch=max-distance=x", r, 2)
    check("a bad value names the option and the pass",
          "option 'max-distance' of pass 'prefetch' takes an unsigned integer, not 'x'" in r.stderr, r.stderr)
    r = run("--pass-pipeline=builtin.module(prefetch{distance=1})", "prefetch.mlir")
    check("an unknown option lists prefetch's options",
          "pass 'prefetch' has no option 'distance' (options: max-distance dry-run remarks kinds)" in r.stderr, r.stderr)
    r = run("--prefetch", "--input-kind=host", "prefetch.mlir")
    check("prefetch runs on MLIR input only", r.returncode == 2 and "does not apply to host programs" in r.stderr,
          r.stderr)

    listing = run("--list-passes").stdout.splitlines()
    entry = ["  --prefetch                                -   Start every all_gather as early as its operands allow",
             "    --max-distance=<ulong>                  - Move an all_gather past at most this many ops (default: 16)",
             "    --dry-run                               - Print the moves instead of the program; change nothing (default: false)",
             "    --remarks                               - Emit a remark for every all_gather left in place (default: false)",
             "    --kinds=<string>                        - A kinds file: one `OP-NAME KIND` line per op name (docs/kinds.md); adds to --kinds (default: \"\")",
             "  --prefetch-dry-run                        -   prefetch{dry-run=true}: print the plan; change nothing"]
    at = listing.index(entry[0]) if entry[0] in listing else -1
    check("--list-passes lists prefetch, its options and its dry run from the descriptor",
          at >= 0 and listing[at:at + len(entry)] == entry, "\n".join(listing))
    check("--list-passes lists its MLIR name as an alias",
          "  --neuronrw-prefetch                       -   prefetch" in listing, "\n".join(listing))
    builtin = run("--list-passes", exe=neuronrw_opt).stdout.splitlines()
    # prefetch's lines removed where they are (its `--kinds` line is every pass's too)
    rest = [l for l in (listing[:at] + listing[at + len(entry):] if at >= 0 else listing)
            if l != "  --neuronrw-prefetch                       -   prefetch"]
    check("the built-in passes' listing is neuronrw-opt's", rest == builtin)
    check("--help lists prefetch too", entry[0] in run("--help").stdout.splitlines())
    r = run("--prefetc", "prefetch.mlir")
    check("a misspelt flag suggests --prefetch", "did you mean '--prefetch'?" in r.stderr, r.stderr)

check.exit()
