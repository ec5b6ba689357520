// expected-error@4:1: function '@f' does not end with 'func.return'
// mlir-opt: rejects
// A function body must end with func.return, not another dialect's terminator.
func.func @f() {
  "scf.yield"() : () -> ()
}
