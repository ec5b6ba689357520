// neuronrw/passes/schedule_fusion.hpp — ScheduleFusion, and every other compile-time co-scheduling
// pattern: make a producer collective and the consumer collective that uses it adjacent, legally
// rescheduling the compute around them (comm-compute overlap), and group them into one fusion
// tagged with the pattern's kind. docs/schedule-fusion.md has the semantics with examples, the
// plan format, the refusal codes, and how to declare a new pattern.
//
// The pass in four pieces, each with one responsibility:
//   schedule_fusion/pattern.hpp   the compile-time pattern descriptor (co_schedule_pattern)
//   schedule_fusion/plan.hpp      options and the plan (plain data)
//   schedule_fusion/planner.hpp   plan_schedule_fusion, plan_schedule_fusion_composites
//   schedule_fusion/apply.hpp     apply, schedule_fusion, schedule_fusion_composites
//   schedule_fusion/describe.hpp  describe(g, plan, op_printer): the dry run's text
//   schedule_fusion/pass.hpp      the descriptors passes::schedule_fusion[_composites]: name,
//                                 options, entry points, per-function parts (passes/protocol.hpp)
//
// Protocol (passes/protocol.hpp):
//   auto p = neuronrw::plan_schedule_fusion(g);   // reads only: clusters, moves, refusals
//   neuronrw::apply(g, p);                         // all moves, then all groupings
// or `neuronrw::schedule_fusion(g)`, which does both and returns the plan. A dry run is the plan
// alone, printed by describe. ScheduleFusion followed by composite outlining (the StableHLO
// flavour) is its own entry point, plan_schedule_fusion_composites / schedule_fusion_composites,
// which needs outlinable_ir at compile time.
//
// Customization points: the IR (any groupable_ir; planning alone: any ordered_ir), the pattern,
// the options; see the pieces.
// The reference IR's entry points and printer: neuronrw/ir/ref/schedule_fusion.hpp.
#pragma once

#include <neuronrw/passes/schedule_fusion/apply.hpp>
#include <neuronrw/passes/schedule_fusion/describe.hpp>
#include <neuronrw/passes/schedule_fusion/pass.hpp>
#include <neuronrw/passes/schedule_fusion/pattern.hpp>
#include <neuronrw/passes/schedule_fusion/plan.hpp>
#include <neuronrw/passes/schedule_fusion/planner.hpp>
