// expected-error@10:5: type of return operand 1 ('tensor<4x8xf32>') doesn't match result type ('tensor<4x8xf16>') of 'mhlo.fusion'
// mlir-opt: accepts: it has no MHLO dialect, so the fusion is an unknown op whose region it does not check; FusionToComposite makes the body a function of the fusion's signature, whose func.return would not verify.
// A fusion returning the types of its results (the first) is valid; one returning another
// type than a result's is not. A return with another number of operands is FusionToComposite's
// refusal, not a verifier error (the third).
func.func @f(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf16>, tensor<4x8xf32>) {
  %0:2 = "mhlo.fusion"(%a) ({
  ^bb0(%x: tensor<4x8xf32>):
    %n = "mhlo.negate"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    "mhlo.return"(%n, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf16>)
  %1 = "mhlo.fusion"(%a) ({
  ^bb0(%y: tensor<4x8xf32>):
    "mhlo.return"(%y, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> ()
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0#0, %0#1, %1 : tensor<4x8xf32>, tensor<4x8xf16>, tensor<4x8xf32>
}
