# A four-stage pipeline on devices 0..3: stage i sends its activations to stage i+1 through a
# window shared by that pair of devices only, and every stage reads one schedule table.
# Each distinct device set becomes its own comm domain. Run:
#   neuronrw-opt --materialize-comm-domain-scopes examples/host/pipeline.py
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Pipeline:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def load_schedule(self, schedule: pld.DistributedTensor[[16], pl.INT32]):
        return schedule

    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def first_stage(self, schedule: pld.DistributedTensor[[16], pl.INT32], send: pld.DistributedTensor[[64, 512], pl.BF16]):
        return send

    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def stage(self, schedule: pld.DistributedTensor[[16], pl.INT32], recv: pld.DistributedTensor[[64, 512], pl.BF16], send: pld.DistributedTensor[[64, 512], pl.BF16]):
        return send

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        table_buf = pld.tensor.alloc_window_buffer(64, name="table_buf")
        table = pld.tensor.window(table_buf, [16], dtype=pl.INT32)
        act01_buf = pld.tensor.alloc_window_buffer(65536, name="act01_buf")
        act01 = pld.tensor.window(act01_buf, [64, 512], dtype=pl.BF16)
        act12_buf = pld.tensor.alloc_window_buffer(65536, name="act12_buf")
        act12 = pld.tensor.window(act12_buf, [64, 512], dtype=pl.BF16)
        act23_buf = pld.tensor.alloc_window_buffer(65536, name="act23_buf")
        act23 = pld.tensor.window(act23_buf, [64, 512], dtype=pl.BF16)
        for r in pl.range(4):
            self.load_schedule(table, device=r)
        self.first_stage(table, act01, device=0)
        self.stage(table, act01, act12, device=1)
        self.stage(table, act12, act23, device=2)
        self.stage(table, act23, act23, device=3)
