# Seed (fuzz_host_roundtrip, fuzz_comm_domain): examples/host/tp_allreduce.py in pypto's DSL as
# users write it: module constants, an alias of pypto.language.distributed, short spellings,
# allocations named after their targets, sizes as integer arithmetic with get_byte(), expression
# shape dimensions, a function type, pl.Out / pl.InOut parameters and a docstring.
import pypto.language as pl
import pypto.language.distributed as dist

ROWS = 128
COLS = 1024
BYTES = pl.FP32.get_byte()
PARTIAL_SIZE = ROWS * COLS * BYTES
SIGNALS = 64


@pl.program
class TensorParallelMLP:
    @pl.function(type=pl.FunctionType.Orchestration)
    def mlp_shard(self, x: pl.Tensor[[ROWS, COLS], pl.BF16], out: pl.Out[pld.DistributedTensor[[ROWS, COLS], pl.FP32]]):
        """One rank's shard of the MLP."""
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[ROWS, COLS], pl.BF16]):
        n = dist.world_size()
        partial_buf = dist.alloc_window_buffer(PARTIAL_SIZE)
        partial = dist.window(partial_buf, [ROWS, COLS], dtype=pl.FP32)
        signal_buf = dist.alloc_window_buffer(SIGNALS * pl.INT32.get_byte())
        signal = dist.window(signal_buf, [SIGNALS], dtype=pl.INT32)
        for r in pl.range(n):
            self.mlp_shard(x, partial, device=r)
        summed = dist.tensor.allreduce(partial, signal)
        return summed
