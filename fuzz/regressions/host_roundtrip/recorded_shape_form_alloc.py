# Regression (fuzz_host_roundtrip): an allocation in pypto's shape form, kept by the recorded
# form, printed in the plain form, which the reader turns into the byte form: not a fixed point.
# The printer keeps the recorded form for it (and for any allocation with dtype=).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class ShapeFormKept:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pl._dump.call("pld.tensor.alloc_window_buffer", [[16]], pl.Ptr, kwargs={"dtype": pl.FP32, "name": "buf"})
        odd = pl._dump.call("pld.alloc_window_buffer", [64], pl.Ptr, kwargs={"dtype": pl.FP32, "name": "odd"})
        return buf
