// A scan over layers as XLA and JAX write it: a stablehlo.while whose condition and body are two
// regions. Each region's block is planned on its own: the body's direct pair is grouped in the
// body (the multiply that reads the gathered value moves after the fusion), the FSDP-style
// chain all_gather -> dot_general -> reduce_scatter is no candidate (the reduce_scatter reads
// compute), and the condition, which holds a pair too, is planned as the separate block it is.
func.func @scan(%w: tensor<4x8xf32>, %v: tensor<8x8xf32>, %n: tensor<i32>) -> (tensor<4x8xf32>, tensor<8x8xf32>) {
  %0:3 = "stablehlo.while"(%w, %v, %n) ({
  ^bb0(%x: tensor<4x8xf32>, %y: tensor<8x8xf32>, %i: tensor<i32>):
    %cg = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %cr = "stablehlo.reduce_scatter"(%cg) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    %c = "stablehlo.compare"(%i, %n) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%x: tensor<4x8xf32>, %y: tensor<8x8xf32>, %i: tensor<i32>):
    %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %m = "stablehlo.multiply"(%g, %g) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %r = "stablehlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    %wg = "stablehlo.all_gather"(%y) {all_gather_dim = 0 : i64} : (tensor<8x8xf32>) -> tensor<32x8xf32>
    %d = "stablehlo.dot_general"(%wg, %y) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<32x8xf32>, tensor<8x8xf32>) -> tensor<32x8xf32>
    %dr = "stablehlo.reduce_scatter"(%d) {scatter_dimension = 0 : i64} : (tensor<32x8xf32>) -> tensor<8x8xf32>
    %one = "stablehlo.constant"() {value = $ense<1> : tensor<i32>} : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %s = "stablehlo.add"(%r, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    "stablehlo.return"(%s, %dr, %j) : (tensor<4x8xf32>, tensor<8x8xf32>, tensor<i32>) -> ()
  }) : (tensor<4x8xf32>, tensor<8x8xf32>, tensor<i32>) -> (tensor<4x8xf32>, tensor<8x8xf32>, tensor<i32>)
  return %0#0, %0#1 : tensor<4x8xf32>, tensor<8x8xf32>
}
