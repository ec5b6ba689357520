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
# pypto's DSL also leaves out `name=`: an allocation is named after its assignment target
# (`buf = pld.alloc_window_buffer(1024)`). The same programs written that way as well materialize
# to the same program as the long spelling does (after the same rewriting), and print back without
# a name.
# DEFINE: %{dsl} = sed -e 's/pld\.tensor\.alloc_window_buffer/pld.alloc_window_buffer/g' -e 's/pld\.tensor\.window/pld.window/g' -e 's/pld\.system\.world_size/pld.world_size/g' -e 's/\([A-Za-z_][A-Za-z_0-9]*\) = \(pld\.alloc_window_buffer(.*\), name="\1")/\1 = \2)/'
# RUN: %{dsl} %examples/host/moe_dispatch.py > %t.moe.dsl.py
# RUN: not grep -n 'name=' %t.moe.dsl.py
# RUN: neuronrw-opt --materialize-comm-domain-scopes %examples/host/moe_dispatch.py | %{dsl} > %t.moe.dsl.expected
# RUN: neuronrw-opt --materialize-comm-domain-scopes %t.moe.dsl.py | diff %t.moe.dsl.expected -
# RUN: neuronrw-opt %t.moe.dsl.py | FileCheck %s --check-prefix=DSL --implicit-check-not=name=
# DSL: tokens_buf = pld.alloc_window_buffer(8388608){{$}}
# DSL: recv_buf = pld.alloc_window_buffer(16777216){{$}}
# DSL: signal_buf = pld.alloc_window_buffer(256){{$}}
# DSL: send_counts_buf = pld.alloc_window_buffer(256){{$}}
# DSL: recv_counts_buf = pld.alloc_window_buffer(256){{$}}
# RUN: %{dsl} %examples/host/pipeline.py > %t.pipe.dsl.py
# RUN: not grep -n 'name=' %t.pipe.dsl.py
# RUN: neuronrw-opt --materialize-comm-domain-scopes %examples/host/pipeline.py | %{dsl} > %t.pipe.dsl.expected
# RUN: neuronrw-opt --materialize-comm-domain-scopes %t.pipe.dsl.py | diff %t.pipe.dsl.expected -
# RUN: %{dsl} %examples/host/tp_allreduce.py > %t.tp.dsl.py
# RUN: not grep -n 'name=' %t.tp.dsl.py
# RUN: neuronrw-opt --materialize-comm-domain-scopes %examples/host/tp_allreduce.py | %{dsl} > %t.tp.dsl.expected
# RUN: neuronrw-opt --materialize-comm-domain-scopes %t.tp.dsl.py | diff %t.tp.dsl.expected -
#
# The warning, located at the call; the program still reads and prints (exit 0).
# RUN: neuronrw-opt %s 2>&1 >/dev/null | FileCheck %s
# CHECK: host_dsl_spellings.py:[[# @LINE + 10]]:13: warning: 'pld.tensor.scatter' is not an op the host reader knows: it stays an opaque call, and no pass sees an allocation, a window or a collective in it (known: pld.tensor.alloc_window_buffer (pld.alloc_window_buffer), pld.tensor.window (pld.window), pld.system.world_size (pld.world_size), pld.system.get_comm_ctx (pld.get_comm_ctx), pld.system.nranks (pld.nranks), pld.system.rank (pld.rank), pld.tile.remote_load (pld.remote_load), pld.tensor.allreduce, pld.tensor.broadcast, pld.tensor.reduce_scatter, pld.tensor.allgather, pld.tensor.all_to_all, pld.tensor.all_to_all_v, pld.tensor.barrier, pld.remote_store, pld.tensor.remote_store, pld.tile.remote_store, pld.tensor.put, pld.tensor.get, pld.tile.put, pld.tile.get, pld.system.notify, pld.system.wait, pld.system.defer_wait)
# CHECK-NOT: warning

@pl.program
class Spellings:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        n = pld.world_size()
        buf = pld.alloc_window_buffer(4096, name="buf")
        view = pld.window(buf, [1024], dtype=pl.FP32)
        x = pld.tensor.scatter(view, 1)
        return n
