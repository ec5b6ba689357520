// neuronrw/passes/schedule_fusion/plan.hpp — ScheduleFusion's options and its plan: plain data the
// planner fills, apply performs, describe prints and tests read (docs/schedule-fusion.md §"The plan").
//
// Customization points: none (schedule_fusion_options is filled with designated initializers).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <neuronrw/algorithms/dominance_repair.hpp>
#include <neuronrw/concepts/ir.hpp>
#include <neuronrw/passes/protocol.hpp>
#include <neuronrw/passes/options.hpp>

namespace neuronrw {

/// Run-time options; fill with designated initializers.
struct schedule_fusion_options {
  /// The grouping op and its region terminator. StableHLO has no fusion op, so these are the
  /// MHLO names for both flavours (docs/schedule-fusion.md §"StableHLO"); the matcher itself is
  /// dialect-neutral (it reads kinds: `stablehlo.all_gather` is an all_gather too).
  std::string_view group_op_name = "mhlo.fusion";
  std::string_view terminator_name = "mhlo.return";
  /// Overrides the pattern's FusionKind (the grouping op's FusionKind and the composites'
  /// CompositeKind); empty = the pattern's.
  std::string_view fusion_kind = {};
  /// Overrides the pattern's walk budget; `unbounded_budget` = no bound.
  std::optional<std::size_t> budget = std::nullopt;
  /// When the pass finds the functions itself (`functions(g)`), functions carrying this
  /// attribute are skipped: by default FusionToComposite's decompositions, whose bodies are
  /// already-scheduled fusion bodies. Empty = skip none.
  std::string_view skip_functions_with = "genComposite";
  /// plan_schedule_fusion_composites only: decompositions are named <composite_prefix><N>.
  std::string_view composite_prefix = "hilo.FusedComposite.";
  /// The pattern from a pipeline string (docs/schedule-fusion.md §"Patterns from a pipeline"):
  /// override the pattern's producer and consumer kinds (kind names, read canonically) and its
  /// boundary set (comma-separated kind names). Empty = the pattern's. A boundary left empty while
  /// the producer or consumer is given is the pattern's plus those two kinds.
  /// check_schedule_fusion_options says what is wrong with them.
  std::string_view producer = {};
  std::string_view consumer = {};
  std::string_view boundary = {};
};

/// The options neuronrw-opt and the MLIR passes offer, declared once (passes/options.hpp).
template <>
inline constexpr auto option_schema_v<schedule_fusion_options> = std::array{
    option_field<schedule_fusion_options>{
        .name = "budget", .type = option_type::uint64, .default_text = "100",  // the pattern's
        .help = "Most ops the dependence walk may visit per candidate",
        .member = option_member<&schedule_fusion_options::budget>,
        .mlir_help = "Most ops the dependence walk may visit per candidate (default: the pattern's)",
        .open_default = true},
    option_field<schedule_fusion_options>{
        .name = "boundary", .type = option_type::string,
        .default_text = "all_gather,reduce_scatter,all_reduce,all_to_all",  // the pattern's
        .help = "The kinds the dependence walk stops at, comma-separated (must hold producer and consumer)",
        .check = option_check::kind_list, .member = option_member<&schedule_fusion_options::boundary>,
        .open_default = true},
    option_field<schedule_fusion_options>{
        .name = "consumer", .type = option_type::string, .default_text = "reduce_scatter",  // the pattern's
        .help = "The kind of the collective that uses the producer", .check = option_check::kind_name,
        .member = option_member<&schedule_fusion_options::consumer>, .open_default = true},
    option_field<schedule_fusion_options>{
        .name = "dry-run", .type = option_type::boolean, .default_text = "false",
        .help = "Print the plan (clusters, moves, refusals) instead of the program; change nothing",
        .mlir_help = "Emit the plan as remarks (clusters and refusals); change nothing"},
    option_field<schedule_fusion_options>{
        .name = "fusion-kind", .alias = "kind", .type = option_type::string,
        .default_text = "ScheduleFusion",  // the pattern's
        .help = "The FusionKind (CompositeKind) clusters carry", .check = option_check::non_empty,
        .member = option_member<&schedule_fusion_options::fusion_kind>,
        .mlir_help = "The FusionKind (CompositeKind) clusters carry (default: the pattern's)",
        .open_default = true},
    option_field<schedule_fusion_options>{
        .name = "group-op", .type = option_type::string, .default_text = "mhlo.fusion",
        .help = "The grouping op each cluster becomes", .check = option_check::op_name,
        .member = option_member<&schedule_fusion_options::group_op_name>},
    option_field<schedule_fusion_options>{
        .name = "producer", .type = option_type::string, .default_text = "all_gather",  // the pattern's
        .help = "The kind of the collective the consumer uses", .check = option_check::kind_name,
        .member = option_member<&schedule_fusion_options::producer>, .open_default = true},
    option_field<schedule_fusion_options>{
        .name = "remarks", .type = option_type::boolean, .default_text = "false",
        .help = "Emit a remark for every refused candidate, naming the reason"},
    option_field<schedule_fusion_options>{
        .name = "skip-functions-with", .type = option_type::string, .default_text = "genComposite",
        .help = "Skip functions carrying this attribute (empty: skip none)",
        .member = option_member<&schedule_fusion_options::skip_functions_with>},
    option_field<schedule_fusion_options>{
        .name = "symbol-prefix", .type = option_type::string, .default_text = "hilo.FusedComposite.",
        .help = "Decompositions are named <symbol-prefix><N> (schedule-fusion-composites; schedule-fusion makes none)",
        .check = option_check::non_empty,
        .member = option_member<&schedule_fusion_options::composite_prefix>},
    option_field<schedule_fusion_options>{
        .name = "terminator", .type = option_type::string, .default_text = "mhlo.return",
        .help = "The terminator of the grouping op's region", .check = option_check::terminator,
        .member = option_member<&schedule_fusion_options::terminator_name>},
};
static_assert(check_option_defaults(option_schema_v<schedule_fusion_options>));

/// Why a candidate consumer was not clustered. Every refusal names the op concerned.
enum class schedule_refusal : std::uint8_t {
  no_producer_operand,  ///< no operand is defined by a producer-kind op          (op = consumer)
  already_fused,        ///< the consumer's parent op is a fusion                 (op = that fusion)
  producer_claimed,     ///< the producer belongs to an earlier cluster          (op = producer)
  different_block,      ///< the producer lies in another block                  (op = producer)
  budget_exceeded,      ///< the walk would visit more than `budget` ops          (op = consumer)
  non_convex,           ///< an op outside the cluster lies on a path P → C       (op = that op)
  splits_cluster,       ///< an earlier cluster would have to be split: one of its members uses
                        ///< the producer, another feeds the consumer (op = the one the consumer uses)
  reschedule_refused,   ///< the dominance repair refused (see `repair`)          (op = its offender)
};

constexpr std::string_view to_string(schedule_refusal r) noexcept {
  switch (r) {
    case schedule_refusal::no_producer_operand: return "no_producer_operand";
    case schedule_refusal::already_fused: return "already_fused";
    case schedule_refusal::producer_claimed: return "producer_claimed";
    case schedule_refusal::different_block: return "different_block";
    case schedule_refusal::budget_exceeded: return "budget_exceeded";
    case schedule_refusal::non_convex: return "non_convex";
    case schedule_refusal::splits_cluster: return "splits_cluster";
    case schedule_refusal::reschedule_refused: return "reschedule_refused";
  }
  return "unknown";
}

/// What the op a refusal names is, in words: the note a diagnostic about the refusal attaches at
/// that op (to_diagnostics, passes/diagnostics.hpp) when it is not the candidate itself.
constexpr std::string_view note_text(schedule_refusal r) noexcept {
  switch (r) {
    case schedule_refusal::no_producer_operand: return "the candidate";
    case schedule_refusal::already_fused: return "the fusion the candidate is already in";
    case schedule_refusal::producer_claimed: return "its producer, already in an earlier cluster";
    case schedule_refusal::different_block: return "its producer, in another block";
    case schedule_refusal::budget_exceeded: return "the candidate";
    case schedule_refusal::non_convex: return "this op depends on the producer and feeds the candidate";
    case schedule_refusal::splits_cluster: return "this member of an earlier cluster feeds the candidate";
    case schedule_refusal::reschedule_refused: return "the op the dominance repair could not move";
  }
  return "the op concerned";
}

/// The plan of one run: plain data, in walk order. Handles refer to the IR as it was planned:
/// apply the plan to that IR, unchanged. Models pass_plan (passes/protocol.hpp).
template <class Op, class Value>
struct schedule_fusion_plan {
  static constexpr std::size_t none = static_cast<std::size_t>(-1);

