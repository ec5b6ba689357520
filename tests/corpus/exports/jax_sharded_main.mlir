// An export shaped like `jax.jit(f).lower(...).as_text(debug_info=True)` of a sharded
// function, printed in the generic form (mlir-opt has no StableHLO or Shardy dialect): module
// attributes, a Shardy mesh as a top-level symbol and `#sdy.sharding<@mesh, ...>` naming it,
// `mhlo.sharding` / `jax.result_info` argument and result attributes, an explicit `public`,
// properties-form collectives, named, callsite and fused locations with aliases after the
// module (where mlir-opt prints them), and a constant held as a resource blob.
#loc1 = loc("x")
#loc2 = loc("/src/model.py":41:10)
module @jit_train_step attributes {jax.uses_shape_polymorphism = false, mhlo.frontend_attributes = {xla.sdy.use_tuple_args = "t"}, mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=2]>, sym_name = "mesh"}> : () -> () loc(#loc)
  func.func public @main(%arg0: tensor<8x128xf32> {mhlo.layout_mode = "default", mhlo.sharding = "{devices=[2,2]<=[4]}", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>} loc("x"), %arg1: tensor<128x64xbf16> {mhlo.sharding = "{replicated}", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>} loc("w")) -> (tensor<8x64xf32> {jax.result_info = "[0]", mhlo.layout_mode = "default"}, tensor<f32> {jax.result_info = "[1]['loss']"}) {
    %0 = "stablehlo.convert"(%arg1) : (tensor<128x64xbf16>) -> tensor<128x64xf32> loc(#loc4)
    %1 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<8x128xf32>) -> tensor<8x256xf32> loc(#loc5)
    %2 = "stablehlo.dot_general"(%1, %0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x256xf32>, tensor<128x64xf32>) -> tensor<8x64xf32> loc(#loc6)
    %3 = "stablehlo.reduce_scatter"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, scatter_dimension = 0 : i64}> ({
    ^bb0(%arg2: tensor<f32> loc(unknown), %arg3: tensor<f32> loc(unknown)):
      %6 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc(#loc7)
      "stablehlo.return"(%6) : (tensor<f32>) -> () loc(#loc7)
    }) : (tensor<8x64xf32>) -> tensor<4x64xf32> loc(#loc8)
    %4 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32> loc(#loc)
    %8 = "stablehlo.constant"() <{value = dense_resource<params> : tensor<2xf32>}> : () -> tensor<2xf32> loc(#loc)
    %5 = "stablehlo.reduce"(%3, %4) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg2: tensor<f32> loc("loss"("/src/model.py":52:9)), %arg3: tensor<f32> loc("loss"("/src/model.py":52:9))):
      %6 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc(#loc9)
      "stablehlo.return"(%6) : (tensor<f32>) -> () loc(#loc9)
    }) : (tensor<4x64xf32>, tensor<f32>) -> tensor<f32> loc(#loc9)
    %7 = "stablehlo.custom_call"(%2) <{backend_config = "", call_target_name = "Sharding", has_side_effect = false}> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}", sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>} : (tensor<8x64xf32>) -> tensor<8x64xf32> loc(#loc10)
    return %7, %5 : tensor<8x64xf32>, tensor<f32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc3 = loc("jit(train_step)/jit(main)/dot_general"(#loc2))
#loc4 = loc("jit(train_step)/jit(main)/convert_element_type"("/src/model.py":40:8))
#loc5 = loc(callsite("all_gather"("/src/parallel.py":12:4) at callsite(#loc2 at "/src/train.py":88:2)))
#loc6 = loc(fused[#loc3, "matmul"])
#loc7 = loc(fused<"reduce_scatter_body">["/src/parallel.py":20:6, unknown])
#loc8 = loc("reduce_scatter"("/src/parallel.py":20:4 to 20:30))
#loc9 = loc("loss"("/src/model.py":52:9))
#loc10 = loc(callsite(#loc1 at #loc3))
{-#
  dialect_resources: {
    builtin: {
      params: "0x040000000000803F00000040"
    }
  }
#-}
