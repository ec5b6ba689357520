// expected-error@5:3: operand #0 does not dominate this use
// mlir-opt: rejects
// An operand defined later in the same block.
func.func @f(%a: i32) -> i32 {
  %b = "test.op"(%c) : (i32) -> i32
  %c = "test.op"(%a) : (i32) -> i32
  return %b : i32
}
