import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Colls:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        pl._dump.window_buffer("d_window", base="d", size=64, load_from_host=False, store_to_host=False)
        pl._dump.window_buffer("s1_window", base="s1", size=64, load_from_host=False, store_to_host=False)
        pl._dump.window_buffer("s3_window", base="s3", size=64, load_from_host=False, store_to_host=False)
        pl._dump.window_buffer("s5_window", base="s5", size=64, load_from_host=False, store_to_host=False)
        pl._dump.window_buffer("e_window", base="e", size=64, load_from_host=False, store_to_host=False)
        pl._dump.window_buffer("s2_window", base="s2", size=64, load_from_host=False, store_to_host=False)
        pl._dump.window_buffer("s4_window", base="s4", size=64, load_from_host=False, store_to_host=False)
        pl._dump.window_buffer("s6_window", base="s6", size=64, load_from_host=False, store_to_host=False)
        pl._dump.window_buffer("rc_window", base="rc", size=64, load_from_host=False, store_to_host=False)
        with pl._dump.comm_domain(name="comm_d0", devices=[0, 1, 2, 3], slots=[pl._dump.window_ref("d_window"), pl._dump.window_ref("s1_window"), pl._dump.window_ref("s3_window"), pl._dump.window_ref("s5_window")], attrs={}):
            with pl._dump.comm_domain(name="comm_d1", devices=[7], slots=[pl._dump.window_ref("e_window"), pl._dump.window_ref("s2_window"), pl._dump.window_ref("s4_window"), pl._dump.window_ref("s6_window"), pl._dump.window_ref("rc_window")], attrs={}):
                d = pld.tensor.alloc_window_buffer(64, name="d")
                dv = pl._dump.call("pld.tensor.window", [d, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("d_window")], kwargs={"dtype": pl.FP32})
                e = pld.tensor.alloc_window_buffer(64, name="e")
                ev = pl._dump.call("pld.tensor.window", [e, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("e_window")], kwargs={"dtype": pl.FP32})
                s1 = pld.tensor.alloc_window_buffer(64, name="s1")
                s1v = pl._dump.call("pld.tensor.window", [s1, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("s1_window")], kwargs={"dtype": pl.FP32})
                s2 = pld.tensor.alloc_window_buffer(64, name="s2")
                s2v = pl._dump.call("pld.tensor.window", [s2, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("s2_window")], kwargs={"dtype": pl.FP32})
                s3 = pld.tensor.alloc_window_buffer(64, name="s3")
                s3v = pl._dump.call("pld.tensor.window", [s3, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("s3_window")], kwargs={"dtype": pl.FP32})
                s4 = pld.tensor.alloc_window_buffer(64, name="s4")
                s4v = pl._dump.call("pld.tensor.window", [s4, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("s4_window")], kwargs={"dtype": pl.FP32})
                s5 = pld.tensor.alloc_window_buffer(64, name="s5")
                s5v = pl._dump.call("pld.tensor.window", [s5, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("s5_window")], kwargs={"dtype": pl.FP32})
                s6 = pld.tensor.alloc_window_buffer(64, name="s6")
                s6v = pl._dump.call("pld.tensor.window", [s6, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("s6_window")], kwargs={"dtype": pl.FP32})
                rc = pld.tensor.alloc_window_buffer(64, name="rc")
                rcv = pl._dump.call("pld.tensor.window", [rc, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("rc_window")], kwargs={"dtype": pl.FP32})
                x = pld.system.rank()
                for r in pl.range(4):
                    self.chip(dv, device=r)
                self.chip(ev, device=7)
                a1 = pl._dump.call("pld.tensor.allreduce", [dv, s1v], pld.DistributedTensor[[16], pl.FP32])
                a2 = pl._dump.call("pld.tensor.broadcast", [ev, s2v], pld.DistributedTensor[[16], pl.FP32])
                a3 = pl._dump.call("pld.tensor.reduce_scatter", [dv, s3v], pld.DistributedTensor[[16], pl.FP32])
                a4 = pl._dump.call("pld.tensor.allgather", [x, ev, s4v], pld.DistributedTensor[[16], pl.FP32])
                a5 = pl._dump.call("pld.tensor.all_to_all", [x, dv, s5v], pld.DistributedTensor[[16], pl.FP32])
                a6 = pl._dump.call("pld.tensor.all_to_all_v", [x, ev, s6v, x, rcv], pld.DistributedTensor[[16], pl.FP32])
                pld.tensor.barrier(s1v)
