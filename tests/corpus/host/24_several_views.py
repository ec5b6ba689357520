# Three views of one allocation share one WindowBuffer; their dispatches merge.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Views:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        v2 = pld.tensor.window(buf, [4, 4], dtype=pl.FP32)
        v3 = pld.tensor.window(buf, [8], dtype=pl.BF16)
        self.chip(v, device=1)
        self.chip(v2, device=3)
        self.chip(v3, device=5)
