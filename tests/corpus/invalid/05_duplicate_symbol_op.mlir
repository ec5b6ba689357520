// expected-error@5:1: redefinition of symbol named 'g'
// mlir-opt: rejects
// A top-level op defines a symbol through its sym_name attribute; a function reuses it.
"test.global"() {sym_name = "g"} : () -> ()
func.func private @g(i32) -> i32
