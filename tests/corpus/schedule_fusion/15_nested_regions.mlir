// Nested regions: %l uses %g inside its region, which counts as a use by %l itself, so %l moves
// after the cluster. The pair inside the second loop is clustered in its own block; its body
// captures %w from the function, which becomes a live-in of that fusion.
func.func @nested(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>, %n: index) -> (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %l = "loop.for"(%n, %x) ({
  ^bb0(%i: index, %acc: tensor<16x8xf32>):
    %m = "mhlo.multiply"(%acc, %g) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    "loop.yield"(%m) : (tensor<16x8xf32>) -> ()
  }) : (index, tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  %o = "loop.for"(%n, %x) ({
  ^bb0(%j: index, %acc2: tensor<16x8xf32>):
    %g2 = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %s = "mhlo.add"(%acc2, %g2) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %r2 = "mhlo.reduce_scatter"(%g2) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    "test.sink"(%r2) : (tensor<4x8xf32>) -> ()
    "loop.yield"(%s) : (tensor<16x8xf32>) -> ()
  }) : (index, tensor<16x8xf32>) -> tensor<16x8xf32>
  return %r, %l, %o : tensor<4x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>
}
