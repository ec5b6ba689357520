# Tensor-parallel MLP step: every rank runs the chip orchestrator on its shard, then the partial
# outputs are summed with a host-level allreduce. Run:
#   neuronrw-opt --materialize-comm-domain-scopes examples/host/tp_allreduce.py
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class TensorParallelMLP:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def mlp_shard(self, x: pl.Tensor[[128, 1024], pl.BF16], out: pld.DistributedTensor[[128, 1024], pl.FP32]):
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[128, 1024], pl.BF16]):
        n = pld.system.world_size()
        partial_buf = pld.tensor.alloc_window_buffer(524288, name="partial_buf")
        partial = pld.tensor.window(partial_buf, [128, 1024], dtype=pl.FP32)
        signal_buf = pld.tensor.alloc_window_buffer(256, name="signal_buf")
        signal = pld.tensor.window(signal_buf, [64], dtype=pl.INT32)
        for r in pl.range(n):
            self.mlp_shard(x, partial, device=r)
        summed = pld.tensor.allreduce(partial, signal)
        return summed
