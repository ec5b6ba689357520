module attributes {test.banner = "strings: \"quoted\", back\\slash, tab\t, newline\n, hex \22\0A"} {
  func.func @strings(%x: i32) -> i32 {
    %a = "test.op"(%x) {brackets = "(([{<>}])) -> <", comment = "// not a comment", empty = "", unicode = "π ≈ 3.14"} : (i32) -> i32
    %b = "test.op"(%a) {"quoted name" = 1 : i64, escapes = "\\\"\\"} : (i32) -> i32
    %c = "test.op"(%b) {list = ["a", "b,c", "}"]} : (i32) -> i32
    return %c : i32
  }
}
