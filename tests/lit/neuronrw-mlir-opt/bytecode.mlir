// Bytecode: --emit-bytecode output is read back by neuronrw-mlir-opt and by mlir-opt, and the
// passes run on bytecode input (written by either tool); every route prints the same text.
// The input mixes registered dialects (func, arith, scf) with unregistered mhlo ops.
//
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --neuronrw-schedule-fusion -o %t.text
// RUN: FileCheck %s < %t.text
//
// Bytecode out, text back:
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --neuronrw-schedule-fusion --emit-bytecode -o %t.mlirbc
// RUN: head -c 4 %t.mlirbc | od -An -c | FileCheck %s --check-prefix=MAGIC
// MAGIC: M   L 357   R
// RUN: neuronrw-mlir-opt %t.mlirbc --allow-unregistered-dialect | diff -u %t.text -
// RUN: mlir-opt %t.mlirbc --allow-unregistered-dialect | diff -u %t.text -
//
// Bytecode in (from neuronrw-mlir-opt, then from mlir-opt), the pass on it:
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --emit-bytecode -o %t.in.mlirbc
// RUN: neuronrw-mlir-opt %t.in.mlirbc --allow-unregistered-dialect --neuronrw-schedule-fusion | diff -u %t.text -
// RUN: mlir-opt %s --allow-unregistered-dialect --emit-bytecode -o %t.mlir-opt.mlirbc
// RUN: neuronrw-mlir-opt %t.mlir-opt.mlirbc --allow-unregistered-dialect --neuronrw-schedule-fusion | diff -u %t.text -
//
// The whole pipeline, bytecode to bytecode, read back by mlir-opt:
// RUN: neuronrw-mlir-opt %t.in.mlirbc --allow-unregistered-dialect --emit-bytecode -o %t.out.mlirbc \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion,neuronrw-fusion-to-composite)'
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect -o %t.out.text \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion,neuronrw-fusion-to-composite)'
// RUN: mlir-opt --verify-each %t.out.mlirbc --allow-unregistered-dialect | diff -u %t.out.text -
// RUN: FileCheck %s --check-prefix=COMPOSITE < %t.out.text

// CHECK:      %0 = scf.for %arg3 = %c0 to %arg2 step %c1 iter_args(%arg4 = %arg0) -> (tensor<4x8xf32>) {
// CHECK-NEXT:   %1 = "mhlo.fusion"(%arg4) ({
// CHECK-NEXT:   ^bb0(%arg5: tensor<4x8xf32>):
// CHECK-NEXT:     %3 = "mhlo.all_gather"(%arg5) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:     %4 = "mhlo.reduce_scatter"(%3) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:     "mhlo.return"(%4) : (tensor<4x8xf32>) -> ()
// CHECK-NEXT:   }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:   %2 = arith.addf %1, %arg1 : tensor<4x8xf32>
// CHECK-NEXT:   scf.yield %2 : tensor<4x8xf32>

// COMPOSITE: "stablehlo.composite"(%arg4) {CompositeKind = "ScheduleFusion", composite_attributes = {}, decomposition = @hilo.FusedComposite.0, name = "composite.Fused", version = 0 : i32}
// COMPOSITE: func.func private @hilo.FusedComposite.0(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {genComposite = true, noDelete = true} {

func.func @steps(%init: tensor<4x8xf32>, %bias: tensor<4x8xf32>, %n: index) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<4x8xf32>) {
    %g = "mhlo.all_gather"(%acc) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    %s = arith.addf %r, %bias : tensor<4x8xf32>
    scf.yield %s : tensor<4x8xf32>
  }
  return %l : tensor<4x8xf32>
}
