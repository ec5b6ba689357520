# Every MaterializeCommDomainScopes error code, as the error materialize-comm-domain-scopes
# reports at the expression concerned (the cases of tests/corpus/host/*_err_*.py, one per chunk):
# pypto's own text, prefix included, then the refusal code in brackets. A program with an error is refused whole: the pass
# fails and nothing is printed for its chunk; the dry run refuses the same way.
#
# RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null --materialize-comm-domain-scopes
# RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null \
# RUN:   --pass-pipeline='host.program(materialize-comm-domain-scopes{dry-run=true})'
# RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null --materialize-comm-domain-scopes-dry-run
#
# Without --verify-diagnostics: exit 1, and every chunk's output is empty.
# RUN: grep -v 'expected-' %s > %t.py
# RUN: not neuronrw-opt %t.py --split-input-file --materialize-comm-domain-scopes 2>/dev/null \
# RUN:   | sed '/^# -----$/d' | count 0

@pl.program
class BadAllocCall:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        # expected-error@+1 {{MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer expects exactly one arg (size) [bad_alloc_call]}}
        a = pld.tensor.alloc_window_buffer(64, 128, name="a")
        # expected-error@+1 {{MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer missing 'name' kwarg [bad_alloc_call]}}
        b = pld.tensor.alloc_window_buffer(64, name="")
        c = pld.tensor.alloc_window_buffer(64, name="c")
        cv = pld.tensor.window(c, [16], dtype=pl.FP32)
        self.chip(cv, device=0)

# -----

@pl.program
class AllocNotBound:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        # expected-error@+1 {{MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer must appear as the RHS of a simple assignment (its result must be bound to a named variable) [bad_alloc_call]}}
        pld.alloc_window_buffer(64)
        # expected-error@+1 {{MaterializeCommDomainScopes: pld.tensor.put is a communication API this pass does not model: the comm domains inferred without it could be wrong (allow-unmodeled-comm-apis=true materializes anyway) [unmodeled_comm_api]}}
        pld.tensor.put(1, 2)
        c = pld.alloc_window_buffer(64)
        cv = pld.window(c, [16], dtype=pl.FP32)
        self.chip(cv, device=0)

# -----

