// %r2 claims %g2 and uses %g1; %r1 uses %g1 and %g2. Grouped, the first cluster would lie on a
// path %g1 -> cluster -> %r1: carrying it after %r1 breaks %r1's use of %g2, leaving it splits
// the cluster. Refused with splits_cluster; only the first cluster is formed.
func.func @split(%w: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %g1 = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %g2 = "mhlo.all_gather"(%v) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %r2 = "mhlo.reduce_scatter"(%g2, %g1) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %r1 = "mhlo.reduce_scatter"(%g1, %g2) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r1, %r2 : tensor<4x8xf32>, tensor<4x8xf32>
}
