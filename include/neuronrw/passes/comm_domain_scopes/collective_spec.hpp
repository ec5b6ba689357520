// neuronrw/passes/comm_domain_scopes/collective_spec.hpp — how MaterializeCommDomainScopes sees
// one host-level collective: its arity, which of its arguments are window views, and how
// coverage flows between them (docs/host-programs.md §"Collectives"). The pass knows collectives
// only through a table of these, comm_domain_options::collectives; pypto's table is
// pypto_collectives.hpp.
//
// Customization point: a dialect's own table (an array of collective_spec), given as
// comm_domain_options::collectives.
#pragma once

#include <cstddef>
#include <string_view>

namespace neuronrw {

/// One host-level collective (docs/host-programs.md §"Collectives"): which of its arguments are window views and how their
/// coverage flows. Argument positions are 0-based; -1 means "none".
struct collective_spec {
  std::string_view op;             ///< "pld.tensor.allreduce"
  std::size_t arity = 0;           ///< exact number of positional arguments
  int target = -1;                 ///< data / target buffer whose coverage is shared (-1: barrier)
  int signal = -1;                 ///< signal buffer: inherits the target's coverage
  int recv_counts = -1;            ///< all_to_all_v: recv_counts inherits it too
  int result_alias = -1;           ///< the argument the call's result aliases (a view reaches a
                                   ///< dispatch through it)
  bool single_use = false;         ///< rejected inside a for / while loop (all_to_all_v)
  std::string_view target_role = "data/target";  ///< word used in diagnostics
};

}  // namespace neuronrw
