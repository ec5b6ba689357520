# Seed (fuzz_host_roundtrip): @pl.function(type=pl.FunctionType.X) with and without an agreeing
# level / role, pl.Out / pl.InOut parameters, tuple[...] return types, docstrings (triple-quoted,
# over several lines), and imports written several ways.
import pypto.language as pl
from pypto.language import distributed as pd
import pypto.language.distributed as pld
import os, numpy as np


@pl.program
class Kernels:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], acc: pl.InOut[pl.Tensor[[16], pl.FP32]]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16], pl.FP32]]:
        """Multiply-accumulate.

        Writes out, updates acc.
        """
        return out, acc

    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def graph(self, a: pl.Tensor[[16, 16], pl.FP16], o: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> tuple[pl.Tensor[[16, 16], pl.FP32], tuple[pl.Ptr, pl.Scalar[pl.INDEX]]]:
        '''Calls the kernel.'''
        r = self.kernel(a, o, o)
        return r, (pd.tensor.get(o), 1)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a):
        return a

    @pl.function(type=pl.FunctionType.AIV)
    def aiv(self):
        pass
