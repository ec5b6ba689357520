// expected-error@6:3: 'func.call' op 'g' does not reference a valid function
// expected-error@7:3: 'func.call' op 'table' does not reference a valid function
// mlir-opt: rejects
"test.table"() {sym_name = "table"} : () -> ()
func.func @f() {
  func.call @g() : () -> ()
  func.call @table() : () -> ()
  return
}
