// %g1 is claimed by the first reduce_scatter's cluster. The second reduce_scatter skips it and
// takes its other all_gather operand, %g2; the third has only the claimed one and is refused.
func.func @claimed(%w: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %g1 = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %r1 = "mhlo.reduce_scatter"(%g1) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  %g2 = "mhlo.all_gather"(%v) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %r2 = "mhlo.reduce_scatter"(%g1, %g2) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %r3 = "mhlo.reduce_scatter"(%g1) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r1, %r2, %r3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
