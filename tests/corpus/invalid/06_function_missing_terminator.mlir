// expected-error@4:1: function '@f' does not end with a terminator
// mlir-opt: rejects
// The function body ends with an ordinary op.
func.func @f(%a: i32) -> i32 {
  %b = "arith.addi"(%a, %a) : (i32, i32) -> i32
}
