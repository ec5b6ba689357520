# pypto's shape form of an allocation, `pld.alloc_window_buffer([dims], dtype=pl.X)`, is read as
# the byte form pypto's DSL op turns it into: every dimension constant, one size (the product times
# the dtype's bytes, constant arithmetic folded); a dimension known only at run time, the product
# from the first dimension left to right. MaterializeCommDomainScopes then sizes the window buffers
# from it, and the output prints the byte form. pypto's errors are the reader's, where pypto raises
# them.
#
# RUN: not neuronrw-opt %s --split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
# RUN: not neuronrw-opt %s --split-input-file --materialize-comm-domain-scopes 2>/dev/null | FileCheck %s
# CHECK:      pl._dump.window_buffer("data_buf_window", base="data_buf", size=65536, load_from_host=False, store_to_host=False)
# CHECK-NEXT: pl._dump.window_buffer("signal_buf_window", base="signal_buf", size=pld.world_size() * 4, load_from_host=False, store_to_host=False)
# CHECK-NEXT: pl._dump.window_buffer("rows_buf_window", base="rows_buf", size=2 * ROWS * n * 2, load_from_host=False, store_to_host=False)
# CHECK:      data_buf = pld.alloc_window_buffer(65536){{$}}
# CHECK-NEXT: signal_buf = pld.tensor.alloc_window_buffer(pld.world_size() * 4){{$}}
# CHECK-NEXT: rows_buf = pld.alloc_window_buffer(2 * ROWS * n * 2){{$}}
# CHECK-NOT:  dtype=pl.FP32)
# CHECK:      # -----

import pypto.language as pl
import pypto.language.distributed as pld

ROWS = pl.dynamic("ROWS")


@pl.program
class Shaped:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, x: pld.DistributedTensor[[128, 128], pl.FP32], s: pld.DistributedTensor[[8], pl.INT32]):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, n: pl.Scalar[pl.INDEX]):
        data_buf = pld.alloc_window_buffer([2 * 64, 128], dtype=pl.FP32)
        signal_buf = pld.tensor.alloc_window_buffer([pld.world_size()], dtype=pl.INT32)
        rows_buf = pld.alloc_window_buffer((2, ROWS, n), dtype=pl.FP16)
        data = pld.window(data_buf, [128, 128], dtype=pl.FP32)
        signal = pld.window(signal_buf, [8], dtype=pl.INT32)
        rows = pld.window(rows_buf, [8], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.chip(data, signal, device=r)
            self.chip(data, rows, device=r)
        return data

# -----

@pl.program
class NoDtype:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        # ERR: host_alloc_shape_form.py:[[# @LINE + 1]]:{{[0-9]+}}: error: pld.tensor.alloc_window_buffer requires dtype= when the first argument is a shape (list / tuple of per-rank dimensions)
        buf = pld.alloc_window_buffer([256])
        return buf

# -----

@pl.program
class DtypeWithBytes:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        # ERR: host_alloc_shape_form.py:[[# @LINE + 1]]:{{[0-9]+}}: error: pld.tensor.alloc_window_buffer dtype= is only valid when the first argument is a shape (list / tuple), not a scalar byte size
        buf = pld.alloc_window_buffer(8, dtype=pl.FP32)
        return buf

# -----

@pl.program
class ZeroDim:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        # ERR: host_alloc_shape_form.py:[[# @LINE + 1]]:{{[0-9]+}}: error: pld.tensor.alloc_window_buffer shape dimension{{\[}}0] is 0; all dimensions must be positive
        buf = pld.alloc_window_buffer([0, 128], dtype=pl.FP32)
        return buf

# -----

@pl.program
class EmptyShape:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        # ERR: host_alloc_shape_form.py:[[# @LINE + 1]]:{{[0-9]+}}: error: pld.tensor.alloc_window_buffer shape must be non-empty
        buf = pld.alloc_window_buffer([], dtype=pl.FP32)
        return buf
