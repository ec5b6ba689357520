// CHLO's custom forms as JAX exports carry them (neuronrw's own test module; tests/ir/ref/syntax_test.cpp
// checks it like ops.mlir): every op of ChloOps.td with a custom form, and the generic-only ones.
module @chlo {
  func.func public @binary(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %i: tensor<4x8xi32>, %p: tensor<i1>) -> tensor<4x8xf32> {
    %0 = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 1>} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %1 = chlo.broadcast_atan2 %0, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = chlo.broadcast_divide %1, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %3 = chlo.broadcast_maximum %2, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %4 = chlo.broadcast_minimum %3, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %5 = chlo.broadcast_multiply %4, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %6 = chlo.broadcast_next_after %5, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %7 = chlo.broadcast_polygamma %6, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %8 = chlo.broadcast_power %7, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %9 = chlo.broadcast_remainder %8, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %10 = chlo.broadcast_subtract %9, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %11 = chlo.broadcast_zeta %10, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %12 = chlo.broadcast_complex %11, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xcomplex<f32>>
    %13 = chlo.broadcast_shift_left %i, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %14 = chlo.broadcast_shift_right_arithmetic %13, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %15 = chlo.broadcast_shift_right_logical %14, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %16 = chlo.broadcast_and %15, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %17 = chlo.broadcast_or %16, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %18 = chlo.broadcast_xor %17, %i : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %19 = chlo.broadcast_compare %11, %b {broadcast_dimensions = array<i64: 1>, comparison_direction = #chlo<comparison_direction GE>} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xi1>
    %20 = chlo.broadcast_compare %18, %i {compare_type = #chlo<comparison_type SIGNED>, comparison_direction = #chlo<comparison_direction NE>} : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
    %21 = chlo.broadcast_select %p, %11, %a : (tensor<i1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %22 = chlo.next_after %21, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    %23 = chlo.polygamma %22, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    %24 = chlo.zeta %23, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    %25 = chlo.mulhi %18, %i : tensor<4x8xi32>, tensor<4x8xi32> -> tensor<4x8xi32>
    return %24 : tensor<4x8xf32>
  }
  func.func public @unary(%x: tensor<16xf32>, %z: tensor<16xcomplex<f32>>) -> tensor<16xf32> {
    %0 = chlo._asin_acos_kernel %z : tensor<16xcomplex<f32>> -> tensor<16xcomplex<f32>>
    %1 = chlo.acos %x : tensor<16xf32> -> tensor<16xf32>
    %2 = chlo.acosh %1 : tensor<16xf32> -> tensor<16xf32>
    %3 = chlo.asin %2 : tensor<16xf32> -> tensor<16xf32>
    %4 = chlo.asinh %3 : tensor<16xf32> -> tensor<16xf32>
    %5 = chlo.atan %4 : tensor<16xf32> -> tensor<16xf32>
    %6 = chlo.atanh %5 : tensor<16xf32> -> tensor<16xf32>
    %7 = chlo.bessel_i1e %6 : tensor<16xf32> -> tensor<16xf32>
    %8 = chlo.conj %z : tensor<16xcomplex<f32>> -> tensor<16xcomplex<f32>>
    %9 = chlo.cosh %7 : tensor<16xf32> -> tensor<16xf32>
    %10 = chlo.sinh %9 : tensor<16xf32> -> tensor<16xf32>
    %11 = chlo.tan %10 : tensor<16xf32> -> tensor<16xf32>
    %12 = chlo.digamma %11 : tensor<16xf32> -> tensor<16xf32>
    %13 = chlo.erf %12 : tensor<16xf32> -> tensor<16xf32>
    %14 = chlo.erf_inv %13 : tensor<16xf32> -> tensor<16xf32>
    %15 = chlo.erfc %14 : tensor<16xf32> -> tensor<16xf32>
    %16 = chlo.is_inf %15 : tensor<16xf32> -> tensor<16xi1>
    %17 = chlo.is_neg_inf %15 : tensor<16xf32> -> tensor<16xi1>
    %18 = chlo.is_pos_inf %15 : tensor<16xf32> -> tensor<16xi1>
    %19 = chlo.lgamma %15 : tensor<16xf32> -> tensor<16xf32>
    %20 = chlo.square %19 : tensor<16xf32> -> tensor<16xf32>
    %21 = chlo.constant dense<2.500000e-01> : tensor<16xf32>
    %22 = chlo.broadcast_multiply %20, %21 : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %23 = "chlo.constant_like"(%22) <{value = 1.000000e+00 : f32}> : (tensor<16xf32>) -> tensor<16xf32>
    return %23 : tensor<16xf32>
  }
  func.func public @top_k(%x: tensor<16x16xf32>) -> (tensor<16x8xf32>, tensor<16x8xi32>) {
    %0:2 = chlo.top_k(%x, k = 8) : tensor<16x16xf32> -> (tensor<16x8xf32>, tensor<16x8xi32>)
    %1:2 = chlo.top_k(%x, k = 8, is_stable = false) : tensor<16x16xf32> -> (tensor<16x8xf32>, tensor<16x8xi32>)
    return %1#0, %0#1 : tensor<16x8xf32>, tensor<16x8xi32>
  }
  func.func public @ragged_dot(%lhs: tensor<19x5xf32>, %rhs: tensor<3x5x7xf32>, %group_sizes: tensor<3xi64>) -> tensor<19x7xf32> {
    %0 = "chlo.ragged_dot"(%lhs, %rhs, %group_sizes) <{precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<19x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<19x7xf32>
    return %0 : tensor<19x7xf32>
  }
  func.func public @scan(%xs: tensor<5xi32>, %iota: tensor<5xi32>, %v: tensor<i32>, %i: tensor<i32>) -> (tensor<5xi32>, tensor<i32>) {
    %0:4 = chlo.scan(%xs, %iota) inits (%v, %i) dimension=0  attributes {is_associative = false, is_reverse = true} {
    ^bb0(%x: tensor<i32>, %k: tensor<i32>, %run: tensor<i32>, %at: tensor<i32>):
      %2 = stablehlo.maximum %run, %x : tensor<i32>
      %3 = stablehlo.compare  GT, %run, %x : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %4 = stablehlo.select %3, %at, %k : tensor<i1>, tensor<i32>
      stablehlo.return %2, %4, %2, %4 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>
    } : (tensor<5xi32>, tensor<5xi32>, tensor<i32>, tensor<i32>) -> (tensor<5xi32>, tensor<5xi32>, tensor<i32>, tensor<i32>)
    %1:2 = chlo.scan(%xs) inits (%v) dimension=0  {
    ^bb0(%x: tensor<i32>, %acc: tensor<i32>):
      %2 = stablehlo.add %acc, %x : tensor<i32>
      stablehlo.return %2, %2 : tensor<i32>, tensor<i32>
    } : (tensor<5xi32>, tensor<i32>) -> (tensor<5xi32>, tensor<i32>)
    return %1#0, %0#3 : tensor<5xi32>, tensor<i32>
  }
}
