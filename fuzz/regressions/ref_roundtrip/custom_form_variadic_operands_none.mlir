module {
  func.func @f(%arg0: tensor<2xi64>) {
    %0 = "stablehlo.concatenate"() {dimension = 0 : i64} : () -> tensor<2xi64>
    %1 = "stablehlo.dynamic_slice"(%arg0) {slice_sizes = array<i64: 1>} : (tensor<2xi64>) -> tensor<1xi64>
    "func.return"() : () -> ()
  }
}
