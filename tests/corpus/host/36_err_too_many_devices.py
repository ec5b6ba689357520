# A finite comm domain lists its devices; pl.range(2000000) is too many to list.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Huge:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        for r in pl.range(2000000):
            self.chip(v, device=r)
