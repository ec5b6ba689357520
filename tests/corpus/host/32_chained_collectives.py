# Inheritance runs to a fixpoint: the allgather comes first in source order, but its target t
# only gets coverage from the allreduce after it.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Chain:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        d = pld.tensor.alloc_window_buffer(64, name="d")
        dv = pld.tensor.window(d, [16], dtype=pl.FP32)
        t = pld.tensor.alloc_window_buffer(64, name="t")
        tv = pld.tensor.window(t, [16], dtype=pl.FP32)
        s = pld.tensor.alloc_window_buffer(64, name="s")
        sv = pld.tensor.window(s, [16], dtype=pl.FP32)
        for r in pl.range(2):
            self.chip(dv, device=r)
        g = pld.tensor.allgather(dv, tv, sv)
        y = pld.tensor.allreduce(dv, tv)
