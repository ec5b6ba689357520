module @jit_train_step attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x64x16xf32> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32> {jax.result_info = ""}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg1, %iterArg_1 = %arg0) : tensor<i32>, tensor<8x16xf32>, tensor<2x64x16xf32>
    cond {
      %c_2 = stablehlo.constant dense<2> : tensor<i32>
      %1 = stablehlo.compare  LT, %iterArg, %c_2,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1 = stablehlo.dynamic_slice %iterArg_1, %iterArg, %c, %c, sizes = [1, 64, 16] : (tensor<2x64x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x16xf32>
      %2 = stablehlo.reshape %1 : (tensor<1x64x16xf32>) -> tensor<64x16xf32>
      %3:2 = stablehlo.composite "composite.Fused" %iterArg_0 {CompositeKind = "ScheduleFusion", decomposition = @hilo.FusedComposite.0} : (tensor<8x16xf32>) -> (tensor<32x16xf32>, tensor<8x16xf32>)
      %4 = stablehlo.multiply %3#0, %3#0 : tensor<32x16xf32>
      %6 = "stablehlo.all_gather"(%3#1) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<8x16xf32>) -> tensor<32x16xf32>
      %7 = stablehlo.dot_general %6, %2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x16xf32>, tensor<64x16xf32>) -> tensor<32x64xf32>
      %8 = "stablehlo.reduce_scatter"(%7) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %10 = stablehlo.add %arg2, %arg3 : tensor<f32>
        stablehlo.return %10 : tensor<f32>
      }) : (tensor<32x64xf32>) -> tensor<8x64xf32>
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %9 = stablehlo.add %iterArg, %c_3 : tensor<i32>
      stablehlo.return %9, %3#1, %iterArg_1 : tensor<i32>, tensor<8x16xf32>, tensor<2x64x16xf32>
    }
    return %0#1 : tensor<8x16xf32>
  }
  func.func private @hilo.FusedComposite.0(%arg0: tensor<8x16xf32>) -> (tensor<32x16xf32>, tensor<8x16xf32>) attributes {genComposite = true, noDelete = true} {
    %3 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<8x16xf32>) -> tensor<32x16xf32>
    %5 = "stablehlo.reduce_scatter"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %10 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %10 : tensor<f32>
    }) : (tensor<32x16xf32>) -> tensor<8x16xf32>
    return %3, %5 : tensor<32x16xf32>, tensor<8x16xf32>
  }
}
