func.func @"evil\n}\ndigraph X {\n\"q\" \\ \00 &lt; \FF\C0\80\ED\A0\80 end"(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %q = "my.op\"x\\y&amp;\0A"(%g) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%q) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

func.func @"pair\0A\"&\\"(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
