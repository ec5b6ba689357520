// expected-error@8:3: '@missing' does not reference a valid symbol
// expected-error@9:3: '@"also missing"' does not reference a valid symbol
// mlir-opt: accepts: it checks symbol uses only for ops it knows; ours checks every op.
// Symbol references in attributes and properties; the ones inside strings are not references,
// and `@table::@entry` only needs its root.
"test.table"() <{sym_name = "table"}> : () -> ()
func.func @f() {
  "test.use"() {ok = @table::@entry, s = "@in_a_string", bad = @missing} : () -> ()
  "test.use"() <{list = [@f, @"also missing"]}> : () -> ()
  return
}
