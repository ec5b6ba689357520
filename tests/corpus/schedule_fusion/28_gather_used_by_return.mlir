// The all_gather is also returned: the return is never moved, the value leaves the fusion as a
// live-out, and the compute user between the pair moves after the cluster.
func.func @returned(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<4x8xf32>, tensor<16x8xf32>) {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %y = "mhlo.add"(%g, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %g, %r, %y : tensor<16x8xf32>, tensor<4x8xf32>, tensor<16x8xf32>
}
