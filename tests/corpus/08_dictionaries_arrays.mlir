module {
  func.func @dicts(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
    %y = "test.configured"(%x) {config = {inner = {deeper = {leaf = [1, [2, [3, []]]]}}, name = "cfg"}, empty_dict = {}, layout = [{a = 1 : i64}, {b = [true, false]}], map = affine_map<(d0, d1) -> (d1, d0)>, set = affine_set<(d0) : (d0 - 1 >= 0)>, strided = strided<[2, 1], offset: ?>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %z = "test.props"(%y) <{mode = "fast", sizes = array<i64: 2, 2>}> {attr = unit} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    return %z : tensor<2x2xf32>
  }
}
