// --mlir-pass-statistics: the passes' counters. One cluster (the multiply that reads the gathered
// value moves after it: 1 move) and one non-convex pair.
//
// A libMLIR built without LLVM_ENABLE_STATS (Debian's release build) compiles every counter out:
// MLIR then prints the report's header and nothing else, for any pass (mlir-opt --cse too, which
// is how lit.cfg.py decides the feature mlir-statistics), and only the header is checked.
//
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --mlir-pass-statistics -o /dev/null \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion,neuronrw-fusion-to-composite)' 2> %t.two
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --mlir-pass-statistics -o /dev/null \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion-composites)' 2> %t.one
// RUN: %if mlir-statistics %{ FileCheck %s --check-prefix=TWO < %t.two %}
// RUN: %if mlir-statistics %{ FileCheck %s --check-prefix=ONE < %t.one %}
// RUN: %if !mlir-statistics %{ FileCheck %s --check-prefix=HEADER < %t.two %}
// RUN: %if !mlir-statistics %{ FileCheck %s --check-prefix=HEADER < %t.one %}

// HEADER:      ===-------------------------------------------------------------------------===
// HEADER-NEXT: ... Pass statistics report ...
// HEADER-NEXT: ===-------------------------------------------------------------------------===
// HEADER-EMPTY:
// HEADER-NOT: {{.}}

// TWO-LABEL: ... Pass statistics report ...
// TWO:      neuronrw-schedule-fusion
// TWO-DAG:  (S) 2 candidates -
// TWO-DAG:  (S) 1 clusters -
// TWO-DAG:  (S) 1 moves -
// TWO-DAG:  (S) 0 composites -
// TWO-DAG:  (S) 0 refused-no_producer_operand -
// TWO-DAG:  (S) 0 refused-already_fused -
// TWO-DAG:  (S) 0 refused-producer_claimed -
// TWO-DAG:  (S) 0 refused-different_block -
// TWO-DAG:  (S) 0 refused-budget_exceeded -
// TWO-DAG:  (S) 1 refused-non_convex -
// TWO-DAG:  (S) 0 refused-splits_cluster -
// TWO-DAG:  (S) 0 refused-reschedule_refused -
// TWO:      neuronrw-fusion-to-composite
// TWO-DAG:  (S) 1 composites -
// TWO-DAG:  (S) 0 refused -

// ONE-LABEL: ... Pass statistics report ...
// ONE:      neuronrw-schedule-fusion-composites
// ONE-DAG:  (S) 2 candidates -
// ONE-DAG:  (S) 1 clusters -
// ONE-DAG:  (S) 1 moves -
// ONE-DAG:  (S) 1 composites -
// ONE-DAG:  (S) 0 refused-no_producer_operand -
// ONE-DAG:  (S) 0 refused-already_fused -
// ONE-DAG:  (S) 0 refused-producer_claimed -
// ONE-DAG:  (S) 0 refused-different_block -
// ONE-DAG:  (S) 0 refused-budget_exceeded -
// ONE-DAG:  (S) 1 refused-non_convex -
// ONE-DAG:  (S) 0 refused-splits_cluster -
// ONE-DAG:  (S) 0 refused-reschedule_refused -

func.func @stats(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<16x8xf32>, tensor<4x8xf32>) {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %f = "mhlo.multiply"(%g, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  %g2 = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %y = "mhlo.multiply"(%g2, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %r2 = "mhlo.reduce_scatter"(%g2, %y) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r, %f, %r2 : tensor<4x8xf32>, tensor<16x8xf32>, tensor<4x8xf32>
}
