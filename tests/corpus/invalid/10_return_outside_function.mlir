// expected-error@6:5: 'func.return' op expects parent op 'func.func'
// mlir-opt: rejects
// func.return inside a region of another op.
func.func @f(%a: i32) -> i32 {
  "test.region"() ({
    func.return %a : i32
  }) : () -> ()
  return %a : i32
}
