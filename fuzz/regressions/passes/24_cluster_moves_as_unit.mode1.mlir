// %r2 claims %g2 first. The reschedule of (%g1, %r1) carries %r2, which uses %g1, after %r1 —
// and with it the rest of its cluster, %g2: an earlier cluster moves as a unit, as its fusion
// will. Both clusters come out adjacent.
func.func @unit(%w: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %g1 = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %g2 = "mhlo.all_gather"(%v) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %r2 = "mhlo.reduce_scatter"(%g2, %g1) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %r1 = "mhlo.reduce_scatter"(%g1) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r1, %r2 : tensor<4x8xf32>, tensor<4x8xf32>
}
