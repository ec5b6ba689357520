// neuronrw/passes/schedule_fusion/pattern.hpp — the compile-time co-scheduling pattern descriptor
// of ScheduleFusion: (producer collective, consumer collective, boundary set, walk budget, fusion
// kind). docs/schedule-fusion.md §"Declaring a pattern" shows how to declare one.
//
// Customization point: declare your own pattern in one line, e.g. for mixture-of-experts
// dispatch/combine:
//   using moe_overlap = neuronrw::co_schedule_pattern<neuronrw::kinds::all_to_all,
//       neuronrw::kinds::all_to_all, neuronrw::default_boundary_set, 64, "MoEOverlap">;
#pragma once

#include <concepts>
#include <cstddef>
#include <limits>
#include <string_view>

#include <neuronrw/algorithms/dependence_walk.hpp>  // boundary_set_like
#include <neuronrw/descriptors/boundary_set.hpp>
#include <neuronrw/descriptors/kinds.hpp>

namespace neuronrw {

/// A walk budget meaning "no bound".
inline constexpr std::size_t unbounded_budget = std::numeric_limits<std::size_t>::max();

/// A compile-time co-scheduling pattern (docs/schedule-fusion.md): the producer collective, the consumer
/// collective that uses it, the boundary set of the dependence walk, the walk budget
/// (`unbounded_budget` for none) and the FusionKind the grouping op carries.
template <kind_tag_type Producer, kind_tag_type Consumer, boundary_set_like BoundarySet = default_boundary_set,
          std::size_t Budget = 100, fixed_string FusionKind = "ScheduleFusion">
struct co_schedule_pattern {
  using producer = Producer;
  using consumer = Consumer;
  using boundary = BoundarySet;
  static constexpr std::size_t budget = Budget;
  static constexpr std::string_view fusion_kind = FusionKind.view();

  static_assert(BoundarySet::contains(kind_id_v<Producer>),
                "neuronrw::co_schedule_pattern: the producer kind must be in the boundary set, or "
                "the dependence walk would reach across another producer of the pattern. Fix: "
                "use BoundarySet::with<Producer> (descriptors/boundary_set.hpp).");
  static_assert(BoundarySet::contains(kind_id_v<Consumer>),
                "neuronrw::co_schedule_pattern: the consumer kind must be in the boundary set, or "
                "the dependence walk would reach across another consumer of the pattern. Fix: "
                "use BoundarySet::with<Consumer> (descriptors/boundary_set.hpp).");
  static_assert(FusionKind.size() > 0, "neuronrw::co_schedule_pattern: the fusion kind name is empty");
};

/// The instance of the AWS Neuron compiler (docs/sources.md §"ScheduleFusion"): all_gather →
/// reduce_scatter, the four-collective boundary, budget 100.
using schedule_fusion_pattern =
    co_schedule_pattern<kinds::all_gather, kinds::reduce_scatter, default_boundary_set, 100, "ScheduleFusion">;

template <class P>
concept co_schedule_pattern_like = requires {
  typename P::producer;
  typename P::consumer;
  typename P::boundary;
  { P::budget } -> std::convertible_to<std::size_t>;
  { P::fusion_kind } -> std::convertible_to<std::string_view>;
} && kind_tag_type<typename P::producer> && kind_tag_type<typename P::consumer> &&
                                  boundary_set_like<typename P::boundary>;

}  // namespace neuronrw
