module {
  func.func @f(%arg0: f32) -> f16 {
    %0 = "arith.truncf"(%arg0) <{fastmath = #arith.fastmath<fast>}> : (f32) -> f16
    return %0 : f16
  }
}
