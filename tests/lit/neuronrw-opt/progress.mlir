// The progress line on a terminal (docs/driver.md): with stderr on a terminal, each step that
// outlasts --progress-delay (milliseconds; 1000 by default) shows one line, erased when the
// step ends (`\r` then ESC[K, shown here as <erase>); --quiet shows none; the output is the same
// as without a terminal. util-linux's `script` runs the driver with its stderr on a
// pseudo-terminal; sed makes the control characters readable. Without a terminal no
// progress is shown at all: tests/driver/conventions_test.py checks that.
//
// REQUIRES: terminal
//
// RUN: neuronrw-opt --schedule-fusion %s -o %t.plain
// RUN: script -qec "neuronrw-opt --progress-delay=0 --schedule-fusion %s -o %t.tty" /dev/null \
// RUN:   | sed -e 's/\r\x1b\[K/<erase>/g' | FileCheck %s --check-prefix=STEPS -DFILE=%s
// RUN: diff %t.plain %t.tty
// STEPS:      {{^}}<erase>neuronrw-opt: parsing [[FILE]]: {{[0-9]+\.[0-9]}} s<erase>
// STEPS-SAME: <erase>neuronrw-opt: schedule-fusion on [[FILE]]: {{[0-9]+\.[0-9]}} s<erase>
// STEPS-SAME: <erase>neuronrw-opt: printing [[FILE]]: {{[0-9]+\.[0-9]}} s<erase>{{$}}
//
// With --split-input-file the line names the chunk.
// RUN: script -qec "neuronrw-opt --progress-delay=0 --split-input-file --schedule-fusion %s -o /dev/null" /dev/null \
// RUN:   | FileCheck %s --check-prefix=CHUNKS -DFILE=%s
// CHUNKS: schedule-fusion on [[FILE]] (chunk 1/2):
// CHUNKS: schedule-fusion on [[FILE]] (chunk 2/2):
//
// --quiet, and steps shorter than the default delay: nothing on the terminal.
// RUN: script -qec "neuronrw-opt --progress-delay=0 --quiet --schedule-fusion %s -o %t.quiet" /dev/null | count 0
// RUN: diff %t.plain %t.quiet
// RUN: script -qec "neuronrw-opt --schedule-fusion %s -o %t.default" /dev/null | count 0
// RUN: diff %t.plain %t.default

func.func @f(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @g() {
  return
}
