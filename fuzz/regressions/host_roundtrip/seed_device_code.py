import pypto.language as pl
import pypto.language.distributed as pld

N = 64


@pl.program
class Mixed:
    @pl.function(type=pl.FunctionType.InCore, strict_ssa=True)
    def kernel(self, x: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]) -> pl.Tensor[[N], pl.FP32]:
        t: pl.Tile[[N], pl.FP32, pl.Mem.Vec] = pl.load(x, [0], [N])
        for i, (acc,) in pl.range(4, init_values=(t,)):
            if i == 0 or i >= 0x3:
                nxt = pl.add(acc, 1.0)
                k = pl.yield_(nxt)
            else:
                nxt = pl.mul(acc, 0.5)
                k = pl.yield_(nxt)
            r = pl.yield_(k)
        out = pl.store(r, [0], out)
        return out

    @pl.function
    def plain(self, x: pl.Tensor[[N], pl.FP32]) -> pl.Tensor[[N], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP) as tid:
            y = pl.add(x, x)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, v: pld.DistributedTensor[[N], pl.FP32]) -> pld.DistributedTensor[[N], pl.FP32]:
        return v

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self, flag: pl.Scalar[pl.INT32]):
        buf = pld.alloc_window_buffer(N * 4)
        if flag > 0 and not flag == 7:
            for r in pl.range(pld.world_size()):
                v = pld.window(buf, [N], dtype=pl.FP32)
                self.chip(v, device=r)
        else:
            with pl.manual_scope():
                for r in pl.parallel(2):
                    if r == 1:
                        continue
                    w = pld.window(buf, [N], dtype=pl.FP32)
                    self.chip(w, device=r)

