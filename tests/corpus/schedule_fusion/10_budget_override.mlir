// schedule-fusion-options: budget=2
// With a budget of 2 the walk from the reduce_scatter must visit %a, %b, %c: refused. The
// second pair's window holds two producers only and is clustered.
func.func @budget(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %a = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %b = "mhlo.exponential"(%a) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %c = "mhlo.tanh"(%b) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g, %c) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %g2 = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %d = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %e = "mhlo.exponential"(%d) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %r2 = "mhlo.reduce_scatter"(%g2, %e) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r, %r2 : tensor<4x8xf32>, tensor<4x8xf32>
}
