// expected-error@6:5: operand #0 does not dominate this use
// mlir-opt: accepts: it treats regions of unregistered ops as graph regions; ours has SSA dominance in every block.
// A forward reference inside one region block.
func.func @f() {
  "test.region"() ({
    "test.use"(%later) : (i32) -> ()
    %later = "test.def"() : () -> i32
    "test.yield"() : () -> ()
  }) : () -> ()
  return
}
