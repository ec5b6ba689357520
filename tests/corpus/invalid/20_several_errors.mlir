// expected-error@7:1: redefinition of symbol named 'f'
// expected-error@7:1: function '@f' does not end with 'func.return'
// expected-error@8:3: operand #0 does not dominate this use
// expected-error@10:3: 'func.call' op 'nowhere' does not reference a valid function
// mlir-opt: rejects
func.func private @f()
func.func @f(%a: i32) {
  "test.op"(%b) : (i32) -> ()
  %b = "test.def"(%a) : (i32) -> i32
  func.call @nowhere() : () -> ()
  "test.yield"() : () -> ()
}
