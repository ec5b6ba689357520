module {
  func.func @nested(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>, %n: index) -> (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) {
    %0:2 = "mhlo.fusion"(%w) ({
    ^bb0(%arg0: tensor<4x8xf32>):
      %g = "mhlo.all_gather"(%arg0) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
      %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
      "mhlo.return"(%g, %r) : (tensor<16x8xf32>, tensor<4x8xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<4x8xf32>)
    %l = "loop.for"(%n, %x) ({
    ^bb0(%i: index, %acc: tensor<16x8xf32>):
      %m = "mhlo.multiply"(%acc, %0#0) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
      "loop.yield"(%m) : (tensor<16x8xf32>) -> ()
    }) : (index, tensor<16x8xf32>) -> tensor<16x8xf32>
    %o = "loop.for"(%n, %x) ({
    ^bb0(%j: index, %acc2: tensor<16x8xf32>):
      %1:2 = "mhlo.fusion"(%w) ({
      ^bb0(%arg1: tensor<4x8xf32>):
        %g2 = "mhlo.all_gather"(%arg1) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
        %r2 = "mhlo.reduce_scatter"(%g2) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
        "mhlo.return"(%g2, %r2) : (tensor<16x8xf32>, tensor<4x8xf32>) -> ()
      }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<4x8xf32>)
      %s = "mhlo.add"(%acc2, %1#0) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
      "test.sink"(%1#1) : (tensor<4x8xf32>) -> ()
      "loop.yield"(%s) : (tensor<16x8xf32>) -> ()
    }) : (index, tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0#1, %l, %o : tensor<4x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>
  }
}
