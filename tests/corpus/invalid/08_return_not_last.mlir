// expected-error@5:3: 'func.return' op must be the last operation in the parent block
// mlir-opt: rejects
// An op after the function's return.
func.func @f(%a: i32) -> i32 {
  return %a : i32
  "test.after"() : () -> ()
  return %a : i32
}
