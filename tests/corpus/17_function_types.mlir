module {
  func.func @higher_order(%f: (i32) -> i32, %g: (i32, f32) -> (i32, f32)) -> ((i32) -> i32) {
    %h = "test.compose"(%f, %g) {kind = (i32) -> i32} : ((i32) -> i32, (i32, f32) -> (i32, f32)) -> ((i32) -> i32)
    %pair:2 = "test.two_fns"(%h) : ((i32) -> i32) -> ((i32) -> i32, () -> ())
    return %pair#0 : (i32) -> i32
  }
}
