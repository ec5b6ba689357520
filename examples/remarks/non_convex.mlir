// A refused candidate (docs/mlir.md §"Remarks"): %y depends on %g and feeds the reduce_scatter,
// so the pair cannot be grouped without it. With remarks on, the pass says so; the IR is unchanged.
func.func @non_convex(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %y = "mhlo.multiply"(%g, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g, %y) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
