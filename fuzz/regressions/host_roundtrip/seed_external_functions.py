import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.function
def twice(x: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
    return x * 2


@pl.inline
def window_of(buf, n):
    """A window of n floats."""
    v = pld.tensor.window(buf, [n], dtype=pl.FP32)
    return v


def test_program():
    @pl.inline
    def alloc(nbytes):
        return pld.tensor.alloc_window_buffer(nbytes, name="buf")

    alias = twice

    with context():
        @pl.program
        class Seed:
            @pl.function(type=pl.FunctionType.Orchestration)
            def chip(self, v: pld.DistributedTensor[[SIZE], pl.FP32]) -> pld.DistributedTensor[[SIZE], pl.FP32]:
                return v

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def main(self):
                buf = alloc(alias(SIZE) * 4)
                for r in pl.range(2):
                    self.chip(window_of(buf, twice(32)), device=r)
