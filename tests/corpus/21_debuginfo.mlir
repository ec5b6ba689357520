#loc2 = loc("schedule_fusion.mlir":2:19)
#loc3 = loc("schedule_fusion.mlir":2:81)
#loc4 = loc("schedule_fusion.mlir":2:103)
#loc9 = loc("schedule_fusion.mlir":7:12)
#loc10 = loc("schedule_fusion.mlir":7:31)
module @jit_layer attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%arg0: tensor<4x8xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"} loc("schedule_fusion.mlir":2:19), %arg1: tensor<16x8xf32> loc("schedule_fusion.mlir":2:81), %arg2: tensor<4x8xf32> loc("schedule_fusion.mlir":2:103)) -> tensor<4x8xf32> {
    %0 = "mhlo.fusion"(%arg0, %arg1) ({
      %2 = "mhlo.all_gather"(%arg0) {all_gather_dim = 0 : i64, channel_handle = #mhlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids} : (tensor<4x8xf32>) -> tensor<16x8xf32> loc(#loc6)
      %3 = "mhlo.multiply"(%2, %arg1) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32> loc(#loc7)
      %4 = "mhlo.reduce_scatter"(%3) ({
      ^bb0(%arg3: tensor<f32> loc("schedule_fusion.mlir":7:12), %arg4: tensor<f32> loc("schedule_fusion.mlir":7:31)):
        %5 = "mhlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc(#loc11)
        "mhlo.return"(%5) : (tensor<f32>) -> () loc(#loc12)
      }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32> loc(#loc8)
      "mhlo.return"(%4) : (tensor<4x8xf32>) -> () loc(#loc13)
    }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32> loc(#loc5)
    %1 = "mhlo.add"(%0, %arg2) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> loc(#loc14)
    return %1 : tensor<4x8xf32> loc(#loc15)
  } loc(#loc1)
} loc(#loc)
#loc = loc("schedule_fusion.mlir":1:1)
#loc1 = loc("schedule_fusion.mlir":2:3)
#loc5 = loc("schedule_fusion.mlir":3:10)
#loc6 = loc("schedule_fusion.mlir":4:12)
#loc7 = loc("schedule_fusion.mlir":5:12)
#loc8 = loc("schedule_fusion.mlir":6:12)
#loc11 = loc("schedule_fusion.mlir":8:14)
#loc12 = loc("schedule_fusion.mlir":9:9)
#loc13 = loc("schedule_fusion.mlir":11:7)
#loc14 = loc("schedule_fusion.mlir":13:10)
#loc15 = loc("schedule_fusion.mlir":14:5)

