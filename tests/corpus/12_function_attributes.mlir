module {
  func.func @annotated(%a: tensor<4xf32> {test.arg = 0 : i64, test.name = "a"}, %b: i32 {test.unit}) -> (tensor<4xf32> {test.result = "r0"}, i32) attributes {llvm.emit_c_interface, sym_kind = "kernel", test.config = {threads = 128 : i32}} {
    return %a, %b : tensor<4xf32>, i32
  }
  func.func private @decl_annotated(tensor<4xf32> {test.arg}) -> (tensor<4xf32> {test.res}) attributes {genComposite = true, noDelete = true}
}
