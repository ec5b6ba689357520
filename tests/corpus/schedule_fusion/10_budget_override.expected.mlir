module {
  func.func @budget(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
    %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %a = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %b = "mhlo.exponential"(%a) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %c = "mhlo.tanh"(%b) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %r = "mhlo.reduce_scatter"(%g, %c) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
    %d = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %e = "mhlo.exponential"(%d) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %0 = "mhlo.fusion"(%w, %e) ({
    ^bb0(%arg0: tensor<4x8xf32>, %arg1: tensor<16x8xf32>):
      %g2 = "mhlo.all_gather"(%arg0) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
      %r2 = "mhlo.reduce_scatter"(%g2, %arg1) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
      "mhlo.return"(%r2) : (tensor<4x8xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
    return %r, %0 : tensor<4x8xf32>, tensor<4x8xf32>
  }
}
