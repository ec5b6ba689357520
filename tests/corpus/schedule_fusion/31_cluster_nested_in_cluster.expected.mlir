module {
  func.func @nested_cluster(%w: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = "mhlo.fusion"(%w, %v) ({
    ^bb0(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>):
      %g = "mhlo.all_gather"(%arg0) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
      %r = "mhlo.reduce_scatter"(%g) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %1 = "mhlo.fusion"(%arg1) ({
        ^bb0(%arg2: tensor<4x8xf32>):
          %ig = "mhlo.all_gather"(%arg2) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
          %ir = "mhlo.reduce_scatter"(%ig) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
          "mhlo.return"(%ir) : (tensor<4x8xf32>) -> ()
        }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
        "test.sink"(%1) : (tensor<4x8xf32>) -> ()
        %s = "mhlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "mhlo.return"(%s) : (tensor<f32>) -> ()
      }) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
      "mhlo.return"(%r) : (tensor<4x8xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
}
