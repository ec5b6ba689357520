// --verify-rewrites (docs/validation.md): every ScheduleFusion and FusionToComposite rewrite is
// checked against a snapshot of its input. On a correct run the output is the unchecked run's,
// byte for byte, and nothing is reported; a dry run applies the plan inside a transaction, checks
// it, rolls it back and ends its plan with the verdict (text and JSON).
//
// RUN: neuronrw-opt %s --schedule-fusion --fusion-to-composite -o %t.plain
// RUN: neuronrw-opt %s --schedule-fusion --fusion-to-composite --verify-rewrites -o %t.checked 2>&1 | count 0
// RUN: diff -u %t.plain %t.checked
// RUN: neuronrw-opt %s --schedule-fusion-composites --verify-rewrites -o %t.composites 2>&1 | count 0
// RUN: neuronrw-opt %s --schedule-fusion-composites | diff -u - %t.composites
//
// RUN: neuronrw-opt %s --schedule-fusion-dry-run --verify-rewrites | FileCheck %s --check-prefix=DRY
// The pass's own option (the MLIR passes' spelling) checks that pass alone, the same way.
// RUN: neuronrw-opt %s --pass-pipeline='builtin.module(schedule-fusion{verify-rewrites=true dry-run})' \
// RUN:   | FileCheck %s --check-prefix=DRY
// RUN: neuronrw-opt %s --pass-pipeline='builtin.module(schedule-fusion{verify-rewrites},fusion-to-composite{verify-rewrites})' \
// RUN:   -o %t.own 2>&1 | count 0
// RUN: diff -u %t.plain %t.own
// DRY:      schedule-fusion plan:
// DRY:      verify-rewrites: the check covered 8 ops (a snapshot of {{[0-9]+}} bytes): ok
// DRY-EMPTY:
//
// RUN: neuronrw-opt %s --schedule-fusion-dry-run --verify-rewrites --plan-format=json | FileCheck %s --check-prefix=JSON
// JSON:      "refusals": [
// JSON:      "verified": true,
// JSON-NEXT: "check": {"ops": 8, "snapshot_bytes": {{[0-9]+}}, "mismatches": 0}
// JSON-NEXT: }
//
// The checked dry run changes nothing: the module after it is the input (rolled back).
// RUN: neuronrw-opt %s --schedule-fusion-dry-run --verify-rewrites --mlir-print-ir-after-all -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNCHANGED
// UNCHANGED:      IR Dump After ScheduleFusion (schedule-fusion)
// UNCHANGED:      %g = "mhlo.all_gather"
// UNCHANGED-NEXT: %a = "mhlo.negate"
// UNCHANGED-NEXT: %b = "mhlo.multiply"
// UNCHANGED-NOT:  mhlo.fusion
//
// The host passes are checked too: the pipeline pypto runs gives the unchecked output and says
// nothing; their dry runs end with the verdict, in statements.
// RUN: neuronrw-opt %examples/host/dsl_allreduce.py -o %t.host.plain \
// RUN:   --pass-pipeline='host.program(synthesize-allreduce-signals,materialize-comm-domain-scopes)'
// RUN: neuronrw-opt %examples/host/dsl_allreduce.py --verify-rewrites -o %t.host.checked \
// RUN:   --pass-pipeline='host.program(synthesize-allreduce-signals,materialize-comm-domain-scopes)' 2>&1 | count 0
// RUN: diff -u %t.host.plain %t.host.checked
// RUN: neuronrw-opt %examples/host/pipeline.py --materialize-comm-domain-scopes-dry-run --verify-rewrites \
// RUN:   | FileCheck %s --check-prefix=HOST-DRY
// HOST-DRY: verify-rewrites: the check covered {{[1-9][0-9]*}} statements (a snapshot of {{[0-9]+}} bytes): ok
// RUN: neuronrw-opt %examples/host/dsl_allreduce.py --synthesize-allreduce-signals=dry-run --verify-rewrites \
// RUN:   --plan-format=json | FileCheck %s --check-prefix=HOST-JSON
// HOST-JSON:      "verified": true,
// HOST-JSON-NEXT: "check": {"ops": {{[1-9][0-9]*}}, "snapshot_bytes": {{[0-9]+}}, "mismatches": 0}
// The checked dry run of SynthesizeAllReduceSignals is rolled back: the program after it is the
// input.
// RUN: neuronrw-opt %examples/host/dsl_allreduce.py --synthesize-allreduce-signals=dry-run --verify-rewrites \
// RUN:   --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOST-UNCHANGED
// HOST-UNCHANGED:     return pld.tensor.allreduce(partial, op=pld.ReduceOp.Sum)
// HOST-UNCHANGED-NOT: __allreduce_signal
//
// A pass that changes nothing (validate-kinds) says nothing.
// RUN: neuronrw-opt %s --validate-kinds --verify-rewrites -o /dev/null 2>&1 | count 0

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
