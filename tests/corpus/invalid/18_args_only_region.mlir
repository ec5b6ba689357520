// expected-error@5:3: region of 'test.args' does not end with a terminator
// mlir-opt: accepts: an unregistered op may need no terminator; ours requires one in every non-empty block.
// A block with arguments but no ops is not an empty region.
func.func @f() {
  "test.args"() ({
  ^bb0(%x: i32):
  }) : () -> ()
  return
}
