module {
  func.func @two(%w: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
    %g1 = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %0:2 = "mhlo.fusion"(%v, %g1) ({
    ^bb0(%arg0: tensor<4x8xf32>, %arg1: tensor<16x8xf32>):
      %g2 = "mhlo.all_gather"(%arg0) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
      %r:2 = "mhlo.reduce_scatter"(%g2, %arg1) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
      "mhlo.return"(%r#0, %r#1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>, tensor<16x8xf32>) -> (tensor<4x8xf32>, tensorz<4x8xf32>)
    return %0#0, %0#0 : tensor<4x8xf32>, tensor<4x8xf32>
  }
}
