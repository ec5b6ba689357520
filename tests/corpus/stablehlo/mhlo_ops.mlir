// Every MHLO op that has a custom (pretty) form, written as XLA's MHLO printer writes it
// (neuronrw's own test module; tests/ir/ref/syntax_test.cpp checks it like ops.mlir).
module @mhlo_ops {
  func.func @mhlo(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xi32>, %arg3: tensor<4xcomplex<f32>>, %arg4: tensor<4xi1>, %arg5: !mhlo.token, %arg6: tensor<i64>, %arg7: tensor<1x8x8x3xf32>, %arg8: tensor<3x3x3x4xf32>, %arg9: tensor<2xindex>, %arg10: tensor<index>) -> tensor<4xf32> {
    %0 = mhlo.constant dense<1.000000e+00> : tensor<4xf32>
    %1 = mhlo.abs %arg0 : tensor<4xf32>
    %2 = mhlo.cbrt %1 : tensor<4xf32>
    %3 = mhlo.ceil %2 : tensor<4xf32>
    %4 = mhlo.convert %arg2 : (tensor<4xi32>) -> tensor<4xf32>
    %5 = mhlo.count_leading_zeros %arg2 : tensor<4xi32>
    %6 = mhlo.cosine %3 : tensor<4xf32>
    %7 = mhlo.erf %6 : tensor<4xf32>
    %8 = mhlo.exponential %7 : tensor<4xf32>
    %9 = mhlo.exponential_minus_one %8 : tensor<4xf32>
    %10 = mhlo.floor %9 : tensor<4xf32>
    %11 = mhlo.imag %arg3 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %12 = mhlo.is_finite %10 : (tensor<4xf32>) -> tensor<4xi1>
    %13 = mhlo.log %10 : tensor<4xf32>
    %14 = mhlo.log_plus_one %13 : tensor<4xf32>
    %15 = mhlo.logistic %14 : tensor<4xf32>
    %16 = mhlo.not %arg4 : tensor<4xi1>
    %17 = mhlo.negate %15 : tensor<4xf32>
    %18 = mhlo.popcnt %5 : tensor<4xi32>
    %19 = mhlo.real %arg3 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %20 = mhlo.round_nearest_afz %19 : tensor<4xf32>
    %21 = mhlo.round_nearest_even %20 : tensor<4xf32>
    %22 = mhlo.rsqrt %21 : tensor<4xf32>
    %23 = mhlo.sign %22 : tensor<4xf32>
    %24 = mhlo.sine %23 : tensor<4xf32>
    %25 = mhlo.tan %24 : tensor<4xf32>
    %26 = mhlo.sqrt %25 : tensor<4xf32>
    %27 = mhlo.tanh %26 : tensor<4xf32>
    %28 = mhlo.add %27, %arg1 : tensor<4xf32>
    %29 = mhlo.atan2 %28, %arg1 : tensor<4xf32>
    %30 = mhlo.complex %29, %arg1 : tensor<4xcomplex<f32>>
    %31 = mhlo.divide %29, %arg1 : tensor<4xf32>
    %32 = mhlo.maximum %31, %arg1 : tensor<4xf32>
    %33 = mhlo.minimum %32, %arg1 : tensor<4xf32>
    %34 = mhlo.multiply %33, %arg1 : tensor<4xf32>
    %35 = mhlo.power %34, %arg1 : tensor<4xf32>
    %36 = mhlo.remainder %35, %arg1 : tensor<4xf32>
    %37 = mhlo.shift_left %18, %arg2 : tensor<4xi32>
    %38 = mhlo.shift_right_arithmetic %37, %arg2 : tensor<4xi32>
    %39 = mhlo.shift_right_logical %38, %arg2 : tensor<4xi32>
    %40 = mhlo.subtract %36, %arg1 : tensor<4xf32>
    %41 = mhlo.and %16, %arg4 : tensor<4xi1>
    %42 = mhlo.or %41, %arg4 : tensor<4xi1>
    %43 = mhlo.xor %42, %12 : tensor<4xi1>
    %44 = mhlo.compare  LT, %40, %arg1,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %45 = mhlo.select %44, %40, %arg1 : tensor<4xi1>, tensor<4xf32>
    %46 = mhlo.clamp %arg0, %45, %arg1 : tensor<4xf32>
    %47 = mhlo.bitcast_convert %46 : (tensor<4xf32>) -> tensor<4xi32>
    %48 = mhlo.bitcast %46 : (tensor<4xf32>) -> tensor<4xf32>
    %49 = mhlo.copy %48 : tensor<4xf32>
    %50 = mhlo.reduce_precision %49, format = e8m7 : tensor<4xf32>
    %51 = mhlo.reshape %50 : (tensor<4xf32>) -> tensor<2x2xf32>
    %52 = mhlo.dynamic_reshape %50, %arg9 : (tensor<4xf32>, tensor<2xindex>) -> tensor<?x?xf32>
    %53 = mhlo.real_dynamic_slice %51, %arg9, %arg9, %arg9 : (tensor<2x2xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x?xf32>
    %54 = mhlo.dynamic_update_slice %51, %51, %arg6, %arg6 : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<i64>, tensor<i64>) -> tensor<2x2xf32>
    %55 = mhlo.dynamic_pad %50, %0, %arg9, %arg9, %arg9 : (tensor<4xf32>, tensor<4xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?xf32>
    %56 = mhlo.compute_reshape_shape %arg10, %arg9 : (tensor<index>, tensor<2xindex>) -> tensor<2xindex>
    %57 = mhlo.cstr_reshapable %arg10, %arg9 : (tensor<index>, tensor<2xindex>) -> !shape.witness
    %58 = mhlo.convolution(%arg7, %arg8) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
    %59 = mhlo.custom_call @Sharding(%50) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
    %60:2 = mhlo.topk(%59, k = 2) : tensor<4xf32> -> (tensor<2xf32>, tensor<2xi32>)
    %61:2 = mhlo.topk(%59, k = 2, largest = false) : tensor<4xf32> -> (tensor<2xf32>, tensor<2xi32>)
    mhlo.trace %59, "after the custom call" : tensor<4xf32>
    %62 = mhlo.tuple %arg6, %arg6 : tuple<tensor<i64>, tensor<i64>>
    %63 = mhlo.get_tuple_element %62[0] : (tuple<tensor<i64>, tensor<i64>>) -> tensor<i64>
    %64 = mhlo.create_token : !mhlo.token
    %65 = mhlo.after_all %arg5, %64 : !mhlo.token
    %66 = mhlo.add_dependency %59, %65 : (tensor<4xf32>, !mhlo.token) -> tensor<4xf32>
    %67 = mhlo.replica_id : tensor<ui32>
    %68 = mhlo.partition_id : tensor<ui32>
    %69 = "mhlo.xla.rng_get_and_update_state"() <{delta = 1 : i64}> : () -> tensor<2xui64>
    %70 = mhlo.optimization_barrier %66 : tensor<4xf32>
    %71 = mhlo.uniform_quantize %70 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:3>>
    %72 = mhlo.uniform_dequantize %71 : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:3>>) -> tensor<4xf32>
    %cst = mhlo.constant dense<0.000000e+00> : tensor<f32>
    %73 = mhlo.reduce(%72 init: %cst) applies mhlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %74:2 = mhlo.while(%iterArg = %arg6, %iterArg_0 = %72) : tensor<i64>, tensor<4xf32>
    cond {
      %75 = mhlo.compare  LT, %iterArg, %arg6,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      mhlo.return %75 : tensor<i1>
    } do {
      %75 = mhlo.multiply %iterArg_0, %iterArg_0 : tensor<4xf32>
      mhlo.return %iterArg, %75 : tensor<i64>, tensor<4xf32>
    }
    return %74#1 : tensor<4xf32>
  }
  func.func @composite(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = mhlo.composite "my.square" %x {composite_attributes = {power = 2 : i64}, decomposition = @square.impl, version = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = mhlo.composite "my.square" %0 {decomposition = @square.impl} : (tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @square.impl(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = mhlo.multiply %x, %x : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
