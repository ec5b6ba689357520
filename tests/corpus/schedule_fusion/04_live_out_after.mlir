// The all_gather result is also used after the reduce_scatter: it becomes a second result of
// the fusion, and the later user reads it from there.
func.func @live_out(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<16x8xf32>) {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  %y = "mhlo.multiply"(%g, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  return %r, %y : tensor<4x8xf32>, tensor<16x8xf32>
}
