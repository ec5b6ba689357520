// A second ScheduleFusion run forms a cluster (docs/schedule-fusion.md, "Second runs"): the first
// run refuses %r with %g1 (non_convex through %y) and fuses %g1 with %r0; the second run finds %g2
// first among %r's all_gather operands and clusters it.
func.func @second_run(%w: tensor<4x8xf32>, %v: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %g1 = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %g2 = "mhlo.all_gather"(%v) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %y = "mhlo.multiply"(%g1, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g1, %g2, %y) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %r0 = "mhlo.reduce_scatter"(%g1) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r, %r0 : tensor<4x8xf32>, tensor<4x8xf32>
}
