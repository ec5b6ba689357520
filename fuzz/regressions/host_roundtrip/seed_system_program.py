# Seed (fuzz_host_roundtrip): a program as pypto's system tests write one: a class docstring, an
# InCore kernel the grammar does not read (kept as written: `!=`, hex and float literals, a raw
# string, a line continuation, attrs=), a chip orchestrator with a docstring, and a host
# orchestrator over a dynamic dimension with per-rank subscripts.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 16
NR = pl.dynamic("NR")


def build():
    @pl.program
    class Sys:
        """A system program."""

        @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
        def step(self, x: pl.Tensor[[1, SIZE], pl.FP32], t: pl.Tile[[1, SIZE], pl.FP32]) -> pl.Tensor[[1, SIZE], pl.FP32]:
            if pld.rank(x) != 0 and 0x1F:
                t = pl.mul(t, 1.5e-3)
            s = r"\d" + \
                "x"
            return pl.store(t, [0, 0], x)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(self, x: pl.Tensor[[1, SIZE], pl.FP32], w: pld.DistributedTensor[[NR, SIZE], pl.FP32]):
            """Per device."""
            return self.step(x, x)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host_orch(self, inputs: pl.Tensor[[2, NR, 1, SIZE], pl.FP32]):
            buf = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())
            for rd in pl.range(2):
                for r in pl.range(pld.world_size()):
                    w = pld.window(buf, [NR, SIZE], dtype=pl.FP32)
                    self.chip(inputs[rd, r], w, device=r)
            return inputs[0][0,]

    return Sys
