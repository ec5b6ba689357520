import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class While:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        pl._dump.window_buffer("buf_window", base="buf", size=64, load_from_host=False, store_to_host=False)
        with pl._dump.comm_domain(name="comm_d0", devices=[1, 4], slots=[pl._dump.window_ref("buf_window")], attrs={}):
            buf = pld.tensor.alloc_window_buffer(64, name="buf")
            v = pl._dump.call("pld.tensor.window", [buf, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("buf_window")], kwargs={"dtype": pl.FP32})
            flag = True
            while flag:
                self.chip(v, device=1)
                pl.host.log(self.chip(v, device=4))
