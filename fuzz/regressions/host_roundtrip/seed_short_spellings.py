# Seed (fuzz_host_roundtrip, fuzz_comm_domain): pypto's short spellings pld.get_comm_ctx /
# pld.nranks / pld.rank / pld.remote_load next to the full ones, the pld ops the reader knows
# without modelling them (no warning), an allocation named after its target next to named ones,
# and pypto's communication-context type in its IR spelling (pld.CommCtxType).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Spellings:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, x: pld.DistributedTensor[[64], pl.FP32]):
        return x

    @pl.function
    def worker(self, x: pld.DistributedTensor[[64], pl.FP32], ctx: pld.CommCtxType):
        return pld.system.rank(ctx)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        ctx = pld.get_comm_ctx()
        n = pld.nranks()
        me = pld.rank()
        world = pld.system.world_size()
        buf = pld.alloc_window_buffer(256)
        named = pld.tensor.alloc_window_buffer(256, name="named")
        v = pld.window(buf, [64], dtype=pl.FP32)
        w = pld.tensor.window(named, [64], dtype=pl.FP32)
        for r in pl.range(world):
            self.chip(v, device=r)
            self.chip(w, device=(r + 1) % world)
        t = pld.remote_load(v, (me + 1) % n)
        pld.tensor.put(w, t)
        pld.system.notify(ctx)
        return pld.tensor.allgather(v, w)
