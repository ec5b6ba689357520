// Several pairs in one function whose windows overlap (an FSDP-style block: both weights are
// gathered up front). The second pair is planned against the order the first reschedule left,
// and both clusters come out adjacent; a third pair further down is independent.
func.func @fsdp(%w1: tensor<4x8xf32>, %w2: tensor<4x8xf32>, %w3: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<16x8xf32>) {
  %g1 = "mhlo.all_gather"(%w1) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %g2 = "mhlo.all_gather"(%w2) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %h1 = "mhlo.multiply"(%x, %g1) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %h2 = "mhlo.multiply"(%h1, %g2) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %r1 = "mhlo.reduce_scatter"(%g1) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  %r2 = "mhlo.reduce_scatter"(%g2) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  %g3 = "mhlo.all_gather"(%w3) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %h3 = "mhlo.add"(%h2, %g3) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %r3 = "mhlo.reduce_scatter"(%g3) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r1, %r2, %r3, %h3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<16x8xf32>
}
