module @composite attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=4]>}"}} {
  func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<16x8xf32>) -> tensor<4x8xf32> {
    %0 = "stablehlo.composite"(%arg0, %arg1) {composite_attributes = {all_gather_dim = 0 : i64, scatter_dim = 0 : i64}, decomposition = @hilo.FusedComposite.0, name = "hilo.fused_all_gather_matmul", version = 1 : i32} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
  func.func private @hilo.FusedComposite.0(%arg0: tensor<4x8xf32>, %arg1: tensor<16x8xf32>) -> tensor<4x8xf32> attributes {genComposite = true, noDelete = true} {
    %0 = "stablehlo.all_gather"(%arg0) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %1 = "stablehlo.multiply"(%0, %arg1) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %2 = "stablehlo.reduce_scatter"(%1) ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %3 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%3) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    return %2 : tensor<4x8xf32>
  }
}
