// neuronrw/ir/ref/syntax/op_table.hpp — the op-syntax table of the reference IR: every op of
// StableHLO (its ODS definitions as of StableHLO 1.20), of XLA's MHLO, of CHLO and of Shardy, and
// MLIR's arith arithmetic, casts and constants (operands, results, inherent attributes, regions
// and assembly format), so that the reference IR reads and prints programs as JAX and XLA print
// them. docs/stablehlo.md lists the ops with their status.
//
// Customization points: none; an op is added by adding one entry (see `op_syntax_decl` in
// ir/ref/syntax/op_syntax.hpp for the notation).
//
// Design: the entries are plain data, compiled once on first use into `op_syntax` values kept
// in a name-sorted vector (lookup by binary search; nothing is iterated in an order that
// depends on addresses).
#pragma once

#include <algorithm>
#include <iterator>
#include <span>
#include <string_view>
#include <vector>

#include <neuronrw/ir/ref/syntax/op_syntax.hpp>

namespace neuronrw::ref {

/// StableHLO: one entry per op of StablehloOps.td (the specification's ops and the deprecated
/// ones still printed by exporters). An empty format: the op has no custom form and prints in
/// the generic form with properties, as StableHLO prints it.
inline constexpr op_syntax_decl stablehlo_op_syntax[] = {
    {"stablehlo.constant", "", "output", "value: any", "", "", "constant"},
    {"stablehlo.iota", "", "output", "iota_dimension: i64", "", "`dim` `=` $iota_dimension attr-dict `:` type($output)"},
    {"stablehlo.dynamic_iota", "output_shape", "result", "iota_dimension: i64", "", "$output_shape `,` `dim` `=` $iota_dimension attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.create_token", "", "output", "", "", "attr-dict `:` type(results)"},
    {"stablehlo.abs", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.cbrt", "operand", "result", "result_accuracy?: any", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.ceil", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.convert", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.count_leading_zeros", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.cosine", "operand", "result", "result_accuracy?: any", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.exponential", "operand", "result", "result_accuracy?: any", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.exponential_minus_one", "operand", "result", "result_accuracy?: any", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.floor", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.imag", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.is_finite", "x", "y", "", "", "operands attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.log", "operand", "result", "result_accuracy?: any", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.log_plus_one", "operand", "result", "result_accuracy?: any", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.logistic", "operand", "result", "result_accuracy?: any", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.not", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.negate", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.popcnt", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.real", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.round_nearest_afz", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.round_nearest_even", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.rsqrt", "operand", "result", "result_accuracy?: any", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.sign", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.sine", "operand", "result", "result_accuracy?: any", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.sqrt", "operand", "result", "result_accuracy?: any", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.tan", "operand", "result", "result_accuracy?: any", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.tanh", "operand", "result", "result_accuracy?: any", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.add", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"stablehlo.atan2", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"stablehlo.complex", "lhs, rhs", "result", "", "", "operands attr-dict `:` custom<ComplexOpType>(type($lhs), type($rhs), type($result))"},
    {"stablehlo.divide", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"stablehlo.maximum", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"stablehlo.minimum", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"stablehlo.multiply", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"stablehlo.power", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"stablehlo.remainder", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"stablehlo.shift_left", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"stablehlo.shift_right_arithmetic", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"stablehlo.shift_right_logical", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"stablehlo.subtract", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"stablehlo.and", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"stablehlo.or", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"stablehlo.xor", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"stablehlo.infeed", "token", "results*", "infeed_config: any, layout?: any", "", ""},
    {"stablehlo.outfeed", "inputs*, token", "result", "outfeed_config: any", "", ""},
    {"stablehlo.send", "inputs*, token", "result", "channel_handle: any, is_host_transfer?: bool = false, source_target_pairs?: any", "", ""},
    {"stablehlo.recv", "token", "results*", "channel_handle: any, is_host_transfer?: bool = false, source_target_pairs?: any", "", ""},
    {"stablehlo.replica_id", "", "result", "", "", "attr-dict `:` type(results)"},
    {"stablehlo.partition_id", "", "result", "", "", "attr-dict `:` type(results)"},
    {"stablehlo.after_all", "inputs*", "result", "", "", "$inputs attr-dict `:` custom<VariadicSameOperandsAndResultType>(ref($inputs), type($inputs), type($result))"},
    {"stablehlo.if", "pred", "results*", "", "true_branch, false_branch", ""},
    {"stablehlo.case", "index", "results*", "", "branches*", ""},
    {"stablehlo.while", "operand*", "results*", "", "cond, body", "", "while"},
    {"stablehlo.all_gather", "operands*", "results*", "all_gather_dim: i64, replica_groups: any, channel_handle?: any, use_global_device_ids?: any", "", ""},
    {"stablehlo.all_reduce", "operands*", "results*", "replica_groups: any, channel_handle?: any, use_global_device_ids?: any", "computation", ""},
    {"stablehlo.reduce_scatter", "operand", "result", "scatter_dimension: i64, replica_groups: any, channel_handle?: any, use_global_device_ids?: any", "computation", ""},
    {"stablehlo.all_to_all", "operands*", "results*", "split_dimension: i64, concat_dimension: i64, split_count: i64, replica_groups: any, channel_handle?: any", "", ""},
    {"stablehlo.reduce", "inputs*, init_values*", "results*", "dimensions: i64s", "body", "", "reduce"},
    {"stablehlo.async_start", "operands*", "result", "", "body", ""},
    {"stablehlo.async_done", "operand", "result", "", "", ""},
    {"stablehlo.get_tuple_element", "operand", "result", "index: i32", "", "$operand `[` $index `]` attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.tuple", "val*", "result", "", "", "$val attr-dict `:` custom<TupleOpType>(type($val), type($result))"},
    {"stablehlo.compare", "lhs, rhs", "result", "comparison_direction: enum stablehlo comparison_direction, compare_type?: enum stablehlo comparison_type", "", "$comparison_direction `,` $lhs `,` $rhs (`,` $compare_type^)? attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.slice", "operand", "result", "start_indices: i64s, limit_indices: i64s, strides: i64s", "", "$operand custom<SliceRanges>($start_indices, $limit_indices, $strides) attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.dynamic_slice", "operand, start_indices*", "result", "slice_sizes: i64s", "", "$operand `,` custom<VariadicOperandWithAttribute>($start_indices) `sizes` `=` $slice_sizes attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.dynamic_update_slice", "operand, update, start_indices*", "result", "", "", "operands attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.batch_norm_grad", "operand, scale, mean, variance, grad_output", "grad_operand, grad_scale, grad_offset", "epsilon: any, feature_index: i64", "", ""},
    {"stablehlo.batch_norm_inference", "operand, scale, offset, mean, variance", "result", "epsilon: any, feature_index: i64", "", ""},
    {"stablehlo.batch_norm_training", "operand, scale, offset", "output, batch_mean, batch_var", "epsilon: any, feature_index: i64", "", ""},
    {"stablehlo.bitcast_convert", "operand", "result", "", "", "operands attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.broadcast", "operand", "result", "broadcast_sizes: i64s", "", "$operand `,` `sizes` `=` $broadcast_sizes attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.broadcast_in_dim", "operand", "result", "broadcast_dimensions: i64s", "", "$operand `,` `dims` `=` $broadcast_dimensions attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.dynamic_broadcast_in_dim", "operand, output_dimensions", "result", "broadcast_dimensions: i64s, known_expanding_dimensions?: i64s, known_nonexpanding_dimensions?: i64s", "", "$operand `,` $output_dimensions `,` `dims` `=` $broadcast_dimensions attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.cholesky", "a", "result", "lower?: bool = false", "", "$a (`,` `lower` `=` $lower^)? attr-dict `:` custom<SameOperandsAndResultType>(type($a), type($result))"},
    {"stablehlo.clamp", "min, operand, max", "result", "", "", "$min `,` $operand `,` $max attr-dict `:` custom<SameOperandsAndResultType>(type($min), type($operand), type($max), type($result))"},
    {"stablehlo.concatenate", "inputs*", "result", "dimension: i64", "", "custom<VariadicOperandWithAttribute>($inputs) `dim` `=` $dimension attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.collective_broadcast", "operands*", "results*", "replica_groups: any, channel_handle?: any, has_dynamic_root?: any", "", ""},
    {"stablehlo.collective_reduce", "operands*", "results*", "replica_groups: any, channel_handle?: any, use_global_device_ids?: any, has_dynamic_root?: any", "computation", ""},
    {"stablehlo.collective_permute", "operand", "result", "source_target_pairs: any, channel_handle?: any", "", ""},
    {"stablehlo.composite", "inputs*", "results*", "name: str, composite_attributes?: any = {}, decomposition: sym, version?: i32 = 0 : i32", "composite_regions*", "$name operands (` ` `(` $composite_regions^ `)`)? attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.convolution", "lhs, rhs", "result", "window_strides?: i64s, padding?: any, lhs_dilation?: i64s, rhs_dilation?: i64s, window_reversal?: bools, dimension_numbers: any, feature_group_count: i64, batch_group_count: i64, precision_config?: any", "", "`(`operands`)` `dim_numbers` `=` custom<ConvolutionDimensions>($dimension_numbers) `,` `window` `=` `{` custom<WindowAttributes>($window_strides, $padding, $lhs_dilation, $rhs_dilation, $window_reversal) `}` attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.cross-replica-sum", "operand", "result", "replica_groups: any", "", ""},
    {"stablehlo.custom_call", "inputs*", "results*", "call_target_name: str, has_side_effect?: bool = false, backend_config?: any, api_version?: any = 1 : i32, called_computations?: any = [], operand_layouts?: any, result_layouts?: any, output_operand_aliases?: any = [], result_tilings?: any", "", "custom<CustomCallTarget>($call_target_name) `(` $inputs `)` attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.dot", "lhs, rhs", "result", "precision_config?: any", "", "$lhs `,` $rhs `` custom<PrecisionConfig>($precision_config) attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.dot_general", "lhs, rhs", "result", "dot_dimension_numbers: any, precision_config?: any, algorithm?: any", "", "$lhs `,` $rhs `,` custom<DotDimensionNumbers>($dot_dimension_numbers) `` custom<PrecisionConfigAndAlgorithm>($precision_config, $algorithm) attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.einsum", "lhs, rhs", "result", "einsum_config: str", "", "$lhs `,` $rhs `,` `config` `=` $einsum_config attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.unary_einsum", "operand", "result", "einsum_config: str", "", "$operand `,` `config` `=` $einsum_config attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.fft", "operand", "result", "fft_type: enum stablehlo fft_type, fft_length: i64s", "", "$operand `,` `type` `=` $fft_type `,` `length` `=` $fft_length attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.gather", "operand, start_indices", "result", "dimension_numbers: any, slice_sizes: i64s, indices_are_sorted?: bool = false", "", ""},
    {"stablehlo.get_dimension_size", "operand", "result", "dimension: i64", "", "$operand `,` `dim` `=` $dimension attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.map", "inputs*", "result", "dimensions: i64s", "computation", ""},
    {"stablehlo.reshape", "operand", "result", "", "", "operands attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.dynamic_reshape", "operand, output_shape", "result", "", "", "operands attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.scatter", "inputs*, scatter_indices, updates*", "results*", "scatter_dimension_numbers: any, indices_are_sorted?: bool = false, unique_indices?: bool = false", "update_computation", ""},
    {"stablehlo.select", "pred, on_true, on_false", "result", "", "", "operands attr-dict `:` custom<SelectOpType>(type($pred), type($on_true), type($on_false), type($result))"},
    {"stablehlo.select_and_scatter", "operand, source, init_value", "result", "window_dimensions?: i64s, window_strides?: i64s, padding?: any", "select, scatter", ""},
    {"stablehlo.set_dimension_size", "operand, size", "result", "dimension: i64", "", "$operand `,` $size `,` `dim` `=` $dimension attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.sort", "inputs*", "results*", "dimension?: i64 = -1 : i64, is_stable?: bool = false", "comparator", ""},
    {"stablehlo.reverse", "operand", "result", "dimensions: i64s", "", "$operand `,` `dims` `=` $dimensions attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.pad", "operand, padding_value", "result", "edge_padding_low: i64s, edge_padding_high: i64s, interior_padding: i64s", "", "$operand `,` $padding_value `,` `low` `=` $edge_padding_low `,` `high` `=` $edge_padding_high `,` `interior` `=` $interior_padding attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.transpose", "operand", "result", "permutation: i64s", "", "$operand `,` `dims` `=` $permutation attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.triangular_solve", "a, b", "result", "left_side: bool, lower: bool, unit_diagonal: bool, transpose_a: enum stablehlo transpose", "", ""},
    {"stablehlo.reduce_window", "inputs*, init_values*", "results*", "window_dimensions: i64s, window_strides?: i64s, base_dilations?: i64s, window_dilations?: i64s, padding?: any", "body", ""},
    {"stablehlo.return", "results*", "", "", "", "$results attr-dict (`:` type($results)^)?"},
    {"stablehlo.torch_index_select", "operand, index", "result", "dim: i64, batch_dims: i64", "", ""},
    {"stablehlo.optimization_barrier", "operand*", "result*", "", "", "attr-dict ($operand^ `:` custom<PairwiseOpType>(type($operand), type($result))):(`(` `)`)?"},
    {"stablehlo.rng", "a, b, shape", "result", "rng_distribution: enum stablehlo rng_distribution", "", "$a `,` $b `,` $shape `,` `distribution` `=` $rng_distribution attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.rng_bit_generator", "initial_state", "output_state, output", "rng_algorithm: enum stablehlo rng_algorithm", "", "$initial_state `,` `algorithm` `=` $rng_algorithm attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.uniform_quantize", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.uniform_dequantize", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.reduce_precision", "operand", "output", "exponent_bits: i32, mantissa_bits: i32", "", "$operand `,` `format` `=` custom<ExponentMantissa>($exponent_bits, $mantissa_bits) attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($output))"},
    {"stablehlo.real_dynamic_slice", "operand, start_indices, limit_indices, strides", "result", "", "", "operands attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.dynamic_pad", "operand, padding_value, edge_padding_low, edge_padding_high, interior_padding", "result", "", "", "operands attr-dict `:` functional-type(operands, results)"},
    {"stablehlo.dynamic_gather", "operand, start_indices, slice_sizes", "result", "dimension_numbers: any, indices_are_sorted?: bool = false", "", ""},
    {"stablehlo.dynamic_conv", "lhs, rhs, padding", "result", "window_strides?: i64s, lhs_dilation?: i64s, rhs_dilation?: i64s, window_reversal?: bools, dimension_numbers: any, feature_group_count: i64, batch_group_count: i64, precision_config?: any", "", ""},
};

/// MHLO: one entry per op of XLA's hlo_ops.td (the dialect XLA's MLIR pipelines, and the
/// original compiler's ScheduleFusion, consume), printed as XLA prints it: the same custom forms
/// where MHLO declares them, with MHLO's attribute kinds (dense elements where StableHLO has
/// arrays).
inline constexpr op_syntax_decl mhlo_op_syntax[] = {
    {"mhlo.constant", "", "output", "value: any", "", "", "constant"},
    {"mhlo.iota", "", "output", "iota_dimension: i64", "", ""},
    {"mhlo.dynamic_iota", "output_shape", "result", "iota_dimension: i64", "", ""},
    {"mhlo.create_token", "", "output", "", "", "attr-dict `:` type(results)"},
    {"mhlo.abs", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.cbrt", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.ceil", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.convert", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.count_leading_zeros", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.cosine", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.erf", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.exponential", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.exponential_minus_one", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.floor", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.imag", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.is_finite", "x", "y", "", "", "$x attr-dict `:` functional-type(operands, results)"},
    {"mhlo.log", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.log_plus_one", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.logistic", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.not", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.negate", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.popcnt", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.real", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.round_nearest_afz", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.round_nearest_even", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.rsqrt", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.sign", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.sine", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.tan", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.sqrt", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.tanh", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.add", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"mhlo.atan2", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"mhlo.complex", "lhs, rhs", "result", "", "", "operands attr-dict `:` custom<ComplexOpType>(type($lhs), type($rhs), type($result))"},
    {"mhlo.divide", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"mhlo.maximum", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"mhlo.minimum", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"mhlo.multiply", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"mhlo.power", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"mhlo.remainder", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"mhlo.shift_left", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"mhlo.shift_right_arithmetic", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"mhlo.shift_right_logical", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"mhlo.subtract", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"mhlo.stochastic_convert", "operand, random", "result", "", "", ""},
    {"mhlo.and", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"mhlo.or", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"mhlo.xor", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"mhlo.infeed", "token", "results*", "infeed_config: any, layout?: any", "", ""},
    {"mhlo.outfeed", "inputs*, token", "result", "outfeed_config: any", "", ""},
    {"mhlo.send", "inputs*, token", "result", "channel_handle: any, is_host_transfer?: bool = false", "", ""},
    {"mhlo.recv", "token", "results*", "channel_handle: any, is_host_transfer?: bool = false", "", ""},
    {"mhlo.replica_id", "", "result", "", "", "attr-dict `:` type(results)"},
    {"mhlo.add_dependency", "operand, token", "output", "", "", "operands attr-dict `:` functional-type(operands, results)"},
    {"mhlo.after_all", "inputs*", "result", "", "", "$inputs attr-dict `:` custom<VariadicSameOperandsAndResultType>(ref($inputs), type($inputs), type($result))"},
    {"mhlo.async_start", "inputs*", "result", "called_computation: sym, execution_thread: str", "", ""},
    {"mhlo.async_update", "bundle", "result", "called_computation: sym, execution_thread: str", "", ""},
    {"mhlo.async_done", "bundle", "results*", "called_computation: sym, execution_thread: str", "", ""},
    {"mhlo.if", "pred", "results*", "", "true_branch, false_branch", ""},
    {"mhlo.case", "index", "results*", "", "branches*", ""},
    {"mhlo.while", "operand*", "results*", "", "cond, body", "", "while"},
    {"mhlo.all_gather", "operands*", "results*", "all_gather_dim: i64, replica_groups: any, channel_handle?: any, use_global_device_ids?: any", "", ""},
    {"mhlo.all_reduce", "operands*", "results*", "replica_groups: any, channel_handle?: any, use_global_device_ids?: any", "computation", ""},
    {"mhlo.reduce_scatter", "operand", "result", "scatter_dimension: i64, replica_groups: any, channel_handle?: any, use_global_device_ids?: any", "computation", ""},
    {"mhlo.all_to_all", "operand*", "results*", "split_dimension?: i64, concat_dimension?: i64, split_count?: i64, replica_groups: any, channel_handle?: any", "", ""},
    {"mhlo.reduce", "inputs*, init_values*", "results*", "dimensions: i64elems", "body", "", "reduce"},
    {"mhlo.get_tuple_element", "operand", "result", "index: i32", "", "$operand `[` $index `]` attr-dict `:` functional-type(operands, results)"},
    {"mhlo.tuple", "val*", "result", "", "", "$val attr-dict `:` custom<TupleOpType>(type($val), type($result))"},
    {"mhlo.compare", "lhs, rhs", "result", "comparison_direction: enum mhlo comparison_direction, compare_type?: enum mhlo comparison_type", "", "$comparison_direction `,` $lhs `,` $rhs (`,` $compare_type^)? attr-dict `:` functional-type(operands, results)"},
    {"mhlo.slice", "operand", "result", "start_indices: i64elems, limit_indices: i64elems, strides: i64elems", "", ""},
    {"mhlo.dynamic_slice", "operand, start_indices*", "result", "slice_sizes: any", "", ""},
    {"mhlo.dynamic_update_slice", "operand, update, start_indices*", "result", "", "", "operands attr-dict `:` functional-type(operands, results)"},
    {"mhlo.domain", "operand", "result", "kind: any, entry_metadata: str, exit_metadata: str", "", ""},
    {"mhlo.batch_norm_grad", "operand, scale, mean, variance, grad_output", "grad_operand, grad_scale, grad_offset", "epsilon: any, feature_index: i64", "", ""},
    {"mhlo.batch_norm_inference", "operand, scale, offset, mean, variance", "result", "epsilon: any, feature_index: i64", "", ""},
    {"mhlo.batch_norm_training", "operand, scale, offset", "output, batch_mean, batch_var", "epsilon: any, feature_index: i64", "", ""},
    {"mhlo.bitcast_convert", "operand", "result", "", "", "operands attr-dict `:` functional-type(operands, results)"},
    {"mhlo.broadcast", "operand", "result", "broadcast_sizes: i64elems", "", ""},
    {"mhlo.broadcast_in_dim", "operand", "result", "broadcast_dimensions: any", "", ""},
    {"mhlo.dynamic_broadcast_in_dim", "operand, output_dimensions", "result", "broadcast_dimensions: any, known_expanding_dimensions?: any, known_nonexpanding_dimensions?: any", "", ""},
    {"mhlo.cholesky", "a", "result", "lower?: bool = false", "", ""},
    {"mhlo.clamp", "min, operand, max", "result", "", "", "$min `,` $operand `,` $max attr-dict `:` custom<SameOperandsAndResultType>(type($min), type($operand), type($max), type($result))"},
    {"mhlo.concatenate", "val*", "result", "dimension: i64", "", ""},
    {"mhlo.collective_broadcast", "operand", "result", "replica_groups: any, channel_handle?: any", "", ""},
    {"mhlo.collective_permute", "operand", "result", "source_target_pairs: any, channel_handle?: any", "", ""},
    {"mhlo.convolution", "lhs, rhs", "result", "window_strides?: i64elems, padding?: any, lhs_dilation?: i64elems, rhs_dilation?: i64elems, window_reversal?: boolelems, dimension_numbers: any, feature_group_count: i64, batch_group_count: i64, precision_config?: any", "", "`(`operands`)` `dim_numbers` `=` custom<ConvolutionDimensions>($dimension_numbers) `,` `window` `=` `{` custom<WindowAttributes>($window_strides, $padding, $lhs_dilation, $rhs_dilation, $window_reversal) `}` attr-dict `:` functional-type(operands, results)"},
    {"mhlo.copy", "operand", "result", "cross_program_prefetch_index?: i32", "", "operands attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.cross-replica-sum", "operand", "result", "replica_groups: any", "", ""},
    {"mhlo.custom_call", "inputs*", "results*", "call_target_name: str, has_side_effect?: bool = false, backend_config?: any, api_version?: any = 1 : i32, called_computations?: any = [], custom_call_schedule?: any, operand_layouts?: any, result_layouts?: any, output_operand_aliases?: any = []", "", "custom<CustomCallTarget>($call_target_name) `(` $inputs `)` attr-dict `:` functional-type(operands, results)"},
    {"mhlo.dot", "lhs, rhs", "result", "precision_config: any", "", ""},
    {"mhlo.dot_general", "lhs, rhs", "result", "dot_dimension_numbers: any, precision_config: any", "", ""},
    {"mhlo.sparse_dot", "lhs, rhs, meta*", "result", "lhs_sparsity?: any, rhs_sparsity?: any, dot_dimension_numbers: any, precision_config: any", "", ""},
    {"mhlo.einsum", "lhs, rhs", "result", "einsum_config: str", "", ""},
    {"mhlo.unary_einsum", "operand", "result", "einsum_config: str", "", ""},
    {"mhlo.fft", "operand", "result", "fft_type: enum mhlo fft_type, fft_length: i64elems", "", ""},
    {"mhlo.gather", "operand, start_indices", "result", "dimension_numbers: any, slice_sizes: any, indices_are_sorted?: bool = false", "", ""},
    {"mhlo.get_dimension_size", "operand", "result", "dimension: i64", "", ""},
    {"mhlo.map", "inputs*", "result", "dimensions: i64elems", "computation", ""},
    {"mhlo.reshape", "operand", "result", "", "", "operands attr-dict `:` functional-type(operands, results)"},
    {"mhlo.dynamic_reshape", "operand, output_shape", "result", "", "", "operands attr-dict `:` functional-type(operands, results)"},
    {"mhlo.scatter", "inputs*, scatter_indices, updates*", "results*", "scatter_dimension_numbers: any, indices_are_sorted?: bool = false, unique_indices?: bool = false", "update_computation", ""},
    {"mhlo.select", "pred, on_true, on_false", "result", "", "", "operands attr-dict `:` custom<SelectOpType>(type($pred), type($on_true), type($on_false), type($result))"},
    {"mhlo.select_and_scatter", "operand, source, init_value", "result", "window_dimensions?: i64elems, window_strides?: i64elems, padding?: any", "select, scatter", ""},
    {"mhlo.set_dimension_size", "operand, size", "result", "dimension: i64", "", ""},
    {"mhlo.sort", "inputs*", "results*", "dimension?: i64 = -1 : i64, is_stable?: bool = false", "comparator", ""},
    {"mhlo.topk", "operand", "values, indices", "k: i64, largest?: bool = true", "", "`(`$operand `,` `k` `=` $k (`,` `largest` `=` $largest^)? `)` attr-dict `:` type($operand) `->` `(`type($values)`,` type($indices)`)`"},
    {"mhlo.reverse", "operand", "result", "dimensions: i64elems", "", ""},
    {"mhlo.partition_id", "", "result", "", "", "attr-dict `:` type(results)"},
    {"mhlo.pad", "operand, padding_value", "result", "edge_padding_low: i64elems, edge_padding_high: i64elems, interior_padding: i64elems", "", ""},
    {"mhlo.trace", "operand", "", "tag: str", "", "$operand `,` $tag attr-dict `:` type($operand)"},
    {"mhlo.transpose", "operand", "result", "permutation: i64elems", "", ""},
    {"mhlo.triangular_solve", "a, b", "result", "left_side: bool, lower: bool, unit_diagonal: bool, transpose_a: enum mhlo transpose", "", ""},
    {"mhlo.reduce_window", "inputs*, init_values*", "results*", "window_dimensions: i64elems, window_strides?: i64elems, base_dilations?: i64elems, window_dilations?: i64elems, padding?: any", "body", ""},
    {"mhlo.return", "results*", "", "", "", "$results attr-dict (`:` type($results)^)?"},
    {"mhlo.torch_index_select", "operand, index", "result", "dim: i64, batch_dims: i64", "", ""},
    {"mhlo.optimization_barrier", "operand*", "result*", "", "", "attr-dict ($operand^ `:` custom<PairwiseOpType>(type($operand), type($result))):(`(` `)`)?"},
    {"mhlo.rng", "a, b, shape", "result", "rng_distribution: enum mhlo rng_distribution", "", ""},
    {"mhlo.rng_bit_generator", "initial_state", "output_state, output", "rng_algorithm: enum mhlo rng_algorithm", "", ""},
    // Its custom form (`attr-dict`) infers the result type, which the reference IR does not:
    // read and printed generic.
    {"mhlo.xla.rng_get_and_update_state", "", "result", "delta: i64", "", ""},
    {"mhlo.uniform_quantize", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.uniform_dequantize", "operand", "result", "", "", "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"mhlo.fusion", "inputs*", "results*", "fusion_kind?: any, output_operand_aliases?: any = []", "fused_computation", ""},
    {"mhlo.composite", "inputs*", "results*", "name: str, composite_attributes?: any = {}, decomposition: sym, version?: i32 = 0 : i32", "",
     "$name $inputs attr-dict `:` functional-type(operands, results)"},
    {"mhlo.bitcast", "operand", "result", "", "", "operands attr-dict `:` functional-type(operands, results)"},
    {"mhlo.reduce_precision", "operand", "output", "exponent_bits: i32, mantissa_bits: i32", "", "$operand `,` `format` `=` custom<ExponentMantissa>($exponent_bits, $mantissa_bits) attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($output))"},
    {"mhlo.real_dynamic_slice", "operand, start_indices, limit_indices, strides", "result", "", "", "operands attr-dict `:` functional-type(operands, results)"},
    {"mhlo.dynamic_pad", "operand, padding_value, edge_padding_low, edge_padding_high, interior_padding", "result", "", "", "operands attr-dict `:` functional-type(operands, results)"},
    {"mhlo.dynamic_gather", "operand, start_indices, slice_sizes", "result", "dimension_numbers: any, indices_are_sorted?: bool = false", "", ""},
    {"mhlo.dynamic_conv", "", "result", "", "", ""},
    {"mhlo.compute_reshape_shape", "num_elements, dynamic_shape", "result", "", "", "operands attr-dict `:` functional-type(operands, results)"},
    {"mhlo.cstr_reshapable", "num_elements, dynamic_shape", "result", "", "", "operands attr-dict `:` functional-type(operands, results)"},
};

/// CHLO: the client ops JAX and XLA's frontends emit (`chlo.erf_inv`, `chlo.top_k`, the
/// broadcasting binary ops, ...), one entry per op of StableHLO's ChloOps.td. `chlo.scan` has
/// StableHLO's hand-written form (op_reader's read_scan); its `is_reverse` has no default here,
/// as that printer prints the attribute dictionary whole.
inline constexpr op_syntax_decl chlo_op_syntax[] = {
    {"chlo.broadcast_add", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_atan2", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_divide", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_maximum", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_minimum", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_multiply", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_next_after", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_polygamma", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_power", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_remainder", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_shift_left", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_shift_right_arithmetic", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_shift_right_logical", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_subtract", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_zeta", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_and", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_or", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_xor", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_complex", "lhs, rhs", "result", "broadcast_dimensions?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_compare", "lhs, rhs", "result",
     "broadcast_dimensions?: any, comparison_direction: any, compare_type?: any", "",
     "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"},
    {"chlo.broadcast_select", "pred, on_true, on_false", "result", "", "",
     "$pred `,` $on_true `,` $on_false attr-dict `:` `(` type($pred) `,` type($on_true) `,` type($on_false) `)` `->` type(results)"},
    {"chlo.next_after", "x, y", "result", "", "", "$x `,` $y attr-dict `:` type($x) `,` type($y) `->` type(results)"},
    {"chlo.polygamma", "n, x", "result", "", "", "$n `,` $x attr-dict `:` type($n) `,` type($x) `->` type(results)"},
    {"chlo.zeta", "x, q", "result", "", "", "$x `,` $q attr-dict `:` type($x) `,` type($q) `->` type(results)"},
    {"chlo.mulhi", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type(results)"},
    {"chlo._asin_acos_kernel", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.acos", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.acosh", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.asin", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.asinh", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.atan", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.atanh", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.bessel_i1e", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.conj", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.cosh", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.sinh", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.tan", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.digamma", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.erf", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.erf_inv", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.erfc", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.is_inf", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.is_neg_inf", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.is_pos_inf", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.lgamma", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.square", "operand", "result", "", "", "$operand attr-dict `:` type($operand) `->` type($result)"},
    {"chlo.constant", "", "output", "value: any", "", "", "constant"},
    {"chlo.constant_like", "operand", "result", "value: any", "", ""},
    {"chlo.ragged_dot", "lhs, rhs, group_sizes", "result", "ragged_dot_dimension_numbers: any, precision_config?: any", "", ""},
    {"chlo.top_k", "operand", "values, indices", "k: i64, is_stable?: bool = true", "",
     "`(`$operand `,` `k` `=` $k (`,` `is_stable` `=` $is_stable^)? `)` attr-dict `:` type($operand) `->` `(`type($values)`,` type($indices)`)`"},
    {"chlo.scan", "inputs*, inits*", "outputs*, carries*",
     "dimension: i64, scan_dim_size?: any, is_reverse?: bool, is_associative?: any, operandSegmentSizes: any, "
     "resultSegmentSizes: any",
     "body", "", "scan"},
};

/// Shardy: the ops of sharded exports (`sdy.mesh` at module level, `sdy.manual_computation`
/// bodies, sharding constraints), printed as Shardy prints them; its attributes are printed
/// stripped of their `#sdy...` prefix in the custom forms, and the collectives Shardy inserts
/// when it reshards (`sdy.all_gather`, `sdy.all_reduce`, ...), as of Shardy's ops.td.
inline constexpr op_syntax_decl sdy_op_syntax[] = {
    {"sdy.mesh", "", "", "sym_name: symname, mesh: wrap #sdy.mesh", "", "$sym_name `=` $mesh attr-dict"},
    {"sdy.sharding_constraint", "input", "result", "sharding: wrap #sdy.sharding", "",
     "$input $sharding attr-dict `:` type($result)"},
    {"sdy.reshard", "input", "result", "sharding: wrap #sdy.sharding", "", "$input $sharding attr-dict `:` type($result)"},
    {"sdy.return", "results*", "", "", "", "attr-dict ($results^ `:` type($results))?"},
    {"sdy.manual_computation", "tensors*", "results*",
     "in_shardings: any, out_shardings: any, manual_axes: wrap #sdy<manual_axes >", "body",
     "`(`operands`)` `in_shardings````=```custom<StrippedTensorShardingPerValueAttr>($in_shardings) "
     "`out_shardings````=```custom<StrippedTensorShardingPerValueAttr>($out_shardings) "
     "`manual_axes````=```$manual_axes custom<SingleBlockRegionNoBlockId>($body) attr-dict `:` "
     "functional-type(operands, results)"},
    {"sdy.sharding_group", "input", "", "group_id: i64", "", "$input `group_id````=```$group_id attr-dict `:` type($input)"},
    {"sdy.constant", "", "output", "value: any", "", "", "constant"},
    {"sdy.data_flow_edge", "input", "result", "sharding?: wrap #sdy.sharding", "",
     "$input (`sharding````=``` $sharding^)? attr-dict `:` type($result)"},
    {"sdy.propagation_barrier", "input", "result", "allowed_direction: ienum NONE FORWARD BACKWARD BOTH", "",
     "$input `allowed_direction````=```$allowed_direction attr-dict `:` type($input)"},
    {"sdy.named_computation", "operands*", "results*",
     "name: str, in_shardings?: any, out_shardings?: any", "body",
     "`<`$name`>` `` `(` $operands `)` "
     "(`in_shardings````=```custom<StrippedTensorShardingPerValueAttr>($in_shardings)^)? "
     "(`out_shardings````=```custom<StrippedTensorShardingPerValueAttr>($out_shardings)^)? "
     "custom<SingleBlockRegionNoBlockId>($body) attr-dict `:` functional-type($operands, results)"},
    {"sdy.all_gather", "tensor", "result", "gathering_axes: wrap #sdy<list_of_axis_ref_lists >, out_sharding: wrap #sdy.sharding", "",
     "$gathering_axes $tensor `out_sharding````=```$out_sharding attr-dict `:` type($result)"},
    {"sdy.all_slice", "tensor", "result", "slicing_axes: wrap #sdy<list_of_axis_ref_lists >, out_sharding: wrap #sdy.sharding", "",
     "$slicing_axes $tensor `out_sharding````=```$out_sharding attr-dict `:` type($result)"},
    {"sdy.all_to_all", "tensor", "result", "params: wrap #sdy<all_to_all_param_list >, out_sharding: wrap #sdy.sharding", "",
     "$params $tensor `out_sharding````=```$out_sharding attr-dict `:` type($result)"},
    {"sdy.collective_permute", "tensor", "result", "out_sharding: wrap #sdy.sharding", "",
     "$tensor `out_sharding````=```$out_sharding attr-dict `:` type($result)"},
    {"sdy.all_reduce", "tensor", "result", "reduction_axes: wrap #sdy<axis_ref_list >, reduction_op?: ienum sum max min = 0 : i32, out_sharding: wrap #sdy.sharding", "",
     "($reduction_op^)? $reduction_axes $tensor `out_sharding````=```$out_sharding attr-dict `:` type($result)"},
    {"sdy.reduce_scatter", "tensor", "result", "reduce_scatter_axes: wrap #sdy<list_of_axis_ref_lists >, reduction_op?: ienum sum max min = 0 : i32, out_sharding: wrap #sdy.sharding", "",
     "($reduction_op^)? $reduce_scatter_axes $tensor `out_sharding````=```$out_sharding attr-dict `:` type($result)"},
    {"sdy.sharded_to_unreduced", "tensor", "result", "axes: wrap #sdy<list_of_axis_ref_lists >, out_sharding: wrap #sdy.sharding", "",
     "$axes $tensor `out_sharding````=```$out_sharding attr-dict `:` type($result)"},
    {"sdy.replicated_to_unreduced", "tensor", "result", "axes: wrap #sdy<axis_ref_list >, out_sharding: wrap #sdy.sharding", "",
     "$axes $tensor `out_sharding````=```$out_sharding attr-dict `:` type($result)"},
    {"sdy.func_data_flow_edge", "operand", "result", "", "", "$operand attr-dict `:` type($result)"},
};

/// The ops of MLIR's `arith` dialect whose custom forms name every type they need (its integer and
/// floating-point arithmetic, casts and constants, as MLIR 22's ArithOps.td declares them), and
/// `tensor.cast`: the core ops programs mix into StableHLO. The comparisons and `arith.select`
/// (whose result types their forms leave to inference) are generic only.
inline constexpr op_syntax_decl arith_op_syntax[] = {
    {"arith.constant", "", "result", "value: any", "", "", "constant"},
    {"arith.addi", "lhs, rhs", "result", "overflowFlags?: wrap #arith.overflow = #arith.overflow<none>", "",
     "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.subi", "lhs, rhs", "result", "overflowFlags?: wrap #arith.overflow = #arith.overflow<none>", "",
     "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.muli", "lhs, rhs", "result", "overflowFlags?: wrap #arith.overflow = #arith.overflow<none>", "",
     "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.shli", "lhs, rhs", "result", "overflowFlags?: wrap #arith.overflow = #arith.overflow<none>", "",
     "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.divui", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.divsi", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.ceildivui", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.ceildivsi", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.floordivsi", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.remui", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.remsi", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.andi", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.ori", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.xori", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.shrui", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.shrsi", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.maxsi", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.maxui", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.minsi", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.minui", "lhs, rhs", "result", "", "", "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.addf", "lhs, rhs", "result", "fastmath?: wrap #arith.fastmath = #arith.fastmath<none>", "",
     "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.subf", "lhs, rhs", "result", "fastmath?: wrap #arith.fastmath = #arith.fastmath<none>", "",
     "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.mulf", "lhs, rhs", "result", "fastmath?: wrap #arith.fastmath = #arith.fastmath<none>", "",
     "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.divf", "lhs, rhs", "result", "fastmath?: wrap #arith.fastmath = #arith.fastmath<none>", "",
     "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.remf", "lhs, rhs", "result", "fastmath?: wrap #arith.fastmath = #arith.fastmath<none>", "",
     "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.maximumf", "lhs, rhs", "result", "fastmath?: wrap #arith.fastmath = #arith.fastmath<none>", "",
     "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.minimumf", "lhs, rhs", "result", "fastmath?: wrap #arith.fastmath = #arith.fastmath<none>", "",
     "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.maxnumf", "lhs, rhs", "result", "fastmath?: wrap #arith.fastmath = #arith.fastmath<none>", "",
     "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.minnumf", "lhs, rhs", "result", "fastmath?: wrap #arith.fastmath = #arith.fastmath<none>", "",
     "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"},
    {"arith.negf", "operand", "result", "fastmath?: wrap #arith.fastmath = #arith.fastmath<none>", "",
     "$operand (`fastmath` `` $fastmath^)? attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"arith.extui", "in", "out", "", "", "$in attr-dict `:` type($in) `to` type($out)"},
    {"arith.extsi", "in", "out", "", "", "$in attr-dict `:` type($in) `to` type($out)"},
    {"arith.uitofp", "in", "out", "", "", "$in attr-dict `:` type($in) `to` type($out)"},
    {"arith.sitofp", "in", "out", "", "", "$in attr-dict `:` type($in) `to` type($out)"},
    {"arith.fptoui", "in", "out", "", "", "$in attr-dict `:` type($in) `to` type($out)"},
    {"arith.fptosi", "in", "out", "", "", "$in attr-dict `:` type($in) `to` type($out)"},
    {"arith.index_cast", "in", "out", "", "", "$in attr-dict `:` type($in) `to` type($out)"},
    {"arith.index_castui", "in", "out", "", "", "$in attr-dict `:` type($in) `to` type($out)"},
    {"arith.bitcast", "in", "out", "", "", "$in attr-dict `:` type($in) `to` type($out)"},
    {"arith.trunci", "in", "out", "overflowFlags?: wrap #arith.overflow = #arith.overflow<none>", "",
     "$in (`overflow` `` $overflowFlags^)? attr-dict `:` type($in) `to` type($out)"},
    {"arith.extf", "in", "out", "fastmath?: wrap #arith.fastmath", "", "$in (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `to` type($out)"},
    {"arith.truncf", "in", "out", "roundingmode?: ienum to_nearest_even downward upward toward_zero to_nearest_away, fastmath?: wrap #arith.fastmath", "",
     "$in ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `to` type($out)"},
    {"tensor.cast", "source", "dest", "", "", "$source attr-dict `:` type($source) `to` type($dest)"},
};

namespace syntax_detail {
struct all_declarations {
  std::vector<op_syntax_decl> decls;
  all_declarations() {
    decls.assign(std::begin(stablehlo_op_syntax), std::end(stablehlo_op_syntax));
    decls.insert(decls.end(), std::begin(mhlo_op_syntax), std::end(mhlo_op_syntax));
    decls.insert(decls.end(), std::begin(chlo_op_syntax), std::end(chlo_op_syntax));
    decls.insert(decls.end(), std::begin(sdy_op_syntax), std::end(sdy_op_syntax));
    decls.insert(decls.end(), std::begin(arith_op_syntax), std::end(arith_op_syntax));
  }
};
}  // namespace syntax_detail

/// Every declaration of the table (StableHLO's, MHLO's, CHLO's, Shardy's, then arith's).
inline std::span<const op_syntax_decl> op_syntax_declarations() {
  static const syntax_detail::all_declarations all;  // thread-safe initialization
  return all.decls;
}

namespace syntax_detail {
struct compiled_table {
  std::vector<op_syntax> ops;  // sorted by name
  compiled_table() {
    for (const auto& d : op_syntax_declarations()) ops.push_back(compile_op_syntax(d));
    std::sort(ops.begin(), ops.end(), [](const op_syntax& a, const op_syntax& b) { return a.name < b.name; });
  }
};
inline const compiled_table& table() {
  static const compiled_table t;  // thread-safe initialization
  return t;
}
}  // namespace syntax_detail

/// The compiled syntax of op `name`, or nullptr when the table has no entry for it.
inline const op_syntax* find_op_syntax(std::string_view name) {
  const auto& ops = syntax_detail::table().ops;
  auto it = std::lower_bound(ops.begin(), ops.end(), name, [](const op_syntax& s, std::string_view n) { return s.name < n; });
  return it != ops.end() && it->name == name ? &*it : nullptr;
}

/// Every compiled entry, sorted by name (tests check that none is malformed).
inline std::span<const op_syntax> op_syntax_table() { return syntax_detail::table().ops; }

}  // namespace neuronrw::ref