@pl.program
class BadArithmetic:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        # expected-error@+1 {{MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer 'neg' size is -64 bytes; a window buffer size must be non-negative [bad_arithmetic]}}
        neg = pld.alloc_window_buffer(16 - 80)
        n = 0
        # expected-error@+1 {{MaterializeCommDomainScopes: division by zero in '//' (64 // 0) [bad_arithmetic]}}
        zero = pld.alloc_window_buffer(64 // n)
        # expected-error@+1 {{MaterializeCommDomainScopes: integer overflow in '*' (4611686018427387904 * 4) [bad_arithmetic]}}
        big = pld.alloc_window_buffer(4611686018427387904 * 4)
        c = pld.alloc_window_buffer(64)
        cv = pld.window(c, [16], dtype=pl.FP32)
        for r in pl.range(2 * n + 2 // n):
            self.chip(cv, device=r)

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
        # expected-error@+1 {{MaterializeCommDomainScopes: device= expression must be ConstInt or the induction var of pl.range; got an unsupported expression [unsupported_device]}}
        self.chip(v, device=pld.system.rank())
        # expected-error@+1 {{MaterializeCommDomainScopes: device= ConstInt must be non-negative, got -1 [unsupported_device]}}
        self.chip(v, device=-1)
        r = 3
        # expected-error@+1 {{MaterializeCommDomainScopes: device= Var is not the induction variable of any enclosing pl.range loop [unsupported_device]}}
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
            # expected-error@+1 {{MaterializeCommDomainScopes: device=r over a non-unit-step loop is not supported (step=2) [non_unit_step]}}
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
            # expected-error@+1 {{pld.tensor.all_to_all_v is not supported inside a for/while loop in a HOST orchestrator.}}
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
        # expected-error@+1 {{MaterializeCommDomainScopes: pld.tensor.allreduce expects exactly two args [bad_collective_call]}}
        y1 = pld.tensor.allreduce(v, s, v)
        # expected-error@+1 {{MaterializeCommDomainScopes: pld.tensor.broadcast data/target must be a window view Var [bad_collective_call]}}
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
        # expected-error@+1 {{MaterializeCommDomainScopes: collective data/target buffer has no inferred comm-domain coverage to share with its signal buffer [no_coverage_to_share]}}
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
        # expected-error@+1 {{MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer 'dead' has no pld.tensor.window materialisation (dead allocation) [dead_allocation]}}
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
        # expected-error@+1 {{MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer 'buf' is not consumed by any chip_orch dispatch [unconsumed_allocation]}}
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
        # expected-error@+1 {{MaterializeCommDomainScopes: pld.tensor.window result Var should have DistributedTensorType [untyped_view]}}
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
        # expected-error@+1 {{MaterializeCommDomainScopes: comm domain of 'buf' covers 2000000 devices; at most 1048576 can be listed [too_many_devices]}}
        buf = pld.tensor.alloc_window_buffer(64, name="buf")
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        for r in pl.range(2000000):
            self.chip(v, device=r)

# -----

# Each domain is under max_listed_devices, together they are over max_total_listed_devices.
@pl.program
class TooManyDevicesInAll:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        a = pld.tensor.alloc_window_buffer(64, name="a")
        va = pld.tensor.window(a, [16], dtype=pl.FP32)
        # expected-error@+1 {{MaterializeCommDomainScopes: comm domain of 'b' lists 600001 devices after 600000 in the program's other comm domains; at most 1048576 can be listed in all [too_many_devices]}}
        b = pld.tensor.alloc_window_buffer(64, name="b")
        vb = pld.tensor.window(b, [16], dtype=pl.FP32)
        for r in pl.range(600000):
            self.chip(va, device=r)
        for r2 in pl.range(600001):
            self.chip(vb, device=r2)

# -----

# 65 allocations on 65 different devices: 65 nested comm domains, one more than
# max_scopes_per_function.
@pl.program
class TooManyScopes:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        b0 = pld.tensor.alloc_window_buffer(64, name="b0")
        v0 = pld.tensor.window(b0, [16], dtype=pl.FP32)
        self.chip(v0, device=0)
        b1 = pld.tensor.alloc_window_buffer(64, name="b1")
        v1 = pld.tensor.window(b1, [16], dtype=pl.FP32)
        self.chip(v1, device=1)
        b2 = pld.tensor.alloc_window_buffer(64, name="b2")
        v2 = pld.tensor.window(b2, [16], dtype=pl.FP32)
        self.chip(v2, device=2)
        b3 = pld.tensor.alloc_window_buffer(64, name="b3")
        v3 = pld.tensor.window(b3, [16], dtype=pl.FP32)
        self.chip(v3, device=3)
        b4 = pld.tensor.alloc_window_buffer(64, name="b4")
        v4 = pld.tensor.window(b4, [16], dtype=pl.FP32)
        self.chip(v4, device=4)
        b5 = pld.tensor.alloc_window_buffer(64, name="b5")
        v5 = pld.tensor.window(b5, [16], dtype=pl.FP32)
        self.chip(v5, device=5)
        b6 = pld.tensor.alloc_window_buffer(64, name="b6")
        v6 = pld.tensor.window(b6, [16], dtype=pl.FP32)
        self.chip(v6, device=6)
        b7 = pld.tensor.alloc_window_buffer(64, name="b7")
        v7 = pld.tensor.window(b7, [16], dtype=pl.FP32)
        self.chip(v7, device=7)
        b8 = pld.tensor.alloc_window_buffer(64, name="b8")
        v8 = pld.tensor.window(b8, [16], dtype=pl.FP32)
        self.chip(v8, device=8)
        b9 = pld.tensor.alloc_window_buffer(64, name="b9")
        v9 = pld.tensor.window(b9, [16], dtype=pl.FP32)
        self.chip(v9, device=9)
        b10 = pld.tensor.alloc_window_buffer(64, name="b10")
        v10 = pld.tensor.window(b10, [16], dtype=pl.FP32)
        self.chip(v10, device=10)
        b11 = pld.tensor.alloc_window_buffer(64, name="b11")
        v11 = pld.tensor.window(b11, [16], dtype=pl.FP32)
        self.chip(v11, device=11)
        b12 = pld.tensor.alloc_window_buffer(64, name="b12")
        v12 = pld.tensor.window(b12, [16], dtype=pl.FP32)
        self.chip(v12, device=12)
        b13 = pld.tensor.alloc_window_buffer(64, name="b13")
        v13 = pld.tensor.window(b13, [16], dtype=pl.FP32)
        self.chip(v13, device=13)
        b14 = pld.tensor.alloc_window_buffer(64, name="b14")
        v14 = pld.tensor.window(b14, [16], dtype=pl.FP32)
        self.chip(v14, device=14)
        b15 = pld.tensor.alloc_window_buffer(64, name="b15")
        v15 = pld.tensor.window(b15, [16], dtype=pl.FP32)
        self.chip(v15, device=15)
        b16 = pld.tensor.alloc_window_buffer(64, name="b16")
        v16 = pld.tensor.window(b16, [16], dtype=pl.FP32)
        self.chip(v16, device=16)
        b17 = pld.tensor.alloc_window_buffer(64, name="b17")
        v17 = pld.tensor.window(b17, [16], dtype=pl.FP32)
        self.chip(v17, device=17)
        b18 = pld.tensor.alloc_window_buffer(64, name="b18")
        v18 = pld.tensor.window(b18, [16], dtype=pl.FP32)
        self.chip(v18, device=18)
        b19 = pld.tensor.alloc_window_buffer(64, name="b19")
        v19 = pld.tensor.window(b19, [16], dtype=pl.FP32)
        self.chip(v19, device=19)
        b20 = pld.tensor.alloc_window_buffer(64, name="b20")
        v20 = pld.tensor.window(b20, [16], dtype=pl.FP32)
        self.chip(v20, device=20)
        b21 = pld.tensor.alloc_window_buffer(64, name="b21")
        v21 = pld.tensor.window(b21, [16], dtype=pl.FP32)
        self.chip(v21, device=21)
        b22 = pld.tensor.alloc_window_buffer(64, name="b22")
        v22 = pld.tensor.window(b22, [16], dtype=pl.FP32)
        self.chip(v22, device=22)
        b23 = pld.tensor.alloc_window_buffer(64, name="b23")
        v23 = pld.tensor.window(b23, [16], dtype=pl.FP32)
        self.chip(v23, device=23)
        b24 = pld.tensor.alloc_window_buffer(64, name="b24")
        v24 = pld.tensor.window(b24, [16], dtype=pl.FP32)
        self.chip(v24, device=24)
        b25 = pld.tensor.alloc_window_buffer(64, name="b25")
        v25 = pld.tensor.window(b25, [16], dtype=pl.FP32)
        self.chip(v25, device=25)
        b26 = pld.tensor.alloc_window_buffer(64, name="b26")
        v26 = pld.tensor.window(b26, [16], dtype=pl.FP32)
        self.chip(v26, device=26)
        b27 = pld.tensor.alloc_window_buffer(64, name="b27")
        v27 = pld.tensor.window(b27, [16], dtype=pl.FP32)
        self.chip(v27, device=27)
        b28 = pld.tensor.alloc_window_buffer(64, name="b28")
        v28 = pld.tensor.window(b28, [16], dtype=pl.FP32)
        self.chip(v28, device=28)
        b29 = pld.tensor.alloc_window_buffer(64, name="b29")
        v29 = pld.tensor.window(b29, [16], dtype=pl.FP32)
        self.chip(v29, device=29)
        b30 = pld.tensor.alloc_window_buffer(64, name="b30")
        v30 = pld.tensor.window(b30, [16], dtype=pl.FP32)
        self.chip(v30, device=30)
        b31 = pld.tensor.alloc_window_buffer(64, name="b31")
        v31 = pld.tensor.window(b31, [16], dtype=pl.FP32)
        self.chip(v31, device=31)
        b32 = pld.tensor.alloc_window_buffer(64, name="b32")
        v32 = pld.tensor.window(b32, [16], dtype=pl.FP32)
        self.chip(v32, device=32)
        b33 = pld.tensor.alloc_window_buffer(64, name="b33")
        v33 = pld.tensor.window(b33, [16], dtype=pl.FP32)
        self.chip(v33, device=33)
        b34 = pld.tensor.alloc_window_buffer(64, name="b34")
        v34 = pld.tensor.window(b34, [16], dtype=pl.FP32)
        self.chip(v34, device=34)
        b35 = pld.tensor.alloc_window_buffer(64, name="b35")
        v35 = pld.tensor.window(b35, [16], dtype=pl.FP32)
        self.chip(v35, device=35)
        b36 = pld.tensor.alloc_window_buffer(64, name="b36")
        v36 = pld.tensor.window(b36, [16], dtype=pl.FP32)
        self.chip(v36, device=36)
        b37 = pld.tensor.alloc_window_buffer(64, name="b37")
        v37 = pld.tensor.window(b37, [16], dtype=pl.FP32)
        self.chip(v37, device=37)
        b38 = pld.tensor.alloc_window_buffer(64, name="b38")
        v38 = pld.tensor.window(b38, [16], dtype=pl.FP32)
        self.chip(v38, device=38)
        b39 = pld.tensor.alloc_window_buffer(64, name="b39")
        v39 = pld.tensor.window(b39, [16], dtype=pl.FP32)
        self.chip(v39, device=39)
        b40 = pld.tensor.alloc_window_buffer(64, name="b40")
        v40 = pld.tensor.window(b40, [16], dtype=pl.FP32)
        self.chip(v40, device=40)
        b41 = pld.tensor.alloc_window_buffer(64, name="b41")
        v41 = pld.tensor.window(b41, [16], dtype=pl.FP32)
        self.chip(v41, device=41)
        b42 = pld.tensor.alloc_window_buffer(64, name="b42")
        v42 = pld.tensor.window(b42, [16], dtype=pl.FP32)
        self.chip(v42, device=42)
        b43 = pld.tensor.alloc_window_buffer(64, name="b43")
        v43 = pld.tensor.window(b43, [16], dtype=pl.FP32)
        self.chip(v43, device=43)
        b44 = pld.tensor.alloc_window_buffer(64, name="b44")
        v44 = pld.tensor.window(b44, [16], dtype=pl.FP32)
        self.chip(v44, device=44)
        b45 = pld.tensor.alloc_window_buffer(64, name="b45")
        v45 = pld.tensor.window(b45, [16], dtype=pl.FP32)
        self.chip(v45, device=45)
        b46 = pld.tensor.alloc_window_buffer(64, name="b46")
        v46 = pld.tensor.window(b46, [16], dtype=pl.FP32)
        self.chip(v46, device=46)
        b47 = pld.tensor.alloc_window_buffer(64, name="b47")
        v47 = pld.tensor.window(b47, [16], dtype=pl.FP32)
        self.chip(v47, device=47)
        b48 = pld.tensor.alloc_window_buffer(64, name="b48")
        v48 = pld.tensor.window(b48, [16], dtype=pl.FP32)
        self.chip(v48, device=48)
        b49 = pld.tensor.alloc_window_buffer(64, name="b49")
        v49 = pld.tensor.window(b49, [16], dtype=pl.FP32)
        self.chip(v49, device=49)
        b50 = pld.tensor.alloc_window_buffer(64, name="b50")
        v50 = pld.tensor.window(b50, [16], dtype=pl.FP32)
        self.chip(v50, device=50)
        b51 = pld.tensor.alloc_window_buffer(64, name="b51")
        v51 = pld.tensor.window(b51, [16], dtype=pl.FP32)
        self.chip(v51, device=51)
        b52 = pld.tensor.alloc_window_buffer(64, name="b52")
        v52 = pld.tensor.window(b52, [16], dtype=pl.FP32)
        self.chip(v52, device=52)
        b53 = pld.tensor.alloc_window_buffer(64, name="b53")
        v53 = pld.tensor.window(b53, [16], dtype=pl.FP32)
        self.chip(v53, device=53)
        b54 = pld.tensor.alloc_window_buffer(64, name="b54")
        v54 = pld.tensor.window(b54, [16], dtype=pl.FP32)
        self.chip(v54, device=54)
        b55 = pld.tensor.alloc_window_buffer(64, name="b55")
        v55 = pld.tensor.window(b55, [16], dtype=pl.FP32)
        self.chip(v55, device=55)
        b56 = pld.tensor.alloc_window_buffer(64, name="b56")
        v56 = pld.tensor.window(b56, [16], dtype=pl.FP32)
        self.chip(v56, device=56)
        b57 = pld.tensor.alloc_window_buffer(64, name="b57")
        v57 = pld.tensor.window(b57, [16], dtype=pl.FP32)
        self.chip(v57, device=57)
        b58 = pld.tensor.alloc_window_buffer(64, name="b58")
        v58 = pld.tensor.window(b58, [16], dtype=pl.FP32)
        self.chip(v58, device=58)
        b59 = pld.tensor.alloc_window_buffer(64, name="b59")
        v59 = pld.tensor.window(b59, [16], dtype=pl.FP32)
        self.chip(v59, device=59)
        b60 = pld.tensor.alloc_window_buffer(64, name="b60")
        v60 = pld.tensor.window(b60, [16], dtype=pl.FP32)
        self.chip(v60, device=60)
        b61 = pld.tensor.alloc_window_buffer(64, name="b61")
        v61 = pld.tensor.window(b61, [16], dtype=pl.FP32)
        self.chip(v61, device=61)
        b62 = pld.tensor.alloc_window_buffer(64, name="b62")
        v62 = pld.tensor.window(b62, [16], dtype=pl.FP32)
        self.chip(v62, device=62)
        b63 = pld.tensor.alloc_window_buffer(64, name="b63")
        v63 = pld.tensor.window(b63, [16], dtype=pl.FP32)
        self.chip(v63, device=63)
        # expected-error@+1 {{MaterializeCommDomainScopes: comm domain of 'b64' would be comm domain 65 of 'main'; at most 64 can nest in one function [too_many_scopes]}}
        b64 = pld.tensor.alloc_window_buffer(64, name="b64")
        v64 = pld.tensor.window(b64, [16], dtype=pl.FP32)
        self.chip(v64, device=64)

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
        # expected-error@+1 {{MaterializeCommDomainScopes: duplicate allocation name 'buf' within the same comm domain [duplicate_name]}}
        buf2 = pld.tensor.alloc_window_buffer(64, name="buf")
        v2 = pld.tensor.window(buf2, [16], dtype=pl.FP32)
        self.chip(v, device=0)
        self.chip(v2, device=0)

# -----

@pl.program
class ShapeFormKept:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        # The text reader makes the byte form of pypto's shape form; the recorded form keeps it.
        # expected-error@+1 {{MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer shape form ([dims], dtype=...) is not supported here: give the size in bytes [bad_alloc_call]}}
        buf = pl._dump.call("pld.tensor.alloc_window_buffer", [[16]], pl.Ptr, kwargs={"dtype": pl.FP32, "name": "buf"})
        v = pld.tensor.window(buf, [16], dtype=pl.FP32)
        self.chip(v, device=0)
