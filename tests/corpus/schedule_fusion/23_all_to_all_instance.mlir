// schedule-fusion-options: pattern=moe
// A non-seed instance, all_to_all -> all_to_all with FusionKind "MoEOverlap" (mixture-of-experts
// dispatch then combine). The expert compute reading the dispatched tokens moves after the
// cluster; the third all_to_all finds its producer claimed.
func.func @moe(%tokens: tensor<8x16xf32>, %expert: tensor<16x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %d = "mhlo.all_to_all"(%tokens) {concat_dimension = 0 : i64, split_count = 4 : i64, split_dimension = 0 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %e = "mhlo.dot"(%d, %expert) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %c = "mhlo.all_to_all"(%d) {concat_dimension = 0 : i64, split_count = 4 : i64, split_dimension = 0 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %c2 = "mhlo.all_to_all"(%c) {concat_dimension = 0 : i64, split_count = 4 : i64, split_dimension = 0 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %c, %e, %c2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}
