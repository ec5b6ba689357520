// schedule-fusion-options: emit=composites
// The seed's StableHLO twin: with emit_composites each new cluster becomes a stablehlo.composite
// and a private decomposition at once (FusionToComposite's schema), numbered per run across the
// functions; @hilo.FusedComposite.0 already exists (an earlier lowering, skipped as a
// genComposite function), so the numbering goes on from 1.
module {
  func.func @attention(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<16x8xf32>) {
    %g = "stablehlo.all_gather"(%w) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %y = "stablehlo.multiply"(%g, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %r = "stablehlo.reduce_scatter"(%g) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    return %r, %y : tensor<4x8xf32>, tensor<16x8xf32>
  }
  func.func @mlp(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %g = "stablehlo.all_gather"(%w) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %r = "stablehlo.reduce_scatter"(%g) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    return %r : tensor<4x8xf32>
  }
  func.func private @hilo.FusedComposite.0(%a: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {genComposite = true, noDelete = true} {
    return %a : tensor<4x8xf32>
  }
}
