# The stop of the loop is neither a constant nor world_size().
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Bound:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        n = pld.system.rank()
        for r in pl.range(n):
            self.chip(v, device=r)
