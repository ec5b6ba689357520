module {
  func.func @f() {
    %0:2 = "stablehlo.optimization_barrier"() : () -> (tensor<f32>, tensor<i1>)
    "func.return"() : () -> ()
  }
}
