module @sharded attributes {mhlo.num_partitions = 2 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg2: tensor<4x16xf32>, %arg3: tensor<16x16xf32>) {
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %11:2 = "mhlo.fusion"(%arg2) ({
      ^bb0(%arg6: tensor<4x16xf32>):
        %1 = "stablehlo.all_gather"(%arg6) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4x16xf32>) -> tensor<8x16xf32>
        %3 = "stablehlo.reduce_scatter"(%1) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64}> ({
        ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
          %10 = stablehlo.add %arg4, %arg5 : tensor<f32>
          stablehlo.return %10 : tensor<f32>
        }) : (tensor<8x16xf32>) -> tensor<4x16xf32>
        mhlo.return %1, %3 : tensor<8x16xf32>, tensor<4x16xf32>
      }) {FusionKind = "ScheduleFusion"} : (tensor<4x16xf32>) -> (tensor<8x16xf32>, tensor<4x16xf32>)
      %2 = stablehlo.multiply %11#0, %11#0 : tensor<8x16xf32>
      %12 = "mhlo.fusion"(%11#1) ({
      ^bb0(%arg7: tensor<4x16xf32>):
        %4 = "stablehlo.all_gather"(%arg7) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4x16xf32>) -> tensor<8x16xf32>
        %5 = "stablehlo.reduce_scatter"(%4) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64}> ({
        ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
          %10 = stablehlo.add %arg4, %arg5 : tensor<f32>
          stablehlo.return %10 : tensor<f32>
        }) : (tensor<8x16xf32>) -> tensor<4x16xf32>
        mhlo.return %5 : tensor<4x16xf32>
      }) {FusionKind = "ScheduleFusion"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
      %6 = "stablehlo.all_gather"(%12) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4x16xf32>) -> tensor<8x16xf32>
      %7 = stablehlo.dot_general %6, %arg3, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
      %8 = "stablehlo.reduce_scatter"(%7) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %10 = stablehlo.add %arg4, %arg5 : tensor<f32>
        stablehlo.return %10 : tensor<f32>
      }) : (tensor<8x16xf32>) -> tensor<4x16xf32>
      %9 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<16xf32>
      sdy.return %8 : tensor<4x16xf32>
    } : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}
