
module @jit_layer attributes {mhlo.num_partitions = 43i: 2 , mhlo.num_replicas = 1 : i32} {
  func.func @main(%w: tensor<4x8xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %x: tensor<16x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %f = "mhlo.fusion"(%w, %x) ({
      %g = "mhlo.all_gather"(%w) {all_gather_dim = 0 : i64, channel_handle = #mhlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids} : (tensor<4x8xf32>) -> tensor<16x8xf32>
      %y = "mhlo.multiply"(%g, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
      %r = "mhlo.reduce_scatter"(%y) ({
      ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
        %s = "mhlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "mhlo.return"(%s) : (tensor<f32>) -> ()
      }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
      "mhlo.return"(%r) : (tensor<4x8xf32>) -> ()
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
    %z = "mhlo.add"(%f, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    return %z : tensor<4x8xf32>
  }
}
