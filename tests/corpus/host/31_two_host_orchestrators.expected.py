import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class TwoHosts:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def first(self):
        pl._dump.window_buffer("buf_window", base="buf", size=64, load_from_host=False, store_to_host=False)
        with pl._dump.comm_domain(name="comm_d0", devices=[0], slots=[pl._dump.window_ref("buf_window")], attrs={}):
            buf = pld.tensor.alloc_window_buffer(64, name="buf")
            v = pl._dump.call("pld.tensor.window", [buf, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("buf_window")], kwargs={"dtype": pl.FP32})
            self.chip(v, device=0)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def second(self):
        pl._dump.window_buffer("a_window", base="a", size=64, load_from_host=False, store_to_host=False)
        pl._dump.window_buffer("b_window", base="b", size=64, load_from_host=False, store_to_host=False)
        with pl._dump.comm_domain(name="comm_d0", devices=[], slots=[pl._dump.window_ref("a_window")], attrs={}):
            with pl._dump.comm_domain(name="comm_d1", devices=[1], slots=[pl._dump.window_ref("b_window")], attrs={}):
                a = pld.tensor.alloc_window_buffer(64, name="a")
                av = pl._dump.call("pld.tensor.window", [a, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("a_window")], kwargs={"dtype": pl.FP32})
                b = pld.tensor.alloc_window_buffer(64, name="b")
                bv = pl._dump.call("pld.tensor.window", [b, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("b_window")], kwargs={"dtype": pl.FP32})
                for r in pl.range(pld.system.world_size()):
                    self.chip(av, device=r)
                self.chip(bv, device=1)
