// verify-rewrites=true on the MLIR passes (docs/validation.md): every rewrite checked against a
// snapshot of its input, through the MLIR adapter. On a correct run the output is the unchecked
// run's and nothing is reported; a dry run says, as a remark, what the check will cover.
//
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect -o %t.plain \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion,neuronrw-fusion-to-composite)'
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect -o %t.checked \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion{verify-rewrites=true},neuronrw-fusion-to-composite{verify-rewrites=true})' 2>&1 | count 0
// RUN: diff -u %t.plain %t.checked
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect -o %t.composites \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion-composites{verify-rewrites=true})' 2>&1 | count 0
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --neuronrw-schedule-fusion-composites | diff -u - %t.composites
//
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect -o /dev/null \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion{dry-run=true verify-rewrites=true})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DRY
// DRY: remark: neuronrw-schedule-fusion: verify-rewrites: the check will cover 8 ops (a snapshot of {{[0-9]+}} bytes)

func.func @f(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<16x8xf32>) {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %a = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %b = "mhlo.multiply"(%g, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %c = "mhlo.add"(%a, %x) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "mhlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "mhlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r, %b : tensor<4x8xf32>, tensor<16x8xf32>
}
