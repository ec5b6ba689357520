// Pairs in several functions: each function is planned in module order and rewritten on its
// own; the function without a pair is left alone.
module @several {
  func.func private @helper(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %y = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    return %y : tensor<16x8xf32>
  }
  func.func @first(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %h = func.call @helper(%g) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    "test.sink"(%h) : (tensor<16x8xf32>) -> ()
    return %r : tensor<4x8xf32>
  }
  func.func @second(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> tensor<4x8xf32> {
    %n = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %r = "mhlo.reduce_scatter"(%g, %n) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
    return %r : tensor<4x8xf32>
  }
}
