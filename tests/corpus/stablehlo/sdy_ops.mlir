// Shardy's custom forms as a sharded JAX export carries them (neuronrw's own test module;
// tests/ir/ref/syntax_test.cpp checks it like ops.mlir).
module @sharded attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  sdy.mesh @empty_mesh = <[]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {"y"}]> : tensor<8x16xf32>
    %1 = sdy.reshard %0 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
    sdy.sharding_group %1 group_id=3 : tensor<8x16xf32>
    %2 = sdy.data_flow_edge %1 sharding=<@mesh, [{"x"}, {}]> : tensor<8x16xf32>
    %3 = sdy.data_flow_edge %2 : tensor<8x16xf32>
    %4 = sdy.manual_computation(%3, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg2: tensor<4x16xf32>, %arg3: tensor<16x16xf32>) {
      %6 = "stablehlo.all_gather"(%arg2) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<4x16xf32>) -> tensor<8x16xf32>
      %7 = "stablehlo.reduce_scatter"(%6) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %9 = stablehlo.add %arg4, %arg5 : tensor<f32>
        stablehlo.return %9 : tensor<f32>
      }) : (tensor<8x16xf32>) -> tensor<4x16xf32>
      %8 = stablehlo.dot_general %7, %arg3, contracting_dims = [1] x [0] : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
      sdy.return %8 : tensor<4x16xf32>
    } : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %5 = sdy.named_computation<"layer">(%4) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] (%arg2: tensor<8x16xf32>) {
      %c = sdy.constant dense<1.000000e+00> : tensor<8x16xf32>
      %6 = stablehlo.add %arg2, %c : tensor<8x16xf32>
      sdy.return %6 : tensor<8x16xf32>
    } : (tensor<8x16xf32>) -> tensor<8x16xf32>
    sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
      sdy.return
    } : () -> ()
    %6 = sdy.named_computation<"plain">(%5) (%arg2: tensor<8x16xf32>) {
      sdy.return %arg2 : tensor<8x16xf32>
    } : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %6 : tensor<8x16xf32>
  }
  func.func @collectives(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<16x8xf32> {
    %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<16x8xf32>
    %1 = sdy.all_slice [{}, {"x"}] %0 out_sharding=<@mesh, [{}, {"y", "x"}]> : tensor<16x8xf32>
    %2 = sdy.all_to_all [{"y"}: 1->0] %1 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
    %3 = sdy.collective_permute %2 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
    %4 = sdy.all_reduce {"y"} %3 out_sharding=<@mesh, [{"x"}, {}]> : tensor<16x8xf32>
    %5 = sdy.all_reduce max {} %4 out_sharding=<@mesh, [{"x"}, {}]> : tensor<16x8xf32>
    %6 = sdy.reduce_scatter [{}, {"y"}] %5 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
    %7 = sdy.reduce_scatter min [{}, {}] %6 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
    %8 = sdy.sharded_to_unreduced [{"x"}, {}] %7 out_sharding=<@mesh, [{}, {"y"}], unreduced={"x"}> : tensor<16x8xf32>
    %9 = sdy.replicated_to_unreduced {"y"} %8 out_sharding=<@mesh, [{}, {}], unreduced={"x", "y"}> : tensor<16x8xf32>
    %10 = sdy.propagation_barrier %9 allowed_direction=BACKWARD : tensor<16x8xf32>
    %11 = sdy.propagation_barrier %10 allowed_direction=NONE {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : tensor<16x8xf32>
    %12 = sdy.func_data_flow_edge %11 : tensor<16x8xf32>
    return %12 : tensor<16x8xf32>
  }
}
