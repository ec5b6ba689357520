// Not convex through another collective: the all_reduce stops the dependence walk, but the
// legality check still sees the path %g -> %s -> %r. Refused; the IR is unchanged.
func.func @through_collective(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %s = "mhlo.all_reduce"(%g) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = "mhlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "mhlo.return"(%t) : (tensor<f32>) -> ()
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g, %s) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
