module {
  func.func @scan(%w: tensor<4x8xf32>, %v: tensor<8x8xf32>, %n: tensor<i32>) -> (tensor<4x8xf32>, tensor<8x8xf32>) {
    %0:3 = "stablehlo.while"(%w, %v, %n) ({
    ^bb0(%x: tensor<4x8xf32>, %y: tensor<8x8xf32>, %i: tensor<i32>):
      "mhlo.fusion"(%x) ({
      ^bb0(%arg0: tensor<4x8xf32>):
        %cg = "stablehlo.all_gather"(%arg0) {all_gather_dim = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
        %cr = "stablehlo.reduce_scatter"(%cg) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
        "mhlo.return"() : () -> ()
      }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> ()
      %c = "stablehlo.compare"(%i, %n) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%c) : (tensor<i1>) -> ()
    }, {
    ^bb0(%x: tensor<4x8xf32>, %y: tensor<8x8xf32>, %i: tensor<i32>):
      %1:2 = "mhlo.fusion"(%x) ({
      ^bb0(%arg1: tensor<4x8xf32>):
        %g = "stablehlo.all_gather"(%arg1) {all_gather_dim = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
        %r = "stablehlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
        "mhlo.return"(%g, %r) : (tensor<16x8xf32>, tensor<4x8xf32>) -> ()
      }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<4x8xf32>)
      %m = "stablehlo.multiply"(%1#0, %1#0) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
      %wg = "stablehlo.all_gather"(%y) {all_gather_dim = 0 : i64} : (tensor<8x8xf32>) -> tensor<32x8xf32>
      %d = "stablehlo.dot_general"(%wg, %y) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<32x8xf32>, tensor<8x8xf32>) -> tensor<32x8xf32>
      %dr = "stablehlo.reduce_scatter"(%d) {scatter_dimension = 0 : i64} : (tensor<32x8xf32>) -> tensor<8x8xf32>
      %one = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
      %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %s = "stablehlo.add"(%1#1, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
      "stablehlo.return"(%s, %dr, %j) : (tensor<4x8xf32>, tensor<8x8xf32>, tensor<i32>) -> ()
    }) : (tensor<4x8xf32>, tensor<8x8xf32>, tensor<i32>) -> (tensor<4x8xf32>, tensor<8x8xf32>, tensor<i32>)
    return %0#0, %0#1 : tensor<4x8xf32>, tensor<8x8xf32>
  }
}
