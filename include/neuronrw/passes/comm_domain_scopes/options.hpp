// neuronrw/passes/comm_domain_scopes/options.hpp — MaterializeCommDomainScopes's options and the
// schema neuronrw-opt and the pass descriptor read them through (passes/options.hpp). The
// defaults are pypto's names, and pypto's collectives and queries (pypto_collectives.hpp).
//
// Customization points: every member, for a dialect that spells the levels, roles, ops and
// attributes differently or has other collectives (comm_domain_options::collectives).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include <neuronrw/passes/comm_domain_scopes/collective_spec.hpp>
#include <neuronrw/passes/comm_domain_scopes/pypto_collectives.hpp>
#include <neuronrw/passes/options.hpp>

namespace neuronrw {

/// Options, filled with designated initializers; the defaults are pypto's names.
struct comm_domain_options {
  std::string_view host_level = "HOST";
  std::string_view chip_level = "CHIP";
  std::string_view orchestrator_role = "Orchestrator";
  /// pypto's FunctionType names (optional capability F1): an `Orchestration` function at the host
  /// level is a host orchestrator whatever its role; a `Graph` function is never a dispatch target
  /// (it carries CHIP / Orchestrator like a chip entry, but is a task a chip entry launches).
  std::string_view orchestration_type = "Orchestration";
  std::string_view graph_type = "Graph";
  std::string_view alloc_op = "pld.tensor.alloc_window_buffer";
  std::string_view window_op = "pld.tensor.window";
  std::string_view world_size_op = "pld.system.world_size";
  std::string_view device_attr = "device";
  std::string_view name_kwarg = "name";
  std::string_view scope_prefix = "comm_d";
  std::span<const collective_spec> collectives = default_collectives;
  /// Calls under this prefix are communication APIs: a host orchestrator calling one the pass does
  /// not model (not the alloc / window / world-size ops, a collective, or a neutral op) is refused
  /// (unmodeled_comm_api) — the domains inferred without it could be wrong — unless
  /// allow_unmodeled_comm_apis. Empty: no check.
  std::string_view comm_prefix = "pld.";
  /// Ops under comm_prefix that have no bearing on comm domains (queries).
  std::span<const std::string_view> neutral_ops = default_neutral_ops;
  bool allow_unmodeled_comm_apis = false;
  /// A finite comm domain lists its devices; refuse ones larger than this instead of allocating
  /// gigabytes for `pl.range(4294967295)`.
  std::uint64_t max_listed_devices = std::uint64_t{1} << 20;
  /// The devices all the comm domains of one program may list together (the plan holds them and
  /// the printed program spells each one out): bounds what a small input can demand — 100 loops
  /// `for r in pl.range(1000000)` are 16 KB of text but would list 100M devices (800 MB in the
  /// plan, 700 MB printed). 2^20 devices print as at most about 8 MB; pypto's programs list a
  /// few thousand.
  std::uint64_t max_total_listed_devices = std::uint64_t{1} << 20;
  /// The comm domains of one function: they nest (the first outermost), so every statement of the
  /// body is printed indented once per domain — N allocations with distinct `device=` constants
  /// would print O(N^2) bytes, and past the text format's nesting limit (200) the output would
  /// not parse back. pypto's functions have a few.
  std::uint64_t max_scopes_per_function = 64;
};

/// The options neuronrw-opt offers, declared once (passes/options.hpp).
template <>
inline constexpr auto option_schema_v<comm_domain_options> = std::array{
    option_field<comm_domain_options>{
        .name = "allow-unmodeled-comm-apis", .type = option_type::boolean, .default_text = "false",
        .help = "Materialize even when a host orchestrator calls a pld. communication API the pass does not model",
        .member = option_member<&comm_domain_options::allow_unmodeled_comm_apis>},
    option_field<comm_domain_options>{
        .name = "dry-run", .type = option_type::boolean, .default_text = "false",
        .help = "Print the comm-domain plan instead of the program; change nothing"},
    option_field<comm_domain_options>{
        .name = "max-listed-devices", .type = option_type::uint64, .default_text = "1048576",
        .help = "Refuse a finite comm domain that lists more devices than this",
        .member = option_member<&comm_domain_options::max_listed_devices>},
    option_field<comm_domain_options>{
        .name = "scope-prefix", .type = option_type::string, .default_text = "comm_d",
        .help = "Scopes are named <scope-prefix><N>", .check = option_check::non_empty,
        .member = option_member<&comm_domain_options::scope_prefix>},
};
static_assert(check_option_defaults(option_schema_v<comm_domain_options>));

}  // namespace neuronrw
