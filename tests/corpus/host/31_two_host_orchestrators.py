# Each host orchestrator gets its own scopes, numbered from comm_d0.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class TwoHosts:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def first(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        self.chip(v, device=0)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def second(self):
        a = pld.tensor.alloc_window_buffer(64, name="a")
        av = pld.tensor.window(a, [16], dtype=pl.FP32)
        b = pld.tensor.alloc_window_buffer(64, name="b")
        bv = pld.tensor.window(b, [16], dtype=pl.FP32)
        for r in pl.range(pld.system.world_size()):
            self.chip(av, device=r)
        self.chip(bv, device=1)
