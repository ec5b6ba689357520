# A dispatch with a constant device inside a while loop; nested calls are scanned too.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class While:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        flag = True
        while flag:
            self.chip(v, device=1)
            pl.host.log(self.chip(v, device=4))
