module {
  func.func @fsdp(%w1: tensor<4x8xf32>, %w2: tensor<4x8xf32>, %w3: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<16x8xf32>) {
    %0:2 = "mhlo.fusion"(%w1) ({
    ^bb0(%arg0: tensor<4x8xf32>):
      %g1 = "mhlo.all_gather"(%arg0) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
      %r1 = "mhlo.reduce_scatter"(%g1) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
      "mhlo.return"(%g1, %r1) : (tensor<16x8xf32>, tensor<4x8xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<4x8xf32>)
    %h1 = "mhlo.multiply"(%x, %0#0) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %1:2 = "mhlo.fusion"(%w2) ({
    ^bb0(%arg1: tensor<4x8xf32>):
      %g2 = "mhlo.all_gather"(%arg1) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
      %r2 = "mhlo.reduce_scatter"(%g2) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
      "mhlo.return"(%g2, %r2) : (tensor<16x8xf32>, tensor<4x8xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<4x8xf32>)
    %h2 = "mhlo.multiply"(%h1, %1#0) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %2:2 = "mhlo.fusion"(%w3) ({
    ^bb0(%arg2: tensor<4x8xf32>):
      %g3 = "mhlo.all_gather"(%arg2) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
      %r3 = "mhlo.reduce_scatter"(%g3) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
      "mhlo.return"(%g3, %r3) : (tensor<16x8xf32>, tensor<4x8xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<4x8xf32>)
    %h3 = "mhlo.add"(%h2, %2#0) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0#1, %1#1, %2#1, %h3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<16x8xf32>
  }
}
