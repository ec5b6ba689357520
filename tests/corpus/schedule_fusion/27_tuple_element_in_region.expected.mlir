module {
  func.func @tuple_nested(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>, %n: index) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
    %0:2 = "mhlo.fusion"(%w, %x) ({
    ^bb0(%arg0: tensor<4x8xf32>, %arg1: tensor<16x8xf32>):
      %g = "mhlo.all_gather"(%arg0) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
      %r = "mhlo.reduce_scatter"(%g, %arg1) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tuple<tensor<4x8xf32>, tensor<4x8xf32>>
      %e0 = "mhlo.get_tuple_element"(%r) {index = 0 : i32} : (tuple<tensor<4x8xf32>, tensor<4x8xf32>>) -> tensor<4x8xf32>
      "mhlo.return"(%r, %e0) : (tuple<tensor<4x8xf32>, tensor<4x8xf32>>, tensor<4x8xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>, tensor<16x8xf32>) -> (tuple<tensor<4x8xf32>, tensor<4x8xf32>>, tensor<4x8xf32>)
    %l = "loop.for"(%n, %0#1) ({
    ^bb0(%i: index, %acc: tensor<4x8xf32>):
      %e1 = "mhlo.get_tuple_element"(%0#0) {index = 1 : i32} : (tuple<tensor<4x8xf32>, tensor<4x8xf32>>) -> tensor<4x8xf32>
      %s = "mhlo.add"(%acc, %e1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
      "loop.yield"(%s) : (tensor<4x8xf32>) -> ()
    }) : (index, tensor<4x8xf32>) -> tensor<4x8xf32>
    return %0#1, %l : tensor<4x8xf32>, tensor<4x8xf32>
  }
}
