// schedule-fusion-options: needs-argument-block
// The reduce_scatter's reduction region reads the function argument %scale: the fusion body
// must not reference it from outside, so it becomes a live-in (after %w, in first-use order);
// the region's own arguments stay local.
func.func @captures(%w: tensor<4x8xf32>, %scale: tensor<f32>) -> tensor<4x8xf32> {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "mhlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %t = "mhlo.multiply"(%s, %scale) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "mhlo.return"(%t) : (tensor<f32>) -> ()
  }) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
