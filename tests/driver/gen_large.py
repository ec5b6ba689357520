#!/usr/bin/env python3
"""Writes a large valid input for measuring the parsers' peak memory per input byte
(docs/reliability.md): `mlir` — reference IR, functions of chained mhlo ops; `stablehlo` — JAX
export layers in StableHLO's custom forms (bench/text_vs_mlir_opt.py); `host` — a host program,
host orchestrators of window allocations, views and device-tagged chip dispatches.

usage: gen_large.py mlir|stablehlo|host MEGABYTES  (writes to standard output)
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


def stablehlo_function(i: int) -> str:
    """A layer of a JAX export in StableHLO's custom forms (a function of 44 ops: matmuls, a
    ReLU, residual adds, a compact reduce, a compare/select), as jax.export prints them."""
    t, m = "tensor<8x16xf32>", "tensor<16x16xf32>"
    body = [f"func.func private @layer{i}(%arg0: {t}, %arg1: {m}) -> ({t}, tensor<8xf32>) {{",
            "  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>"]
    prev = "%arg0"
    for j in range(10):
        v = 4 * j
        body += [
            f"  %{v} = stablehlo.dot_general {prev}, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : ({t}, {m}) -> {t}",
            f"  %{v + 1} = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> {t}",
            f"  %{v + 2} = stablehlo.maximum %{v}, %{v + 1} : {t}",
            f"  %{v + 3} = stablehlo.add %{v + 2}, {prev} : {t}",
        ]
        prev = f"%{v + 3}"
    body += [
        f"  %40 = stablehlo.reduce({prev} init: %cst) applies stablehlo.add across dimensions = [1] : ({t}, tensor<f32>) -> tensor<8xf32>",
        f"  %41 = stablehlo.compare  GT, {prev}, %arg0,  FLOAT : ({t}, {t}) -> tensor<8x16xi1>",
        f"  %42 = stablehlo.select %41, {prev}, %arg0 : tensor<8x16xi1>, {t}",
        f"  return %42, %40 : {t}, tensor<8xf32>",
        "}",
    ]
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
    if kind in ("mlir", "stablehlo"):
        make = mlir_function if kind == "mlir" else stablehlo_function
        i = 0
        while size < target:
            s = make(i)
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
