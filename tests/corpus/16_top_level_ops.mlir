module @top attributes {test.version = 3 : i64} {
  %cfg = "test.global_config"() {value = "fast"} : () -> i32
  "test.region_at_top"(%cfg) ({
  ^bb0(%v: i32):
    %w = "test.inc"(%v, %cfg) : (i32, i32) -> i32
    "test.yield"(%w) : (i32) -> ()
  }) : (i32) -> ()
  %g:2 = "test.globals"() : () -> (f32, f32)
  func.func @uses_nothing_from_top() {
    return
  }
  "test.consume"(%g#0, %g#1) : (f32, f32) -> ()
}
