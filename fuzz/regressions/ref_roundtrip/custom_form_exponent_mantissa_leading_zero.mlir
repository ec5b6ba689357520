module {
  func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.reduce_precision"(%arg0) {exponent_bits = 5 : i32, mantissa_bits = 05 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = "stablehlo.reduce_precision"(%0) <{exponent_bits = 0008 : i32, mantissa_bits = 1234567890 : i32}> : (tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
