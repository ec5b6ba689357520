// neuronrw/passes/composite_lowering.hpp — the lowering of fusions to composites that
// FusionToComposite and ScheduleFusion's composites flavour share (docs/fusion-to-composite.md
// §"The rewrite", §"Schema"): per record, in order,
//   1. outline_region: a private function @<decomposition> cloned from the fusion's region,
//      attributes {genComposite = true, noDelete = true};
//   2. replace_op: the composite op just before the fusion, with the fusion's operands and result
//      types and the schema's attributes in ASCII order (CompositeKind, composite_attributes,
//      decomposition, name, version), every use rewired to it;
//   3. erase_op: the fusion.
// A record is anything with `fusion` (op handle), `decomposition` (symbol, no '@') and
// `composite_kind` (unquoted) members: FusionToComposite's conversions, ScheduleFusion's
// composite_record. Not a pass: its API is public and both passes call it.
//
// Customization points: none; needs outlinable_ir. Steps: the step counter of
// passes/transaction.hpp (one step per outline_region, replace_op and erase_op), so the gated
// applies roll back what was done. Complexity: the IR's outline + replace + erase per record;
// decomposition_names_taken is O(records² + has_symbol queries).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/concepts/attribute.hpp>

namespace neuronrw {

/// The attribute names and fixed values of the schema (docs/fusion-to-composite.md §"Schema").
namespace composite_schema {
inline constexpr std::string_view fusion_kind = "FusionKind";          ///< on the fusion
inline constexpr std::string_view composite_kind = "CompositeKind";    ///< on the composite
inline constexpr std::string_view default_kind = "FusedComposite";     ///< no FusionKind
inline constexpr std::string_view composite_name = "composite.Fused";  ///< for every kind
inline constexpr std::string_view gen_composite = "genComposite";      ///< on decompositions
inline constexpr std::string_view no_delete = "noDelete";              ///< on decompositions
}  // namespace composite_schema

/// What the lowering created for one record.
template <class Op>
struct applied_conversion {
  Op composite;
  Op decomposition;
};

/// A fusion to lower, when the caller has no record of its own (ScheduleFusion's groupings).
template <class Op>
struct composite_record {
  Op fusion;
  std::string decomposition;   ///< symbol, without '@'
  std::string composite_kind;  ///< unquoted
};

/// Lowers every record, in order (see the header comment); stops at a step the counter refuses.
/// Returns what was created, one entry per record lowered.
template <class G, class Records, class Steps>
std::vector<applied_conversion<op_handle_t<G>>> lower_to_composites(G& g, const Records& records,
                                                                    std::string_view composite_op_name, Steps& steps) {
  std::vector<applied_conversion<op_handle_t<G>>> out;
  out.reserve(std::size(records));
  const named_attribute fn_attrs[] = {{composite_schema::gen_composite, attr::boolean{true}},
                                      {composite_schema::no_delete, attr::boolean{true}}};
  for (const auto& c : records) {
    // Outline first: the clone reads the fusion's region, which erase_op destroys.
    if (!steps.next("outline_region")) return out;
    auto fn = ir::outline_region(g, outline_request<op_handle_t<G>>{c.fusion, c.decomposition, fn_attrs});
    const named_attribute attrs[] = {{composite_schema::composite_kind, attr::string{c.composite_kind}},
                                     {"composite_attributes", attr::empty_dictionary{}},
                                     {"decomposition", attr::symbol{c.decomposition}},
                                     {"name", attr::string{composite_schema::composite_name}},
                                     {"version", attr::integer{0, 32}}};
    if (!steps.next("replace_op")) return out;
    auto comp = ir::replace_op(g, replace_request<op_handle_t<G>>{c.fusion, composite_op_name, attrs});
    if (!steps.next("erase_op")) return out;
    ir::erase_op(g, c.fusion);
    out.push_back({comp, fn});
  }
  return out;
}

/// Why the records' decomposition names cannot be created in `g` (one the IR already defines, or
/// one given twice), or nullopt when they are all free.
template <class G, class Records>
std::optional<std::string> decomposition_names_taken(const G& g, const Records& records) {
  std::size_t i = 0;
  for (auto it = std::begin(records); it != std::end(records); ++it, ++i) {
    const auto& n = it->decomposition;
    if (ir::has_symbol(g, n))
      return "the decomposition name " + mlir_symbol_reference(n) +
             " is already defined: the plan was not made on this IR as it is now";
    for (auto jt = std::begin(records); jt != it; ++jt)
      if (jt->decomposition == n) return "the decomposition name " + mlir_symbol_reference(n) + " is planned twice";
  }
  return std::nullopt;
}

}  // namespace neuronrw
