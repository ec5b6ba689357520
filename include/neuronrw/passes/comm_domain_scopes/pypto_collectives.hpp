// neuronrw/passes/comm_domain_scopes/pypto_collectives.hpp — pypto's communication ops as data:
// its host-level collectives (a table of collective_spec) and its communication queries (ops
// under the `pld.` prefix that have no bearing on comm domains). They are the defaults of
// comm_domain_options::collectives and ::neutral_ops (options.hpp); the analysis reads
// collectives only through the options it is given, so another dialect passes its own tables.
//
// Customization points: none here (give comm_domain_options other tables instead).
#pragma once

#include <string_view>

#include <neuronrw/passes/comm_domain_scopes/collective_spec.hpp>

namespace neuronrw {

/// docs/host-programs.md: allreduce / broadcast / reduce_scatter (data 0, signal 1); allgather / all_to_all
/// (target 1, signal 2); all_to_all_v (target 1, signal 2, recv_counts 4); barrier (signal 0).
/// Results alias the in-place buffer: argument 0, or the target for the push-based forms.
inline constexpr collective_spec default_collectives[] = {
    {"pld.tensor.allreduce", 2, 0, 1, -1, 0, false, "data/target"},
    {"pld.tensor.broadcast", 2, 0, 1, -1, 0, false, "data/target"},
    {"pld.tensor.reduce_scatter", 2, 0, 1, -1, 0, false, "data/target"},
    {"pld.tensor.allgather", 3, 1, 2, -1, 1, false, "target"},
    {"pld.tensor.all_to_all", 3, 1, 2, -1, 1, false, "target"},
    {"pld.tensor.all_to_all_v", 5, 1, 2, 4, 1, true, "target"},
    {"pld.tensor.barrier", 1, -1, 0, -1, -1, false, "signal"},
};

/// pypto's communication queries: they read the world, they do not touch a window.
inline constexpr std::string_view default_neutral_ops[] = {"pld.system.rank", "pld.system.nranks",
                                                           "pld.system.get_comm_ctx"};

}  // namespace neuronrw
