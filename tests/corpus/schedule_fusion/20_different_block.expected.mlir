module {
  func.func @blocks(%w: tensor<4x8xf32>, %n: index, %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %l = "loop.for"(%n, %init) ({
    ^bb0(%i: index, %acc: tensor<4x8xf32>):
      %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
      %s = "mhlo.add"(%acc, %r) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
      "loop.yield"(%s) : (tensor<4x8xf32>) -> ()
    }) : (index, tensor<4x8xf32>) -> tensor<4x8xf32>
    return %l : tensor<4x8xf32>
  }
}
