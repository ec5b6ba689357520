# {0, 1} and {0, 1, 2} are different comm domains; the first allocation's scope is outermost.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Diff:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        b = pld.tensor.alloc_window_buffer(64, name="b")
        bv = pld.tensor.window(b, [16], dtype=pl.FP32)
        for r in pl.range(2):
            self.chip(v, device=r)
        for r2 in pl.range(3):
            self.chip(bv, device=r2)
