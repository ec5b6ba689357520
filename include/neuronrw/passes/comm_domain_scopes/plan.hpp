// neuronrw/passes/comm_domain_scopes/plan.hpp — MaterializeCommDomainScopes's plan: plain data
// the analysis fills, apply performs, describe prints and tests read — per host orchestrator its
// allocations, views, dispatches with their device descriptors, collectives and scopes — and
// the refusal codes (comm_domain_refusal_code) with their records, which read as pypto's located
// errors (plan.errors()).
//
// Customization points: none (plain data, generic over the host program P).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <neuronrw/concepts/host.hpp>
#include <neuronrw/descriptors/device_coverage.hpp>
#include <neuronrw/passes/comm_domain_scopes/options.hpp>
#include <neuronrw/diagnostic.hpp>
#include <neuronrw/passes/protocol.hpp>

namespace neuronrw {

/// Why a host orchestrator cannot be materialized (refusal::op names the expression concerned:
/// the call, or the `device=` / step expression).
enum class comm_domain_refusal_code : std::uint8_t {
  bad_alloc_call,         ///< the alloc call has not exactly one size argument, or no name
  unsupported_device,     ///< a `device=` expression the inference cannot resolve (or out of range)
  non_unit_step,          ///< `device=r` over a loop whose step is not the constant 1
  collective_in_loop,     ///< a single-use collective (all_to_all_v) inside a for / while loop
  bad_collective_call,    ///< wrong arity, or a buffer argument that is not a window view
  no_coverage_to_share,   ///< a collective's buffer has no coverage its signal could inherit
  dead_allocation,        ///< an allocation without a window view
  unconsumed_allocation,  ///< an allocation no device-tagged dispatch reaches
  untyped_view,           ///< a view variable whose type cannot carry a WindowBuffer
  too_many_devices,       ///< a finite domain larger than comm_domain_options::max_listed_devices, or
                          ///< past max_total_listed_devices with the program's domains before it
  too_many_scopes,        ///< a function needs more than comm_domain_options::max_scopes_per_function
  duplicate_name,         ///< two allocations of one scope share a name
  bad_arithmetic,         ///< an integer the pass needs overflows or divides by zero, or a size is negative
  unmodeled_comm_api,     ///< a communication API the pass does not model (comm_domain_options::comm_prefix)
};

constexpr std::string_view to_string(comm_domain_refusal_code c) noexcept {
  switch (c) {
    case comm_domain_refusal_code::bad_alloc_call: return "bad_alloc_call";
    case comm_domain_refusal_code::unsupported_device: return "unsupported_device";
    case comm_domain_refusal_code::non_unit_step: return "non_unit_step";
    case comm_domain_refusal_code::collective_in_loop: return "collective_in_loop";
    case comm_domain_refusal_code::bad_collective_call: return "bad_collective_call";
    case comm_domain_refusal_code::no_coverage_to_share: return "no_coverage_to_share";
    case comm_domain_refusal_code::dead_allocation: return "dead_allocation";
    case comm_domain_refusal_code::unconsumed_allocation: return "unconsumed_allocation";
    case comm_domain_refusal_code::untyped_view: return "untyped_view";
    case comm_domain_refusal_code::too_many_devices: return "too_many_devices";
    case comm_domain_refusal_code::too_many_scopes: return "too_many_scopes";
    case comm_domain_refusal_code::duplicate_name: return "duplicate_name";
    case comm_domain_refusal_code::bad_arithmetic: return "bad_arithmetic";
    case comm_domain_refusal_code::unmodeled_comm_api: return "unmodeled_comm_api";
  }
  return "unknown";
}

/// The analysis result: plain data, read by apply, by dry runs and by tests.
template <class P>
struct comm_domain_plan {
  using function_handle = host_function_t<P>;
  using expr_handle = host_expr_t<P>;
  using var_handle = host_var_t<P>;
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  /// `buf = pld.tensor.alloc_window_buffer(size, name="buf")`.
  struct alloc {
    var_handle var;
    expr_handle call;
    expr_handle size;
    std::string name;                ///< the `name=` keyword
    source_loc loc;                  ///< of the alloc call
    std::vector<std::size_t> views;  ///< indices into `views`, source order
    device_coverage coverage;        ///< merged: dispatches, then collective inheritance
    std::size_t scope = npos;
  };
  /// `v = pld.tensor.window(buf, [shape], dtype=...)`.
  struct view {
    var_handle var;
    expr_handle call;
    std::size_t alloc = npos;
    source_loc loc;
  };
  /// `self.chip_fn(..., device=...)`: its descriptor and the allocations its arguments reach.
  struct dispatch {
    expr_handle call;
    std::string callee;
    source_loc loc;
    device_coverage devices;
    std::vector<std::size_t> allocs;  ///< per positional argument that reaches a view, in order
  };
  /// A collective: `inheritors` (signal, recv_counts) take the coverage of `target`; a barrier has
  /// no target and needs coverage of its own.
  struct collective {
    expr_handle call;
    std::string op;
    source_loc loc;
    std::size_t target = npos;
    std::vector<std::size_t> inheritors;
  };
  struct scope {
    std::string name;                  ///< comm_d<i>
    device_coverage coverage;
    std::vector<std::int64_t> devices;  ///< ascending; empty = every device
    std::vector<std::size_t> allocs;    ///< slots, in allocation order
  };
  enum class status : std::uint8_t {
    materialize,           ///< apply wraps the body in `scopes`
    no_allocs,             ///< nothing to do
    already_materialized,  ///< the body already holds a comm-domain scope: idempotence
    failed,                ///< see `refused`
  };
  struct function_plan {
    function_handle fn;
    std::string name;
    status state = status::no_allocs;
    std::vector<alloc> allocs;
    std::vector<view> views;
    std::vector<dispatch> dispatches;
    std::vector<collective> collectives;
    std::vector<scope> scopes;
  };

