#!/usr/bin/env python3
"""neuronrw-opt on the inputs and outputs issue 13 found mishandled, each check failing before its fix:

- line ends: the same program with LF, CRLF and CR-only line ends prints the same output, and an
  error is reported at the same line:col with the same source line and caret (a `//` or `#`
  comment ends at a lone CR too; before, it ran to the end of the file and the driver printed an
  empty module with exit 0), also under --split-input-file and --verify-diagnostics;
- unreadable inputs: a directory (an uncaught std::ios_failure, exit 134, before), a missing file
  and a file without read permission each give one error naming the file, exit 1;
- an empty window label in a host program is a located error, as in pypto's parser;
- a failed write to standard output (> /dev/full) or to an -o file is reported, naming it, exit 1;
- -o onto a FIFO or a device is written in place (the rename made it a regular file before); onto
  a symbolic link, through the link (the link was replaced by a file before); onto a 0600 file,
  the mode stays (0644 before); onto a file with a second hard link, in place, so both names show
  the output (the rename split them before); a symbolic link planted at the old fixed temporary
  name OUT.tmp does not redirect the write (its target was overwritten before); a new file gets
  0666 & ~umask; no OUT.* temporary is left after a success or a failed write, and a failed write
  leaves the old file as it was; -o /dev/stdout while standard output appends to a file (`>>`)
  appends through standard output (the file was replaced by a rename before, losing its content);
  -o onto a writable file in a read-only directory is written in place, as mlir-opt writes it
  (refused before: no temporary file can be made there); a new file there is refused, naming it.

Usage: reliability_test.py NEURONRW_OPT
Each check prints one line; the script exits 1 if any failed.
"""
import os
import resource
import signal
import stat
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../support"))
from checks import Checks  # noqa: E402

opt = os.path.abspath(sys.argv[1])
check = Checks()
tmp = tempfile.mkdtemp(prefix="neuronrw-opt-reliability.")


def run(args, cwd=None, stdout=subprocess.PIPE):
    """Bytes in, bytes out: no newline translation hides a CR."""
    return subprocess.run([opt] + args, cwd=cwd, stdout=stdout, stderr=subprocess.PIPE)


def expect(name, r, rc, stdout=None, stderr=None):
    """Exit code and, when given, the exact standard output and error (tests/support/checks.py)."""
    check.expect_run(name, r, rc, stdout, stderr)


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

# ------------------------------------------------------------------ -o: special files, links, modes
# (issue 13 items 1-3; docs/driver.md §"Output files")
good_out = run([good]).stdout
check("the output of good.mlir", good_out == MLIR_OUT.encode(), repr(good_out))
odir = os.path.join(tmp, "out")
os.makedirs(odir)


def temporaries(d, name, planted=()):
    """Names in `d` starting with `name.` other than `planted`: temporaries left behind."""
    return sorted(n for n in os.listdir(d) if n.startswith(name + ".") and n not in planted)


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


# A FIFO: written in place while a reader drains it; it stays a FIFO.
fifo = os.path.join(odir, "fifo")
os.mkfifo(fifo)
got = []
reader = threading.Thread(target=lambda: got.append(read_bytes(fifo)), daemon=True)
reader.start()
expect("-o onto a FIFO", run([good, "-o", fifo]), 0, b"", b"")
reader.join(timeout=30)
check("-o onto a FIFO: the reader got the output", got == [MLIR_OUT.encode()], repr(got))
check("-o onto a FIFO: still a FIFO", stat.S_ISFIFO(os.lstat(fifo).st_mode))
check("-o onto a FIFO: no temporary left", temporaries(odir, "fifo") == [], temporaries(odir, "fifo"))

# A device: /dev/null stays a character device.
expect("-o /dev/null", run([good, "-o", "/dev/null"]), 0, b"", b"")
check("-o /dev/null: still a character device", stat.S_ISCHR(os.lstat("/dev/null").st_mode))

# A symbolic link (relative, into another directory): written through, the link stays a link.
ldir = os.path.join(tmp, "link-target")
os.makedirs(ldir)
link_target = os.path.join(ldir, "real.mlir")
write_bytes(link_target, b"old\n")
os.chmod(link_target, 0o640)
link = os.path.join(odir, "link.mlir")
os.symlink(os.path.join("..", "link-target", "real.mlir"), link)
expect("-o onto a symbolic link", run([good, "-o", link]), 0, b"", b"")
check("-o onto a symbolic link: still a link to the same target",
      os.path.islink(link) and os.readlink(link) == os.path.join("..", "link-target", "real.mlir"))
