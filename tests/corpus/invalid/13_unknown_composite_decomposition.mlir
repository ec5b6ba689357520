// expected-error@10:3: '@missing' does not reference a valid symbol
// expected-error@11:3: '@"also missing"' does not reference a valid symbol
// mlir-opt: accepts: it has no StableHLO dialect, so the composite is an unknown op with no symbol uses; stablehlo-opt rejects both ("does not reference a valid function"), and FusionToComposite's consumers resolve the decomposition.
// Only a stablehlo.composite's `decomposition` is checked: the other references below (an
// opaque Shardy-style attribute, a nested `decomposition` key, a string) are not.
"test.table"() <{sym_name = "table"}> : () -> ()
func.func private @d(%x: i32) -> i32 { return %x : i32 }
func.func @f(%a: i32) -> i32 {
  %0 = "stablehlo.composite"(%a) {decomposition = @table::@entry, name = "x.ok", s = "@in_a_string"} : (i32) -> i32
  %1 = "stablehlo.composite"(%0) {decomposition = @missing, name = "x.bad"} : (i32) -> i32
  %2 = "stablehlo.composite"(%1) <{composite_attributes = {decomposition = @d}, decomposition = @"also missing", name = "x.p"}> : (i32) -> i32
  %3 = "test.use"(%2) {sharding = #sdy.sharding<@mesh, [{"x"}]>, to = @nowhere} : (i32) -> i32
  return %3 : i32
}
