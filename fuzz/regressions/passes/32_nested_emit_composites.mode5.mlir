// schedule-fusion-options: emit=composites needs-argument-block
// 31_cluster_nested_in_cluster lowered to composites: the inner cluster first (it is number 0),
// as FusionToComposite numbers nested fusions, so the outer decomposition calls it.
func.func @nested_cluster(%w: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ig = "mhlo.all_gather"(%v) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %ir = "mhlo.reduce_scatter"(%ig) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    "test.sink"(%ir) : (tensor<4x8xf32>) -> ()
    %s = "mhlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "mhlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
