# Arguments reach views through aliases and through collective results.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Alias:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        sig = pld.tensor.alloc_window_buffer(64, name="sig")
        s = pld.tensor.window(sig, [16], dtype=pl.FP32)
        u = v
        w = u
        for r in pl.range(3):
            self.chip(w, device=r)
        y = pld.tensor.allreduce(v, s)
        z = y
        self.chip(z, device=7)
