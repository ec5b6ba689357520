module @several {
  func.func private @helper(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %y = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    return %y : tensor<16x8xf32>
  }
  func.func @first(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0:2 = "mhlo.fusion"(%w) ({
    ^bb0(%arg0: tensor<4x8xf32>):
      %g = "mhlo.all_gather"(%arg0) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
      %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
      "mhlo.return"(%g, %r) : (tensor<16x8xf32>, tensor<4x8xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<4x8xf32>)
    %h = call @helper(%0#0) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    "test.sink"(%h) : (tensor<16x8xf32>) -> ()
    return %0#1 : tensor<4x8xf32>
  }
  func.func @second(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> tensor<4x8xf32> {
    %n = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %0 = "mhlo.fusion"(%w, %n) ({
    ^bb0(%arg0: tensor<4x8xf32>, %arg1: tensor<16x8xf32>):
      %g = "mhlo.all_gather"(%arg0) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
      %r = "mhlo.reduce_scatter"(%g, %arg1) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
      "mhlo.return"(%r) : (tensor<4x8xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
}
