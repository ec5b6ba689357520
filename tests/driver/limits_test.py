#!/usr/bin/env python3
"""neuronrw-opt's bounds on what a small input can demand (issue 13, item 6), each check failing
before its limit existed:

- the item-6 attack (gen_amplify.py: 100 loops `for r in pl.range(~2^20)`, 16 KB of text, which
  printed 833 MB in 12.7 s with a 2.3 GB peak) is one located error, exit 1, nothing written;
- the devices all comm domains of a program list together (comm_domain_options::
  max_total_listed_devices, 2^20): exactly 2^20 in one domain, and 2^20 - 1 in two, print; one
  more is refused at the allocation that crosses the limit;
- the comm domains of one function (max_scopes_per_function, 64): 64 nested domains print, a 65th
  is refused;
- the printed output (driver.hpp max_output_bytes: 64 bytes per input byte plus 1 MiB): an input
  exactly large enough for its output prints, one byte less is refused with the sizes, and -o is
  left as it was.

Usage: limits_test.py NEURONRW_OPT
Each check prints one line; the script exits 1 if any failed.
"""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../support"))
from checks import Checks  # noqa: E402
from gen_amplify import program as amplify  # noqa: E402

opt = os.path.abspath(sys.argv[1])
check = Checks()
tmp = tempfile.mkdtemp(prefix="neuronrw-opt-limits.")
PIPE = "--pass-pipeline=host.program(materialize-comm-domain-scopes)"
TOTAL = 1 << 20
SLACK = 1 << 20


def write(name, text):
    path = os.path.join(tmp, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def run(args):
    return subprocess.run([opt] + args, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def padded(text, size):
    """`text` with a comment after its imports making it exactly `size` bytes (comments are not printed)."""
    head, sep, rest = text.partition("\n\n\n")
    pad = size - len(text) - 1
    assert pad >= 1, (size, len(text))
    return head + "\n#" + "x" * (pad - 1) + sep + rest


def refused(name, path, first_line):
    """Runs the pass on `path` with -o onto an existing file: exit 1, the error, the file as it was."""
    out = write(name + ".out", "old\n")
    before = sorted(os.listdir(tmp))
    t0 = time.monotonic()
    r = run([PIPE, os.path.basename(path), "-o", os.path.basename(out)])
    took = time.monotonic() - t0
    lines = r.stderr.decode().split("\n")
    check(f"{name}: exit 1, the error", r.returncode == 1 and lines[0] == first_line and r.stdout == b"",
          f"exit {r.returncode}\n{lines[0]!r}\nwant {first_line!r}")
    with open(out, encoding="utf-8") as f:
        check(f"{name}: -o left as it was, no temporary", f.read() == "old\n" and sorted(os.listdir(tmp)) == before)
    return r, took


def accepted(name, path):
    r = run([PIPE, os.path.basename(path)])
    check(f"{name}: exit 0", r.returncode == 0 and r.stderr == b"", f"exit {r.returncode}\n{r.stderr[:400]!r}")
    return r.stdout.decode()


def devices(n):
    return "devices=[" + ", ".join(str(i) for i in range(n)) + "]"


# ------------------------------------------------------------------ the item-6 attack
attack = write("amplify.py", amplify())
check("the attack input is 16 KB", len(amplify()) < 16 * 1024, len(amplify()))
r, took = refused("the item-6 attack", attack,
                  "amplify.py:16:6: error: MaterializeCommDomainScopes: comm domain of 'b1' "
                  "lists 1048575 devices after 1048576 in the program's other comm domains; at most 1048576 can be "
                  "listed in all [too_many_devices]")
check("the item-6 attack: the source line and caret", r.stderr.decode().split("\n")[1:3] ==
      ['  b1=pld.tensor.alloc_window_buffer(64,name="b1")', "     ^"], r.stderr.decode())
print(f"     (refused in {took:.2f} s)")

# ------------------------------------------------------------------ devices listed in all
# The output of 2^20 devices (about 7.5 MB) needs an input of about 100 KB under the output bound.
big = 160 * 1024
out = accepted("2^20 devices in one domain", write("total_one.py", padded(amplify(1, TOTAL), big)))
check("2^20 devices in one domain: all listed", devices(TOTAL) in out)
out = accepted("2^20 - 1 devices in two domains", write("total_two.py", padded(amplify(2, TOTAL // 2), big)))
check("2^20 - 1 devices in two domains: both listed", devices(TOTAL // 2) in out and devices(TOTAL // 2 - 1) in out)
refused("2^20 + 1 devices in two domains", write("total_over.py", padded(amplify(2, TOTAL // 2 + 1), big)),
        "total_over.py:17:6: error: MaterializeCommDomainScopes: comm domain of 'b1' lists "
        "524288 devices after 524289 in the program's other comm domains; at most 1048576 can be listed in all "
        "[too_many_devices]")


# ------------------------------------------------------------------ comm domains per function
def on_devices(n):
    """n allocations, each dispatched on its own device: n nested comm domains."""
    text = amplify(1, 1).split("  b0=")[0]
    for i in range(n):
        text += (f'  b{i}=pld.tensor.alloc_window_buffer(64,name="b{i}")\n'
                 f"  v{i}=pld.tensor.window(b{i},[16],dtype=pl.FP32)\n"
                 f"  self.chip(v{i},device={i})\n")
    return text


out = accepted("64 comm domains in one function", write("scopes_64.py", on_devices(64)))
check("64 comm domains in one function: all nested", out.count("with pl._dump.comm_domain(") == 64
      and "with pl._dump.comm_domain(name=\"comm_d63\", devices=[63]" in out)
refused("65 comm domains in one function", write("scopes_65.py", on_devices(65)),
        "scopes_65.py:204:7: error: MaterializeCommDomainScopes: comm domain of 'b64' would "
        "be comm domain 65 of 'main'; at most 64 can nest in one function [too_many_scopes]")

# ------------------------------------------------------------------ the printed output
# One domain of 200000 devices prints about 1.3 MB: the smallest input allowed to print it is
# ceil((size - 1 MiB) / 64) bytes; one byte less is refused.
base = amplify(1, 200000)
size = len(accepted("the output bound: a padded input prints", write("out_pad.py", padded(base, 64 * 1024))))
need = -(-(size - SLACK) // 64)
check("the output bound: the output is larger than the slack", size > SLACK and need > len(base) + 2, size)
accepted("the output bound: an input of exactly the bytes needed", write("out_exact.py", padded(base, need)))
refused("the output bound: one byte less", write("out_short.py", padded(base, need - 1)),
        f"out_short.py: error: the output would be {size} bytes, more than the {64 * (need - 1) + SLACK} allowed for "
        f"{need - 1} bytes of input (64 per input byte plus 1048576)")
refused("the output bound: unpadded", write("out_small.py", base),
        f"out_small.py: error: the output would be {size} bytes, more than the {64 * len(base) + SLACK} allowed for "
        f"{len(base)} bytes of input (64 per input byte plus 1048576)")

check.exit()
