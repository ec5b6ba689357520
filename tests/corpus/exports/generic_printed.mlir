// An export as `mlir-opt --mlir-print-op-generic --mlir-print-debuginfo` prints it: the module,
// the functions, the calls and the returns in the generic form, their inherent attributes as
// properties (`sym_name`, `function_type`, `sym_visibility`, `arg_attrs`, `res_attrs`,
// `callee`), a call's `no_inline` property, discardable attributes beside them, every location
// as an alias printed after the module, and a region whose block names its arguments.
"builtin.module"() <{sym_name = "jit_step"}> ({
  "func.func"() <{arg_attrs = [{jax.arg_info = "params['w']", mhlo.sharding = "{replicated}"}, {jax.arg_info = "x", mhlo.sharding = "{devices=[4,1]<=[4]}"}], function_type = (tensor<8x8xf32>, tensor<32x8xf32>) -> tensor<32x8xf32>, res_attrs = [{jax.result_info = ""}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x8xf32> loc("params['w']"), %arg1: tensor<32x8xf32> loc("x")):
    %0 = "func.call"(%arg1, %arg0) <{callee = @dense, no_inline}> : (tensor<32x8xf32>, tensor<8x8xf32>) -> tensor<32x8xf32> loc(#loc3)
    %1 = "stablehlo.all_reduce"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg2: tensor<f32> loc(unknown), %arg3: tensor<f32> loc(unknown)):
      %2 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc(#loc4)
      "stablehlo.return"(%2) : (tensor<f32>) -> () loc(#loc4)
    }) : (tensor<32x8xf32>) -> tensor<32x8xf32> loc(#loc4)
    "func.return"(%1) : (tensor<32x8xf32>) -> () loc(#loc)
  }) : () -> () loc(#loc)
  "func.func"() <{arg_attrs = [{}, {mhlo.sharding = "{replicated}"}], function_type = (tensor<32x8xf32>, tensor<8x8xf32>) -> tensor<32x8xf32>, sym_name = "dense", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<32x8xf32> loc(unknown), %arg1: tensor<8x8xf32> loc(unknown)):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x8xf32>, tensor<8x8xf32>) -> tensor<32x8xf32> loc(#loc5)
    %1 = "stablehlo.logistic"(%0) : (tensor<32x8xf32>) -> tensor<32x8xf32> loc(#loc6)
    "func.return"(%1) : (tensor<32x8xf32>) -> () loc(#loc)
  }) {mhlo.frontend_attributes = {inlineable = "false"}} : () -> () loc(#loc)
}) {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} : () -> () loc(#loc)
#loc = loc(unknown)
#loc1 = loc("/src/model.py":12:11)
#loc2 = loc("/src/model.py":20:4)
#loc3 = loc("jit(step)/jit(main)/pjit[name=dense]"(#loc1))
#loc4 = loc("jit(step)/jit(main)/psum"(#loc2))
#loc5 = loc("jit(step)/jit(main)/dense/dot_general"(#loc1))
#loc6 = loc("jit(step)/jit(main)/dense/logistic"(#loc1))
