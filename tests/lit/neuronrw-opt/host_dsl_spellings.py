# pypto's short spellings (pld.alloc_window_buffer, pld.window, pld.world_size) are the same ops
# as the full ones: every program of examples/host/ written with them materializes to the same
# program (with its own spellings kept), and prints back as written. A `pld.` call the reader
# does not know is a located warning naming it, never silently ignored.
#
# Each program is materialized three ways: as shipped (long spellings), with the short spellings,
# and as pypto's DSL writes it (short spellings, no `name=`: an allocation is named after its
# assignment target, `buf = pld.alloc_window_buffer(1024)`). One prefix per program checks what the
# three share: the window buffers, the comm-domain scopes with their devices and slots, and every
# allocation (its spelling and `name=` left open). A prefix per way checks the spelling it keeps;
# --implicit-check-not refuses the other spellings anywhere in the output.
#
# DEFINE: %{short} = sed -e 's/pld\.tensor\.alloc_window_buffer/pld.alloc_window_buffer/g' -e 's/pld\.tensor\.window/pld.window/g' -e 's/pld\.system\.world_size/pld.world_size/g'
# DEFINE: %{dsl} = sed -e 's/pld\.tensor\.alloc_window_buffer/pld.alloc_window_buffer/g' -e 's/pld\.tensor\.window/pld.window/g' -e 's/pld\.system\.world_size/pld.world_size/g' -e 's/\([A-Za-z_][A-Za-z_0-9]*\) = \(pld\.alloc_window_buffer(.*\), name="\1")/\1 = \2)/'
# DEFINE: %{long-only} = --implicit-check-not=pld.alloc_window_buffer --implicit-check-not='"pld.window"' --implicit-check-not=pld.world_size
# DEFINE: %{short-only} = --implicit-check-not=pld.tensor.alloc_window_buffer --implicit-check-not=pld.tensor.window --implicit-check-not=pld.system.world_size
#
# RUN: %{short} %examples/host/moe_dispatch.py > %t.moe.py
# RUN: %{dsl} %examples/host/moe_dispatch.py > %t.moe.dsl.py
# RUN: FileCheck %s --check-prefix=DSL-IN --implicit-check-not=name= < %t.moe.dsl.py
# RUN: neuronrw-opt --materialize-comm-domain-scopes %examples/host/moe_dispatch.py | FileCheck %s --check-prefixes=MOE,MOE-LONG %{long-only}
# RUN: neuronrw-opt --materialize-comm-domain-scopes %t.moe.py | FileCheck %s --check-prefixes=MOE,MOE-SHORT %{short-only}
# RUN: neuronrw-opt --materialize-comm-domain-scopes %t.moe.dsl.py | FileCheck %s --check-prefixes=MOE,MOE-DSL %{short-only} --implicit-check-not=', name='
# DSL-IN: tokens_buf = pld.alloc_window_buffer(8388608)
# MOE:      pl._dump.window_buffer("tokens_buf_window", base="tokens_buf", size=8388608, load_from_host=False, store_to_host=False)
# MOE-NEXT: pl._dump.window_buffer("recv_buf_window", base="recv_buf", size=16777216, load_from_host=False, store_to_host=False)
# MOE-NEXT: pl._dump.window_buffer("signal_buf_window", base="signal_buf", size=256, load_from_host=False, store_to_host=False)
# MOE-NEXT: pl._dump.window_buffer("send_counts_buf_window", base="send_counts_buf", size=256, load_from_host=False, store_to_host=False)
# MOE-NEXT: pl._dump.window_buffer("recv_counts_buf_window", base="recv_counts_buf", size=256, load_from_host=False, store_to_host=False)
# MOE-NEXT: with pl._dump.comm_domain(name="comm_d0", devices=[], slots=[pl._dump.window_ref("tokens_buf_window"), pl._dump.window_ref("recv_buf_window"), pl._dump.window_ref("signal_buf_window"), pl._dump.window_ref("send_counts_buf_window"), pl._dump.window_ref("recv_counts_buf_window")], attrs={}):
# MOE-LONG-NEXT:  world = pld.system.world_size()
# MOE-SHORT-NEXT: world = pld.world_size()
# MOE-DSL-NEXT:   world = pld.world_size()
# MOE-NEXT: tokens_buf = pld.{{(tensor\.)?}}alloc_window_buffer(8388608{{(, name="tokens_buf")?}}){{$}}
# MOE-LONG-NEXT:  pld.tensor.window"
# MOE-SHORT-NEXT: "pld.window"
# MOE-DSL-NEXT:   "pld.window"
# MOE-NEXT: recv_buf = pld.{{(tensor\.)?}}alloc_window_buffer(16777216{{(, name="recv_buf")?}}){{$}}
# MOE:      signal_buf = pld.{{(tensor\.)?}}alloc_window_buffer(256{{(, name="signal_buf")?}}){{$}}
# MOE:      send_counts_buf = pld.{{(tensor\.)?}}alloc_window_buffer(256{{(, name="send_counts_buf")?}}){{$}}
# MOE-LONG:  recv_counts_buf = pld.tensor.alloc_window_buffer(256, name="recv_counts_buf"){{$}}
# MOE-SHORT: recv_counts_buf = pld.alloc_window_buffer(256, name="recv_counts_buf"){{$}}
# MOE-DSL:   recv_counts_buf = pld.alloc_window_buffer(256){{$}}
#
# RUN: %{short} %examples/host/pipeline.py > %t.pipe.py
# RUN: %{dsl} %examples/host/pipeline.py > %t.pipe.dsl.py
# RUN: neuronrw-opt --materialize-comm-domain-scopes %examples/host/pipeline.py | FileCheck %s --check-prefixes=PIPE,PIPE-LONG %{long-only}
# RUN: neuronrw-opt --materialize-comm-domain-scopes %t.pipe.py | FileCheck %s --check-prefixes=PIPE,PIPE-SHORT %{short-only}
# RUN: neuronrw-opt --materialize-comm-domain-scopes %t.pipe.dsl.py | FileCheck %s --check-prefixes=PIPE,PIPE-DSL %{short-only} --implicit-check-not=', name='
# PIPE:      pl._dump.window_buffer("table_buf_window", base="table_buf", size=64, load_from_host=False, store_to_host=False)
# PIPE-NEXT: pl._dump.window_buffer("act01_buf_window", base="act01_buf", size=65536, load_from_host=False, store_to_host=False)
# PIPE-NEXT: pl._dump.window_buffer("act12_buf_window", base="act12_buf", size=65536, load_from_host=False, store_to_host=False)
# PIPE-NEXT: pl._dump.window_buffer("act23_buf_window", base="act23_buf", size=65536, load_from_host=False, store_to_host=False)
# PIPE-NEXT: with pl._dump.comm_domain(name="comm_d0", devices=[0, 1, 2, 3], slots=[pl._dump.window_ref("table_buf_window")], attrs={}):
# PIPE-NEXT: with pl._dump.comm_domain(name="comm_d1", devices=[0, 1], slots=[pl._dump.window_ref("act01_buf_window")], attrs={}):
# PIPE-NEXT: with pl._dump.comm_domain(name="comm_d2", devices=[1, 2], slots=[pl._dump.window_ref("act12_buf_window")], attrs={}):
# PIPE-NEXT: with pl._dump.comm_domain(name="comm_d3", devices=[2, 3], slots=[pl._dump.window_ref("act23_buf_window")], attrs={}):
# PIPE-NEXT: table_buf = pld.{{(tensor\.)?}}alloc_window_buffer(64{{(, name="table_buf")?}}){{$}}
# PIPE:      act01_buf = pld.{{(tensor\.)?}}alloc_window_buffer(65536{{(, name="act01_buf")?}}){{$}}
# PIPE:      act12_buf = pld.{{(tensor\.)?}}alloc_window_buffer(65536{{(, name="act12_buf")?}}){{$}}
# PIPE-LONG:  act23_buf = pld.tensor.alloc_window_buffer(65536, name="act23_buf"){{$}}
# PIPE-SHORT: act23_buf = pld.alloc_window_buffer(65536, name="act23_buf"){{$}}
# PIPE-DSL:   act23_buf = pld.alloc_window_buffer(65536){{$}}
#
# RUN: %{short} %examples/host/tp_allreduce.py > %t.tp.py
# RUN: %{dsl} %examples/host/tp_allreduce.py > %t.tp.dsl.py
# RUN: neuronrw-opt --materialize-comm-domain-scopes %examples/host/tp_allreduce.py | FileCheck %s --check-prefixes=TP,TP-LONG %{long-only}
# RUN: neuronrw-opt --materialize-comm-domain-scopes %t.tp.py | FileCheck %s --check-prefixes=TP,TP-SHORT %{short-only}
# RUN: neuronrw-opt --materialize-comm-domain-scopes %t.tp.dsl.py | FileCheck %s --check-prefixes=TP,TP-DSL %{short-only} --implicit-check-not=', name='
# TP:      pl._dump.window_buffer("partial_buf_window", base="partial_buf", size=524288, load_from_host=False, store_to_host=False)
# TP-NEXT: pl._dump.window_buffer("signal_buf_window", base="signal_buf", size=256, load_from_host=False, store_to_host=False)
# TP-NEXT: with pl._dump.comm_domain(name="comm_d0", devices=[], slots=[pl._dump.window_ref("partial_buf_window"), pl._dump.window_ref("signal_buf_window")], attrs={}):
# TP-LONG-NEXT:  n = pld.system.world_size()
# TP-SHORT-NEXT: n = pld.world_size()
# TP-DSL-NEXT:   n = pld.world_size()
# TP-NEXT: partial_buf = pld.{{(tensor\.)?}}alloc_window_buffer(524288{{(, name="partial_buf")?}}){{$}}
# TP:      signal_buf = pld.{{(tensor\.)?}}alloc_window_buffer(256{{(, name="signal_buf")?}}){{$}}
#
# Read back without materializing, a program keeps the spellings it was written with.
# RUN: neuronrw-opt %t.moe.py | FileCheck %s --check-prefix=SHORT %{short-only}
# SHORT: pld.alloc_window_buffer(
# SHORT: pld.window(
# RUN: neuronrw-opt %t.moe.dsl.py | FileCheck %s --check-prefix=DSL --implicit-check-not=name=
# DSL: tokens_buf = pld.alloc_window_buffer(8388608){{$}}
# DSL: recv_buf = pld.alloc_window_buffer(16777216){{$}}
# DSL: signal_buf = pld.alloc_window_buffer(256){{$}}
# DSL: send_counts_buf = pld.alloc_window_buffer(256){{$}}
# DSL: recv_counts_buf = pld.alloc_window_buffer(256){{$}}
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
