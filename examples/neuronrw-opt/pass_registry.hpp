// pass_registry.hpp — the passes neuronrw-opt knows: each has a name (the flag `--NAME` and the
// pipeline element `NAME{...}`), the input it runs on, the name the instrumentation prints, a
// help line and a typed option list (name, type, default, help), all from the pass's descriptor
// and its options schema (neuronrw/passes/options.hpp). Option names are those of the MLIR passes
// (neuronrw/adapters/mlir/passes.hpp, made from the same schema), so one pipeline string means the
// same to neuronrw-opt and neuronrw-mlir-opt; the MLIR passes' names (`neuronrw-schedule-fusion`, ...)
// are accepted as aliases. A dry-run name is its pass with `dry-run=true` preset.
//
// A pass_instance is one occurrence in a pipeline: its pass and one value per option, kept as
// the canonical text of a valid value (pipeline.hpp parses them, the schema checks them).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <neuronrw/passes/allreduce_signals.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/options.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

namespace neuronrw_opt {

enum class input_kind : std::uint8_t { mlir, host };

/// The pipeline anchor of each input kind: `builtin.module(...)` for MLIR, `host.program(...)`
/// for host programs.
constexpr std::string_view anchor_of(input_kind k) noexcept {
  return k == input_kind::mlir ? "builtin.module" : "host.program";
}
constexpr std::string_view describe(input_kind k) noexcept {
  return k == input_kind::mlir ? "MLIR input" : "host programs";
}

// Options are the library's: each pass's descriptor names its options struct, whose schema
// (neuronrw/passes/options.hpp, declared after the struct) gives the names, types, defaults, help
// and checks; an option_spec is one field of it as neuronrw-opt offers it.
using option_type = neuronrw::option_type;
using option_check = neuronrw::option_check;
using option_spec = neuronrw::option_info;

/// How --list-passes shows a type (LLVM's `=<ulong>` / `=<string>`; a flag shows none).
constexpr std::string_view type_text(option_type t) noexcept { return neuronrw::option_type_text(t); }

enum class pass_id : std::uint8_t {
  schedule_fusion,
  schedule_fusion_composites,
  fusion_to_composite,
  validate_kinds,
  materialize_comm_domain_scopes,
  synthesize_allreduce_signals,
};

struct pass_spec {
  pass_id id;
  std::string_view name;     ///< the canonical pipeline name
  std::string_view display;  ///< what IR dumps, timing and statistics call it (mlir-opt: getName())
  input_kind kind;
  std::string_view help;
  std::span<const option_spec> options;
};

namespace registry_detail {

/// A pass's spec from its descriptor (neuronrw/passes/protocol.hpp): name, display name, input,
/// summary and the options its schema offers neuronrw-opt.
template <neuronrw::pass_descriptor D>
constexpr pass_spec spec_of_descriptor(pass_id id) {
  return {id, D::name, D::display, D::input == neuronrw::pass_input::ops ? input_kind::mlir : input_kind::host,
          D::summary, neuronrw::option_infos_v<typename D::options, neuronrw::option_tools::driver>};
}

inline constexpr std::array<pass_spec, 6> passes = {{
    spec_of_descriptor<neuronrw::passes::schedule_fusion>(pass_id::schedule_fusion),
    spec_of_descriptor<neuronrw::passes::schedule_fusion_composites>(pass_id::schedule_fusion_composites),
    spec_of_descriptor<neuronrw::passes::fusion_to_composite>(pass_id::fusion_to_composite),
    {pass_id::validate_kinds, "validate-kinds", "ValidateKinds", input_kind::mlir,
     "Check FusionKind / CompositeKind against the original compiler's registries", {}},
    spec_of_descriptor<neuronrw::passes::materialize_comm_domain_scopes>(pass_id::materialize_comm_domain_scopes),
    spec_of_descriptor<neuronrw::passes::synthesize_allreduce_signals>(pass_id::synthesize_allreduce_signals),
}};

}  // namespace registry_detail

inline std::span<const pass_spec> all_passes() noexcept { return registry_detail::passes; }

inline const pass_spec& spec_of(pass_id id) noexcept { return registry_detail::passes[static_cast<std::size_t>(id)]; }

/// A name the driver accepts for a pass: the canonical one, a dry-run name, or an alias.
struct pass_name {
  std::string_view name;
  pass_id id;
  bool dry_run = false;  ///< presets dry-run=true
  std::string_view help = {};  ///< for the names --list-passes lists apart (dry runs)
};

inline std::span<const pass_name> all_pass_names() noexcept {
  static constexpr std::array<pass_name, 13> names = {{
      {"schedule-fusion", pass_id::schedule_fusion},
      {"schedule-fusion-dry-run", pass_id::schedule_fusion, true,
       "schedule-fusion{dry-run=true}: print the plan (clusters, moves, refusals); change nothing"},
      {"schedule-fusion-composites", pass_id::schedule_fusion_composites},
      {"fusion-to-composite", pass_id::fusion_to_composite},
      {"fusion-to-composite-dry-run", pass_id::fusion_to_composite, true,
       "fusion-to-composite{dry-run=true}: print the plan (conversions, refusals); change nothing"},
      {"validate-kinds", pass_id::validate_kinds},
      {"materialize-comm-domain-scopes", pass_id::materialize_comm_domain_scopes},
      {"materialize-comm-domain-scopes-dry-run", pass_id::materialize_comm_domain_scopes, true,
       "materialize-comm-domain-scopes{dry-run=true}: print the comm-domain plan; change nothing"},
      {"synthesize-allreduce-signals", pass_id::synthesize_allreduce_signals},
      {"synthesize-allreduce-signals-dry-run", pass_id::synthesize_allreduce_signals, true,
       "synthesize-allreduce-signals{dry-run=true}: print the allreduce rewrites; change nothing"},
      // neuronrw-mlir-opt's names, so its pipelines run here unchanged.
      {"neuronrw-schedule-fusion", pass_id::schedule_fusion},
      {"neuronrw-schedule-fusion-composites", pass_id::schedule_fusion_composites},
      {"neuronrw-fusion-to-composite", pass_id::fusion_to_composite},
  }};
  return names;
}

inline const pass_name* find_pass_name(std::string_view n) noexcept {
  for (const auto& p : all_pass_names())
    if (p.name == n) return &p;
  return nullptr;
}

/// One pass in a pipeline, with a value for every option.
struct pass_instance {
  const pass_spec* spec = nullptr;
  std::vector<std::string> values;  ///< one per spec->options, canonical text
  std::vector<bool> explicitly_set;

  explicit pass_instance(const pass_spec& s) : spec(&s) {
    for (const auto& o : s.options) values.emplace_back(o.default_text);
    explicitly_set.assign(s.options.size(), false);
  }

  std::size_t index_of(std::string_view option) const {
    for (std::size_t i = 0; i < spec->options.size(); ++i)
      if (spec->options[i].name == option) return i;
    return spec->options.size();
  }
  const std::string& str(std::string_view option) const { return values[index_of(option)]; }
  bool flag(std::string_view option) const { return str(option) == "true"; }
  std::uint64_t u64(std::string_view option) const {
    std::uint64_t v = 0;
    for (char c : str(option)) v = v * 10 + static_cast<std::uint64_t>(c - '0');
    return v;
  }
  bool has(std::string_view option) const { return index_of(option) < spec->options.size(); }
  bool dry_run() const { return has("dry-run") && flag("dry-run"); }
};

}  // namespace neuronrw_opt
