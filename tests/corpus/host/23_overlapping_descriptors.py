# Overlapping ranges merge by union: {0..3} and {2..5} give {0..5}, equal to pl.range(6).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Overlap:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        b = pld.tensor.alloc_window_buffer(64, name="b")
        bv = pld.tensor.window(b, [16], dtype=pl.FP32)
        c = pld.tensor.alloc_window_buffer(64, name="c")
        cv = pld.tensor.window(c, [16], dtype=pl.FP32)
        for i in pl.range(4):
            self.chip(v, device=i)
        for j in pl.range(2, 6):
            self.chip(v, device=j)
            self.chip(cv, device=3)
        for k in pl.range(6):
            self.chip(bv, device=k)
        self.chip(cv, device=2)
