// MLIR's pass instrumentation names the neuronrw passes by their argument.
//
// --mlir-print-ir-after-all: one dump per pass, headed by its name.
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect -o /dev/null --mlir-print-ir-after-all \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion,neuronrw-fusion-to-composite)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=AFTER
// AFTER:      // -----// IR Dump After neuronrw-schedule-fusion (neuronrw-schedule-fusion) //----- //
// AFTER-NEXT: module {
// AFTER-NEXT:   func.func @pair(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
// AFTER-NEXT:     %0 = "mhlo.fusion"(%arg0) ({
// AFTER:      // -----// IR Dump After neuronrw-fusion-to-composite (neuronrw-fusion-to-composite) //----- //
// AFTER-NEXT: module {
// AFTER-NEXT:   func.func @pair(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
// AFTER-NEXT:     %0 = "stablehlo.composite"(%arg0) {CompositeKind = "ScheduleFusion", composite_attributes = {}, decomposition = @hilo.FusedComposite.0, name = "composite.Fused", version = 0 : i32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// AFTER-NOT:  IR Dump
//
// The composites flavour, and --mlir-print-ir-before on one pass of a pipeline.
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect -o /dev/null --mlir-print-ir-after-all \
// RUN:   --neuronrw-schedule-fusion-composites 2>&1 | FileCheck %s --check-prefix=COMPOSITES
// COMPOSITES:     // -----// IR Dump After neuronrw-schedule-fusion-composites (neuronrw-schedule-fusion-composites) //----- //
// COMPOSITES-NOT: IR Dump
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect -o /dev/null \
// RUN:   --mlir-print-ir-before=neuronrw-fusion-to-composite --neuronrw-schedule-fusion --neuronrw-fusion-to-composite 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BEFORE
// BEFORE:      // -----// IR Dump Before neuronrw-fusion-to-composite (neuronrw-fusion-to-composite) //----- //
// BEFORE:      "mhlo.fusion"
// BEFORE-NOT:  IR Dump
//
// --mlir-print-ir-after-all --mlir-print-ir-after-change: a pass that refuses every candidate (or
// finds no fusion) leaves the module unchanged, so MLIR prints nothing after it:
// examples/mlir/layer.mlir has no pair, and pass_options.mlir's pair is refused with budget=2; with
// budget=3 it is fused, and both passes print.
// RUN: neuronrw-mlir-opt %examples/mlir/layer.mlir --allow-unregistered-dialect -o /dev/null \
// RUN:   --mlir-print-ir-after-all --mlir-print-ir-after-change --neuronrw-schedule-fusion --neuronrw-fusion-to-composite 2>&1 | count 0
// RUN: neuronrw-mlir-opt %S/pass_options.mlir --allow-unregistered-dialect -o /dev/null --mlir-print-ir-after-all --mlir-print-ir-after-change \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion{budget=2},neuronrw-fusion-to-composite)' 2>&1 | count 0
// RUN: neuronrw-mlir-opt %S/pass_options.mlir --allow-unregistered-dialect -o /dev/null --mlir-print-ir-after-all --mlir-print-ir-after-change \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion{budget=3},neuronrw-fusion-to-composite)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHANGED
// CHANGED: // -----// IR Dump After neuronrw-schedule-fusion (neuronrw-schedule-fusion) //----- //
// CHANGED: // -----// IR Dump After neuronrw-fusion-to-composite (neuronrw-fusion-to-composite) //----- //
//
// --mlir-print-ir-after-failure: FusionToComposite refuses a module with a problem (here the
// captured value of fusion_to_composite_problems.mlir); the dump is headed "Failed" and shows the
// module unchanged.
// RUN: sed -n '/^func.func @captured_value/,/^}/p' %S/fusion_to_composite_problems.mlir | grep -v 'expected-' > %t.captured
// RUN: not neuronrw-mlir-opt %t.captured --allow-unregistered-dialect -o /dev/null --mlir-print-op-on-diagnostic=false \
// RUN:   --mlir-print-ir-after-failure --neuronrw-fusion-to-composite 2>&1 | FileCheck %s --check-prefix=FAILED
// FAILED:      error: neuronrw-fusion-to-composite: captured_value: operand #1 uses a value defined outside the enclosing fusion
// FAILED:      // -----// IR Dump After neuronrw-fusion-to-composite Failed (neuronrw-fusion-to-composite) //----- //
// FAILED-NEXT: module {
// FAILED-NEXT:   func.func @captured_value(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
// FAILED-NEXT:     %0 = "mhlo.fusion"(%arg0) ({
// FAILED-NEXT:     ^bb0(%arg2: tensor<4x8xf32>):
// FAILED-NEXT:       %1 = "mhlo.add"(%arg2, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// FAILED-NOT:  composite
//
// --mlir-timing: a line per pass, named by its argument, in pipeline order.
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect -o /dev/null --mlir-timing \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion,neuronrw-fusion-to-composite)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TIMING
// TIMING:      ... Execution time report ...
// TIMING:      ----Wall Time----  ----Name----
// TIMING-NEXT: {{[0-9.]+ +\( *[0-9.]+%\)}}  Parser
// TIMING-NEXT: {{[0-9.]+ +\( *[0-9.]+%\)}}  neuronrw-schedule-fusion
// TIMING-NEXT: {{[0-9.]+ +\( *[0-9.]+%\)}}  neuronrw-fusion-to-composite
// TIMING-NEXT: {{[0-9.]+ +\( *[0-9.]+%\)}}  Output
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect -o /dev/null --mlir-timing --mlir-timing-display=list \
// RUN:   --neuronrw-schedule-fusion-composites 2>&1 | FileCheck %s --check-prefix=TIMING-LIST
// TIMING-LIST: {{[0-9.]+ +\( *[0-9.]+%\)}}  neuronrw-schedule-fusion-composites

func.func @pair(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
