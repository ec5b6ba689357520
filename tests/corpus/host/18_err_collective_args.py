# Collective arity and argument checks; every error of the scan is reported.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Args:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        sig = pld.tensor.alloc_window_buffer(64, name="sig")
        s = pld.tensor.window(sig, [16], dtype=pl.FP32)
        self.chip(v, device=0)
        y1 = pld.tensor.allreduce(v, s, v)
        y2 = pld.tensor.broadcast(3, s)
        p = pld.system.rank()
        y3 = pld.tensor.allgather(v, p, s)
        pld.tensor.barrier()
