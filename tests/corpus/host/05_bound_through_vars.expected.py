import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Bounds:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        pl._dump.window_buffer("buf_window", base="buf", size=64, load_from_host=False, store_to_host=False)
        pl._dump.window_buffer("w_window", base="w", size=32, load_from_host=False, store_to_host=False)
        with pl._dump.comm_domain(name="comm_d0", devices=[], slots=[pl._dump.window_ref("buf_window")], attrs={}):
            with pl._dump.comm_domain(name="comm_d1", devices=[1, 2], slots=[pl._dump.window_ref("w_window")], attrs={}):
                n = pld.system.world_size()
                m = n
                buf = pld.tensor.alloc_window_buffer(64, name="buf")
                v = pl._dump.call("pld.tensor.window", [buf, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("buf_window")], kwargs={"dtype": pl.FP32})
                k = 3
                lo = 1
                w = pld.tensor.alloc_window_buffer(32, name="w")
                wv = pl._dump.call("pld.tensor.window", [w, [8]], pld.DistributedTensor[[8], pl.FP32, pl._dump.window_ref("w_window")], kwargs={"dtype": pl.FP32})
                for r in pl.range(m):
                    self.chip(v, device=r)
                for j in pl.range(lo, k):
                    self.chip(wv, device=j)
