module {
  func.func private @no_args() -> i32
  func.func private @no_results(tensor<4xf32>)
  func.func private @nothing()
  func.func private @many(i32, f32 {test.arg}, tensor<?x?xf32>) -> (i32, f32)
  func.func private @fn_result(i32) -> ((i32) -> i32)
  func.func nested @nested_decl(i64) -> i64
  func.func @user() -> i32 {
    %v = call @no_args() : () -> i32
    call @nothing() : () -> ()
    return %v : i32
  }
}
