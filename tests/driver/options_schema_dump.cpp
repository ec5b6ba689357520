// Prints every pass descriptor (names, summaries, the optional members' values) and its options
// schema as JSON, for options_schema_test.py: the one place the descriptors
// (neuronrw/passes/protocol.hpp, options.hpp) are held against neuronrw-opt's --list-passes, the
// MLIR passes (neuronrw-mlir-opt --help, --dump-pass-pipeline) and the docs' option tables. The
// library's five, neuronrw-opt's validate-kinds and the user pass of docs/passes.md (prefetch).
#include <cstdio>
#include <string>
#include <string_view>

#include <neuronrw/passes/allreduce_signals.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/options.hpp>
#include <neuronrw/passes/protocol.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/plan_printer.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/ir/host/ir.hpp>
#include <neuronrw/ir/host/traits.hpp>

#include "neuronrw-opt/validate_kinds.hpp"
#include "prefetch/prefetch.hpp"

namespace {

namespace nr = neuronrw;

std::string json(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string_view type_name(nr::option_type t) {
  switch (t) {
    case nr::option_type::uint64: return "uint64";
    case nr::option_type::string: return "string";
    case nr::option_type::boolean: return "boolean";
  }
  return "";
}

std::string_view check_name(nr::option_check c) {
  switch (c) {
    case nr::option_check::none: return "none";
    case nr::option_check::op_name: return "op_name";
    case nr::option_check::terminator: return "terminator";
    case nr::option_check::non_empty: return "non_empty";
    case nr::option_check::kind_name: return "kind_name";
    case nr::option_check::kind_list: return "kind_list";
  }
  return "";
}

/// Whether D has a checked apply (docs/validation.md) on the reference IR: its MLIR pass then has
/// the `verify-rewrites` option and neuronrw-opt checks it under --verify-rewrites.
template <nr::pass_descriptor D>
constexpr bool checked() {
  if constexpr (D::input == nr::pass_input::ops)
    return nr::checked_pass<D, nr::ref::module, nr::ref::plan_printer>;
  else
    return false;
}

/// Whether D has a checked apply on a host program (the host passes): neuronrw-opt then offers
/// its `verify-rewrites` option too.
template <nr::pass_descriptor D>
constexpr bool host_checked() {
  if constexpr (D::input == nr::pass_input::host)
    return requires(nr::host::program& p, const nr::pass_plan_t<D, nr::host::program>& plan) { D::apply_checked(p, plan); };
  else
    return false;
}

template <nr::pass_descriptor D>
void dump(bool last) {
  std::printf(
      "  {\"name\": %s, \"display\": %s, \"summary\": %s, \"input\": %s, \"mlir_name\": %s, \"mlir_summary\": %s, "
      "\"dry_run_help\": %s, \"checked\": %s, \"host_checked\": %s, \"verify_rewrites_help\": %s, \"kinds_help\": %s, \"options\": [\n",
      json(D::name).c_str(), json(D::display).c_str(), json(D::summary).c_str(),
      D::input == nr::pass_input::ops ? "\"ops\"" : "\"host\"", json(nr::descriptor_mlir_name<D>()).c_str(),
      json(nr::descriptor_mlir_summary<D>()).c_str(), json(nr::descriptor_dry_run_help<D>()).c_str(),
      checked<D>() ? "true" : "false", host_checked<D>() ? "true" : "false", json(nr::verify_rewrites_help).c_str(), json(nr::kinds_help).c_str());
  const auto& schema = nr::option_schema_v<typename D::options>;
  for (std::size_t i = 0; i < schema.size(); ++i) {
    const auto& f = schema[i];
    std::printf(
        "    {\"name\": %s, \"alias\": %s, \"type\": \"%s\", \"default\": %s, \"descriptor_default\": %s, \"help\": %s, "
        "\"mlir_help\": %s, \"check\": \"%s\", \"member\": %s, \"driver\": %s, \"mlir\": %s}%s\n",
        json(f.name).c_str(), json(f.alias).c_str(), type_name(f.type).data(), json(f.default_text).c_str(),
        json(nr::descriptor_option_default<D>(f)).c_str(), json(f.help).c_str(),
        json(nr::info_of(f).help_for(nr::option_tools::mlir)).c_str(), check_name(f.check).data(),
        f.member ? "true" : "false", nr::offers(f.tools, nr::option_tools::driver) ? "true" : "false",
        nr::offers(f.tools, nr::option_tools::mlir) ? "true" : "false", i + 1 < schema.size() ? "," : "");
  }
  std::printf("  ]}%s\n", last ? "" : ",");
}

}  // namespace

int main() {
  std::printf("[\n");
  dump<nr::passes::schedule_fusion>(false);
  dump<nr::passes::schedule_fusion_composites>(false);
  dump<nr::passes::fusion_to_composite>(false);
  dump<nr::passes::materialize_comm_domain_scopes>(false);
  dump<nr::passes::synthesize_allreduce_signals>(false);
  dump<neuronrw_opt::validate_kinds_pass>(false);  // neuronrw-opt's own
  dump<prefetch_example::prefetch>(true);         // the user pass of docs/passes.md (prefetch-opt)
  std::printf("]\n");
}
