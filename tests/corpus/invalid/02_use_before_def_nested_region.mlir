// expected-error@7:5: operand #0 does not dominate this use
// mlir-opt: rejects
// A use inside a region of a value defined after the region's op: the use is checked at the
// ancestor of the use that lies in the value's block.
func.func @f(%a: i32) {
  "test.region"() ({
    "test.use"(%c) : (i32) -> ()
    "test.yield"() : () -> ()
  }) : () -> ()
  %c = "test.def"(%a) : (i32) -> i32
  return
}
