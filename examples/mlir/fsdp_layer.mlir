// A fully-sharded data-parallel (FSDP / ZeRO-3) MLP block on 4 devices, the shape ScheduleFusion
// targets: each weight shard is all-gathered before the forward compute, and the optimizer step
// reduce-scatters the gathered weight together with its gradient (one variadic reduce_scatter
// per weight; the first returns a tuple read through get_tuple_element).
//
//   neuronrw-opt --schedule-fusion-dry-run examples/mlir/fsdp_layer.mlir   # the plan
//   neuronrw-opt --schedule-fusion examples/mlir/fsdp_layer.mlir           # the rewrite
//
// Both windows overlap: the second pair is planned against the order the first reschedule left.
// The forward compute that reads a gathered weight moves after its cluster; the gradient compute
// that feeds a reduce_scatter stays before it.
module @fsdp_mlp attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @mlp_block(%x: tensor<32x256xf32>, %w_up: tensor<64x1024xf32>, %w_down: tensor<256x256xf32>, %dy: tensor<32x256xf32>, %dh: tensor<32x1024xf32>) -> (tensor<32x256xf32>, tensor<64x1024xf32>, tensor<64x1024xf32>, tensor<256x256xf32>, tensor<256x256xf32>) {
    %g_up = "mhlo.all_gather"(%w_up) {all_gather_dim = 0 : i64, channel_handle = #mhlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids} : (tensor<64x1024xf32>) -> tensor<256x1024xf32>
    %g_down = "mhlo.all_gather"(%w_down) {all_gather_dim = 0 : i64, channel_handle = #mhlo.channel_handle<handle = 2, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids} : (tensor<256x256xf32>) -> tensor<1024x256xf32>
    %h = "mhlo.dot"(%x, %g_up) : (tensor<32x256xf32>, tensor<256x1024xf32>) -> tensor<32x1024xf32>
    %a = "mhlo.tanh"(%h) : (tensor<32x1024xf32>) -> tensor<32x1024xf32>
    %y = "mhlo.dot"(%a, %g_down) : (tensor<32x1024xf32>, tensor<1024x256xf32>) -> tensor<32x256xf32>
    %a_t = "mhlo.transpose"(%a) {permutation = dense<[1, 0]> : tensor<2xi64>} : (tensor<32x1024xf32>) -> tensor<1024x32xf32>
    %grad_down = "mhlo.dot"(%a_t, %dy) : (tensor<1024x32xf32>, tensor<32x256xf32>) -> tensor<1024x256xf32>
    %x_t = "mhlo.transpose"(%x) {permutation = dense<[1, 0]> : tensor<2xi64>} : (tensor<32x256xf32>) -> tensor<256x32xf32>
    %grad_up = "mhlo.dot"(%x_t, %dh) : (tensor<256x32xf32>, tensor<32x1024xf32>) -> tensor<256x1024xf32>
    %rs_up = "mhlo.reduce_scatter"(%g_up, %grad_up) ({
    ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
      %sum = "mhlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "mhlo.return"(%sum) : (tensor<f32>) -> ()
    }) {channel_handle = #mhlo.channel_handle<handle = 3, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids} : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tuple<tensor<64x1024xf32>, tensor<64x1024xf32>>
    %p_up = "mhlo.get_tuple_element"(%rs_up) {index = 0 : i32} : (tuple<tensor<64x1024xf32>, tensor<64x1024xf32>>) -> tensor<64x1024xf32>
    %d_up = "mhlo.get_tuple_element"(%rs_up) {index = 1 : i32} : (tuple<tensor<64x1024xf32>, tensor<64x1024xf32>>) -> tensor<64x1024xf32>
    %rs_down:2 = "mhlo.reduce_scatter"(%g_down, %grad_down) ({
    ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
      %sum = "mhlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "mhlo.return"(%sum) : (tensor<f32>) -> ()
    }) {channel_handle = #mhlo.channel_handle<handle = 4, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids} : (tensor<1024x256xf32>, tensor<1024x256xf32>) -> (tensor<256x256xf32>, tensor<256x256xf32>)
    return %y, %p_up, %d_up, %rs_down#0, %rs_down#1 : tensor<32x256xf32>, tensor<64x1024xf32>, tensor<64x1024xf32>, tensor<256x256xf32>, tensor<256x256xf32>
  }
}
