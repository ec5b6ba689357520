# A tensor-parallel step as pypto users write it: short `pld.` spellings, sizes in arithmetic, the
# allocation named by its assignment, an allreduce without its signal. pypto's pipeline order:
#   neuronrw-opt --pass-pipeline='host.program(synthesize-allreduce-signals,materialize-comm-domain-scopes)' \
#     examples/host/dsl_allreduce.py
import pypto.language as pl
import pypto.language.distributed as pld

ROWS = 128
COLS = 512


@pl.program
class DslAllReduce:
    @pl.function(type=pl.FunctionType.Orchestration)
    def shard(self, x: pl.Tensor[[ROWS, COLS], pl.BF16], out: pl.Out[pld.DistributedTensor[[ROWS, COLS], pl.FP32]]):
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[ROWS, COLS], pl.BF16]):
        partial_buf = pld.alloc_window_buffer(ROWS * COLS * pl.FP32.get_byte())
        partial = pld.window(partial_buf, [ROWS, COLS], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            self.shard(x, partial, device=r)
        return pld.tensor.allreduce(partial, op=pld.ReduceOp.Sum)
