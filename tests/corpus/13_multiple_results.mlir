module {
  func.func @split(%x: tensor<8xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %parts:3 = "test.split"(%x) {count = 3 : i64} : (tensor<8xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
    %sum = "test.add"(%parts#0, %parts#2) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %pair:2 = "test.pair"(%sum) ({
    ^bb0(%e: f32):
      %q:2 = "test.dup"(%e) : (f32) -> (f32, f32)
      "test.yield"(%q#1, %q#0) : (f32, f32) -> ()
    }) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    return %pair#1, %parts#1, %pair#0 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
  func.func private @two() -> (i32, i32)
  func.func @calls() -> i32 {
    %t:2 = call @two() : () -> (i32, i32)
    return %t#1 : i32
  }
}
