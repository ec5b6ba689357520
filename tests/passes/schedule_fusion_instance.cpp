// The instances tests/passes/schedule_fusion_instantiate_test.cpp declares extern: ScheduleFusion
// over the reference IR, for ScheduleFusion's own pattern and the tests' mixture-of-experts
// pattern, compiled here once (neuronrw/passes/schedule_fusion/instantiate.hpp).
#include <neuronrw/ir/ref/ir.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/schedule_fusion/instantiate.hpp>

#include "passes/schedule_fusion_support.hpp"

NEURONRW_INSTANTIATE_SCHEDULE_FUSION(::neuronrw::ref::module);
NEURONRW_INSTANTIATE_SCHEDULE_FUSION_PLAN(::sf_support::moe_pattern, ::neuronrw::ref::module);
