module {
  func.func @unrelated(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<16x8xf32>) {
    %a = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %b = "mhlo.exponential"(%a) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %0 = "mhlo.fusion"(%w) ({
    ^bb0(%arg0: tensor<4x8xf32>):
      %g = "mhlo.all_gather"(%arg0) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
      %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
      "mhlo.return"(%r) : (tensor<4x8xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    return %0, %b : tensor<4x8xf32>, tensor<16x8xf32>
  }
}
