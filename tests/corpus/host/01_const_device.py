# device=N is the rank set {N}; two dispatches join to {0, 2}.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Const:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        self.chip(v, device=2)
        self.chip(v, device=0)
