// Pass options, declared the MLIR way: in a --pass-pipeline (`pass{opt=value ...}`) or on the pass
// flag (`--pass=opt=value ...`, quoted). The walk from the reduce_scatter visits 3 ops (%a, %b,
// %c): budget=3 (or the default, 100) clusters the pair, budget=2 refuses it.
//
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --mlir-print-op-on-diagnostic=false \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion{budget=2 remarks=true})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SMALL
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --mlir-print-op-on-diagnostic=false \
// RUN:   '--neuronrw-schedule-fusion=budget=2 remarks=true' 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --mlir-print-op-on-diagnostic=false \
// RUN:   --neuronrw-remarks '--neuronrw-schedule-fusion-composites=budget=2' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SMALL-COMPOSITES
// SMALL: remark: neuronrw-schedule-fusion refused this candidate: budget_exceeded: the dependence walk would visit more than 2 ops
// SMALL-NOT: remark
// SMALL-NOT: mhlo.fusion
// SMALL-COMPOSITES: remark: neuronrw-schedule-fusion-composites refused this candidate: budget_exceeded: the dependence walk would visit more than 2 ops
// SMALL-COMPOSITES-NOT: composite
//
// The refused candidate leaves the module exactly as printed without the pass.
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect -o %t.plain
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect '--neuronrw-schedule-fusion=budget=2' -o %t.small
// RUN: diff -u %t.plain %t.small
//
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --mlir-print-op-on-diagnostic=false \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion{budget=3 remarks=true})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FUSED
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect --neuronrw-remarks --neuronrw-schedule-fusion 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FUSED
// FUSED-NOT: remark
// FUSED:      %2 = "mhlo.tanh"(%1) : (tensor<16x8xf32>) -> tensor<16x8xf32>
// FUSED-NEXT: %3 = "mhlo.fusion"(%arg0, %2) ({
// FUSED-NEXT: ^bb0(%arg2: tensor<4x8xf32>, %arg3: tensor<16x8xf32>):
// FUSED-NEXT:   %4 = "mhlo.all_gather"(%arg2) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
// FUSED-NEXT:   %5 = "mhlo.reduce_scatter"(%4, %arg3) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// FUSED-NEXT:   "mhlo.return"(%5) : (tensor<4x8xf32>) -> ()
// FUSED-NEXT: }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// FUSED-NEXT: return %3 : tensor<4x8xf32>
//
// The grouping op, its terminator and the kind are options too.
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion{group-op=my.group terminator=my.yield fusion-kind=MyKind})' \
// RUN:   | FileCheck %s --check-prefix=NAMES
// NAMES:      %3 = "my.group"(%arg0, %2) ({
// NAMES:        "my.yield"(%5) : (tensor<4x8xf32>) -> ()
// NAMES-NEXT: }) {FusionKind = "MyKind"} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
//
// The composites flavour names its decompositions <symbol-prefix><N>.
// RUN: neuronrw-mlir-opt %s --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion-composites{symbol-prefix=my.fused.})' -o %t.composites
// RUN: FileCheck %s --check-prefix=PREFIX < %t.composites
// PREFIX: %3 = "stablehlo.composite"(%arg0, %2) {CompositeKind = "ScheduleFusion", composite_attributes = {}, decomposition = @my.fused.0, name = "composite.Fused", version = 0 : i32} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// PREFIX: func.func private @my.fused.0(%arg0: tensor<4x8xf32>, %arg1: tensor<16x8xf32>) -> tensor<4x8xf32> attributes {genComposite = true, noDelete = true} {
//
// skip-functions-with: the decompositions carry genComposite, which the pass skips by default (a
// second run changes nothing); with the option empty it fuses the pair inside the decomposition.
// RUN: neuronrw-mlir-opt %t.composites --allow-unregistered-dialect --neuronrw-schedule-fusion | diff -u %t.composites -
// RUN: neuronrw-mlir-opt %t.composites --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion{skip-functions-with=})' \
// RUN:   | FileCheck %s --check-prefix=NOSKIP
// NOSKIP:      func.func private @my.fused.0(
// NOSKIP-NEXT:   %0 = "mhlo.fusion"(%arg0, %arg1) ({
//
// Bad options: MLIR's option parser and the pass's own check refuse them, exit 1, no output.
// RUN: not neuronrw-mlir-opt %s --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion{budget=abc})' 2>&1 | FileCheck %s --check-prefix=BADVALUE
// BADVALUE: for the --budget option: 'abc' value invalid for ulong argument!
// BADVALUE: failed to add `neuronrw-schedule-fusion` with options `budget=abc`
// BADVALUE-NOT: module
// RUN: not neuronrw-mlir-opt %s --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(neuronrw-fusion-to-composite{no-such-option=1})' 2>&1 | FileCheck %s --check-prefix=NOOPTION
// NOOPTION: error: <Pass-Options-Parser>: no such option no-such-option
// NOOPTION: failed to add `neuronrw-fusion-to-composite` with options `no-such-option=1`
// RUN: not neuronrw-mlir-opt %s --allow-unregistered-dialect --mlir-print-op-on-diagnostic=false \
// RUN:   '--neuronrw-schedule-fusion=group-op=nodot' 2>&1 | FileCheck %s --check-prefix=INVALID
// INVALID: error: option 'group-op' of pass 'neuronrw-schedule-fusion' must be an op name 'dialect.op', not 'nodot'
// INVALID-NOT: module
//
// One validation for both tools (neuronrw/passes/options.hpp): an op the pass creates is refused
// where the options are read when it names an op of builtin, func, arith or scf, and a terminator
// must be named as one, in the same words as neuronrw-opt (tests/lit/neuronrw-opt/pass_options.mlir).
// RUN: not neuronrw-mlir-opt %s --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion{terminator=arith.constant})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FIXEDFORM
// FIXEDFORM: error: option 'terminator' of pass 'neuronrw-schedule-fusion' must not name an op of the builtin, func, arith or scf dialects (their ops have fixed forms the op the pass creates cannot take), not 'arith.constant'
// FIXEDFORM-NOT: module
// RUN: not neuronrw-mlir-opt %s --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(neuronrw-schedule-fusion{group-op=func.func})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FIXEDGROUP
// FIXEDGROUP: error: option 'group-op' of pass 'neuronrw-schedule-fusion' must not name an op of the builtin, func, arith or scf dialects (their ops have fixed forms the op the pass creates cannot take), not 'func.func'
// RUN: not neuronrw-mlir-opt %s --allow-unregistered-dialect \
// RUN:   '--neuronrw-schedule-fusion=terminator=my.end' 2>&1 | FileCheck %s --check-prefix=NOTTERM
// NOTTERM: error: option 'terminator' of pass 'neuronrw-schedule-fusion' must name a terminator, ending in '.return', '.yield' or '.terminator' (as a region's last op is recognized), not 'my.end'
// RUN: not neuronrw-mlir-opt %s --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(neuronrw-fusion-to-composite{composite-op=scf.execute_region})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FIXEDCOMPOSITE
// FIXEDCOMPOSITE: error: option 'composite-op' of pass 'neuronrw-fusion-to-composite' must not name an op of the builtin, func, arith or scf dialects

func.func @budget(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %a = "mhlo.negate"(%x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %b = "mhlo.exponential"(%a) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %c = "mhlo.tanh"(%b) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g, %c) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
