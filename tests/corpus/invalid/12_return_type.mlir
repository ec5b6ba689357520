// expected-error@6:3: type of return operand 1 ('i32') doesn't match function result type ('f32') in function @"two results"
// mlir-opt: rejects
// A returned value of the wrong type. The function name needs quoting, which mlir-opt omits
// in this message ("in function @two results").
func.func @"two results"(%a: i32) -> (i32, f32) {
  return %a, %a : i32, i32
}
