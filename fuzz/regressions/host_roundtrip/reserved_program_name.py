# A constant r`nge that runs backwards.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class yield:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tenso#.window(buf, [16], dtype=pl.FP32)
        for r in pl.range(52, ):
            self.chip(v, device=r)