check("-o onto a symbolic link: the target has the output", read_bytes(link_target) == MLIR_OUT.encode())
check("-o onto a symbolic link: the target's mode stays 0640",
      stat.S_IMODE(os.stat(link_target).st_mode) == 0o640, oct(os.stat(link_target).st_mode))
check("-o onto a symbolic link: no temporary left by the link or the target",
      temporaries(odir, "link.mlir") == [] and temporaries(ldir, "real.mlir") == [],
      f"{os.listdir(odir)} {os.listdir(ldir)}")

# A dangling symbolic link: its target is created through it.
dangling = os.path.join(odir, "dangling.mlir")
os.symlink("created.mlir", dangling)
expect("-o onto a dangling symbolic link", run([good, "-o", dangling]), 0, b"", b"")
check("-o onto a dangling symbolic link: still a link, its target created with the output",
      os.path.islink(dangling) and read_bytes(os.path.join(odir, "created.mlir")) == MLIR_OUT.encode())

# An existing 0600 file: replaced, its mode kept.
private = os.path.join(odir, "private.mlir")
write_bytes(private, b"old\n")
os.chmod(private, 0o600)
expect("-o onto a 0600 file", run([good, "-o", private]), 0, b"", b"")
check("-o onto a 0600 file: the output", read_bytes(private) == MLIR_OUT.encode())
check("-o onto a 0600 file: the mode stays 0600", stat.S_IMODE(os.stat(private).st_mode) == 0o600,
      oct(os.stat(private).st_mode))
check("-o onto a 0600 file: no temporary left", temporaries(odir, "private.mlir") == [],
      temporaries(odir, "private.mlir"))

# A new file: 0666 & ~umask, as a plain create gives (not mkstemp's 0600).
fresh = os.path.join(odir, "fresh.mlir")
r = subprocess.run([opt, good, "-o", fresh], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                   preexec_fn=lambda: os.umask(0o027))
expect("-o a new file", r, 0, b"", b"")
check("-o a new file: the output", read_bytes(fresh) == MLIR_OUT.encode())
check("-o a new file: mode 0666 & ~umask 027 = 0640", stat.S_IMODE(os.stat(fresh).st_mode) == 0o640,
      oct(os.stat(fresh).st_mode))

# A file with a second hard link: written in place, both names show the output, one inode.
linked = os.path.join(odir, "linked.mlir")
second = os.path.join(odir, "second-name.mlir")
write_bytes(linked, b"old\n")
os.link(linked, second)
inode = os.stat(linked).st_ino
expect("-o onto a hard-linked file", run([good, "-o", linked]), 0, b"", b"")
check("-o onto a hard-linked file: both names show the output",
      read_bytes(linked) == MLIR_OUT.encode() and read_bytes(second) == MLIR_OUT.encode())
check("-o onto a hard-linked file: still one inode with two links",
      os.stat(linked).st_ino == inode == os.stat(second).st_ino and os.stat(linked).st_nlink == 2)
check("-o onto a hard-linked file: no temporary left", temporaries(odir, "linked.mlir") == [],
      temporaries(odir, "linked.mlir"))

# A symbolic link planted at the old fixed temporary name OUT.tmp: the victim stays as it was.
victim = os.path.join(tmp, "victim")
write_bytes(victim, b"victim's data\n")
attacked = os.path.join(odir, "attacked.mlir")
os.symlink(victim, attacked + ".tmp")
expect("-o with a symbolic link planted at OUT.tmp", run([good, "-o", attacked]), 0, b"", b"")
check("-o with a planted OUT.tmp: the victim is unchanged", read_bytes(victim) == b"victim's data\n")
check("-o with a planted OUT.tmp: OUT is a regular file with the output",
      not os.path.islink(attacked) and read_bytes(attacked) == MLIR_OUT.encode())
check("-o with a planted OUT.tmp: the planted link is left alone",
      os.path.islink(attacked + ".tmp") and os.readlink(attacked + ".tmp") == victim)
check("-o with a planted OUT.tmp: no other temporary left",
      temporaries(odir, "attacked.mlir", planted=("attacked.mlir.tmp",)) == [], temporaries(odir, "attacked.mlir"))


# -o /dev/stdout while standard output is a file opened for appending (a shell's `>>`): written
# through standard output, so the old content stays and the output follows it; the file keeps its
# inode (before, /dev/stdout resolved to the file, which was replaced by a rename: the old content
# was lost).
appended = os.path.join(odir, "appended.mlir")
write_bytes(appended, b"old\n")
inode = os.stat(appended).st_ino
with open(appended, "ab") as f:
    r = subprocess.run([opt, good, "-o", "/dev/stdout"], stdout=f, stderr=subprocess.PIPE)
