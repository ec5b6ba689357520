// Custom syntax of the registered dialects (func, arith, scf) around generic mhlo ops: the pair
// sits in an scf.for body, whose iter_arg is the all_gather's operand; in the window, the
// gradient arith.addf (independent of the all_gather) stays before the cluster, the forward
// arith.mulf (which reads the gathered weight) moves after it. The output keeps the custom syntax.
//
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --neuronrw-schedule-fusion | FileCheck %s
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --neuronrw-schedule-fusion-composites \
// RUN:   | FileCheck %s --check-prefix=COMPOSITES
//
// The reference IR (neuronrw-opt) reads the generic form only: the same module printed generic
// gives the same result once both outputs are printed by neuronrw-mlir-opt.
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --mlir-print-op-generic -o %t.generic
// RUN: neuronrw-opt --schedule-fusion %t.generic | neuronrw-mlir-opt --allow-unregistered-dialect -o %t.ref
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --neuronrw-schedule-fusion -o %t.adapter
// RUN: diff -u %t.ref %t.adapter
// RUN: neuronrw-opt --schedule-fusion --fusion-to-composite %t.generic \
// RUN:   | neuronrw-mlir-opt --allow-unregistered-dialect -o %t.ref-composites
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --neuronrw-schedule-fusion-composites -o %t.adapter-composites
// RUN: diff -u %t.ref-composites %t.adapter-composites
// And mlir-opt, which registers every upstream dialect, prints the adapter's output unchanged.
// RUN: mlir-opt --verify-each --allow-unregistered-dialect %t.adapter | diff -u %t.adapter -

// CHECK:      func.func @loop(%arg0: tensor<4x8xf32>, %arg1: tensor<16x8xf32>, %arg2: tensor<4x8xf32>, %arg3: index) -> tensor<4x8xf32> {
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %c1 = arith.constant 1 : index
// CHECK-NEXT:   %0 = scf.for %arg4 = %c0 to %arg3 step %c1 iter_args(%arg5 = %arg2) -> (tensor<4x8xf32>) {
// CHECK-NEXT:     %1 = arith.addf %arg1, %arg1 : tensor<16x8xf32>
// CHECK-NEXT:     %2:2 = "mhlo.fusion"(%arg5, %1) ({
// CHECK-NEXT:     ^bb0(%arg6: tensor<4x8xf32>, %arg7: tensor<16x8xf32>):
// CHECK-NEXT:       %6 = "mhlo.all_gather"(%arg6) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:       %7 = "mhlo.reduce_scatter"(%6, %arg7) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:       "mhlo.return"(%6, %7) : (tensor<16x8xf32>, tensor<4x8xf32>) -> ()
// CHECK-NEXT:     }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>, tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<4x8xf32>)
// CHECK-NEXT:     %3 = arith.mulf %2#0, %arg1 : tensor<16x8xf32>
// CHECK-NEXT:     %4 = "mhlo.reduce"(%3) : (tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:     %5 = arith.addf %2#1, %4 : tensor<4x8xf32>
// CHECK-NEXT:     scf.yield %5 : tensor<4x8xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   return %0 : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }

// COMPOSITES:      %0 = scf.for %arg4 = %c0 to %arg3 step %c1 iter_args(%arg5 = %arg2) -> (tensor<4x8xf32>) {
// COMPOSITES-NEXT:   %1 = arith.addf %arg1, %arg1 : tensor<16x8xf32>
// COMPOSITES-NEXT:   %2:2 = "stablehlo.composite"(%arg5, %1) {CompositeKind = "ScheduleFusion", composite_attributes = {}, decomposition = @hilo.FusedComposite.0, name = "composite.Fused", version = 0 : i32} : (tensor<4x8xf32>, tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<4x8xf32>)
// COMPOSITES-NEXT:   %3 = arith.mulf %2#0, %arg1 : tensor<16x8xf32>
// COMPOSITES:      func.func private @hilo.FusedComposite.0(%arg0: tensor<4x8xf32>, %arg1: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<4x8xf32>) attributes {genComposite = true, noDelete = true} {
// COMPOSITES-NEXT:   %0 = "mhlo.all_gather"(%arg0) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
// COMPOSITES-NEXT:   %1 = "mhlo.reduce_scatter"(%0, %arg1) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// COMPOSITES-NEXT:   return %0, %1 : tensor<16x8xf32>, tensor<4x8xf32>
// COMPOSITES-NEXT: }
// COMPOSITES-NOT: mhlo.fusion

func.func @loop(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>, %init: tensor<4x8xf32>, %n: index) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<4x8xf32>) {
    %g = "mhlo.all_gather"(%acc) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %fwd = arith.mulf %g, %x : tensor<16x8xf32>
    %grad = arith.addf %x, %x : tensor<16x8xf32>
    %r = "mhlo.reduce_scatter"(%g, %grad) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
    %use = "mhlo.reduce"(%fwd) : (tensor<16x8xf32>) -> tensor<4x8xf32>
    %s = arith.addf %r, %use : tensor<4x8xf32>
    scf.yield %s : tensor<4x8xf32>
  }
  return %l : tensor<4x8xf32>
}
