// --verify-rewrites (docs/validation.md): every ScheduleFusion and FusionToComposite rewrite is
// checked against a snapshot of its input. On a correct run the output is the unchecked run's,
// byte for byte, and nothing is reported; a dry run applies the plan inside a transaction, checks
// it, rolls it back and ends its plan with the verdict (text and JSON); a pass without a check
// runs unchecked and says so.
//
// RUN: neuronrw-opt %s --schedule-fusion --fusion-to-composite -o %t.plain
// RUN: neuronrw-opt %s --schedule-fusion --fusion-to-composite --verify-rewrites -o %t.checked 2>&1 | count 0
// RUN: diff -u %t.plain %t.checked
// RUN: neuronrw-opt %s --schedule-fusion-composites --verify-rewrites -o %t.composites 2>&1 | count 0
// RUN: neuronrw-opt %s --schedule-fusion-composites | diff -u - %t.composites
//
// RUN: neuronrw-opt %s --schedule-fusion-dry-run --verify-rewrites | FileCheck %s --check-prefix=DRY
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
// A pass that rewrites without a check of its own (the host passes, for now) warns; one that
// changes nothing (validate-kinds) says nothing.
// RUN: neuronrw-opt %examples/host/pipeline.py --materialize-comm-domain-scopes --verify-rewrites -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOCHECK
// NOCHECK: pipeline.py: warning: materialize-comm-domain-scopes: --verify-rewrites: this pass has no rewrite check; its output is not checked
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
