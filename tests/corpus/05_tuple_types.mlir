module {
  func.func @tuples(%t: tuple<tensor<4xf32>, tuple<i32, i1>>, %e: tuple<>) -> (tuple<tensor<4xf32>, tuple<i32, i1>>, tuple<i32, i1>) {
    %a = "mhlo.get_tuple_element"(%t) {index = 0 : i32} : (tuple<tensor<4xf32>, tuple<i32, i1>>) -> tensor<4xf32>
    %b = "mhlo.get_tuple_element"(%t) {index = 1 : i32} : (tuple<tensor<4xf32>, tuple<i32, i1>>) -> tuple<i32, i1>
    %c = "mhlo.tuple"(%a, %b) : (tensor<4xf32>, tuple<i32, i1>) -> tuple<tensor<4xf32>, tuple<i32, i1>>
    "test.consume"(%e) : (tuple<>) -> ()
    return %c, %b : tuple<tensor<4xf32>, tuple<i32, i1>>, tuple<i32, i1>
  }
}
