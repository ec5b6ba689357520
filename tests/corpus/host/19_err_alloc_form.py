# alloc_window_buffer takes exactly one size and a non-empty name (a missing name= is the assignment target's).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class AllocForm:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        a = pld.tensor.alloc_window_buffer(64, 128, name="a")
        b = pld.tensor.alloc_window_buffer(64)
        c = pld.tensor.alloc_window_buffer(64, name="")
        cv = pld.tensor.window(c, [16], dtype=pl.FP32)
        self.chip(cv, device=0)
