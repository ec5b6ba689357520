// Every ScheduleFusion refusal code the reference IR can reach, as the remark schedule-fusion
// emits at the refused reduce_scatter (with remarks=true or --remarks), plus the note at the op
// the refusal names when that op is not the candidate. The texts are neuronrw-mlir-opt's (the
// same cases: tests/lit/neuronrw-mlir-opt/schedule_fusion_refusals.mlir). reschedule_refused cannot
// be reached from text the reference IR verifies (see tests/driver/lit_coverage.py); both
// flavours, the neuronrw-mlir-opt pass names and every way of turning remarks on must produce
// exactly these diagnostics. The budget is 3 everywhere, so budget_exceeded stays small.
//
// RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null \
// RUN:   --pass-pipeline='builtin.module(schedule-fusion{budget=3 remarks=true})'
// RUN: neuronrw-opt %s -split-input-file -verify-diagnostics -o=/dev/null '--schedule-fusion=budget=3 remarks=true'
// RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null --remarks --schedule-fusion=budget=3
// RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion-composites{budget=3 remarks=true})'
// RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null \
// RUN:   --pass-pipeline='builtin.module(schedule-fusion{budget=3 remarks},fusion-to-composite)'
//
// Remarks are off by default: the same input, no diagnostic at all, exit 0.
// RUN: grep -v 'expected-' %s > %t.quiet
// RUN: neuronrw-opt %t.quiet --split-input-file -o /dev/null --schedule-fusion=budget=3 2>&1 | count 0

// no_producer_operand: the reduce_scatter reads compute, not an all_gather. The op the refusal
// names is the candidate: no note.
func.func @no_producer_operand(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %y = "mhlo.multiply"(%g, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  // expected-remark@+1 {{refused this candidate: no_producer_operand: no operand is defined by an op of kind all_gather}}
  %r = "mhlo.reduce_scatter"(%y) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// already_fused: a reduce_scatter inside a fusion is never fused again; the note is at the fusion.
func.func @already_fused(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-note@+1 {{the fusion the candidate is already in}}
  %f = "mhlo.fusion"(%w) ({
  ^bb0(%a: tensor<4x8xf32>):
    %g = "mhlo.all_gather"(%a) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    // expected-remark@+1 {{refused this candidate: already_fused: the reduce_scatter is already inside a fusion}}
    %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    "mhlo.return"(%r) : (tensor<4x8xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}

// -----

// producer_claimed: %r1 clusters with %g1; %r2 skips the claimed %g1 for %g2; %r3 has only %g1.
func.func @producer_claimed(%w: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  // expected-note@+1 {{its producer, already in an earlier cluster}}
  %g1 = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %r1 = "mhlo.reduce_scatter"(%g1) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  %g2 = "mhlo.all_gather"(%v) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %r2 = "mhlo.reduce_scatter"(%g1, %g2) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  // expected-remark@+1 {{refused this candidate: producer_claimed: its all_gather belongs to cluster 0}}
  %r3 = "mhlo.reduce_scatter"(%g1) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r1, %r2, %r3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// different_block: the all_gather is outside the loop op, the reduce_scatter in its region.
func.func @different_block(%w: tensor<4x8xf32>, %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-note@+1 {{its producer, in another block}}
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %l = "test.loop"(%init) ({
  ^bb0(%acc: tensor<4x8xf32>):
    // expected-remark@+1 {{refused this candidate: different_block: its all_gather is in another block}}
    %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    %s = "mhlo.add"(%acc, %r) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    "test.yield"(%s) : (tensor<4x8xf32>) -> ()
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %l : tensor<4x8xf32>
}

// -----

// budget_exceeded: with budget=3 the walk from the reduce_scatter must visit 4 producers
// (%a, %b, %c, %d). The op the refusal names is the candidate: no note.
func.func @budget_exceeded(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %a = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %b = "mhlo.exponential"(%a) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %c = "mhlo.tanh"(%b) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %d = "mhlo.abs"(%c) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  // expected-remark@+1 {{refused this candidate: budget_exceeded: the dependence walk would visit more than 3 ops}}
  %r = "mhlo.reduce_scatter"(%g, %d) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// non_convex: %y depends on the all_gather and feeds the reduce_scatter; grouping the pair
// without it would make a cycle. The note is at %y.
func.func @non_convex(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  // expected-note@+1 {{this op depends on the producer and feeds the candidate}}
  %y = "mhlo.multiply"(%g, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  // expected-remark@+1 {{refused this candidate: non_convex: an op outside the cluster depends on the all_gather and feeds the reduce_scatter}}
  %r = "mhlo.reduce_scatter"(%g, %y) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// splits_cluster: %r2 claims %g2 and uses %g1; %r1 uses %g1 and %g2. Sinking %g1 to %r1 would
// carry cluster 0 ({%g2, %r2}) past %r1, which uses %g2: the cluster could go neither way. The
// note is at %g2, the member %r1 uses.
func.func @splits_cluster(%w: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %g1 = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  // expected-note@+1 {{this member of an earlier cluster feeds the candidate}}
  %g2 = "mhlo.all_gather"(%v) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %r2 = "mhlo.reduce_scatter"(%g2, %g1) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  // expected-remark@+1 {{refused this candidate: splits_cluster: cluster 0 uses the all_gather and feeds the reduce_scatter}}
  %r1 = "mhlo.reduce_scatter"(%g1, %g2) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r1, %r2 : tensor<4x8xf32>, tensor<4x8xf32>
}
