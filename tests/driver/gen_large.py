#!/usr/bin/env python3
"""Writes a large valid input for measuring the parsers' peak memory per input byte
(docs/reliability.md): `mlir` — reference IR, functions of chained mhlo ops; `host` — a host
program, host orchestrators of window allocations, views and device-tagged chip dispatches.

usage: gen_large.py mlir|host MEGABYTES  (writes to standard output)
"""
import sys


def mlir_function(i: int) -> str:
    body = [f"func.func @f{i}(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {{"]
    prev = "%a"
    for j in range(40):
        body.append(f'  %v{j} = "mhlo.multiply"({prev}, %b) {{note = "op {j}"}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>')
        prev = f"%v{j}"
    body.append(f"  return {prev} : tensor<4x8xf32>")
    body.append("}")
    return "\n".join(body) + "\n"


def host_function(i: int) -> str:
    lines = [" @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)", f" def main{i}(self):"]
    for j in range(10):
        lines += [
            f'  buf{j} = pld.tensor.alloc_window_buffer(64, name="buf{j}")',
            f"  v{j} = pld.tensor.window(buf{j}, [16], dtype=pl.FP32)",
            f"  for r in pl.range({j + 2}):",
            f"   self.chip(v{j}, device=r)",
        ]
    return "\n".join(lines) + "\n"


def main() -> None:
    kind, mb = sys.argv[1], float(sys.argv[2])
    target = int(mb * 1024 * 1024)
    out = sys.stdout
    size = 0
    if kind == "mlir":
        i = 0
        while size < target:
            s = mlir_function(i)
            out.write(s)
            size += len(s)
            i += 1
    else:
        head = ("import pypto.language as pl\nimport pypto.language.distributed as pld\n\n\n@pl.program\nclass Big:\n"
                " @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
                " def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):\n  return a\n")
        out.write(head)
        size = len(head)
        i = 0
        while size < target:
            s = host_function(i)
            out.write(s)
            size += len(s)
            i += 1


if __name__ == "__main__":
    main()
