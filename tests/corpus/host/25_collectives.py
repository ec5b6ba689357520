# Every collective passes its target's coverage to its signal; all_to_all_v also to recv_counts.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Colls:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        d = pld.tensor.alloc_window_buffer(64, name="d")
        dv = pld.tensor.window(d, [16], dtype=pl.FP32)
        e = pld.tensor.alloc_window_buffer(64, name="e")
        ev = pld.tensor.window(e, [16], dtype=pl.FP32)
        s1 = pld.tensor.alloc_window_buffer(64, name="s1")
        s1v = pld.tensor.window(s1, [16], dtype=pl.FP32)
        s2 = pld.tensor.alloc_window_buffer(64, name="s2")
        s2v = pld.tensor.window(s2, [16], dtype=pl.FP32)
        s3 = pld.tensor.alloc_window_buffer(64, name="s3")
        s3v = pld.tensor.window(s3, [16], dtype=pl.FP32)
        s4 = pld.tensor.alloc_window_buffer(64, name="s4")
        s4v = pld.tensor.window(s4, [16], dtype=pl.FP32)
        s5 = pld.tensor.alloc_window_buffer(64, name="s5")
        s5v = pld.tensor.window(s5, [16], dtype=pl.FP32)
        s6 = pld.tensor.alloc_window_buffer(64, name="s6")
        s6v = pld.tensor.window(s6, [16], dtype=pl.FP32)
        rc = pld.tensor.alloc_window_buffer(64, name="rc")
        rcv = pld.tensor.window(rc, [16], dtype=pl.FP32)
        x = pld.system.rank()
        for r in pl.range(4):
            self.chip(dv, device=r)
        self.chip(ev, device=7)
        a1 = pld.tensor.allreduce(dv, s1v)
        a2 = pld.tensor.broadcast(ev, s2v)
        a3 = pld.tensor.reduce_scatter(dv, s3v)
        a4 = pld.tensor.allgather(x, ev, s4v)
        a5 = pld.tensor.all_to_all(x, dv, s5v)
        a6 = pld.tensor.all_to_all_v(x, ev, s6v, x, rcv)
        pld.tensor.barrier(s1v)
