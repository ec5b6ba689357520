# Seed (fuzz_host_roundtrip, fuzz_comm_domain): dtypes and enum values: a module constant bound
# to a dtype, a factory's parameters whose defaults are a dtype and an enum value, constants
# bound to them, used in types, dtype= and op=.
import pypto.language as pl
import pypto.language.distributed as pld
import torch

ELEM = pl.INT32


def _build(dtype=pl.BF16, reduce_op: pld.ReduceOp = pld.ReduceOp.Max, torch_dtype=torch.float16):
    DTYPE = dtype
    OP = reduce_op

    @pl.program
    class AllReduce:
        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(self, data: pl.InOut[pld.DistributedTensor[[64], DTYPE]]) -> pld.DistributedTensor[[64], DTYPE]:
            return data

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host_orch(self, inputs: pl.Tensor[[4, 64], DTYPE]) -> pl.Tensor[[4, 64], DTYPE]:
            buf = pld.alloc_window_buffer([64], dtype=DTYPE)
            sig = pld.alloc_window_buffer([4], dtype=ELEM)
            for r in pl.range(pld.world_size()):
                data = pld.window(buf, [64], dtype=DTYPE)
                self.chip(data, device=r)
            signal = pld.window(sig, [4], dtype=ELEM)
            out = pld.tensor.allreduce(data, signal, op=OP)
            return inputs

    return AllReduce
