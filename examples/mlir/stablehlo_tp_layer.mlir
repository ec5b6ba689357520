// A tensor-parallel attention block in StableHLO on 2 devices, in two functions: the projection
// weights are all-gathered for the forward matmuls and reduce-scattered with their gradients.
// The pass matches stablehlo.* ops by kind; the grouping op is mhlo.fusion in both flavours
// (StableHLO has no fusion op), ending with mhlo.return.
//
//   neuronrw-opt --schedule-fusion examples/mlir/stablehlo_tp_layer.mlir
module @tp_attention attributes {mhlo.num_partitions = 2 : i32} {
  func.func @qkv_projection(%x: tensor<16x128xf32>, %w_qkv: tensor<64x384xf32>, %dqkv: tensor<16x384xf32>) -> (tensor<16x384xf32>, tensor<64x384xf32>) {
    %g = "stablehlo.all_gather"(%w_qkv) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<64x384xf32>) -> tensor<128x384xf32>
    %qkv = "stablehlo.dot"(%x, %g) : (tensor<16x128xf32>, tensor<128x384xf32>) -> tensor<16x384xf32>
    %x_t = "stablehlo.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<16x128xf32>) -> tensor<128x16xf32>
    %grad = "stablehlo.dot"(%x_t, %dqkv) : (tensor<128x16xf32>, tensor<16x384xf32>) -> tensor<128x384xf32>
    %upd = "stablehlo.add"(%g, %grad) : (tensor<128x384xf32>, tensor<128x384xf32>) -> tensor<128x384xf32>
    %rs = "stablehlo.reduce_scatter"(%upd) ({
    ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
      %sum = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%sum) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64} : (tensor<128x384xf32>) -> tensor<64x384xf32>
    %g_o = "stablehlo.all_gather"(%rs) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<64x384xf32>) -> tensor<128x384xf32>
    %probe = "stablehlo.reduce_precision"(%g_o) {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : (tensor<128x384xf32>) -> tensor<128x384xf32>
    %rs_o = "stablehlo.reduce_scatter"(%g_o) ({
    ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
      %max = "stablehlo.maximum"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%max) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64} : (tensor<128x384xf32>) -> tensor<64x384xf32>
    "stablehlo.custom_call"(%probe) {call_target_name = "probe"} : (tensor<128x384xf32>) -> ()
    return %qkv, %rs_o : tensor<16x384xf32>, tensor<64x384xf32>
  }
  func.func @out_projection(%ctx: tensor<16x128xf32>, %w_o: tensor<64x128xf32>, %dw: tensor<128x128xf32>) -> (tensor<16x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>) {
    %g = "stablehlo.all_gather"(%w_o) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<64x128xf32>) -> tensor<128x128xf32>
    %out = "stablehlo.dot"(%ctx, %g) : (tensor<16x128xf32>, tensor<128x128xf32>) -> tensor<16x128xf32>
    %rs:2 = "stablehlo.reduce_scatter"(%g, %dw) ({
    ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
      %sum = "stablehlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%sum) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64} : (tensor<128x128xf32>, tensor<128x128xf32>) -> (tensor<64x128xf32>, tensor<64x128xf32>)
    return %out, %rs#0, %rs#1 : tensor<16x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>
  }
}
