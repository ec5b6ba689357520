#!/usr/bin/env python3
"""neuronrw-opt on the inputs and outputs issue 13 found mishandled, each check failing before its fix:

- line ends: the same program with LF, CRLF and CR-only line ends prints the same output, and an
  error is reported at the same line:col with the same source line and caret (a `//` or `#`
  comment ends at a lone CR too; before, it ran to the end of the file and the driver printed an
  empty module with exit 0), also under --split-input-file and --verify-diagnostics;
- unreadable inputs: a directory (an uncaught std::ios_failure, exit 134, before), a missing file
  and a file without read permission each give one error naming the file, exit 1;
- an empty window label in a host program is a located error, as in pypto's parser;
- a failed write to standard output (> /dev/full) or to an -o file is reported, naming it, exit 1.

Usage: reliability_test.py NEURONRW_OPT
Each check prints one line; the script exits 1 if any failed.
"""
import os
import subprocess
import sys
import tempfile

from checks import Checks

opt = sys.argv[1]
check = Checks()
tmp = tempfile.mkdtemp(prefix="neuronrw-opt-reliability.")


def run(args, cwd=None, stdout=subprocess.PIPE):
    """Bytes in, bytes out: no newline translation hides a CR."""
    return subprocess.run([opt] + args, cwd=cwd, stdout=stdout, stderr=subprocess.PIPE)


def expect(name, r, rc, stdout=None, stderr=None):
    ok = r.returncode == rc and (stdout is None or r.stdout == stdout) and (stderr is None or r.stderr == stderr)
    detail = f"exit {r.returncode} (want {rc})"
    if stdout is not None and r.stdout != stdout:
        detail += f"\n--- stdout ---\n{r.stdout!r}\n--- want ---\n{stdout!r}"
    if stderr is not None and r.stderr != stderr:
        detail += f"\n--- stderr ---\n{r.stderr!r}\n--- want ---\n{stderr!r}"
    check(name, ok, detail)


# ------------------------------------------------------------------ line ends
ENDINGS = {"LF": "\n", "CRLF": "\r\n", "CR": "\r"}


def with_endings(text, nl):
    """`text` (written with LF) in a directory of its own, with line ends `nl`; returns the directory."""
    return text.replace("\n", nl).encode()


def same_in_all_endings(name, file_name, text, args, rc, stdout, stderr):
    """Runs `args file_name` in one directory per line-end style (so messages name the same file)."""
    for style, nl in ENDINGS.items():
        d = os.path.join(tmp, style)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, file_name), "wb") as f:
            f.write(with_endings(text, nl))
        expect(f"{name} ({style})", run(args + [file_name], cwd=d), rc, stdout.encode(), stderr.encode())


MLIR = """// A comment before the module: it ends at its line end, whatever that is.
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> { // after the signature
  %0 = "foo.bar"(%a) {k = 1 : i32, // inside the dictionary
                      j = 2 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32> // after the return
}
#alias = "ends at its line end" // an alias's value stops at the line end
"""
MLIR_OUT = """#alias = "ends at its line end"
module {
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "foo.bar"(%a) {k = 1 : i32, j = 2 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
"""
same_in_all_endings("MLIR comments end at any line end", "in.mlir", MLIR, [], 0, MLIR_OUT, "")

MLIR_BAD = MLIR.replace("return %0", "return %z")
same_in_all_endings("an MLIR error: the same line:col, source line and caret", "in.mlir", MLIR_BAD, [], 1, "",
                    "in.mlir:5:10: error: use of undeclared SSA value name '%z'\n"
                    "  return %z : tensor<4xf32> // after the return\n"
                    "         ^\n")

SPLIT = MLIR + "// -----\n" + MLIR_BAD + "  // -----  \n" + MLIR
same_in_all_endings("--split-input-file: the chunks and the whole file's lines", "in.mlir", SPLIT,
                    ["--split-input-file"], 1, MLIR_OUT + "\n// -----\n// -----\n" + MLIR_OUT + "\n",
                    "in.mlir:13:10: error: use of undeclared SSA value name '%z'\n"
                    "  return %z : tensor<4xf32> // after the return\n"
                    "         ^\n"
                    "in.mlir: note: chunk 2 of 3 (lines 9-15) failed\n")

VERIFY = MLIR_BAD.replace("  return %z", "  // expected-error@+1 {{undeclared SSA value name '%z'}}\n  return %z")
same_in_all_endings("--verify-diagnostics: @+1 is the next line", "in.mlir", VERIFY, ["--verify-diagnostics"],
                    0, "", "")
