# Seed (fuzz_host_roundtrip, fuzz_comm_domain): pypto's JIT front end, one entry: a host
# orchestrator taking in a chip orchestrator, which takes in an inline helper and a kernel the
# grammar does not read (kept as written, its calls qualified); constants, a dynamic dimension,
# the shape form of an allocation; a function that is not JIT, calling a JIT one.
import pypto.language as pl
import pypto.language.distributed as pld

ROWS = 2
COLS = pl.dynamic("COLS")


@pl.jit.incore(level=pl.Level.CHIP_DIE)
def copy_tile(src: pld.DistributedTensor[[ROWS, 16], pl.FP16], dst: pl.Out[pl.Tensor[[ROWS, 16], pl.FP16]]):
    pick = lambda t: t
    t = pl.load(pick(src), [0, 0], [ROWS, 16])
    return pl.store(t, [0, 0], dst)


@pl.jit.inline(auto_scope=False)
def forward(src: pld.DistributedTensor[[ROWS, 16], pl.FP16], dst: pl.Out[pl.Tensor[[ROWS, 16], pl.FP16]]):
    return copy_tile(src, dst)


@pl.jit
def per_device(src: pld.DistributedTensor[[ROWS, 16], pl.FP16], dst: pl.Out[pl.Tensor[[ROWS, 16], pl.FP16]], rank: pl.Scalar[pl.INT32]):
    return forward(src, dst)


@pl.jit.host(auto_scope=False)
def launch(dst: pl.Out[pl.Tensor[[4, ROWS, 16], pl.FP16]], cols: pl.Tensor[[COLS], pl.INT32]):
    buf = pld.alloc_window_buffer([ROWS, 16], dtype=pl.FP16)
    for r in pl.range(4):
        view = pld.window(buf, [ROWS, 16], dtype=pl.FP16)
        per_device(view, dst[r], r, device=r)


def helper_not_jit(x):
    return copy_tile(x, x)
