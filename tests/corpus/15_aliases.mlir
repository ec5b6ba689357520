#map = affine_map<(d0, d1) -> (d1, d0)>
#layout = {lanes = [0, 1, 2, 3]}
!tensor_t = tensor<4x8xf32>
!pair_t = tuple<!tensor_t, i32>
module {
  func.func @aliases(%x: !tensor_t, %p: !pair_t) -> !tensor_t {
    %t = "test.transpose"(%x) {layout = #layout, permutation = #map} : (!tensor_t) -> !tensor_t
    "test.use"(%p) : (!pair_t) -> ()
    return %t : !tensor_t
  }
}
