// dry-run=true: the plan as remarks (one per cluster, at its reduce_scatter, naming the producer's
// location, the op/carried/move counts; one per refusal, remarks=true or not) and the module
// unchanged. The cluster: the all_gather sinks to the reduce_scatter, the forward multiply that
// reads it moves after the cluster, the two get_tuple_elements join it (4 ops, 1 carried, 4 moves:
// as `neuronrw-opt --schedule-fusion-dry-run` plans it). The second pair is not convex.
//
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --verify-diagnostics -o %t.dry \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion{dry-run=true})'
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect -o %t.plain
// RUN: diff -u %t.plain %t.dry
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --verify-diagnostics -o %t.dry-composites \
// RUN:   '--neuronrw-schedule-fusion-composites=dry-run=true remarks=true'
// RUN: diff -u %t.plain %t.dry-composites
//
// The same plan, applied: the module the reference IR's driver makes, once both are printed by
// neuronrw-mlir-opt.
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --neuronrw-schedule-fusion -o %t.applied
// RUN: neuronrw-opt --schedule-fusion %s | neuronrw-mlir-opt --allow-unregistered-dialect | diff -u - %t.applied
// RUN: FileCheck %s < %t.applied
// CHECK:      %0 = "mhlo.negate"(%arg2) : (tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: %1:3 = "mhlo.fusion"(%arg0, %0) ({
// CHECK:      }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>, tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK-NEXT: %2 = "mhlo.multiply"(%1#0, %arg2) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK-NOT:  "mhlo.fusion"
// CHECK:      return %1#1, %2, %1#2, %6

func.func @plan(%w: tensor<4x8xf32>, %v: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<16x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %fwd = "mhlo.multiply"(%g, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %grad = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  // expected-remark-re@+1 {{: cluster 0 with the producer at loc("{{.*}}dry_run.mlir":28:8): 4 ops, 1 carried, 4 moves}}
  %r = "mhlo.reduce_scatter"(%g, %grad) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tuple<tensor<4x8xf32>, tensor<4x8xf32>>
  %other = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %p = "mhlo.get_tuple_element"(%r) {index = 0 : i32} : (tuple<tensor<4x8xf32>, tensor<4x8xf32>>) -> tensor<4x8xf32>
  %d = "mhlo.get_tuple_element"(%r) {index = 1 : i32} : (tuple<tensor<4x8xf32>, tensor<4x8xf32>>) -> tensor<4x8xf32>
  %g2 = "mhlo.all_gather"(%v) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  // expected-note@+1 {{this op depends on the producer and feeds the candidate}}
  %y = "mhlo.multiply"(%g2, %other) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  // expected-remark@+1 {{refused this candidate: non_convex: an op outside the cluster depends on the all_gather and feeds the reduce_scatter}}
  %r2 = "mhlo.reduce_scatter"(%g2, %y) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %p, %fwd, %d, %r2 : tensor<4x8xf32>, tensor<16x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
