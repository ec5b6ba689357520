module {
  func.func @users(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<16x8xf32>) {
    %u = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %0:2 = "mhlo.fusion"(%w) ({
    ^bb0(%arg0: tensor<4x8xf32>):
      %g = "mhlo.all_gather"(%arg0) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
      %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
      "mhlo.return"(%g, %r) : (tensor<16x8xf32>, tensor<4x8xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<4x8xf32>)
    %y = "mhlo.multiply"(%0#0, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %z = "mhlo.add"(%y, %u) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %t = "mhlo.tanh"(%z) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0#1, %t : tensor<4x8xf32>, tensor<16x8xf32>
  }
}
