// expected-error@6:5: operand #0 does not dominate this use
// mlir-opt: rejects
// An op's results are not visible inside its own region.
func.func @f() -> i32 {
  %b = "test.region"() ({
    "test.yield"(%b) : (i32) -> ()
  }) : () -> i32
  return %b : i32
}
