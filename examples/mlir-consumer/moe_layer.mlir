// A mixture-of-experts layer in my compiler's own dialect (`my`, unregistered here, hence
// --allow-unregistered-dialect), with a sharded weight gathered for the router and
// reduce-scattered with its gradient:
//
//   my-compiler-opt --allow-unregistered-dialect \
//     --pass-pipeline='builtin.module(my-moe-overlap{remarks=true},my-schedule-fusion)' moe_layer.mlir
//
// my-moe-overlap fuses the dispatch %d with the combine %c that reads it (the expert compute %e
// moves after the fusion). It refuses the two other all_to_alls, with a remark each: %d reads
// no all_to_all, and %c2's producer %c is already in that cluster. my-schedule-fusion then fuses
// the weight's my.all_gather with its my.reduce_scatter. The output is expected_output.mlir.
func.func @moe_layer(%tokens: tensor<8x16xf32>, %w_shard: tensor<4x16xf32>, %grad: tensor<16x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<4x16xf32>) {
  %w = "my.all_gather"(%w_shard) {dim = 0 : i64} : (tensor<4x16xf32>) -> tensor<16x16xf32>
  %d = "my.all_to_all"(%tokens) {split_count = 4 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %e = "my.matmul"(%d, %w) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %c = "my.all_to_all"(%d) {split_count = 4 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %c2 = "my.all_to_all"(%c) {split_count = 4 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = "my.reduce_scatter"(%w, %grad) {dim = 0 : i64} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  return %c, %e, %c2, %s : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<4x16xf32>
}
