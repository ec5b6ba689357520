// expected-error@5:3: region of 'scf.execute_region' does not end with a terminator
// mlir-opt: rejects
// A region whose block ends with an ordinary op.
func.func @f(%a: i32) {
  "scf.execute_region"() ({
    %b = "arith.addi"(%a, %a) : (i32, i32) -> i32
  }) : () -> ()
  return
}
