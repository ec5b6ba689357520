# Errors in a host program itself — the parser's, and the checker of MaterializeCommDomainScopes'
# output invariants that verifies every host program read (CommDomainScopesMaterialized) — are
# diagnostics like the passes': `#` comments carry the expectations, `# -----` splits the file,
# and the locations are the whole file's.
#
# RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null
# RUN: neuronrw-opt %s --input-kind=host --split-input-file --verify-diagnostics -o /dev/null --materialize-comm-domain-scopes
# RUN: sed -e 's|# *expected-.*$||' %s > %t.py
# RUN: not neuronrw-opt %t.py --split-input-file 2>&1 >/dev/null | FileCheck %s
# CHECK:      .py:25:9: error: CommDomainScopesMaterialized: CommDomainScopeStmt 'comm_d0' has no slots
# CHECK-NEXT: {{^}}        with pl._dump.comm_domain(name="comm_d0", devices=[], slots=[], attrs={}):
# CHECK-NEXT: {{^        \^$}}
# CHECK-NEXT: .py: note: chunk 1 of 3 (lines 1-28) failed
# CHECK-NEXT: .py:36:9: error: CommDomainScopesMaterialized: WindowBuffer 'buf' appears in multiple CommDomainScopeStmts ('comm_d0' and 'comm_d1')
# CHECK:      .py:47:10: error: '(' was never closed
# CHECK-NEXT: {{^}}    def f(self
# CHECK-NEXT: {{^         \^$}}
# CHECK-NEXT: .py: note: chunk 3 of 3 (lines 43-47) failed

@pl.program
class EmptyScope:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        # expected-error@+1 {{CommDomainScopesMaterialized: CommDomainScopeStmt 'comm_d0' has no slots — every comm-domain scope must carry at least one WindowBuffer}}
        with pl._dump.comm_domain(name="comm_d0", devices=[], slots=[], attrs={}):
            n = pld.system.world_size()
            return n

# -----

@pl.program
class SlotTwice:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        # expected-error@+1 {{CommDomainScopesMaterialized: WindowBuffer 'buf' appears in multiple CommDomainScopeStmts ('comm_d0' and 'comm_d1')}}
        pl._dump.window_buffer("w", base="buf", size=64, load_from_host=False, store_to_host=False)
        with pl._dump.comm_domain(name="comm_d0", devices=[], slots=[pl._dump.window_ref("w")], attrs={}):
            with pl._dump.comm_domain(name="comm_d1", devices=[], slots=[pl._dump.window_ref("w")], attrs={}):
                buf = pld.tensor.alloc_window_buffer(64, name="buf")
                return buf

# -----

@pl.program
class Unclosed:
    # expected-error@+1 {{'(' was never closed}}
    def f(self
