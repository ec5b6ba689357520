# Two allocations with the same coverage share one scope, slots in allocation order.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Two:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        b = pld.tensor.alloc_window_buffer(128, name="b")
        bv = pld.tensor.window(b, [32], dtype=pl.FP32)
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        for r in pl.range(pld.system.world_size()):
            self.chip(v, device=r)
            self.chip(bv, device=r)
