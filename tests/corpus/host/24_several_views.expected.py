import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Views:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        pl._dump.window_buffer("buf_window", base="buf", size=64, load_from_host=False, store_to_host=False)
        with pl._dump.comm_domain(name="comm_d0", devices=[1, 3, 5], slots=[pl._dump.window_ref("buf_window")], attrs={}):
            buf = pld.tensor.alloc_window_buffer(64, name="buf")
            v = pl._dump.call("pld.tensor.window", [buf, [16]], pld.DistributedTensor[[16], pl.FP32, pl._dump.window_ref("buf_window")], kwargs={"dtype": pl.FP32})
            v2 = pl._dump.call("pld.tensor.window", [buf, [4, 4]], pld.DistributedTensor[[4, 4], pl.FP32, pl._dump.window_ref("buf_window")], kwargs={"dtype": pl.FP32})
            v3 = pl._dump.call("pld.tensor.window", [buf, [8]], pld.DistributedTensor[[8], pl.BF16, pl._dump.window_ref("buf_window")], kwargs={"dtype": pl.BF16})
            self.chip(v, device=1)
            self.chip(v2, device=3)
            self.chip(v3, device=5)
