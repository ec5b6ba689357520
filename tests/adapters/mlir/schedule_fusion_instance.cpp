// The instances tests/adapters/mlir/schedule_fusion_instantiate_test.cpp declares extern:
// ScheduleFusion over the MLIR adapter, for ScheduleFusion's own pattern and the corpus's
// mixture-of-experts pattern, and apply, compiled here once with LLVM's flags
// (neuronrw/passes/schedule_fusion/instantiate.hpp).
#include <neuronrw/adapters/mlir/traits.hpp>
#include <neuronrw/passes/schedule_fusion/instantiate.hpp>

#include "adapters/mlir/differential_support.hpp"

NEURONRW_INSTANTIATE_SCHEDULE_FUSION(::neuronrw::mlir_adapter::ir);
NEURONRW_INSTANTIATE_SCHEDULE_FUSION_PLAN(::diff::moe_pattern, ::neuronrw::mlir_adapter::ir);
