# Loop bounds are followed through variable definitions.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Bounds:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        n = pld.system.world_size()
        m = n
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        k = 3
        lo = 1
        w = pld.tensor.alloc_window_buffer(32, name="w")
        wv = pld.tensor.window(w, [8], dtype=pl.FP32)
        for r in pl.range(m):
            self.chip(v, device=r)
        for j in pl.range(lo, k):
            self.chip(wv, device=j)
