module {
  func.func @empties(%x: i32) -> i32 {
    "test.empty"() ({
    }) : () -> ()
    %a = "test.empty_with_result"(%x) ({
    }) : (i32) -> i32
    "test.args_only"() ({
    ^bb0(%p: i32, %q: f32):
    }) : () -> ()
    "test.no_operands"() : () -> ()
    return %a : i32
  }
  func.func private @empty_body_decl()
}
