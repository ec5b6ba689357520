// tests/passes/comm_domain_archetype.hpp — the host program on which MaterializeCommDomainScopes
// is tested on the archetype host programs (tests/archetype/host_archetype.hpp): by
// comm_domain_scopes_test.cpp on the full archetype, and by archetype_passes_test.cpp planned on
// the read-only layer. One program, so both read the same expected plan, scopes and locations.
// Nothing here throws.
#pragma once

#include <cstddef>
#include <cstdint>

#include <neuronrw/concepts/host.hpp>

#include "archetype/host_archetype.hpp"

namespace comm_domain_test {

/// chip(CHIP, Orchestrator); main(HOST, Orchestrator):
///   buf = alloc(64, name="buf"); v = window(buf); w = window(buf); sig = alloc(8, name="sig");
///   s = window(sig); for r in range(0, 3, 1): chip(v, device=r); chip(w, device=<device>);
///   allreduce(v, s)
/// The allocations stand at lines 3 and 6, the dispatches at 8:5 and 9:1, the collective at 10:1.
/// `P` is the storage or any archetype layer built on it (archetype::host_at<...>).
template <class P = neuronrw::archetype::host_storage>
struct archetype_program {
  P p;
  int main = -1, buf = -1, v = -1, w = -1, sig = -1, s = -1, v_call = -1, w_call = -1, s_call = -1, device_expr = -1;

  explicit archetype_program(std::int64_t device = 7) {
    using k = neuronrw::host_callee_kind;
    p.fn("chip", "CHIP", "Orchestrator");
    main = p.fn("main", "HOST", "Orchestrator");
    buf = p.var("buf");
    v = p.var("v", true);
    w = p.var("w", true);
    sig = p.var("sig");
    s = p.var("s", true);
    const int r = p.var("r");
    auto& body = p.fns[static_cast<std::size_t>(main)].body;
    body.push_back(p.s_assign(buf, p.e_call(k::op, "pld.tensor.alloc_window_buffer", {p.e_int(64)},
                                             {{"name", p.e_str("buf")}}, {}, {3, 1})));
    v_call = p.e_call(k::op, "pld.tensor.window", {p.e_var(buf)});
    body.push_back(p.s_assign(v, v_call));
    w_call = p.e_call(k::op, "pld.tensor.window", {p.e_var(buf)});
    body.push_back(p.s_assign(w, w_call));
    body.push_back(p.s_assign(sig, p.e_call(k::op, "pld.tensor.alloc_window_buffer", {p.e_int(8)},
                                             {{"name", p.e_str("sig")}}, {}, {6, 1})));
    s_call = p.e_call(k::op, "pld.tensor.window", {p.e_var(sig)});
    body.push_back(p.s_assign(s, s_call));
    const int d1 = p.s_expr(p.e_call(k::function, "chip", {p.e_var(v)}, {}, {{"device", p.e_var(r)}}, {8, 5}));
    body.push_back(p.s_for(r, p.e_int(0), p.e_int(3), p.e_int(1), {d1}));
    device_expr = p.e_int(device);
    body.push_back(p.s_expr(p.e_call(k::function, "chip", {p.e_var(w)}, {}, {{"device", device_expr}}, {9, 1})));
    body.push_back(p.s_expr(p.e_call(k::op, "pld.tensor.allreduce", {p.e_var(v), p.e_var(s)}, {}, {}, {10, 1})));
  }
};

}  // namespace comm_domain_test