expect("-o /dev/stdout with standard output appending to a file", r, 0, None, b"")
check("-o /dev/stdout appending: old content, then the output, same inode",
      read_bytes(appended) == b"old\n" + MLIR_OUT.encode() and os.stat(appended).st_ino == inode,
      repr(read_bytes(appended)))
check("-o /dev/stdout appending: no temporary left", temporaries(odir, "appended.mlir") == [],
      temporaries(odir, "appended.mlir"))


# -o onto a writable file in a read-only directory: no temporary file can be made next to it, so
# it is written in place, as mlir-opt writes it (refused before). Root ignores directory
# permissions, so as root the driver runs as nobody (uid/gid 65534), from a copy of the binary in
# a directory it may enter, reading standard input.
def unprivileged():
    if os.geteuid() == 0:
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)


ro_parent = tempfile.mkdtemp(prefix="neuronrw-opt-rodir.")
os.chmod(ro_parent, 0o755)
ro_opt = os.path.join(ro_parent, "neuronrw-opt")
write_bytes(ro_opt, read_bytes(opt))
os.chmod(ro_opt, 0o755)
rodir = os.path.join(ro_parent, "ro")
os.mkdir(rodir)
ro_out = os.path.join(rodir, "out.mlir")
write_bytes(ro_out, b"old\n")
os.chmod(ro_out, 0o666)
os.chmod(rodir, 0o555)
with open(good, "rb") as f:
    r = subprocess.run([ro_opt, "-", "-o", ro_out], stdin=f, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       preexec_fn=unprivileged)
expect("-o onto a writable file in a read-only directory", r, 0, b"", b"")
check("-o in a read-only directory: the file has the output", read_bytes(ro_out) == MLIR_OUT.encode(),
      repr(read_bytes(ro_out)))
check("-o in a read-only directory: the mode stays 0666", stat.S_IMODE(os.stat(ro_out).st_mode) == 0o666)
ro_new = os.path.join(rodir, "new.mlir")
with open(good, "rb") as f:
    r = subprocess.run([ro_opt, "-", "-o", ro_new], stdin=f, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       preexec_fn=unprivileged)
expect("-o a new file in a read-only directory: refused, naming it", r, 1, b"",
       f"{ro_new}: error: cannot write output file: Permission denied\n".encode())
check("-o a new file in a read-only directory: nothing created", not os.path.exists(ro_new))
os.chmod(rodir, 0o755)


def limited_file_size():
    """In the child: files may not grow past 16 bytes, and write() fails with EFBIG instead of SIGXFSZ."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (16, 16))


# A write that fails half-way (RLIMIT_FSIZE): one error naming OUT, exit 1, the old file untouched
# (content and mode), no temporary left.
kept = os.path.join(odir, "kept.mlir")
write_bytes(kept, b"old\n")
os.chmod(kept, 0o604)
r = subprocess.run([opt, good, "-o", kept], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                   preexec_fn=limited_file_size)
expect("-o, a write failing half-way", r, 1, b"", f"{kept}: error: cannot write output file: File too large\n".encode())
check("-o, a write failing half-way: the old file untouched",
      read_bytes(kept) == b"old\n" and stat.S_IMODE(os.stat(kept).st_mode) == 0o604)
check("-o, a write failing half-way: no temporary left", temporaries(odir, "kept.mlir") == [],
      temporaries(odir, "kept.mlir"))
# The same through a symbolic link: the message names the link, the target is untouched.
write_bytes(link_target, b"old\n")
r = subprocess.run([opt, good, "-o", link], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                   preexec_fn=limited_file_size)
expect("-o onto a symbolic link, a write failing half-way", r, 1, b"",
       f"{link}: error: cannot write output file: File too large\n".encode())
check("-o onto a symbolic link, a write failing half-way: target untouched, no temporary left",
      read_bytes(link_target) == b"old\n" and os.path.islink(link) and temporaries(ldir, "real.mlir") == [],
      os.listdir(ldir))
# A run that fails before writing: no output file, no temporary.
bad = os.path.join(tmp, "bad.mlir")
write_bytes(bad, MLIR_BAD.encode())
never = os.path.join(odir, "never.mlir")
r = run([bad, "-o", never])
check("-o, a failed run: exit 1, nothing written, no temporary",
      r.returncode == 1 and not os.path.exists(never) and temporaries(odir, "never.mlir") == [],
      f"exit {r.returncode} {os.listdir(odir)}")

check.exit()
