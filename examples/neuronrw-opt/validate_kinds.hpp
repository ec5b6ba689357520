// validate_kinds.hpp — neuronrw-opt's `validate-kinds` pass as a descriptor (neuronrw/passes/
// protocol.hpp), registered like the library's passes: it checks every FusionKind and
// CompositeKind of a reference-IR module against the original compiler's registries (the
// validators of neuronrw/ir/ref/fusion_to_composite.hpp) and changes nothing. Its plan's refusals
// are the kinds outside the registries, fusions first, each in walk order; the driver reports them
// through to_diagnostics as `validate-kinds: CODE: REGISTRY MESSAGE` errors at the op, and the
// pass fails when there is one. It runs on the reference IR only (no MLIR pass: mlir_name is
// empty) and has no options.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <neuronrw/algorithms/walk.hpp>
#include <neuronrw/descriptors/kinds.hpp>
#include <neuronrw/ir/ref/fusion_to_composite.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/protocol.hpp>

namespace neuronrw_opt {

/// Why validate-kinds reports an op.
enum class validate_kinds_code : std::uint8_t { unknown_fusion_kind, unknown_composite_kind };

constexpr std::string_view to_string(validate_kinds_code c) noexcept {
  return c == validate_kinds_code::unknown_fusion_kind ? "unknown_fusion_kind" : "unknown_composite_kind";
}

/// validate-kinds has no options.
struct validate_kinds_options {};

/// What validate-kinds found: the ops it checked and the kinds outside the registries.
struct validate_kinds_plan {
  using refusal_record = neuronrw::refusal<validate_kinds_code, neuronrw::ref::op_ref>;
  std::vector<refusal_record> refused;
  std::uint64_t fusions = 0, composites = 0;
  bool ok() const noexcept { return refused.empty(); }
  bool has_changes() const noexcept { return false; }
  std::span<const refusal_record> changes() const noexcept { return {}; }
  std::span<const refusal_record> refusals() const noexcept { return refused; }
};

struct validate_kinds_pass {
  static constexpr std::string_view name = "validate-kinds";
  static constexpr std::string_view display = "ValidateKinds";
  static constexpr std::string_view summary = "Check FusionKind / CompositeKind against the original compiler's registries";
  static constexpr std::string_view mlir_name = "";  // neuronrw-opt only
  static constexpr neuronrw::pass_input input = neuronrw::pass_input::ops;
  using options = validate_kinds_options;
  template <class G>
  using traits = neuronrw::ir_traits<std::remove_cvref_t<G>>;

  static validate_kinds_plan plan(const neuronrw::ref::module& m, const options& = {}) {
    namespace nr = neuronrw;
    validate_kinds_plan p;
    auto check = [&](nr::kind_id kind, std::string_view attribute, validate_kinds_code code, auto validate) {
      nr::walk<nr::walk_order::pre>(m, m.body(), [&](nr::ref::op_ref op) {
        if (m.kind(op) != kind) return;
        (kind == nr::kind_id_v<nr::kinds::fusion> ? p.fusions : p.composites) += 1;
        auto* a = m.find_attribute(op, attribute);
        // A fusion without FusionKind is not reported; a composite without one is, as kind ''.
        if (!a && code == validate_kinds_code::unknown_fusion_kind) return;
        std::optional<std::string> k = a ? nr::ref::unquote(a->value) : std::optional<std::string>(std::string());
        if (auto msg = validate(k ? std::string_view(*k) : std::string_view(a->value)))
          p.refused.push_back({code, op, std::move(*msg)});
      });
    };
    check(nr::kind_id_v<nr::kinds::fusion>, nr::composite_schema::fusion_kind, validate_kinds_code::unknown_fusion_kind,
          [](std::string_view k) { return nr::fusion_op_registry::validate(k); });
    check(nr::kind_id_v<nr::kinds::composite>, nr::composite_schema::composite_kind,
          validate_kinds_code::unknown_composite_kind, [](std::string_view k) { return nr::composite_op_registry::validate(k); });
    return p;
  }
  static void apply(neuronrw::ref::module&, const validate_kinds_plan&) {}
  template <class Printer>
  static std::string describe(const neuronrw::ref::module&, const validate_kinds_plan&, Printer&&) {
    return {};
  }
  static std::vector<neuronrw::pass_statistic> statistics(const neuronrw::ref::module&, const validate_kinds_plan& p,
                                                          bool) {
    return {{"composites", "Composites checked (CompositeKind)", p.composites},
            {"fusions", "Fusions checked (FusionKind)", p.fusions},
            {"unknown-kinds", "Kinds outside the registries", p.refused.size()}};
  }
};
static_assert(neuronrw::pass_descriptor<validate_kinds_pass>);
static_assert(neuronrw::pass_plan<validate_kinds_plan>);

}  // namespace neuronrw_opt