same_in_all_endings("--verify-diagnostics: a missed expectation at its own line", "in.mlir",
                    VERIFY.replace("@+1", "@+2"), ["--verify-diagnostics"], 1, "",
                    "in.mlir:6:10: error: unexpected error: use of undeclared SSA value name '%z'\n"
                    "  return %z : tensor<4xf32> // after the return\n"
                    "         ^\n"
                    "in.mlir:5:6: error: expected error \"undeclared SSA value name '%z'\" was not produced\n"
                    "  // expected-error@+2 {{undeclared SSA value name '%z'}}\n"
                    "     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n")

HOST = """# A host program: comments end at their line end, whatever that is.
import pypto.language as pl


@pl.program
class P:  # after the class
    @pl.function(level=pl.Level.HOST,  # inside the brackets
                 role=pl.Role.Orchestrator)
    def f(self, a):
        # a comment line
        return a
"""
HOST_OUT = """import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def f(self, a):
        return a
"""
same_in_all_endings("host comments and bracket continuations at any line end", "in.py", HOST, [], 0, HOST_OUT, "")
same_in_all_endings("a host error: the same line:col, source line and caret", "in.py",
                    HOST.replace("return a", "return b"), [], 1, "",
                    "in.py:11:16: error: undefined variable 'b'\n"
                    "        return b\n"
                    "               ^\n")

# ------------------------------------------------------------------ unreadable inputs
# Each is one error naming the file, exit 1, nothing on stdout (a directory aborted with an
# uncaught std::ios_failure, exit 134, before).
good = os.path.join(tmp, "good.mlir")
with open(good, "wb") as f:
    f.write(MLIR.encode())
expect("a directory as input", run([tmp]), 1, b"", f"{tmp}: error: cannot read input file: Is a directory\n".encode())
r = subprocess.run([opt, "-"], stdin=os.open(tmp, os.O_RDONLY), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
expect("a directory as standard input", r, 1, b"", b"neuronrw-opt: error: cannot read standard input: Is a directory\n")
missing = os.path.join(tmp, "missing.mlir")
expect("a missing input", run([missing]), 1, b"",
       f"{missing}: error: cannot open input file: No such file or directory\n".encode())
noperm = os.path.join(tmp, "noperm.mlir")
with open(noperm, "wb") as f:
    f.write(with_endings(MLIR, "\n"))
os.chmod(noperm, 0)
if os.geteuid() == 0:
    # root reads a mode-000 file (CAP_DAC_OVERRIDE): the refusal cannot be produced here.
    print("skip an input without read permission: running as root, which may read it anyway")
else:
    expect("an input without read permission", run([noperm]), 1, b"",
           f"{noperm}: error: cannot open input file: Permission denied\n".encode())

# ------------------------------------------------------------------ an empty window label
# Rejected, located, as pypto's parser does (accepted and printed back before).
HOST_WINDOW = HOST.replace("        # a comment line\n",
                           "        pl._dump.window_buffer(\"\", base=\"a\", size=4)\n")
same_in_all_endings("an empty window label", "in.py", HOST_WINDOW, [], 1, "",
                    "in.py:10:32: error: a window label must not be empty\n"
                    "        pl._dump.window_buffer(\"\", base=\"a\", size=4)\n"
                    "                               ^\n")

# ------------------------------------------------------------------ failed writes
# Standard output on a full device: a message naming it, exit 1 (exit 1 and silence before).
full = "/dev/full"
if os.path.exists(full):
    for extra in ([], ["--split-input-file"]):
        with open(full, "wb") as out:
            r = run([good] + extra, stdout=out)
        expect(f"standard output on {full} {' '.join(extra)}".rstrip(), r, 1, None,
               b"neuronrw-opt: error: cannot write to standard output: No space left on device\n")
    expect(f"-o {full}: the file named", run([good, "-o", full]), 1, b"",
           f"{full}: error: cannot write output file: No space left on device\n".encode())
else:
    print(f"skip the writes to {full}: this system has none")
nodir = os.path.join(tmp, "no-such-dir", "out.mlir")
expect("-o in a missing directory: the file named", run([good, "-o", nodir]), 1, b"",
       f"{nodir}: error: cannot write output file: No such file or directory\n".encode())
check("-o in a missing directory: nothing created", not os.path.exists(os.path.dirname(nodir)))

check.exit()
