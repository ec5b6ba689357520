import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Overlap:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        pl._dump.window_buffer("buf_window", base="buf", size=64, load_from_host=False, store_to_host=False)
        pl._dump.window_buffer("b_window", base="b", size=64, load_from_host=False, store_to_host=False)
        pl._dump.window_buffer("c_window", base="c", size=64, load_from_host=False, store_to_host=False)
        with pl._dump.comm_domain(name="comm_d0", devices=[0, 1, 2, 3, 4, 5], slots=[pl._dump.window_ref("buf_window"), pl._dump.window_ref("b_window")], attrs={}):
            with pl._dump.comm_domain(name="comm_d1", devices=[2, 3], slots=[pl._dump.window_ref("c_window")], attrs={}):
                buf = pld.tensor.alloc_window_buffer(64, name="buf")
                v = pl._dump.call("pld.tensor.window", [buf, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("buf_window")], kwargs={"dtype": pl.FP32})
                b = pld.tensor.alloc_window_buffer(64, name="b")
                bv = pl._dump.call("pld.tensor.window", [b, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("b_window")], kwargs={"dtype": pl.FP32})
                c = pld.tensor.alloc_window_buffer(64, name="c")
                cv = pl._dump.call("pld.tensor.window", [c, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("c_window")], kwargs={"dtype": pl.FP32})
                for i in pl.range(4):
                    self.chip(v, device=i)
                for j in pl.range(2, 6):
                    self.chip(v, device=j)
                    self.chip(cv, device=3)
                for k in pl.range(6):
                    self.chip(bv, device=k)
                self.chip(cv, device=2)
