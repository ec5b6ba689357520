// expected-error@5:3: 'func.return' op has 1 operands, but enclosing function (@f) returns 2
// mlir-opt: rejects
// Fewer returned values than the function's results.
func.func @f(%a: i32) -> (i32, i32) {
  return %a : i32
}
