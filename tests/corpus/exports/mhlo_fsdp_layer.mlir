// An export shaped like an XLA/MHLO dump of one FSDP layer, the shape ScheduleFusion rewrites:
// `builtin.module` spelled out with XLA's module attributes, `func.func public @main` with
// `mhlo.sharding` / `mhlo.layout_mode` / `jax.result_info` argument and result attributes, an
// all_gather of the weights that a reduce_scatter (with its reduction region) consumes, with
// compute using the gathered weights in between, a tuple result read by get_tuple_element, a custom_call with a string backend
// config and an inlining barrier (`no_inline` as a call attribute), and a private helper whose
// argument attributes sit in `attributes {arg_attrs = ...}` (how a pretty printer without
// signature dictionaries writes them).
builtin.module @jit_layer attributes {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [{alias = {kind = "may_alias", output_index = array<i64>, parameter_number = 0 : i64}, output_index = array<i64: 0>}], mhlo.is_dynamic = false, mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32, mhlo.use_auto_spmd_partitioning = false} {
  func.func public @main(%arg0: tensor<512x1024xbf16> {mhlo.layout_mode = "default", mhlo.sharding = "{devices=[8,1]<=[8]}"}, %arg1: tensor<16x1024xbf16> {mhlo.sharding = "{replicated}"}) -> (tensor<64x1024xf32> {jax.result_info = "[0]", mhlo.layout_mode = "default"}, tensor<i32> {jax.result_info = "[1]"}) {
    %0 = "mhlo.all_gather"(%arg0) {all_gather_dim = 0 : i64, channel_handle = #mhlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids} : (tensor<512x1024xbf16>) -> tensor<4096x1024xbf16>
    %1 = "mhlo.convert"(%arg1) : (tensor<16x1024xbf16>) -> tensor<16x1024xf32>
    %2 = "mhlo.dot_general"(%1, %0) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#mhlo<precision DEFAULT>, #mhlo<precision DEFAULT>]} : (tensor<16x1024xf32>, tensor<4096x1024xbf16>) -> tensor<16x4096xf32>
    %3 = "mhlo.constant"() {value = dense<1.250000e-01> : tensor<16x4096xf32>} : () -> tensor<16x4096xf32>
    %4 = "mhlo.multiply"(%2, %3) : (tensor<16x4096xf32>, tensor<16x4096xf32>) -> tensor<16x4096xf32>
    %5 = "mhlo.reduce_scatter"(%0) ({
    ^bb0(%lhs: tensor<bf16>, %rhs: tensor<bf16>):
      %s = "mhlo.add"(%lhs, %rhs) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
      "mhlo.return"(%s) : (tensor<bf16>) -> ()
    }) {channel_handle = #mhlo.channel_handle<handle = 2, type = 0>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, scatter_dimension = 0 : i64, use_global_device_ids} : (tensor<4096x1024xbf16>) -> tensor<512x1024xbf16>
    %6 = "mhlo.custom_call"(%4, %5) {api_version = 2 : i32, backend_config = "{\"flag\": true, \"path\": \"a\\\\b\"}", call_target_name = "Sharding", mhlo.sharding = "{devices=[1,8]<=[8]}"} : (tensor<16x4096xf32>, tensor<512x1024xbf16>) -> tensor<16x512xf32>
    %7 = "mhlo.tuple"(%6, %arg1) : (tensor<16x512xf32>, tensor<16x1024xbf16>) -> tuple<tensor<16x512xf32>, tensor<16x1024xbf16>>
    %8 = "mhlo.get_tuple_element"(%7) {index = 0 : i32} : (tuple<tensor<16x512xf32>, tensor<16x1024xbf16>>) -> tensor<16x512xf32>
    %9 = call @pad(%8) {no_inline} : (tensor<16x512xf32>) -> tensor<64x1024xf32>
    %10 = "mhlo.partition_id"() : () -> tensor<ui32>
    %11 = "mhlo.convert"(%10) : (tensor<ui32>) -> tensor<i32>
    return %9, %11 : tensor<64x1024xf32>, tensor<i32>
  }
  func.func private @pad(%arg0: tensor<16x512xf32>) -> tensor<64x1024xf32> attributes {arg_attrs = [{mhlo.sharding = "{devices=[1,8]<=[8]}"}], mhlo.frontend_attributes = {_xla_compute_type = "dense"}} {
    %0 = "mhlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
    %1 = "mhlo.pad"(%arg0, %0) {edge_padding_high = dense<[48, 512]> : tensor<2xi64>, edge_padding_low = dense<0> : tensor<2xi64>, interior_padding = dense<0> : tensor<2xi64>} : (tensor<16x512xf32>, tensor<f32>) -> tensor<64x1024xf32>
    return %1 : tensor<64x1024xf32>
  }
}
