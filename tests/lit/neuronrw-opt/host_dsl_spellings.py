# pypto's short spellings (pld.alloc_window_buffer, pld.window, pld.world_size) are the same ops
# as the full ones: every program of examples/host/ written with them materializes to the same
# program (with its own spellings kept), and prints back as written. A `pld.` call the reader
# does not know is a located warning naming it, never silently ignored.
#
# DEFINE: %{short} = sed -e 's/pld\.tensor\.alloc_window_buffer/pld.alloc_window_buffer/g' -e 's/pld\.tensor\.window/pld.window/g' -e 's/pld\.system\.world_size/pld.world_size/g'
# RUN: %{short} %examples/host/moe_dispatch.py > %t.moe.py
# RUN: neuronrw-opt --materialize-comm-domain-scopes %examples/host/moe_dispatch.py | %{short} > %t.moe.expected
# RUN: neuronrw-opt --materialize-comm-domain-scopes %t.moe.py | diff %t.moe.expected -
# RUN: neuronrw-opt %t.moe.py | FileCheck %s --check-prefix=SHORT \
# RUN:   --implicit-check-not=pld.tensor.alloc_window_buffer --implicit-check-not=pld.tensor.window
# SHORT: pld.alloc_window_buffer(
# SHORT: pld.window(
# RUN: %{short} %examples/host/pipeline.py > %t.pipe.py
# RUN: neuronrw-opt --materialize-comm-domain-scopes %examples/host/pipeline.py | %{short} > %t.pipe.expected
# RUN: neuronrw-opt --materialize-comm-domain-scopes %t.pipe.py | diff %t.pipe.expected -
# RUN: %{short} %examples/host/tp_allreduce.py > %t.tp.py
# RUN: neuronrw-opt --materialize-comm-domain-scopes %examples/host/tp_allreduce.py | %{short} > %t.tp.expected
# RUN: neuronrw-opt --materialize-comm-domain-scopes %t.tp.py | diff %t.tp.expected -
#
# The warning, located at the call; the program still reads and prints (exit 0).
# RUN: neuronrw-opt %s 2>&1 >/dev/null | FileCheck %s
# CHECK: host_dsl_spellings.py:[[# @LINE + 10]]:13: warning: 'pld.tensor.put' is not an op the host reader knows: it stays an opaque call, and no pass sees an allocation, a window or a collective in it (known: pld.tensor.alloc_window_buffer (pld.alloc_window_buffer), pld.tensor.window (pld.window), pld.system.world_size (pld.world_size), pld.tensor.allreduce, pld.tensor.broadcast, pld.tensor.reduce_scatter, pld.tensor.allgather, pld.tensor.all_to_all, pld.tensor.all_to_all_v, pld.tensor.barrier)
# CHECK-NOT: warning

@pl.program
class Spellings:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        n = pld.world_size()
        buf = pld.alloc_window_buffer(4096, name="buf")
        view = pld.window(buf, [1024], dtype=pl.FP32)
        x = pld.tensor.put(view, 1)
        return n
