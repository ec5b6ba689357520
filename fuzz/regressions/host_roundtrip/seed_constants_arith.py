# Seed (fuzz_host_roundtrip): module constants evaluated with Python's // and % (negative operands
# included), unary minus, parentheses that are needed and ones that are not, get_byte() of several
# dtypes, tuples, and shape dimensions that are integer expressions.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 256
HALF = SIZE // 2
NEG_FLOOR = -7 // 2
NEG_MOD = -7 % 2
MOD_NEG = 7 % -2
BYTES = pl.BF16.get_byte() * (SIZE + 1) - 2
PAREN = -(HALF - 1) * 3 % 5
BIG = 9223372036854775807 // -1


@pl.program
class Arithmetic:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self, n: pl.Scalar[pl.INDEX], t: pl.Tensor[[pld.world_size(), SIZE // 4, n * 2, (n)], pl.FP32]):
        a = n + HALF * 2
        b = (n + HALF) * 2
        c = n - (n - 1)
        d = -n * -3
        e = (a, b, (c,), ())
        buf = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())
        v = pld.window(buf, [pld.world_size(), SIZE // pl.INT8.get_byte()], dtype=pl.FP32)
        for i in pl.range(-(n // 2), n % 3 + 1, 2):
            pl.op.touch(v, i, e)
        return a, d % -4
