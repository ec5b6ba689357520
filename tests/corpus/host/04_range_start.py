# pl.range(2, 5) covers {2, 3, 4}; an explicit unit step is accepted.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Start:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        for r in pl.range(2, 5, 1):
            self.chip(v, device=r)
