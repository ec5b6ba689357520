# pld.tensor.all_to_all_v is single-use: not inside a loop of a host orchestrator.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class A2AV:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        t = pld.tensor.alloc_window_buffer(64, name="t")
        tv = pld.tensor.window(t, [16], dtype=pl.FP32)
        sg = pld.tensor.alloc_window_buffer(64, name="sg")
        sv = pld.tensor.window(sg, [16], dtype=pl.FP32)
        rc = pld.tensor.alloc_window_buffer(64, name="rc")
        rv = pld.tensor.window(rc, [16], dtype=pl.FP32)
        flag = True
        for r in pl.range(pld.system.world_size()):
            self.chip(tv, device=r)
        while flag:
            x = pld.tensor.all_to_all_v(tv, tv, sv, tv, rv)
