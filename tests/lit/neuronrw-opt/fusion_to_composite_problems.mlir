// Every FusionToComposite problem code, as the error fusion-to-composite reports at the op
// concerned (neuronrw-mlir-opt's texts: tests/lit/neuronrw-mlir-opt/fusion_to_composite_problems.mlir).
// A module with a problem is refused whole: the pass fails, nothing is printed for its chunk.
//
// RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null \
// RUN:   --pass-pipeline='builtin.module(fusion-to-composite{validate-fusion-kind=true})'
// RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null \
// RUN:   --fusion-to-composite=validate-fusion-kind=true
// RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null \
// RUN:   --pass-pipeline='builtin.module(neuronrw-fusion-to-composite{validate-fusion-kind=1})'
//
// Without --verify-diagnostics: exit 1, one error per problem, in file order, and no output file.
// RUN: grep -v 'expected-' %s > %t.in
// RUN: not neuronrw-opt %t.in --split-input-file --fusion-to-composite=validate-fusion-kind=true \
// RUN:   -o %t.out 2>&1 | grep 'error:' | sed 's/^.*error: //' | FileCheck %s --check-prefix=ERRORS
// RUN: test ! -e %t.out
// ERRORS: fusion-to-composite: unknown_fusion_kind: Unexpected FusionOp type 'NoSuchKind'.
// ERRORS-NEXT: fusion-to-composite: non_string_kind:
// ERRORS-NEXT: fusion-to-composite: no_body:
// ERRORS-NEXT: fusion-to-composite: no_body:
// ERRORS-NEXT: fusion-to-composite: bad_terminator:
// ERRORS-NEXT: fusion-to-composite: bad_terminator:
// ERRORS-NEXT: fusion-to-composite: captured_value: operand #1
// ERRORS-NEXT: fusion-to-composite: captured_value: operand #0
// ERRORS-NEXT: fusion-to-composite: region_arguments: the fusion's region takes 2 argument(s) but the fusion has 1 operand(s)
// ERRORS-NOT: error
//
// Without validate-fusion-kind an unknown kind is no problem: the first chunk alone is lowered,
// its kind carried over (the other chunks still fail: exit 1), and the chunks' outputs are
// separated by the marker.
// RUN: not neuronrw-opt %s --split-input-file --fusion-to-composite 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=NOVALIDATE
// NOVALIDATE: func.func @unknown_fusion_kind(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
// NOVALIDATE-NEXT: %f = "stablehlo.composite"(%w) {CompositeKind = "NoSuchKind", composite_attributes = {}, decomposition = @hilo.FusedComposite.0, name = "composite.Fused", version = 0 : i32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// NOVALIDATE-NEXT: return %f : tensor<4x8xf32>
// NOVALIDATE: func.func private @hilo.FusedComposite.0(%a: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {genComposite = true, noDelete = true} {
// NOVALIDATE-NEXT: %n = "mhlo.negate"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// NOVALIDATE-NEXT: return %n : tensor<4x8xf32>
// NOVALIDATE-NEXT: }
// NOVALIDATE-NEXT: }
// NOVALIDATE-EMPTY:
// NOVALIDATE-NEXT: // -----
// NOVALIDATE-NEXT: // -----
// NOVALIDATE-NOT: composite

// unknown_fusion_kind (validate-fusion-kind=true only): the kind is not in the registry.
func.func @unknown_fusion_kind(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{fusion-to-composite: unknown_fusion_kind: Unexpected FusionOp type 'NoSuchKind'. Supported fusion types are: ScheduleFusion, MulRedSqrt, DotLogistic, Elementwise, Expm1, Log1p, DotSoftmax.}}
  %f = "mhlo.fusion"(%w) ({
  ^bb0(%a: tensor<4x8xf32>):
    %n = "mhlo.negate"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    "mhlo.return"(%n) : (tensor<4x8xf32>) -> ()
  }) {FusionKind = "NoSuchKind"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}

// -----

// non_string_kind: FusionKind is an integer.
func.func @non_string_kind(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{fusion-to-composite: non_string_kind: fusion attribute 'FusionKind' must be a string, e.g. FusionKind = "ScheduleFusion"}}
  %f = "mhlo.fusion"(%w) ({
  ^bb0(%a: tensor<4x8xf32>):
    "mhlo.return"(%a) : (tensor<4x8xf32>) -> ()
  }) {FusionKind = 3 : i32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}

// -----

// no_body: the region is empty.
func.func @no_body(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{fusion-to-composite: no_body: fusion has no body to outline (it needs exactly one region block, ending with its return)}}
  %f = "mhlo.fusion"(%w) ({
  }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}

// -----

// no_body: two regions (as a while has), so no one body to outline.
func.func @two_regions(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{fusion-to-composite: no_body: fusion has no body to outline (it needs exactly one region block, ending with its return)}}
  %f = "mhlo.fusion"(%w) ({
  ^bb0(%a: tensor<4x8xf32>):
    "mhlo.return"(%a) : (tensor<4x8xf32>) -> ()
  }, {
  ^bb0(%a: tensor<4x8xf32>):
    "mhlo.return"(%a) : (tensor<4x8xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}

// -----

// bad_terminator: the body returns nothing for the fusion's one result (the error is at the
// return), or ends with a terminator that is not a return (a loop's yield).
func.func @bad_terminator(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %f = "mhlo.fusion"(%w) ({
  ^bb0(%a: tensor<4x8xf32>):
    // expected-error@+1 {{fusion-to-composite: bad_terminator: a fusion body must end with a return of its 1 result(s), e.g. "mhlo.return", to become the decomposition's func.return}}
    "mhlo.return"() : () -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}
func.func @not_a_return(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %f = "mhlo.fusion"(%w) ({
  ^bb0(%a: tensor<4x8xf32>):
    // expected-error@+1 {{fusion-to-composite: bad_terminator: a fusion body must end with a return of its 1 result(s)}}
    "scf.yield"(%a) : (tensor<4x8xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}

// -----

// captured_value: the body reads %x, a function argument outside the fusion, or %one, an op
// result outside it; the error is at the op that reads it.
func.func @captured_value(%w: tensor<4x8xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %f = "mhlo.fusion"(%w) ({
  ^bb0(%a: tensor<4x8xf32>):
    // expected-error@+1 {{fusion-to-composite: captured_value: operand #1 uses a value defined outside the enclosing fusion, so the fusion cannot be outlined into a decomposition function}}
    %s = "mhlo.add"(%a, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    "mhlo.return"(%s) : (tensor<4x8xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}
func.func @captured_constant(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %one = "mhlo.constant"() {value = dense<1.0> : tensor<4x8xf32>} : () -> tensor<4x8xf32>
  %f = "mhlo.fusion"(%w) ({
  ^bb0(%a: tensor<4x8xf32>):
    // expected-error@+1 {{fusion-to-composite: captured_value: operand #0 uses a value defined outside the enclosing fusion}}
    %s = "mhlo.add"(%one, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    "mhlo.return"(%s) : (tensor<4x8xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}

// -----

// region_arguments: the region takes an argument the fusion does not pass; outlining it would
// leave the decomposition using a value that does not exist.
func.func @region_arguments(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{fusion-to-composite: region_arguments: the fusion's region takes 2 argument(s) but the fusion has 1 operand(s): each operand must be passed as one region argument}}
  %f = "mhlo.fusion"(%w) ({
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>):
    %s = "mhlo.add"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    "mhlo.return"(%s) : (tensor<4x8xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}
