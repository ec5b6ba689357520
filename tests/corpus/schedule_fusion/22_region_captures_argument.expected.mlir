module {
  func.func @captures(%w: tensor<4x8xf32>, %scale: tensor<f32>) -> tensor<4x8xf32> {
    %0 = "mhlo.fusion"(%w, %scale) ({
    ^bb0(%arg0: tensor<4x8xf32>, %arg1: tensor<f32>):
      %g = "mhlo.all_gather"(%arg0) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
      %r = "mhlo.reduce_scatter"(%g) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "mhlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        %t = "mhlo.multiply"(%s, %arg1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "mhlo.return"(%t) : (tensor<f32>) -> ()
      }) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
      "mhlo.return"(%r) : (tensor<4x8xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
}
