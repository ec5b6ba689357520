# Every SynthesizeAllReduceSignals refusal, as pypto raises it (its own text, no prefix), located at
# the allreduce, the code trailing in brackets. A refused program is unchanged: the pass fails and
# nothing is printed; the dry run refuses the same way.
#
# RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null --synthesize-allreduce-signals
# RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null --synthesize-allreduce-signals-dry-run
# RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null \
# RUN:   --pass-pipeline='host.program(synthesize-allreduce-signals,materialize-comm-domain-scopes)'
#
# Without --verify-diagnostics: exit 1, and every chunk's output is empty.
# RUN: grep -v 'expected-' %s > %t.py
# RUN: not neuronrw-opt %t.py --split-input-file --synthesize-allreduce-signals 2>/dev/null \
# RUN:   | sed '/^# -----$/d' | count 0
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Arity:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, t: pld.DistributedTensor[[64], pl.FP32]):
        fine = pld.tensor.allreduce(t)  # planned: a refused program is still left unchanged
        # expected-error@+1 {{pld.tensor.allreduce expects target[, signal], got 3 positional arguments [bad_arity]}}
        a = pld.tensor.allreduce(t, t, t)
        # expected-error@+1 {{pld.tensor.allreduce expects target[, signal], got 0 positional arguments [bad_arity]}}
        pld.tensor.allreduce(op=pld.ReduceOp.Sum)
        return a, fine

# -----
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class CoreNum:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, t: pld.DistributedTensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]):
        # expected-error@+1 {{SynthesizeAllReduceSignals requires a positive allreduce core_num [bad_core_num]}}
        a = pld.tensor.allreduce(t, core_num=0)
        # expected-error@+1 {{SynthesizeAllReduceSignals requires a positive allreduce core_num [bad_core_num]}}
        b = pld.tensor.allreduce(a, core_num=n)
        return b

# -----
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Loops:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, t: pld.DistributedTensor[[64], pl.FP32]):
        for i in pl.range(4):
            # expected-error@+1 {{pld.tensor.allreduce without an explicit signal is not supported inside a for/while loop on the HOST rail: the synthesized signal binding cannot be allocated per dynamic iteration. Pass an explicit signal buffer — it is self-clearing and reusable across iterations — or hoist the call out of the loop. [implicit_in_loop]}}
            t = pld.tensor.allreduce(t)
        # expected-error@+1 {{pld.tensor.allreduce must be a direct assignment, expression statement, or return value before allreduce signal synthesis. [nested]}}
        pair = (pld.tensor.allreduce(t), 1)
        return pair
