// Users of the all_gather between the pair (and their own users) move after the cluster, in
// order; the unrelated op between them stays before it.
func.func @users(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<16x8xf32>) {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %y = "mhlo.multiply"(%g, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %u = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %z = "mhlo.add"(%y, %u) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  %t = "mhlo.tanh"(%z) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %r, %t : tensor<4x8xf32>, tensor<16x8xf32>
}