  /// {code, op, message}, plus where pypto reports it (not always at `op`: a `device=`
  /// expression's refusal is located at its dispatch) and how pypto words it.
  struct refusal_record : refusal<comm_domain_refusal_code, expr_handle> {
    source_loc loc;
    /// pypto prefixes the message with its pass's name (false: the few checks it words without
    /// one, its CHECK_SPANs that are not INTERNAL_CHECK_SPANs).
    bool prefixed = true;
    /// pypto's text: `MaterializeCommDomainScopes: MESSAGE`, or MESSAGE when not `prefixed`.
    std::string pypto_message() const {
      return (prefixed ? std::string("MaterializeCommDomainScopes: ") : std::string()) + this->message;
    }
  };

  /// The options it was planned with (the rewrite check recomputes the device sets with them);
  /// their views must outlive the plan (the defaults are literals).
  comm_domain_options options;
  std::string file;                      ///< the program's source_file: where `loc`s point
  std::vector<function_plan> functions;  ///< every host orchestrator, in program order
  std::vector<refusal_record> refused;   ///< in program order; non-empty: apply must not run
  /// Where this pass answers differently from pypto on purpose (docs/host-programs.md
  /// §"Where this pass differs from pypto"): located remarks (severity::remark) for a dry run;
  /// they change nothing.
  diagnostics remarks;
  /// Calls of communication APIs the pass does not model, let through because
  /// comm_domain_options::allow_unmodeled_comm_apis was set (else they are refusals).
  std::vector<std::pair<std::string, source_loc>> unmodeled;

  bool ok() const noexcept { return refused.empty(); }
  /// Whether applying changes the program.
  bool has_changes() const noexcept {
    if (!ok()) return false;
    for (auto& f : functions)
      if (f.state == status::materialize) return true;
    return false;
  }
  /// The functions apply materializes (none when the plan has refusals), in program order.
  std::vector<std::reference_wrapper<const function_plan>> changes() const {
    std::vector<std::reference_wrapper<const function_plan>> out;
    if (ok())
      for (const auto& f : functions)
        if (f.state == status::materialize) out.push_back(std::cref(f));
    return out;
  }
  std::span<const refusal_record> refusals() const noexcept { return refused; }
  /// The refusals located and worded as pypto reports them (`FILE:LINE:COL: error: PYPTO MESSAGE`),
  /// in program order: to_diagnostics(p, plan, {.style = refusal_style::message}). Before
  /// 2026-12-02 a data member holding the same.
  diagnostics errors() const {
    diagnostics out;
    out.reserve(refused.size());
    for (const auto& r : refused) out.push_back({file, r.loc, r.pypto_message()});
    return out;
  }
};

}  // namespace neuronrw
