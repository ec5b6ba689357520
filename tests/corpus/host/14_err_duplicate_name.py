# Two allocations named "buf" that land in the same comm domain.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Dup:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        buf2 = pld.tensor.alloc_window_buffer(64, name="buf")
        v2 = pld.tensor.window(buf2, [16], dtype=pl.FP32)
        self.chip(v, device=0)
        self.chip(v2, device=0)
