# Seed (fuzz_host_roundtrip, fuzz_comm_domain): pypto's shape form of an allocation,
# alloc_window_buffer([dims], dtype=pl.X), which the reader turns into its byte form: constant
# dimensions folded into one size, a dimension known at run time kept in a product.
import pypto.language as pl
import pypto.language.distributed as pld

ROWS = 2 * 8


@pl.program
class ShapeForm:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, x: pld.DistributedTensor[[ROWS, 64], pl.FP32]):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self, n: pl.Scalar[pl.INDEX]):
        buf = pld.alloc_window_buffer([ROWS, 64], dtype=pl.FP32)
        sig = pld.tensor.alloc_window_buffer((pld.world_size(), n + 1), dtype=pl.INT32)
        v = pld.window(buf, [ROWS, 64], dtype=pl.FP32)
        s = pld.window(sig, [pld.world_size(), n + 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.chip(v, device=r)
        return pld.tensor.allreduce(v, s)
