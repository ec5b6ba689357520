// Pass options, the MLIR way (the same pipelines as tests/lit/neuronrw-mlir-opt/pass_options.mlir
// give neuronrw-mlir-opt): in a --pass-pipeline (`pass{opt=value ...}`) or on the pass flag
// (`--pass=opt=value ...` quoted, or with commas). The walk from the reduce_scatter visits 3 ops
// (%a, %b, %c): budget=3 (or the default, 100) clusters the pair, budget=2 refuses it.
//
// RUN: neuronrw-opt %s --pass-pipeline='builtin.module(schedule-fusion{budget=2 remarks=true})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SMALL
// RUN: neuronrw-opt %s '--schedule-fusion=budget=2 remarks=true' 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: neuronrw-opt %s --schedule-fusion=budget=2,remarks=true 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: neuronrw-opt %s --remarks '--schedule-fusion-composites=budget=2' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SMALL-COMPOSITES
// SMALL: remark: schedule-fusion refused this candidate: budget_exceeded: the dependence walk would visit more than 2 ops
// SMALL-NOT: remark
// SMALL-NOT: mhlo.fusion
// SMALL-COMPOSITES: remark: schedule-fusion-composites refused this candidate: budget_exceeded: the dependence walk would visit more than 2 ops
// SMALL-COMPOSITES-NOT: composite
//
// The refused candidate leaves the module exactly as printed without the pass.
// RUN: neuronrw-opt %s -o %t.plain
// RUN: neuronrw-opt %s --schedule-fusion=budget=2 -o %t.small
// RUN: diff -u %t.plain %t.small
//
// RUN: neuronrw-opt %s --pass-pipeline='builtin.module(schedule-fusion{budget=3 remarks=true})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FUSED
// RUN: neuronrw-opt %s --remarks --schedule-fusion 2>&1 | FileCheck %s --check-prefix=FUSED
// FUSED-NOT: remark
// FUSED:      %c = "mhlo.tanh"(%b) : (tensor<16x8xf32>) -> tensor<16x8xf32>
// FUSED-NEXT: %0 = "mhlo.fusion"(%w, %c) ({
// FUSED-NEXT: ^bb0(%arg0: tensor<4x8xf32>, %arg1: tensor<16x8xf32>):
// FUSED-NEXT:   %g = "mhlo.all_gather"(%arg0) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
// FUSED-NEXT:   %r = "mhlo.reduce_scatter"(%g, %arg1) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// FUSED-NEXT:   "mhlo.return"(%r) : (tensor<4x8xf32>) -> ()
// FUSED-NEXT: }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// FUSED-NEXT: return %0 : tensor<4x8xf32>
//
// The grouping op, its terminator and the kind (`kind` is `fusion-kind`'s alias) are options too.
// RUN: neuronrw-opt %s --pass-pipeline='builtin.module(schedule-fusion{group-op=my.group terminator=my.yield kind=MyKind})' \
// RUN:   | FileCheck %s --check-prefix=NAMES
// RUN: neuronrw-opt %s '--schedule-fusion=group-op=my.group terminator=my.yield fusion-kind=MyKind' \
// RUN:   | FileCheck %s --check-prefix=NAMES
// NAMES:      %0 = "my.group"(%w, %c) ({
// NAMES:        "my.yield"(%r) : (tensor<4x8xf32>) -> ()
// NAMES-NEXT: }) {FusionKind = "MyKind"} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
//
// The composites flavour names its decompositions <symbol-prefix><N>; so does fusion-to-composite.
// RUN: neuronrw-opt %s --pass-pipeline='builtin.module(schedule-fusion-composites{symbol-prefix=my.fused.})' -o %t.composites
// RUN: FileCheck %s --check-prefix=PREFIX < %t.composites
// RUN: neuronrw-opt %s --pass-pipeline='builtin.module(schedule-fusion,fusion-to-composite{symbol-prefix=my.fused.})' \
// RUN:   | diff -u %t.composites -
// PREFIX: %0 = "stablehlo.composite"(%w, %c) {CompositeKind = "ScheduleFusion", composite_attributes = {}, decomposition = @my.fused.0, name = "composite.Fused", version = 0 : i32} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// PREFIX: func.func private @my.fused.0(%arg0: tensor<4x8xf32>, %arg1: tensor<16x8xf32>) -> tensor<4x8xf32> attributes {genComposite = true, noDelete = true} {
//
// skip-functions-with: the decompositions carry genComposite, which the pass skips by default (a
// second run changes nothing); with the option empty it fuses the pair inside the decomposition.
// RUN: neuronrw-opt %t.composites --schedule-fusion | diff -u %t.composites -
// RUN: neuronrw-opt %t.composites --pass-pipeline='builtin.module(schedule-fusion{skip-functions-with=""})' \
// RUN:   | FileCheck %s --check-prefix=NOSKIP
// NOSKIP:      func.func private @my.fused.0(
// NOSKIP-NEXT:   %0 = "mhlo.fusion"(%arg0, %arg1) ({
//
// Bad options: a usage error (exit 2, which tests/driver/conventions_test.py checks) naming the
// pass and the option, the text with a caret under the column, no output.
// RUN: not neuronrw-opt %s --pass-pipeline='builtin.module(schedule-fusion{budget=abc})' -o %t.bad 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADVALUE
// RUN: test ! -e %t.bad
// BADVALUE:      neuronrw-opt: --pass-pipeline:1:39: error: option 'budget' of pass 'schedule-fusion' takes an unsigned integer, not 'abc'
// BADVALUE-NEXT: builtin.module(schedule-fusion{budget=abc})
// BADVALUE-NEXT: {{^                                      \^$}}
// RUN: not neuronrw-opt %s --pass-pipeline='builtin.module(fusion-to-composite{no-such-option=1})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOOPTION
// NOOPTION: --pass-pipeline:1:36: error: pass 'fusion-to-composite' has no option 'no-such-option' (options: composite-op dry-run symbol-prefix validate-fusion-kind kinds verify-rewrites)
// RUN: not neuronrw-opt %s '--schedule-fusion=group-op=nodot' 2>&1 | FileCheck %s --check-prefix=INVALID
// INVALID:      neuronrw-opt: --schedule-fusion:1:10: error: option 'group-op' of pass 'schedule-fusion' must be an op name 'dialect.op', not 'nodot'
// INVALID-NEXT: group-op=nodot
// INVALID-NEXT: {{^         \^$}}
// The same options both tools refuse, in the same words (tests/lit/neuronrw-mlir-opt/pass_options.mlir):
// ops of builtin, func, arith and scf, and a terminator not named as one.
// RUN: not neuronrw-opt %s --pass-pipeline='builtin.module(schedule-fusion{terminator=arith.constant})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FIXEDFORM
// FIXEDFORM: --pass-pipeline:1:43: error: option 'terminator' of pass 'schedule-fusion' must not name an op of the builtin, func, arith or scf dialects (their ops have fixed forms the op the pass creates cannot take), not 'arith.constant'
// RUN: not neuronrw-opt %s --pass-pipeline='builtin.module(schedule-fusion{group-op=func.func})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FIXEDGROUP
// FIXEDGROUP: --pass-pipeline:1:41: error: option 'group-op' of pass 'schedule-fusion' must not name an op of the builtin, func, arith or scf dialects (their ops have fixed forms the op the pass creates cannot take), not 'func.func'
// RUN: not neuronrw-opt %s '--schedule-fusion=terminator=my.end' 2>&1 | FileCheck %s --check-prefix=NOTTERM
// NOTTERM: error: option 'terminator' of pass 'schedule-fusion' must name a terminator, ending in '.return', '.yield' or '.terminator' (as a region's last op is recognized), not 'my.end'
// RUN: not neuronrw-opt %s --pass-pipeline='builtin.module(fusion-to-composite{composite-op=scf.execute_region})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FIXEDCOMPOSITE
// FIXEDCOMPOSITE: error: option 'composite-op' of pass 'fusion-to-composite' must not name an op of the builtin, func, arith or scf dialects

func.func @budget(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %a = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %b = "mhlo.exponential"(%a) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %c = "mhlo.tanh"(%b) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g, %c) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
