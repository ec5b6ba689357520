# Mixture-of-experts token dispatch: a variable-size all_to_all_v sends each token to the rank that
# holds its expert; the counts travel with it. all_to_all_v is single-use, so it sits outside
# any loop. Run:
#   neuronrw-opt --materialize-comm-domain-scopes examples/host/moe_dispatch.py
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class MoEDispatch:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def route(self, tokens: pld.DistributedTensor[[4096, 1024], pl.BF16], send_counts: pld.DistributedTensor[[64], pl.INT32]):
        return send_counts

    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def experts(self, recv: pld.DistributedTensor[[8192, 1024], pl.BF16], recv_counts: pld.DistributedTensor[[64], pl.INT32]):
        return recv

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        world = pld.system.world_size()
        tokens_buf = pld.tensor.alloc_window_buffer(8388608, name="tokens_buf")
        tokens = pld.tensor.window(tokens_buf, [4096, 1024], dtype=pl.BF16)
        recv_buf = pld.tensor.alloc_window_buffer(16777216, name="recv_buf")
        recv = pld.tensor.window(recv_buf, [8192, 1024], dtype=pl.BF16)
        signal_buf = pld.tensor.alloc_window_buffer(256, name="signal_buf")
        signal = pld.tensor.window(signal_buf, [64], dtype=pl.INT32)
        send_counts_buf = pld.tensor.alloc_window_buffer(256, name="send_counts_buf")
        send_counts = pld.tensor.window(send_counts_buf, [64], dtype=pl.INT32)
        recv_counts_buf = pld.tensor.alloc_window_buffer(256, name="recv_counts_buf")
        recv_counts = pld.tensor.window(recv_counts_buf, [64], dtype=pl.INT32)
        for r in pl.range(world):
            self.route(tokens, send_counts, device=r)
        arrived = pld.tensor.all_to_all_v(tokens, recv, signal, send_counts, recv_counts)
        for r in pl.range(world):
            self.experts(arrived, recv_counts, device=r)
