"builtin.module"() <{sym_name = "generic"}> ({
  "func.func"() <{arg_attrs = [{test.arg = 0 : i64}, {}], function_type = (tensor<4xf32>, i32) -> (tensor<4xf32>, i32), res_attrs = [{test.result = "r0"}, {}], sym_name = "annotated"}> ({
  ^bb0(%arg1: tensor<4xf32>, %arg2: i32):
    %0:2 = "test.pair"(%arg1) ({
    ^bb0(%arg3: f32):
      "test.yield"(%arg3, %arg3) : (f32, f32) -> ()
    }) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %1 = "func.call"(%arg2) <{callee = @helper}> : (i32) -> i32
    "func.return"(%0#1, %1) : (tensor<4xf32>, i32) -> ()
  }) {sym_kind = "kernel"} : () -> ()
  "func.func"() <{arg_attrs = [{test.unit}], function_type = (i32) -> i32, sym_name = "helper", sym_visibility = "private"}> ({
  }) : () -> ()
  "func.func"() <{function_type = (i64) -> i64, sym_name = "nested_def", sym_visibility = "nested"}> ({
  ^bb0(%arg0: i64):
    "func.return"(%arg0) : (i64) -> ()
  }) : () -> ()
}) : () -> ()

