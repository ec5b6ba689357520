// neuronrw/ir/ref/fusion_to_composite.hpp — FusionToComposite on the reference IR: the pass entry
// point with located diagnostics and the two kind validators (docs/fusion-to-composite.md).
//
// Customization points: none; this header is for the concrete reference IR (`ref::module`). The
// generic pass is neuronrw/passes/fusion_to_composite.hpp.
//
//   diagnostics run_fusion_to_composite(ref::module&, const fusion_to_composite_options& = {});
//   diagnostics validate_fusion_kinds(const ref::module&);
//   diagnostics validate_composite_kinds(const ref::module&);
//
// Every diagnostic carries `file = m.source_name` and the op's location. Empty = success.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <neuronrw/algorithms/walk.hpp>
#include <neuronrw/descriptors/kind_registry.hpp>
#include <neuronrw/descriptors/kinds.hpp>
#include <neuronrw/diagnostic.hpp>
#include <neuronrw/ir/ref/diagnostics.hpp>
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/rewrite.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/diagnostics.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>

namespace neuronrw {

namespace ref_f2c_detail {

inline diagnostic located(const ref::module& m, ref::op_ref op, std::string message) {
  return diagnostic{m.source_name, m.loc(op), std::move(message)};
}

// Pre-order over every op of the module (ops nested in regions included).
template <class F>
void for_each_op(const ref::module& m, F&& f) {
  walk<walk_order::pre>(m, m.body(), f);
}

}  // namespace ref_f2c_detail

// ==================================================================================== the pass

/// FusionToComposite on the reference IR: plans with the generic pass (the reference IR answers
/// argument_block, so a body using a block argument from outside the fusion is refused too) and
/// applies only when nothing was refused, so a refused module is unchanged. The composite and its
/// decomposition keep the fusion's trailing `loc(...)`. Returns the refusals in walk order,
/// located at the fusion (or at the body op using a captured value), each saying its message
/// alone (to_diagnostics with refusal_style::message). Empty = applied.
template <class Registry = fusion_op_registry>
diagnostics run_fusion_to_composite(ref::module& m, const fusion_to_composite_options& opt = {}) {
  const auto plan = plan_fusion_to_composite<Registry>(std::as_const(m), opt);
  diagnostics out = to_diagnostics(m, plan, ref::op_locator{m}, {.style = refusal_style::message});
  if (!out.empty()) return out;
  // Trailing `loc(...)` texts survive: ref::replace_op and ref::outline_region copy them (the
  // fusion's to the composite and the function, its terminator's to the function's return).
  neuronrw::apply(m, plan);
  return out;
}

// ============================================================================== the validators

/// The MHLO FusionOp validator of the AWS Neuron compiler (docs/sources.md §"The fusion-name registry") over every fusion op of the module (nested ones and those
/// in decomposition functions included), in walk order: a FusionKind outside `Registry` gets
/// the registry's exact message (`Unexpected FusionOp type 'X'. Supported fusion types are: ...`).
/// A fusion without FusionKind is not reported (it lowers to "FusedComposite", which the
/// composite validator and the consumer reject).
template <class Registry = fusion_op_registry>
diagnostics validate_fusion_kinds(const ref::module& m) {
  diagnostics out;
  ref_f2c_detail::for_each_op(m, [&](ref::op_ref op) {
    if (m.kind(op) != kind_id_v<kinds::fusion>) return;
    auto* a = m.find_attribute(op, composite_schema::fusion_kind);
    if (!a) return;
    auto kind = ref::unquote(a->value);
    if (auto msg = Registry::validate(kind ? std::string_view(*kind) : std::string_view(a->value)))
      out.push_back(ref_f2c_detail::located(m, op, std::move(*msg)));
  });
  return out;
}

/// The StableHLO CompositeOp validator of the AWS Neuron compiler (docs/sources.md) over every composite op, in walk order: a
/// CompositeKind outside `Registry` (or none: reported as the empty kind '') gets the registry's
/// exact message (`Unexpected CompositeOp kind 'X'. Supported kinds are: ..., and DotSoftmax.`).
template <class Registry = composite_op_registry>
diagnostics validate_composite_kinds(const ref::module& m) {
  diagnostics out;
  ref_f2c_detail::for_each_op(m, [&](ref::op_ref op) {
    if (m.kind(op) != kind_id_v<kinds::composite>) return;
    auto* a = m.find_attribute(op, composite_schema::composite_kind);
    std::optional<std::string> kind = a ? ref::unquote(a->value) : std::optional<std::string>(std::string());
    if (auto msg = Registry::validate(kind ? std::string_view(*kind) : std::string_view(a->value)))
      out.push_back(ref_f2c_detail::located(m, op, std::move(*msg)));
  });
  return out;
}

}  // namespace neuronrw