  struct cluster {
    std::size_t candidate = 0;  ///< position of its consumer in the walk (over all candidates)
    std::size_t unit = 0;       ///< index into `units`
    /// [producer, consumer, get_tuple_element...]: the fusion body, in body order.
    std::vector<Op> ops;
    /// The window ops that transitively use the producer: moved, in order, after the cluster.
    std::vector<Op> carried;
    /// Every move, in apply order (the sink, then the get_tuple_element hoists).
    std::vector<op_move<Op>> moves;
    std::vector<Value> live_ins;   ///< the grouping op's operands, in first-use order
    std::vector<Value> live_outs;  ///< its results: cluster results used outside, op/result order
    std::size_t walked = 0;        ///< ops the dependence walk visited
    std::string decomposition;     ///< composites entry point: the decomposition's symbol, no '@'

    Op producer() const { return ops[0]; }
    Op consumer() const { return ops[1]; }
  };

  /// {code, op, message} (see schedule_refusal for the op each code names), plus the details
  /// a dry run prints.
  struct refusal_record : refusal<schedule_refusal, Op> {
    std::size_t candidate = 0;
    std::size_t unit = 0;
    Op consumer{};  ///< the candidate
    /// non_convex: one violating path runs path_from → ... → op → ... → path_to (cluster
    /// members). Null otherwise.
    Op path_from{};
    Op path_to{};
    std::size_t cluster = none;    ///< producer_claimed, splits_cluster: the earlier cluster
    repair_refusal repair = repair_refusal::none;  ///< reschedule_refused: the repair's reason
  };

