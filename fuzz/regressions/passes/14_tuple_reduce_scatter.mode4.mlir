// A reduce_scatter returning a tuple: its get_tuple_element users move right after it and join
// the cluster [all_gather, reduce_scatter, get_tuple_element...]; the all_gather's user between
// the pair moves after the whole cluster; the unrelated %n stays where it was.
func.func @tuple(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %y = "mhlo.multiply"(%g, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g, %x) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tuple<tensor<4x8xf32>, tensor<4x8xf32>>
  %n = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %e0 = "mhlo.get_tuple_element"(%r) {index = 0 : i32} : (tuple<tensor<4x8xf32>, tensor<4x8xf32>>) -> tensor<4x8xf32>
  %e1 = "mhlo.get_tuple_element"(%r) {index = 1 : i32} : (tuple<tensor<4x8xf32>, tensor<4x8xf32>>) -> tensor<4x8xf32>
  return %e0, %e1, %y, %n : tensor<4x8xf32>, tensor<4x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>
}
