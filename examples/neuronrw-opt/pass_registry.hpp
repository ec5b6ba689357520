// pass_registry.hpp — what neuronrw-opt knows of a registered pass (registry.hpp registers them
// from their descriptors): a name (the flag `--NAME` and the pipeline element `NAME{...}`), the
// input it runs on, the name the instrumentation prints, a help line and a typed option list
// (name, type, default, help), all from the pass's descriptor and its options schema
// (neuronrw/passes/options.hpp). Option names are those of the MLIR passes
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
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <neuronrw/ir/host/ir.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/schedule_fusion.hpp>
#include <neuronrw/passes/options.hpp>

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

struct pass_instance;
struct pass_context;

/// A registered pass: what the driver shows and parses, all from its descriptor
/// (registry.hpp, pass_registry::register_pass), and its type-erased runner.
struct pass_spec {
  std::string_view name;     ///< the canonical pipeline name (D::name)
  std::string_view display;  ///< what IR dumps, timing and statistics call it (D::display)
  input_kind kind;
  std::string_view help;     ///< D::summary
  std::span<const option_spec> options;  ///< views own_options
  std::vector<option_spec> own_options;   ///< the schema's, and `kinds` for a pass over ops
  std::string alias;         ///< the MLIR pass's name (descriptor_mlir_name), or empty
  std::string dry_run_help;  ///< the `NAME-dry-run` line of --list-passes, or empty: no such name
  /// Runs the pass on the reference IR / a host program (the one of its input kind is set).
  bool (*run_mlir)(neuronrw::ref::module&, const pass_instance&, pass_context&) = nullptr;
  bool (*run_host)(neuronrw::host::program&, const pass_instance&, pass_context&) = nullptr;
  /// The plan --emit-dot=before draws (passes that have one: ScheduleFusion).
  std::optional<neuronrw::ref_schedule_fusion_plan> (*plan_for_dot)(const neuronrw::ref::module&,
                                                                     const pass_instance&) = nullptr;
  /// The rules between the options of an instance (D::check_options), or null.
  std::optional<neuronrw::option_problem> (*check_options)(const pass_instance&) = nullptr;
  /// What option `name` of an instance stands for when it was not given and that is not its
  /// default text (D::implied_option_text: a boundary implied by the producer and consumer), or
  /// empty; null when the pass has no such option.
  std::string (*implied_text)(const pass_instance&, std::string_view name) = nullptr;
};

/// A name the driver accepts for a pass: the canonical one, a dry-run name, or an alias.
struct pass_name {
  std::string_view name;
  const pass_spec* spec = nullptr;
  bool dry_run = false;        ///< presets dry-run=true
  std::string_view help = {};  ///< for the names --list-passes lists apart (dry runs)
  bool alias = false;          ///< another tool's name (neuronrw-mlir-opt's)
};

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
