module @generic {
  func.func @annotated(%arg1: tensor<4xf32> {test.arg = 0 : i64}, %arg2: i32) -> (tensor<4xf32> {test.result = "r0"}, i32) attributes {sym_kind = "kernel"} {
    %0:2 = "test.pair"(%arg1) ({
    ^bb0(%arg3: f32):
      "test.yield"(%arg3, %arg3) : (f32, f32) -> ()
    }) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %1 = call @helper(%arg2) : (i32) -> i32
    return %0#1, %1 : tensor<4xf32>, i32
  }
  func.func private @helper(i32 {test.unit}) -> i32
  func.func nested @nested_def(%arg0: i64) -> i64 {
    return %arg0 : i64
  }
}
