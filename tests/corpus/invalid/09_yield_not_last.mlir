// expected-error@6:5: 'scf.yield' op must be the last operation in the parent block
// mlir-opt: rejects
// A region terminator followed by another op.
func.func @f() {
  "scf.execute_region"() ({
    "scf.yield"() : () -> ()
    "scf.yield"() : () -> ()
  }) : () -> ()
  return
}
