module {
  func.func @reduce(%input: tensor<8x16xf32>, %zero: tensor<f32>) -> tensor<8xf32> {
    %sum = "mhlo.reduce"(%input, %zero) ({
    ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
      %add = "mhlo.add"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "mhlo.return"(%add) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %m = "test.map"(%sum) ({
    ^bb0(%elt: f32, %idx: index):
      "test.yield"(%elt) : (f32) -> ()
    }) : (tensor<8xf32>) -> tensor<8xf32>
    return %m : tensor<8xf32>
  }
}
