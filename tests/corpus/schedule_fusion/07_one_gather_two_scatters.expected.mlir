module {
  func.func @fanout(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
    %0:2 = "mhlo.fusion"(%w) ({
    ^bb0(%arg0: tensor<4x8xf32>):
      %g = "mhlo.all_gather"(%arg0) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
      %r1 = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
      "mhlo.return"(%g, %r1) : (tensor<16x8xf32>, tensor<4x8xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<4x8xf32>)
    %y = "mhlo.multiply"(%0#0, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %r2 = "mhlo.reduce_scatter"(%0#0) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    return %0#1, %r2 : tensor<4x8xf32>, tensor<4x8xf32>
  }
}
