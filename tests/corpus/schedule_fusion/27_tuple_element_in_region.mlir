// Only get_tuple_element users in the reduce_scatter's own block join the cluster: %e1 reads
// the tuple inside a loop body, so the tuple itself is a live-out of the fusion.
func.func @tuple_nested(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>, %n: index) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g, %x) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tuple<tensor<4x8xf32>, tensor<4x8xf32>>
  %e0 = "mhlo.get_tuple_element"(%r) {index = 0 : i32} : (tuple<tensor<4x8xf32>, tensor<4x8xf32>>) -> tensor<4x8xf32>
  %l = "loop.for"(%n, %e0) ({
  ^bb0(%i: index, %acc: tensor<4x8xf32>):
    %e1 = "mhlo.get_tuple_element"(%r) {index = 1 : i32} : (tuple<tensor<4x8xf32>, tensor<4x8xf32>>) -> tensor<4x8xf32>
    %s = "mhlo.add"(%acc, %e1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    "loop.yield"(%s) : (tensor<4x8xf32>) -> ()
  }) : (index, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %e0, %l : tensor<4x8xf32>, tensor<4x8xf32>
}
