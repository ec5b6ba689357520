// Every StableHLO op that has a custom (pretty) form, written as StableHLO's printer writes it
// (neuronrw's own test module). tests/ir/ref/syntax_test.cpp checks that it prints back
// unchanged, that every op of the syntax table with a custom form appears here, and that the
// generic form round-trips; tests/lit/neuronrw-opt/stablehlo_generic.test that mlir-opt reads
// the generic form and reprints it identically.
module @ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @elementwise(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xi32>, %arg3: tensor<4xcomplex<f32>>, %arg4: tensor<4xi1>) -> tensor<4xf32> {
    %0 = stablehlo.abs %arg0 : tensor<4xf32>
    %1 = stablehlo.cbrt %0 : tensor<4xf32>
    %2 = stablehlo.ceil %1 : tensor<4xf32>
    %3 = stablehlo.convert %arg2 : (tensor<4xi32>) -> tensor<4xf32>
    %4 = stablehlo.count_leading_zeros %arg2 : tensor<4xi32>
    %5 = stablehlo.cosine %2 : tensor<4xf32>
    %6 = stablehlo.exponential %5 {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>} : tensor<4xf32>
    %7 = stablehlo.exponential_minus_one %6 : tensor<4xf32>
    %8 = stablehlo.floor %7 : tensor<4xf32>
    %9 = stablehlo.imag %arg3 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %10 = stablehlo.is_finite %8 : (tensor<4xf32>) -> tensor<4xi1>
    %11 = stablehlo.log %8 : tensor<4xf32>
    %12 = stablehlo.log_plus_one %11 : tensor<4xf32>
    %13 = stablehlo.logistic %12 : tensor<4xf32>
    %14 = stablehlo.not %arg4 : tensor<4xi1>
    %15 = stablehlo.negate %13 : tensor<4xf32>
    %16 = stablehlo.popcnt %4 : tensor<4xi32>
    %17 = stablehlo.real %arg3 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %18 = stablehlo.round_nearest_afz %17 : tensor<4xf32>
    %19 = stablehlo.round_nearest_even %18 : tensor<4xf32>
    %20 = stablehlo.rsqrt %19 : tensor<4xf32>
    %21 = stablehlo.sign %20 : tensor<4xf32>
    %22 = stablehlo.sine %21 : tensor<4xf32>
    %23 = stablehlo.sqrt %22 : tensor<4xf32>
    %24 = stablehlo.tan %23 : tensor<4xf32>
    %25 = stablehlo.tanh %24 : tensor<4xf32>
    %26 = stablehlo.add %25, %arg1 : tensor<4xf32>
    %27 = stablehlo.atan2 %26, %arg1 : tensor<4xf32>
    %28 = stablehlo.complex %27, %arg1 : tensor<4xcomplex<f32>>
    %29 = stablehlo.divide %27, %arg1 : tensor<4xf32>
    %30 = stablehlo.maximum %29, %arg1 : tensor<4xf32>
    %31 = stablehlo.minimum %30, %arg1 : tensor<4xf32>
    %32 = stablehlo.multiply %31, %arg1 : tensor<4xf32>
    %33 = stablehlo.power %32, %arg1 : tensor<4xf32>
    %34 = stablehlo.remainder %33, %arg1 : tensor<4xf32>
    %35 = stablehlo.shift_left %16, %arg2 : tensor<4xi32>
    %36 = stablehlo.shift_right_arithmetic %35, %arg2 : tensor<4xi32>
    %37 = stablehlo.shift_right_logical %36, %arg2 : tensor<4xi32>
    %38 = stablehlo.subtract %34, %arg1 : tensor<4xf32>
    %39 = stablehlo.and %14, %arg4 : tensor<4xi1>
    %40 = stablehlo.or %39, %arg4 : tensor<4xi1>
    %41 = stablehlo.xor %40, %10 : tensor<4xi1>
    %42 = stablehlo.add %arg2, %37 : tensor<4xi32>
    %43 = stablehlo.compare  EQ, %38, %arg1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %44 = stablehlo.compare  LT, %42, %arg2,  SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %45 = stablehlo.select %43, %38, %arg1 : tensor<4xi1>, tensor<4xf32>
    %46 = stablehlo.clamp %arg0, %45, %arg1 : tensor<4xf32>
    %47 = stablehlo.bitcast_convert %46 : (tensor<4xf32>) -> tensor<4xi32>
    %48 = stablehlo.reduce_precision %46, format = e5m10 : tensor<4xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %49 = stablehlo.clamp %cst, %48, %cst : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %50 = stablehlo.select %44, %49, %46 : tensor<4xi1>, tensor<4xf32>
    %51 = stablehlo.complex %50, %50 : tensor<4xcomplex<f32>>
    return %50 : tensor<4xf32>
  }
  func.func private @shapes(%arg0: tensor<2x4xf32>, %arg1: tensor<i32>, %arg2: tensor<2xindex>, %arg3: tensor<1x2xf32>) -> tensor<4x2xf32> {
    %c = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
    %c_0 = stablehlo.constant {mhlo.frontend_attributes = {x = "y"}} dense<0> : tensor<i32>
    %c_q = stablehlo.constant() <{value = dense<[1, 2]> : tensor<2xi8>}> : () -> tensor<2x!quant.uniform<i8:f32, 2.000000e+00:15>>
    %0 = stablehlo.iota dim = 0 : tensor<4xi32>
    %1 = stablehlo.dynamic_iota %arg2, dim = 1 : (tensor<2xindex>) -> tensor<2x4xi32>
    %2 = stablehlo.reshape %arg0 : (tensor<2x4xf32>) -> tensor<8xf32>
    %3 = stablehlo.dynamic_reshape %arg0, %arg2 : (tensor<2x4xf32>, tensor<2xindex>) -> tensor<?x?xf32>
    %4 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
    %5 = stablehlo.broadcast %2, sizes = [3] : (tensor<8xf32>) -> tensor<3x8xf32>
    %6 = stablehlo.broadcast_in_dim %arg3, dims = [0, 1] : (tensor<1x2xf32>) -> tensor<3x2xf32>
    %7 = stablehlo.dynamic_broadcast_in_dim %arg3, %arg2, dims = [0, 1] : (tensor<1x2xf32>, tensor<2xindex>) -> tensor<?x?xf32>
    %8 = stablehlo.dynamic_broadcast_in_dim %arg3, %arg2, dims = [0, 1] {known_expanding_dimensions = array<i64: 0>} : (tensor<1x2xf32>, tensor<2xindex>) -> tensor<?x?xf32>
    %9 = stablehlo.slice %2 [0:4] : (tensor<8xf32>) -> tensor<4xf32>
    %10 = stablehlo.slice %arg0 [0:2, 1:4:2] : (tensor<2x4xf32>) -> tensor<2x2xf32>
    %11 = stablehlo.dynamic_slice %arg0, %arg1, %c_0, sizes = [1, 4] : (tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
    %12 = stablehlo.dynamic_update_slice %arg0, %11, %arg1, %c_0 : (tensor<2x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
    %13 = stablehlo.concatenate %9, %9, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.pad %9, %cst, low = [1], high = [2], interior = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<10xf32>
    %15 = stablehlo.reverse %12, dims = [0, 1] : tensor<2x4xf32>
    %16 = stablehlo.get_dimension_size %15, dim = 1 : (tensor<2x4xf32>) -> tensor<i32>
    %17 = stablehlo.set_dimension_size %15, %16, dim = 1 : (tensor<2x4xf32>, tensor<i32>) -> tensor<2x?xf32, #stablehlo.bounds<?, 4>>
    %18 = stablehlo.real_dynamic_slice %arg0, %arg2, %arg2, %arg2 : (tensor<2x4xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x?xf32>
    %19 = stablehlo.dynamic_pad %2, %cst, %c, %c, %c : (tensor<8xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?xf32>
    return %4 : tensor<4x2xf32>
  }
  func.func private @contractions(%arg0: tensor<2x8x16xbf16>, %arg1: tensor<2x16x4xbf16>, %arg2: tensor<8x16xf32>, %arg3: tensor<16x4xf32>, %arg4: tensor<1x8x8x3xf32>, %arg5: tensor<3x3x3x4xf32>, %arg6: tensor<16xf32>) -> tensor<8x4xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x8x16xbf16>, tensor<2x16x4xbf16>) -> tensor<2x8x4xf32>
    %1 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %2 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0], precision = [HIGHEST, HIGH], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %3 = stablehlo.dot %arg2, %arg3, precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %4 = stablehlo.dot %arg2, %arg3 : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %5 = stablehlo.convolution(%arg4, %arg5) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
    %6 = stablehlo.convolution(%arg4, %arg5) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x4x4xf32>
    %7 = stablehlo.einsum %arg2, %arg3, config = "ab,bc->ac" : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %8 = stablehlo.unary_einsum %arg2, config = "ab->a" : (tensor<8x16xf32>) -> tensor<8xf32>
    %9 = stablehlo.complex %arg6, %arg6 : tensor<16xcomplex<f32>>
    %10 = stablehlo.fft %9, type =  FFT, length = [16] : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    %11 = stablehlo.cholesky %arg2 : tensor<8x16xf32>
    %12 = stablehlo.cholesky %arg2, lower = true : tensor<8x16xf32>
    return %1 : tensor<8x4xf32>
  }
  func.func private @control(%arg0: tensor<i64>, %arg1: tensor<8x32xf32>, %arg2: tensor<2xui64>, %arg3: tensor<f32>) -> (tensor<8x32xf32>, tensor<8xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<i64>, tensor<8x32xf32> attributes {mhlo.frontend_attributes = {loop = "scan"}}
    cond {
      %c_1 = stablehlo.constant dense<4> : tensor<i64>
      %6 = stablehlo.compare  LT, %iterArg, %c_1,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %6 : tensor<i1>
    } do {
      %6 = stablehlo.add %iterArg, %c : tensor<i64>
      %7 = stablehlo.multiply %iterArg_0, %iterArg_0 : tensor<8x32xf32>
      stablehlo.return %6, %7 : tensor<i64>, tensor<8x32xf32>
    }
    %1 = stablehlo.reduce(%0#1 init: %arg3) applies stablehlo.add across dimensions = [1] : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    %2:2 = stablehlo.reduce(%0#1 init: %arg3), (%0#1 init: %arg3) across dimensions = [0] : (tensor<8x32xf32>, tensor<8x32xf32>, tensor<f32>, tensor<f32>) -> (tensor<32xf32>, tensor<32xf32>)
     reducer(%arg4: tensor<f32>, %arg6: tensor<f32>) (%arg5: tensor<f32>, %arg7: tensor<f32>)  {
      %6 = stablehlo.maximum %arg4, %arg6 : tensor<f32>
      %7 = stablehlo.minimum %arg5, %arg7 : tensor<f32>
      stablehlo.return %6, %7 : tensor<f32>, tensor<f32>
    }
    %3:2 = stablehlo.rng_bit_generator %arg2, algorithm =  DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
    %output_state, %output = stablehlo.rng_bit_generator %3#0, algorithm =  PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
    %c_2 = stablehlo.constant dense<4> : tensor<1xi64>
    %4 = stablehlo.rng %arg3, %arg3, %c_2, distribution =  UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
    %5:2 = stablehlo.optimization_barrier %0#1, %1 : tensor<8x32xf32>, tensor<8xf32>
    stablehlo.optimization_barrier()
    return %5#0, %5#1 : tensor<8x32xf32>, tensor<8xf32>
  }
  func.func private @tuples_tokens(%arg0: tensor<i32>, %arg1: !stablehlo.token, %arg2: tensor<4xf32>) -> tensor<i32> {
    %0 = stablehlo.tuple %arg0, %arg0 : tuple<tensor<i32>, tensor<i32>>
    %1 = stablehlo.tuple  : tuple<>
    %2 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
    %3 = stablehlo.create_token : !stablehlo.token
    %4 = stablehlo.after_all %arg1, %3 : !stablehlo.token
    %5 = stablehlo.replica_id : tensor<ui32>
    %6 = stablehlo.partition_id : tensor<ui32>
    %7 = stablehlo.uniform_quantize %arg2 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:3>>
    %8 = stablehlo.uniform_dequantize %7 : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:3>>) -> tensor<4xf32>
    return %2 : tensor<i32>
  }
  func.func private @calls(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = stablehlo.custom_call @"not an id"(%0) {api_version = 2 : i32, has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
    %2:2 = stablehlo.custom_call @two_results(%1, %1) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %3 = stablehlo.composite "my.square" %2#0 {composite_attributes = {power = 2 : i64}, decomposition = @my.square.impl, version = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    %4 = stablehlo.composite "my.square" %3 {decomposition = @my.square.impl} : (tensor<4xf32>) -> tensor<4xf32>
    return %4 : tensor<4xf32>
  }
  func.func private @my.square.impl(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @generic_only(%arg0: tensor<8x32xf32>, %arg1: tensor<i1>, %arg2: tensor<i32>, %arg3: tensor<8xi32>) -> tensor<8x32xf32> {
    %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<8x32xf32>) -> tensor<32x32xf32>
    %1 = "stablehlo.reduce_scatter"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %5 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %5 : tensor<f32>
    }) : (tensor<32x32xf32>) -> tensor<8x32xf32>
    %2 = "stablehlo.if"(%arg1) ({
      stablehlo.return %1 : tensor<8x32xf32>
    }, {
      stablehlo.return %arg0 : tensor<8x32xf32>
    }) : (tensor<i1>) -> tensor<8x32xf32>
    %3 = "stablehlo.case"(%arg2) ({
      stablehlo.return %2 : tensor<8x32xf32>
    }, {
      stablehlo.return %1 : tensor<8x32xf32>
    }, {
      stablehlo.return %arg0 : tensor<8x32xf32>
    }) : (tensor<i32>) -> tensor<8x32xf32>
    %4 = "stablehlo.sort"(%arg3) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg4: tensor<i32>, %arg5: tensor<i32>):
      %5 = stablehlo.compare  LT, %arg4, %arg5,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %5 : tensor<i1>
    }) : (tensor<8xi32>) -> tensor<8xi32>
    return %3 : tensor<8x32xf32>
  }
}
