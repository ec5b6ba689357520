# Every MaterializeCommDomainScopes error code, as the error materialize-comm-domain-scopes
# reports at the expression concerned (the cases of tests/corpus/host/*_err_*.py, one per chunk,
# with pypto's wording after the code). A program with an error is refused whole: the pass
# fails and nothing is printed for its chunk; the dry run refuses the same way.
#
# RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null --materialize-comm-domain-scopes
# RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null \
# RUN:   --pass-pipeline='host.program(materialize-comm-domain-scopes{dry-run=true})'
# RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null --materialize-comm-domain-scopes-dry-run
#
# Without --verify-diagnostics: exit 1, and every chunk's output is empty.
# RUN: grep -v 'expected-' %s > %t.py
# RUN: exit-code 1 neuronrw-opt %t.py --split-input-file --materialize-comm-domain-scopes 2>/dev/null \
# RUN:   | sed '/^# -----$/d' | count 0

@pl.program
class BadAllocCall:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        # expected-error@+1 {{materialize-comm-domain-scopes: bad_alloc_call: pld.tensor.alloc_window_buffer expects exactly one arg (size)}}
        a = pld.tensor.alloc_window_buffer(64, 128, name="a")
        # expected-error@+1 {{materialize-comm-domain-scopes: bad_alloc_call: pld.tensor.alloc_window_buffer missing 'name' kwarg}}
        b = pld.tensor.alloc_window_buffer(64)
        c = pld.tensor.alloc_window_buffer(64, name="c")
        cv = pld.tensor.window(c, [16], dtype=pl.FP32)
        self.chip(cv, device=0)

# -----

@pl.program
class UnsupportedDevice:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        # expected-error@+1 {{materialize-comm-domain-scopes: unsupported_device: device= expression must be ConstInt or the induction var of pl.range; got an unsupported expression}}
        self.chip(v, device=pld.system.rank())
        # expected-error@+1 {{materialize-comm-domain-scopes: unsupported_device: device= ConstInt must be non-negative, got -1}}
        self.chip(v, device=-1)
        r = 3
        # expected-error@+1 {{materialize-comm-domain-scopes: unsupported_device: device= Var is not the induction variable of any enclosing pl.range loop}}
        self.chip(v, device=r)

# -----

@pl.program
class NonUnitStep:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        for r in pl.range(0, 8, 2):
            # expected-error@+1 {{materialize-comm-domain-scopes: non_unit_step: device=r over a non-unit-step loop is not supported (step=2)}}
            self.chip(v, device=r)

# -----

@pl.program
class CollectiveInLoop:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        t = pld.tensor.alloc_window_buffer(64, name="t")
        tv = pld.tensor.window(t, [16], dtype=pl.FP32)
        sg = pld.tensor.alloc_window_buffer(64, name="sg")
        sv = pld.tensor.window(sg, [16], dtype=pl.FP32)
        rc = pld.tensor.alloc_window_buffer(64, name="rc")
        rv = pld.tensor.window(rc, [16], dtype=pl.FP32)
        flag = True
        for r in pl.range(pld.system.world_size()):
            self.chip(tv, device=r)
        while flag:
            # expected-error@+1 {{materialize-comm-domain-scopes: collective_in_loop: pld.tensor.all_to_all_v is not supported inside a for/while loop in a HOST orchestrator.}}
            x = pld.tensor.all_to_all_v(tv, tv, sv, tv, rv)

# -----

@pl.program
class BadCollectiveCall:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        sig = pld.tensor.alloc_window_buffer(64, name="sig")
        s = pld.tensor.window(sig, [16], dtype=pl.FP32)
        self.chip(v, device=0)
        # expected-error@+1 {{materialize-comm-domain-scopes: bad_collective_call: pld.tensor.allreduce expects exactly two args}}
        y1 = pld.tensor.allreduce(v, s, v)
        # expected-error@+1 {{materialize-comm-domain-scopes: bad_collective_call: pld.tensor.broadcast data/target must be a window view Var}}
        y2 = pld.tensor.broadcast(3, s)

# -----

@pl.program
class NoCoverageToShare:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        sig = pld.tensor.alloc_window_buffer(64, name="sig")
        s = pld.tensor.window(sig, [16], dtype=pl.FP32)
        # expected-error@+1 {{materialize-comm-domain-scopes: no_coverage_to_share: collective data/target buffer has no inferred comm-domain coverage to share with its signal buffer}}
        y = pld.tensor.allreduce(v, s)

# -----

@pl.program
class DeadAllocation:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        # expected-error@+1 {{materialize-comm-domain-scopes: dead_allocation: pld.tensor.alloc_window_buffer 'dead' has no pld.tensor.window materialisation (dead allocation)}}
        dead = pld.tensor.alloc_window_buffer(8, name="dead")
        self.chip(v, device=0)

# -----

@pl.program
class UnconsumedAllocation:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        # expected-error@+1 {{materialize-comm-domain-scopes: unconsumed_allocation: pld.tensor.alloc_window_buffer 'buf' is not consumed by any chip_orch dispatch}}
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        self.chip(v)

# -----

@pl.program
class UntypedView:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        # expected-error@+1 {{materialize-comm-domain-scopes: untyped_view: pld.tensor.window result Var should have DistributedTensorType}}
        v = pld.tensor.window(buf, [16])
        self.chip(v, device=0)

# -----

@pl.program
class TooManyDevices:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        # expected-error@+1 {{materialize-comm-domain-scopes: too_many_devices: comm domain of 'buf' covers 2000000 devices; at most 1048576 can be listed}}
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        for r in pl.range(2000000):
            self.chip(v, device=r)

# -----

@pl.program
class DuplicateName:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        # expected-error@+1 {{materialize-comm-domain-scopes: duplicate_name: duplicate allocation name 'buf' within the same comm domain}}
        buf2 = pld.tensor.alloc_window_buffer(64, name="buf")
        v2 = pld.tensor.window(buf2, [16], dtype=pl.FP32)
        self.chip(v, device=0)
        self.chip(v2, device=0)
