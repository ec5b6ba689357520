// expected-error@7:1: redefinition of symbol named 'f'
// mlir-opt: rejects
// Two functions with one name: reported at the second.
func.func @f() {
  return
}
func.func @f() {
  return
}
