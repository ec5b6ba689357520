#attr = {note = "keep // this", n = 1 : i64}
module {
  func.func public @odd_spacing(%a: i32, %b: tensor< 4 x f32 > {test.tag}) -> i32 {
    %x, %y:2 = "test.three"(%a) : (i32) -> (i32, i32, i32)
    %z = "test.sum"(%x, %y#0, %y#1) {k = [1, 2, 3], attr = #attr} : (i32, i32, i32) -> i32
    "test.graph"() ({
      "test.use"(%later) : (i32) -> ()
      %later = "test.def"() : () -> i32
    }) : () -> ()
    %r = call @"helper"(%z) : (i32) -> i32
    return %r : i32
  }
  func.func private @helper(i32) -> i32
}
