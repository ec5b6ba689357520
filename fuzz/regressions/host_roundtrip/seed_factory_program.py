# A program built in a factory: its parameters read as dynamic dimensions, constants over them too.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 16
n = 3


def _build(n: int, *, dtype=pl.FP32, tag: str = "a, (b"):
    nr = n
    rounds = 2 * (nr - 1) + n // 2

    def inner(dtype):
        @pl.program
        class Factory:
            @pl.function(type=pl.FunctionType.Orchestration)
            def chip(self, x: pl.Tensor[[nr, SIZE], pl.FP32]) -> pl.Tensor[[nr, SIZE], pl.FP32]:
                return x

            @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
            def host_orch(self, x: pl.Tensor[[rounds, nr, SIZE], pl.FP32]) -> pl.Tensor[[rounds, nr, SIZE], pl.FP32]:
                buf = pld.alloc_window_buffer(rounds * n * SIZE)
                for r in pl.range(pld.world_size()):
                    w = pld.window(buf, [rounds * n, SIZE], dtype=pl.FP32)
                    self.chip(x[0], device=r)
                return x

        return Factory

    return inner
