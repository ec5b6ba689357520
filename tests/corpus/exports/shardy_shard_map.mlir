// An export shaped like a JAX `shard_map` lowered with Shardy, in the generic form: meshes as
// top-level symbols that `#sdy.sharding<@mesh, ...>` / `#sdy.manual_axes` attributes name
// (opaque to mlir-opt and to the reference IR), a `sdy.manual_computation` whose one region
// takes the per-device shards as block arguments and ends with `sdy.return`, collectives inside
// it, a sharding constraint, a `func.func nested` helper called from the region's parent
// function, and `mhlo.frontend_attributes` on ops.
#loc1 = loc("/src/shard.py":30:8)
module @jit_sharded attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\"x\"=4]>}"}, mhlo.num_partitions = 4 : i32} {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "mesh"}> : () -> ()
  "sdy.mesh"() <{mesh = #sdy.mesh<[], device_ids = [0]>, sym_name = "empty_mesh"}> : () -> ()
  func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<16x32xf32> {jax.result_info = "", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>, manual_axes = #sdy.manual_axes<{"x"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}> ({
    ^bb0(%arg1: tensor<4x32xf32> loc("shard"(#loc1))):
      %2 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<4x32xf32>) -> tensor<16x32xf32> loc(#loc1)
      %3 = "stablehlo.sine"(%2) {mhlo.frontend_attributes = {_xla_stream_annotation = "1"}} : (tensor<16x32xf32>) -> tensor<16x32xf32>
      %4 = "stablehlo.reduce_scatter"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %5 = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%5) : (tensor<f32>) -> ()
      }) : (tensor<16x32xf32>) -> tensor<4x32xf32>
      "sdy.return"(%4) : (tensor<4x32xf32>) -> () loc(#loc1)
    }) : (tensor<16x32xf32>) -> tensor<16x32xf32> loc(#loc2)
    %1 = "sdy.sharding_constraint"(%0) <{sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}> : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %6 = call @scale(%1) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    return %6 : tensor<16x32xf32>
  }
  func.func nested @scale(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
    %0 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<16x32xf32>}> : () -> tensor<16x32xf32>
    %1 = "stablehlo.multiply"(%arg0, %0) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    return %1 : tensor<16x32xf32>
  }
}
#loc2 = loc(callsite("shard_map"(#loc1) at "/src/train.py":7:2))
