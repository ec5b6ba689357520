module {
  func.func @moe(%tokens: tensor<8x16xf32>, %expert: tensor<16x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
    %0:2 = "mhlo.fusion"(%tokens) ({
    ^bb0(%arg0: tensor<8x16xf32>):
      %d = "mhlo.all_to_all"(%arg0) {concat_dimension = 0 : i64, split_count = 4 : i64, split_dimension = 0 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
      %c = "mhlo.all_to_all"(%d) {concat_dimension = 0 : i64, split_count = 4 : i64, split_dimension = 0 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
      "mhlo.return"(%d, %c) : (tensor<8x16xf32>, tensor<8x16xf32>) -> ()
    }) {FusionKind = "MoEOverlap"} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
    %e = "mhlo.dot"(%0#0, %expert) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %c2 = "mhlo.all_to_all"(%0#1) {concat_dimension = 0 : i64, split_count = 4 : i64, split_dimension = 0 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0#1, %e, %c2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
  }
}
