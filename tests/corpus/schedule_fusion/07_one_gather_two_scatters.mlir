// One all_gather feeding two reduce_scatters: the first (in walk order) claims it; the second
// is refused, and reads the gathered value from the fusion's second result.
func.func @fanout(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %y = "mhlo.multiply"(%g, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %r1 = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  %r2 = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r1, %r2 : tensor<4x8xf32>, tensor<4x8xf32>
}
