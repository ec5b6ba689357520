// Composites as FusionToComposite and JAX's `jax.lax.composite` export them, with the
// decomposition a private function the composite names; strings with every escape MLIR prints
// (\22 \5C \0A \09, other bytes in hex, UTF-8 kept); symbol references in opaque attribute text
// and in a nested `decomposition` key, which are not checked; nested and private visibility;
// declarations with argument attributes; an op with a region holding one empty block.
module @composites {
  func.func nested @helper(tensor<4xf32> {mhlo.sharding = "{replicated}"}) -> tensor<4xf32>
  func.func private @softmax.impl(%arg0: tensor<4x8xf32> loc("x"("/src/nn.py":7:3))) -> tensor<4x8xf32> {
    %0 = "stablehlo.exponential"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
  func.func public @main(%arg0: tensor<4x8xf32> {jax.arg_info = "x[\22a\22]", mhlo.sharding = "{replicated}"}) -> (tensor<4x8xf32> {jax.result_info = "result\09tab\0Anewline\5Cback\E2\82\AC"}) {
    %0 = "stablehlo.composite"(%arg0) <{composite_attributes = {axis = -1 : i64, decomposition = @not_checked_here, note = "quote \" and @sym in a string"}, decomposition = @softmax.impl, name = "jax.softmax", version = 1 : i32}> {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc("softmax"("/src/nn.py":12:5))
    %1 = "stablehlo.custom_call"(%0) <{api_version = 2 : i32, backend_config = "{\22flag\22: true, \22path\22: \22a\5Cb\22}", call_target_name = "tpu_custom_call"}> {kernel_name = "kern\00el", mhlo.frontend_attributes = {target = @elsewhere::@inner}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = "x.region"(%1) ({
    ^bb0:
    }) {empty_block} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %3 = "x.region"(%2) ({
    }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    return %3 : tensor<4x8xf32>
  }
}
