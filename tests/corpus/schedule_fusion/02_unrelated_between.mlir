// Ops between the pair that do not use the all_gather keep their place before the cluster.
func.func @unrelated(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<16x8xf32>) {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %a = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %b = "mhlo.exponential"(%a) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r, %b : tensor<4x8xf32>, tensor<16x8xf32>
}
