module {
  func.func @f() -> tensor<i32> {
    %a = "mhlo.constant"() {value = (%x, k = 8) x : tensor<i32>} : () -> tensor<i32>
    return %a : tensor<i32>
  }
}
