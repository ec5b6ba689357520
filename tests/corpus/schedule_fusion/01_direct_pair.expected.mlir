module {
  func.func @direct(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = "mhlo.fusion"(%w) ({
    ^bb0(%arg0: tensor<4x8xf32>):
      %g = "mhlo.all_gather"(%arg0) {all_gather_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4x8xf32>) -> tensor<16x8xf32>
      %r = "mhlo.reduce_scatter"(%g) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
      "mhlo.return"(%r) : (tensor<4x8xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
}
