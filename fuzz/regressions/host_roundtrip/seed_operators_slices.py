import pypto.language as pl
import pypto.language.distributed as pld

BLOCK = 1 << 6
MASK = ~(BLOCK - 1) & 0xFFFF
POW = (-2) ** 3 + 2 ** 2 ** 2


@pl.program
class Ops:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[BLOCK, 128], pl.FP32], out: pl.Out[pl.Tensor[[BLOCK, 128], pl.FP32]], a: pl.Scalar[pl.INDEX]) -> pl.Tensor[[BLOCK, 128], pl.FP32]:
        half: pl.Tensor[[BLOCK, 64], pl.FP32] = x[:, 64:128]
        strided: pl.Tensor[[32, 128], pl.FP32] = x[::2]
        b = a << 2 | a >> 1 ^ a & MASK
        for (i,) in pl.while_(init_values=(0,)):
            pl.cond(i < a)
            j = pl.yield_(i + 1)
        c: pl.Scalar[pl.FP32] = a / 2.0 - -a ** 2
        out[:, 0:64] = pl.add(half, half)
        out[a:a + 1, :] = strided[0:1, :]
        return out
