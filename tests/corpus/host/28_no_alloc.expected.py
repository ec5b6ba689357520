import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Plain:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        n = pld.system.world_size()
        x = pld.system.rank()
        for r in pl.range(n):
            self.chip(x, device=r)
