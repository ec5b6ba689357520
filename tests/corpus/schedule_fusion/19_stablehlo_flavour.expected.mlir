module {
  func.func @stablehlo_layer(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<16x8xf32>) {
    %0:2 = "mhlo.fusion"(%w) ({
    ^bb0(%arg0: tensor<4x8xf32>):
      %g = "stablehlo.all_gather"(%arg0) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4x8xf32>) -> tensor<16x8xf32>
      %r = "stablehlo.reduce_scatter"(%g) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
      }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
      "mhlo.return"(%g, %r) : (tensor<16x8xf32>, tensor<4x8xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<4x8xf32>)
    %y = "stablehlo.multiply"(%0#0, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0#1, %y : tensor<4x8xf32>, tensor<16x8xf32>
  }
}
