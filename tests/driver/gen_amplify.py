#!/usr/bin/env python3
"""Writes the issue-13 item-6 host program: about 8 KB of text, N allocations each used by a chip
dispatch inside `for r in pl.range(D - i)`, so MaterializeCommDomainScopes would list N comm
domains of about D devices each (N = 100, D = 1048576: 100M device numbers, 333+ MB of output).

usage: gen_amplify.py [N [D]]  (writes the program to standard output)
"""
import sys


def program(n: int = 100, d: int = 1048576) -> str:
    lines = [
        "import pypto.language as pl",
        "import pypto.language.distributed as pld",
        "",
        "",
        "@pl.program",
        "class Amplify:",
        " @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)",
        " def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):",
        "  return a",
        " @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)",
        " def main(self):",
    ]
    for i in range(n):
        lines += [
            f'  b{i}=pld.tensor.alloc_window_buffer(64,name="b{i}")',
            f"  v{i}=pld.tensor.window(b{i},[16],dtype=pl.FP32)",
            f"  for r in pl.range({d - i}):",
            f"   self.chip(v{i},device=r)",
        ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    sys.stdout.write(program(*args))
