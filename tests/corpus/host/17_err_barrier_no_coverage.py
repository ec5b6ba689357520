# A barrier signal needs coverage of its own.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Barrier:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        self.chip(v, device=0)
        sig = pld.tensor.alloc_window_buffer(64, name="sig")
        s = pld.tensor.window(sig, [16], dtype=pl.FP32)
        pld.tensor.barrier(s)
