// validate-kinds: every FusionKind and CompositeKind checked against the original compiler's
// registries (docs/descriptors.md), one error per unknown kind at its op, with the registry's
// exact message after the pass name and a code (unknown_fusion_kind / unknown_composite_kind).
// Known kinds pass silently, and the module is printed unchanged.
//
// RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null --validate-kinds
// RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null --pass-pipeline='builtin.module(validate-kinds)'
// RUN: grep -v 'expected-' %s > %t.in
// RUN: not neuronrw-opt %t.in --split-input-file --validate-kinds --mlir-pass-statistics 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=STATS
// STATS:      ValidateKinds
// STATS-NEXT:   (S) 0 composites    - Composites checked (CompositeKind)
// STATS-NEXT:   (S) 2 fusions       - Fusions checked (FusionKind)
// STATS-NEXT:   (S) 0 unknown-kinds - Kinds outside the registries
// STATS:      ValidateKinds
// STATS-NEXT:   (S) 1 composites    - Composites checked (CompositeKind)
// STATS-NEXT:   (S) 1 fusions       - Fusions checked (FusionKind)
// STATS-NEXT:   (S) 2 unknown-kinds - Kinds outside the registries

func.func @known(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %f = "mhlo.fusion"(%w) ({
  ^bb0(%a: tensor<4x8xf32>):
    "mhlo.return"(%a) : (tensor<4x8xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %g = "mhlo.fusion"(%f) ({
  ^bb0(%a: tensor<4x8xf32>):
    "mhlo.return"(%a) : (tensor<4x8xf32>) -> ()
  }) {FusionKind = "DotSoftmax"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

func.func @unknown(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{validate-kinds: unknown_fusion_kind: Unexpected FusionOp type 'RmsNorm'. Supported fusion types are: ScheduleFusion, MulRedSqrt, DotLogistic, Elementwise, Expm1, Log1p, DotSoftmax.}}
  %f = "mhlo.fusion"(%w) ({
  ^bb0(%a: tensor<4x8xf32>):
    "mhlo.return"(%a) : (tensor<4x8xf32>) -> ()
  }) {FusionKind = "RmsNorm"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-error@+1 {{validate-kinds: unknown_composite_kind: Unexpected CompositeOp kind 'RmsNorm'. Supported kinds are:}}
  %c = "stablehlo.composite"(%f) {CompositeKind = "RmsNorm", composite_attributes = {}, decomposition = @d, name = "composite.Fused", version = 0 : i32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}
func.func private @d(%a: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {genComposite = true, noDelete = true} {
  return %a : tensor<4x8xf32>
}
