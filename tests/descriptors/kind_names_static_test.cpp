// Compile-time facts of descriptors/kind_names.hpp: canonical ids are computed in the constant
// evaluator and equal the ids of the canonical names (kinds.hpp).
#include <neuronrw/descriptors/kind_names.hpp>

namespace {
using namespace neuronrw;

static_assert(canonical_kind_id("all_gather") == kind_id_v<kinds::all_gather>);
static_assert(canonical_kind_id("AllGather") == kind_id_v<kinds::all_gather>);
static_assert(canonical_kind_id("all-gather") == kind_id_v<kinds::all_gather>);
static_assert(canonical_kind_id("ALL_GATHER") == kind_id_v<kinds::all_gather>);
static_assert(canonical_kind_id("CollectivePermute") == kind_id_v<kinds::collective_permute>);
static_assert(canonical_kind_id("HLOAllReduce") == kind_id_of("hlo_all_reduce"));
static_assert(op_name_kind("mhlo.all_gather") == kind_id_v<kinds::all_gather>);
static_assert(op_name_kind("stablehlo.reduce_scatter") == kind_id_v<kinds::reduce_scatter>);
static_assert(op_name_kind("xla.all-to-all") == kind_id_v<kinds::all_to_all>);
static_assert(op_name_kind("func.return") == kind_id_v<kinds::return_>);
static_assert(op_name_kind("reduce-scatter") == kind_id_v<kinds::reduce_scatter>);
static_assert(op_name_kind("mycc.gather") != kind_id_v<kinds::all_gather>);
static_assert(op_name_kind("") != unknown_kind);
static_assert(is_canonical_kind_name("all_gather") && is_canonical_kind_name("_x9"));
static_assert(!is_canonical_kind_name("") && !is_canonical_kind_name("9x") && !is_canonical_kind_name("All") &&
              !is_canonical_kind_name("a-b") && !is_canonical_kind_name("a.b"));
static_assert([] {
  runtime_boundary_set s;
  s.add(kind_id_v<kinds::all_gather>);
  s.add(kind_id_v<kinds::all_gather>);
  return s.count == 1 && s.contains(kind_id_v<kinds::all_gather>) && !s.contains(kind_id_v<kinds::all_reduce>);
}());
// The library's kinds are listed, sorted, each once.
static_assert([] {
  for (std::size_t i = 1; i < library_kind_names.size(); ++i)
    if (!(library_kind_names[i - 1] < library_kind_names[i])) return false;
  return true;
}());
}  // namespace
