import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Chain:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        pl._dump.window_buffer("d_window", base="d", size=64, load_from_host=False, store_to_host=False)
        pl._dump.window_buffer("t_window", base="t", size=64, load_from_host=False, store_to_host=False)
        pl._dump.window_buffer("s_window", base="s", size=64, load_from_host=False, store_to_host=False)
        with pl._dump.comm_domain(name="comm_d0", devices=[0, 1], slots=[pl._dump.window_ref("d_window"), pl._dump.window_ref("t_window"), pl._dump.window_ref("s_window")], attrs={}):
            d = pld.tensor.alloc_window_buffer(64, name="d")
            dv = pl._dump.call("pld.tensor.window", [d, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("d_window")], kwargs={"dtype": pl.FP32})
            t = pld.tensor.alloc_window_buffer(64, name="t")
            tv = pl._dump.call("pld.tensor.window", [t, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("t_window")], kwargs={"dtype": pl.FP32})
            s = pld.tensor.alloc_window_buffer(64, name="s")
            sv = pl._dump.call("pld.tensor.window", [s, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("s_window")], kwargs={"dtype": pl.FP32})
            for r in pl.range(2):
                self.chip(dv, device=r)
            g = pl._dump.call("pld.tensor.allgather", [dv, tv, sv], pld.DistributedTensor[[16], pl.FP32])
            y = pl._dump.call("pld.tensor.allreduce", [dv, tv], pld.DistributedTensor[[16], pl.FP32])
