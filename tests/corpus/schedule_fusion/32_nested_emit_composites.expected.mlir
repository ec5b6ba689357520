module {
  func.func @nested_cluster(%w: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = "stablehlo.composite"(%w, %v) {CompositeKind = "ScheduleFusion", composite_attributes = {}, decomposition = @hilo.FusedComposite.1, name = "composite.Fused", version = 0 : i32} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
  func.func private @hilo.FusedComposite.0(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {genComposite = true, noDelete = true} {
    %ig = "mhlo.all_gather"(%arg0) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %ir = "mhlo.reduce_scatter"(%ig) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    return %ir : tensor<4x8xf32>
  }
  func.func private @hilo.FusedComposite.1(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {genComposite = true, noDelete = true} {
    %g = "mhlo.all_gather"(%arg0) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %r = "mhlo.reduce_scatter"(%g) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = "stablehlo.composite"(%arg1) {CompositeKind = "ScheduleFusion", composite_attributes = {}, decomposition = @hilo.FusedComposite.0, name = "composite.Fused", version = 0 : i32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
      "test.sink"(%0) : (tensor<4x8xf32>) -> ()
      %s = "mhlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "mhlo.return"(%s) : (tensor<f32>) -> ()
    }) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    return %r : tensor<4x8xf32>
  }
}
