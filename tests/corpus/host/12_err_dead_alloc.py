# An allocation without any pld.tensor.window.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Dead:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        dead = pld.tensor.alloc_window_buffer(8, name="dead")
        self.chip(v, device=0)
