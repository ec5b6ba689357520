// A reduce_scatter whose parent is a fusion is never re-fused; the pair outside it is.
func.func @fused(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %f = "mhlo.fusion"(%w) ({
  ^bb0(%a: tensor<4x8xf32>):
    %g = "mhlo.all_gather"(%a) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    "mhlo.return"(%r) : (tensor<4x8xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %g2 = "mhlo.all_gather"(%f) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %y = "mhlo.add"(%g2, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %r2 = "mhlo.reduce_scatter"(%g2) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  %z = "mhlo.reduce_scatter"(%y) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r2, %z : tensor<4x8xf32>, tensor<4x8xf32>
}
