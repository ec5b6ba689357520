// A FusionToComposite decomposition (genComposite) holds an already-scheduled fusion body: the
// pass skips the function. The fresh pair in @main is clustered.
module {
  func.func @main(%w: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
    %c = "stablehlo.composite"(%w) {CompositeKind = "ScheduleFusion", composite_attributes = {}, decomposition = @hilo.FusedComposite.0, name = "composite.Fused", version = 0 : i32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %g = "mhlo.all_gather"(%v) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    return %c, %r : tensor<4x8xf32>, tensor<4x8xf32>
  }
  func.func private @hilo.FusedComposite.0(%a: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {genComposite = true, noDelete = true} {
    %g = "mhlo.all_gather"(%a) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    return %r : tensor<4x8xf32>
  }
}
