// pass_registry.hpp — the passes neuronrw-opt knows: each has a name (the flag `--NAME` and the
// pipeline element `NAME{...}`), the input it runs on, the name the instrumentation prints, a
// help line and a typed option list (name, type, default, help). Option names are those of the
// MLIR passes (neuronrw/adapters/mlir/passes.hpp), so one pipeline string means the same to
// neuronrw-opt and neuronrw-mlir-opt; the MLIR passes' names (`neuronrw-schedule-fusion`, ...)
// are accepted as aliases. A dry-run name is its pass with `dry-run=true` preset.
//
// A pass_instance is one occurrence in a pipeline: its pass and one value per option, kept as
// the canonical text of a valid value (options.hpp parses and checks them).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

enum class option_type : std::uint8_t { uint64, string, boolean };

/// How --list-passes shows a type (LLVM's `=<ulong>` / `=<string>`; a flag shows none).
constexpr std::string_view type_text(option_type t) noexcept {
  switch (t) {
    case option_type::uint64: return "=<ulong>";
    case option_type::string: return "=<string>";
    case option_type::boolean: return "";
  }
  return "";
}

/// A value check beyond the type.
enum class option_check : std::uint8_t {
  none,
  op_name,    ///< `dialect.op`: an op the pass creates (MLIR needs the dialect prefix)
  non_empty,  ///< a non-empty string
};

struct option_spec {
  std::string_view name;
  std::string_view alias;  ///< another accepted name (empty: none); printed as `name`
  option_type type;
  std::string_view default_value;
  std::string_view help;
  option_check check = option_check::none;
};

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

inline constexpr std::array<option_spec, 8> schedule_fusion_options = {{
    {"budget", "", option_type::uint64, "100",
     "Most ops the dependence walk may visit per candidate", option_check::none},
    {"dry-run", "", option_type::boolean, "false",
     "Print the plan (clusters, moves, refusals) instead of the program; change nothing", option_check::none},
    {"fusion-kind", "kind", option_type::string, "ScheduleFusion",
     "The FusionKind (CompositeKind) clusters carry", option_check::non_empty},
    {"group-op", "", option_type::string, "mhlo.fusion", "The grouping op each cluster becomes", option_check::op_name},
    {"remarks", "", option_type::boolean, "false",
     "Emit a remark for every refused candidate, naming the reason", option_check::none},
    {"skip-functions-with", "", option_type::string, "genComposite",
     "Skip functions carrying this attribute (empty: skip none)", option_check::none},
    {"symbol-prefix", "", option_type::string, "hilo.FusedComposite.",
     "Composites flavour: decompositions are named <symbol-prefix><N>", option_check::non_empty},
    {"terminator", "", option_type::string, "mhlo.return", "The terminator of the grouping op's region",
     option_check::op_name},
}};

inline constexpr std::array<option_spec, 4> fusion_to_composite_options = {{
    {"composite-op", "", option_type::string, "stablehlo.composite", "The op each fusion becomes",
     option_check::op_name},
    {"dry-run", "", option_type::boolean, "false",
     "Print the plan (conversions, refusals) instead of the program; change nothing", option_check::none},
    {"symbol-prefix", "", option_type::string, "hilo.FusedComposite.", "Decompositions are named <symbol-prefix><N>",
     option_check::non_empty},
    {"validate-fusion-kind", "", option_type::boolean, "false",
     "Refuse a FusionKind outside the fusion-kind registry", option_check::none},
}};

inline constexpr std::array<option_spec, 4> comm_domain_options = {{
    {"allow-unmodeled-comm-apis", "", option_type::boolean, "false",
     "Materialize even when a host orchestrator calls a pld. communication API the pass does not model",
     option_check::none},
    {"dry-run", "", option_type::boolean, "false", "Print the comm-domain plan instead of the program; change nothing",
     option_check::none},
    {"max-listed-devices", "", option_type::uint64, "1048576",
     "Refuse a finite comm domain that lists more devices than this", option_check::none},
    {"scope-prefix", "", option_type::string, "comm_d", "Scopes are named <scope-prefix><N>", option_check::non_empty},
}};

inline constexpr std::array<option_spec, 1> allreduce_signal_options = {{
    {"dry-run", "", option_type::boolean, "false",
     "Print the allreduce rewrites (signal names, refusals) instead of the program; change nothing", option_check::none},
}};

inline constexpr std::array<pass_spec, 6> passes = {{
    {pass_id::schedule_fusion, "schedule-fusion", "ScheduleFusion", input_kind::mlir,
     "Co-schedule each all_gather with the reduce_scatter it feeds into fusions tagged FusionKind",
     schedule_fusion_options},
    {pass_id::schedule_fusion_composites, "schedule-fusion-composites", "ScheduleFusionComposites", input_kind::mlir,
     "ScheduleFusion, each cluster lowered to a stablehlo.composite with a private decomposition",
     schedule_fusion_options},
    {pass_id::fusion_to_composite, "fusion-to-composite", "FusionToComposite", input_kind::mlir,
     "Lower every fusion to a stablehlo.composite and a private decomposition function",
     fusion_to_composite_options},
    {pass_id::validate_kinds, "validate-kinds", "ValidateKinds", input_kind::mlir,
     "Check FusionKind / CompositeKind against the original compiler's registries", {}},
    {pass_id::materialize_comm_domain_scopes, "materialize-comm-domain-scopes", "MaterializeCommDomainScopes",
     input_kind::host, "Infer the devices of each window buffer and wrap the allocations in comm-domain scopes",
     comm_domain_options},
    {pass_id::synthesize_allreduce_signals, "synthesize-allreduce-signals", "SynthesizeAllReduceSignals",
     input_kind::host,
     "Give every host allreduce written without a signal a private signal window buffer (pypto's pass before "
     "materialize-comm-domain-scopes)",
     allreduce_signal_options},
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
    for (const auto& o : s.options) values.emplace_back(o.default_value);
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
