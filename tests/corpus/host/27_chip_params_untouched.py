# Chip-orchestrator parameters keep their types; a CHIP worker is no dispatch target; a HOST
# function without the Orchestrator role is not analyzed.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Params:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.CHIP, role=pl.Role.Worker)
    def worker(self):
        return 0

    @pl.function(level=pl.Level.HOST)
    def helper(self):
        dead = pld.tensor.alloc_window_buffer(8, name="dead")
        return dead

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        self.worker(v, device=9)
        self.chip(v, device=1)