  std::string producer_kind, consumer_kind;  ///< the pattern's kind names (the options', when they override it)
  std::string fusion_kind;
  std::string group_op_name, terminator_name;
  std::size_t budget = 0;                         ///< the effective budget
  /// The walked roots: the op owning each root block (its function), null when unknown.
  std::vector<Op> units;
  std::string skip_attribute;         ///< copied from the options
  std::vector<Op> skipped_functions;  ///< functions carrying `skip_attribute`
  std::vector<cluster> clusters;
  std::vector<refusal_record> refused;
  /// Made by plan_schedule_fusion_composites: apply lowers each fusion to a composite.
  bool emit_composites = false;
  /// emit_composites: the clusters in lowering (and numbering) order — a cluster nested in a
  /// cluster op's region before the enclosing one, plan order otherwise.
  std::vector<std::size_t> composite_order;

  std::size_t candidates() const noexcept { return clusters.size() + refused.size(); }
  /// True when applying the plan changes the IR.
  bool has_changes() const noexcept { return !clusters.empty(); }
  std::span<const cluster> changes() const noexcept { return clusters; }
  std::span<const refusal_record> refusals() const noexcept { return refused; }
};

template <class G>
using schedule_fusion_plan_t = schedule_fusion_plan<op_handle_t<G>, value_handle_t<G>>;

}  // namespace neuronrw
