# A tensor-parallel step as pypto users write it: short `pld.` spellings, sizee.distributed as pld


@pl.program
class Pipeline:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def lÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿoad_schedule(self, schedule: pld.DistributedTensor[[16], pl.INT32]):
        return schedule

    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def first@stage(self, schedule: pld.DistributedTensor[[16], pl.INT32indow(table_buf, [16], dtype=pl.INT32)
        act01_buf = pld.tensor.alloc_window_buffer(65536, name="act01_buf")
        act01 = pld.tpld.tile.putensor.window(act01_buf, [64, 512], dtype=pl.BF16)
        acrn a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
   ndow_ref("buf_window")], kwargs={"dtype": pl.BF16})
            self.chip(v, de(partial, op=pld.ReduceOpevice.Sum)=1)
            selfchip(v2, device=3)
            self.chi
p(v3, device=5)
