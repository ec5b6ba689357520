// The pass instrumentation, in mlir-opt's formats, on stderr (the module itself goes to -o):
// IR dumps before / after every pass (only after the passes that changed something with
// -after-change, and after a failing pass with -after-failure), the statistics of every pass run
// and the wall-time report (layout checked, times masked). One report per chunk under
// --split-input-file.
//
// RUN: neuronrw-opt %s --pass-pipeline='builtin.module(schedule-fusion,validate-kinds)' -o /dev/null \
// RUN:   --mlir-print-ir-before-all --mlir-print-ir-after-all 2>&1 | FileCheck %s --check-prefix=ALL
// ALL:      // -----// IR Dump Before ScheduleFusion (schedule-fusion) //----- //
// ALL-NEXT: module {
// ALL-NEXT:   func.func @f(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> tensor<4x8xf32> {
// ALL-NEXT:     %g = "mhlo.all_gather"
// ALL:      {{^}}}
// ALL-EMPTY:
// ALL-EMPTY:
// ALL-NEXT: // -----// IR Dump After ScheduleFusion (schedule-fusion) //----- //
// ALL-NEXT: module {
// ALL-NEXT:   func.func @f(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> tensor<4x8xf32> {
// ALL-NEXT:     %a = "mhlo.negate"
// ALL-NEXT:     %0 = "mhlo.fusion"(%w, %a) ({
// ALL:      // -----// IR Dump Before ValidateKinds (validate-kinds) //----- //
// ALL:      // -----// IR Dump After ValidateKinds (validate-kinds) //----- //
// ALL-NOT:  IR Dump
//
// -after-change: validate-kinds changes nothing, so only ScheduleFusion's dump.
// RUN: neuronrw-opt %s --pass-pipeline='builtin.module(schedule-fusion,validate-kinds)' -o /dev/null \
// RUN:   --mlir-print-ir-after-all --mlir-print-ir-after-change 2>&1 | FileCheck %s --check-prefix=CHANGE
// CHANGE:     // -----// IR Dump After ScheduleFusion (schedule-fusion) //----- //
// CHANGE-NOT: IR Dump
//
// -after-failure: the module as the failed pass left it (unchanged), after the error; no output.
// RUN: sed -e 's/"ScheduleFusion"/"NoSuchKind"/' %s > %t.kind
// RUN: not neuronrw-opt %t.kind --pass-pipeline='builtin.module(fusion-to-composite{validate-fusion-kind})' \
// RUN:   --mlir-print-ir-after-failure --mlir-print-ir-after-all -o %t.out 2>&1 | FileCheck %s --check-prefix=FAILED
// RUN: test ! -e %t.out
// FAILED:      error: fusion-to-composite: unknown_fusion_kind: Unexpected FusionOp type 'NoSuchKind'.
// FAILED:      // -----// IR Dump After FusionToComposite Failed (fusion-to-composite) //----- //
// FAILED-NEXT: module {
// FAILED:      {FusionKind = "NoSuchKind"}
// FAILED-NOT:  IR Dump
//
// RUN: neuronrw-opt %s --schedule-fusion --validate-kinds --fusion-to-composite --mlir-pass-statistics -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATS
// STATS:      ===-------------------------------------------------------------------------===
// STATS-NEXT: {{^                         \.\.\. Pass statistics report \.\.\.$}}
// STATS-NEXT: ===-------------------------------------------------------------------------===
// STATS-NEXT: ScheduleFusion
// STATS-NEXT:   (S) 2 candidates                  - Candidate consumers examined
// STATS-NEXT:   (S) 1 clusters                    - Clusters formed
// STATS-NEXT:   (S) 0 composites                  - Composites created (composites flavour)
// STATS-NEXT:   (S) 1 moves                       - Ops moved by the reschedule
// STATS-NEXT:   (S) 1 refused-already_fused       - Refused: already inside a fusion
// STATS-NEXT:   (S) 0 refused-budget_exceeded     - Refused: walk budget exceeded
// STATS-NEXT:   (S) 0 refused-different_block     - Refused: producer in another block
// STATS-NEXT:   (S) 0 refused-no_producer_operand - Refused: no producer operand
// STATS-NEXT:   (S) 0 refused-non_convex          - Refused: cluster not convex
// STATS-NEXT:   (S) 0 refused-producer_claimed    - Refused: producer in an earlier cluster
// STATS-NEXT:   (S) 0 refused-reschedule_refused  - Refused: dominance repair refused
// STATS-NEXT:   (S) 0 refused-splits_cluster      - Refused: would split an earlier cluster
// STATS-NEXT: ValidateKinds
// STATS-NEXT:   (S) 0 composites    - Composites checked (CompositeKind)
// STATS-NEXT:   (S) 2 fusions       - Fusions checked (FusionKind)
// STATS-NEXT:   (S) 0 unknown-kinds - Kinds outside the registries
// STATS-NEXT: FusionToComposite
// STATS-NEXT:   (S) 2 composites - Composites created
// STATS-NEXT:   (S) 0 refused    - Fusions refused (the module is then unchanged)
// STATS-EMPTY:
//
// The composites flavour counts its composites; a dry run plans (clusters) but moves nothing.
// RUN: neuronrw-opt %s --schedule-fusion-dry-run --schedule-fusion-composites --mlir-pass-statistics -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FLAVOURS
// FLAVOURS:      ScheduleFusion
// FLAVOURS-NEXT:   (S) 2 candidates
// FLAVOURS-NEXT:   (S) 1 clusters
// FLAVOURS-NEXT:   (S) 0 composites
// FLAVOURS-NEXT:   (S) 0 moves
// FLAVOURS-NEXT:   (S) 1 refused-already_fused
// FLAVOURS:      ScheduleFusionComposites
// FLAVOURS-NEXT:   (S) 2 candidates
// FLAVOURS-NEXT:   (S) 1 clusters
// FLAVOURS-NEXT:   (S) 1 composites
// FLAVOURS-NEXT:   (S) 1 moves
// FLAVOURS-NEXT:   (S) 1 refused-already_fused
//
// RUN: neuronrw-opt %s --schedule-fusion --fusion-to-composite --mlir-timing -o /dev/null 2>&1 \
// RUN:   | sed -e 's/[0-9][0-9]*\.[0-9]*/N/g' | FileCheck %s --check-prefix=TIMING
// TIMING:      ===-------------------------------------------------------------------------===
// TIMING-NEXT: {{^                         \.\.\. Execution time report \.\.\.$}}
// TIMING-NEXT: ===-------------------------------------------------------------------------===
// TIMING-NEXT: {{^  Total Execution Time: N seconds$}}
// TIMING-EMPTY:
// TIMING-NEXT: {{^  ----Wall Time----  ----Name----$}}
// TIMING-NEXT: {{^ +N \( *N%\)  Parser$}}
// TIMING-NEXT: {{^ +N \( *N%\)  ScheduleFusion$}}
// TIMING-NEXT: {{^ +N \( *N%\)  FusionToComposite$}}
// TIMING-NEXT: {{^ +N \( *N%\)  Output$}}
// TIMING-NEXT: {{^ +N \( *N%\)  Rest$}}
// TIMING-NEXT: {{^ +N \(N%\)  Total$}}
// TIMING-NOT: {{.}}

func.func @f(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %a = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g, %a) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
func.func @fused(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %f = "mhlo.fusion"(%w) ({
  ^bb0(%a: tensor<4x8xf32>):
    %g = "mhlo.all_gather"(%a) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    "mhlo.return"(%r) : (tensor<4x8xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}
