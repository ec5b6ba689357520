func.func @"x\n}\ndigraph Y {\n\"\00\FF"(%a: i32) -> i32 {
  %b = "q.\"a\\&amp;ÿÀ"(%a) : (i32) -> i32
  return %b : i32
}
