// Collectives but no all_gather -> reduce_scatter pair: the output is the input, byte for byte.
func.func @none(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %s = "mhlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = "mhlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "mhlo.return"(%t) : (tensor<f32>) -> ()
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %y = "mhlo.add"(%g, %s) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  return %y, %s : tensor<16x8xf32>, tensor<16x8xf32>
}
