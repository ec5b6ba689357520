import pypto.language as pl

@pl.program
class S:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, x: pl.Tensor[[1], pl.FP32]):
        if x != 0x1:
            pass
        s = r"d" + \
 
      