module {
  func.func @constants() -> (tensor<2x2xf32>, tensor<3xi32>, tensor<i1>, tensor<2xcomplex<f32>>) {
    %a = "mhlo.constant"() {value = dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
    %b = "mhlo.constant"() {value = dense<[1, -2, 3]> : tensor<3xi32>} : () -> tensor<3xi32>
    %c = "mhlo.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
    %d = "mhlo.constant"() {value = dense<(1.000000e+00,2.000000e+00)> : tensor<2xcomplex<f32>>} : () -> tensor<2xcomplex<f32>>
    %e = "mhlo.constant"() {value = dense<"0x0000803F00000040"> : tensor<2xf32>} : () -> tensor<2xf32>
    %s = "test.sparse"() {value = sparse<[[0, 0]], [5.000000e+00]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
    return %a, %b, %c, %d : tensor<2x2xf32>, tensor<3xi32>, tensor<i1>, tensor<2xcomplex<f32>>
  }
}
