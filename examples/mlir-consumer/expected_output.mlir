module {
  func.func @moe_layer(%arg0: tensor<8x16xf32>, %arg1: tensor<4x16xf32>, %arg2: tensor<16x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<4x16xf32>) {
    %0:2 = "mhlo.fusion"(%arg0) ({
    ^bb0(%arg3: tensor<8x16xf32>):
      %4 = "my.all_to_all"(%arg3) {split_count = 4 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
      %5 = "my.all_to_all"(%4) {split_count = 4 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
      "mhlo.return"(%4, %5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> ()
    }) {FusionKind = "MoEOverlap"} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
    %1 = "my.all_to_all"(%0#1) {split_count = 4 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %2:2 = "mhlo.fusion"(%arg1, %arg2) ({
    ^bb0(%arg3: tensor<4x16xf32>, %arg4: tensor<16x16xf32>):
      %4 = "my.all_gather"(%arg3) {dim = 0 : i64} : (tensor<4x16xf32>) -> tensor<16x16xf32>
      %5 = "my.reduce_scatter"(%4, %arg4) {dim = 0 : i64} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
      "mhlo.return"(%4, %5) : (tensor<16x16xf32>, tensor<4x16xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x16xf32>, tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<4x16xf32>)
    %3 = "my.matmul"(%0#0, %2#0) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    return %0#1, %3, %1, %2#1 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<4x16xf32>
  }
}

