// The reduce_scatter consumes compute, not an all_gather (SPEC §4.2 takes the producer among the
// defining ops of its operands): no match, IR unchanged. This is examples/mlir/layer.mlir.
func.func @layer(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %y = "mhlo.multiply"(%g, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%y) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
