module {
  func.func @attention(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<16x8xf32>) {
    %0:2 = "stablehlo.composite"(%w) {CompositeKind = "ScheduleFusion", composite_attributes = {}, decomposition = @hilo.FusedComposite.1, name = "composite.Fused", version = 0 : i32} : (tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<4x8xf32>)
    %y = "stablehlo.multiply"(%0#0, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0#1, %y : tensor<4x8xf32>, tensor<16x8xf32>
  }
  func.func @mlp(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = "stablehlo.composite"(%w) {CompositeKind = "ScheduleFusion", composite_attributes = {}, decomposition = @hilo.FusedComposite.2, name = "composite.Fused", version = 0 : i32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
  func.func private @hilo.FusedComposite.0(%a: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {genComposite = true, noDelete = true} {
    return %a : tensor<4x8xf32>
  }
  func.func private @hilo.FusedComposite.1(%arg0: tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<4x8xf32>) attributes {genComposite = true, noDelete = true} {
    %g = "stablehlo.all_gather"(%arg0) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %r = "stablehlo.reduce_scatter"(%g) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    return %g, %r : tensor<16x8xf32>, tensor<4x8xf32>
  }
  func.func private @hilo.FusedComposite.2(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {genComposite = true, noDelete = true} {
    %g = "stablehlo.all_gather"(%arg0) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %r = "stablehlo.reduce_scatter"(%g) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    return %r : tensor<4x8xf32>
  }
}
