// Errors in the input itself — the parser's and the verifier's — are diagnostics like the passes'
// (--verify-diagnostics checks them too), located in the whole file even in a later chunk, and
// shown with the source line and a caret under the column (a tab stays a tab, so the caret stays
// under its character); a note then names the chunk that failed.
//
// RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null
// RUN: neuronrw-opt %s --split-input-file --verify-diagnostics -o /dev/null --schedule-fusion --fusion-to-composite
//
// RUN: sed -e 's|// *expected-.*$||' %s > %t.in
// RUN: not neuronrw-opt %t.in --split-input-file -o %t.out 2> %t.err
// RUN: test ! -e %t.out
// RUN: FileCheck %s --check-prefix=CARET < %t.err
// CARET:      {{.*}}.in:29:19: error: expected SSA operand
// CARET-NEXT: {{^}}  %0 = "foo.bar"( : () -> i32{{$}}
// CARET-NEXT: {{^                  \^$}}
// CARET-NEXT: {{.*}}.in: note: chunk 1 of 3 (lines 1-32) failed
// CARET-NEXT: {{.*}}.in:36:31: error: 'func.return' op has 0 operands, but enclosing function (@returns_nothing) returns 1
// CARET-NEXT: {{^}}	%0 = "foo.bar"() : () -> i32	return
// CARET-NEXT: {{^	                            	\^$}}
// CARET-NEXT: {{.*}}.in: note: chunk 2 of 3 (lines 34-38) failed
// CARET-NEXT: {{.*}}.in:43:10: error: use of undeclared SSA value name '%z'
// CARET-NEXT: {{^}}  return %z : tensor<4xf32>{{$}}
// CARET-NEXT: {{^         \^$}}
// CARET-NEXT: {{.*}}.in: note: chunk 3 of 3 (lines 40-44) failed
// CARET-NOT: error

func.func @parse_error() {
  // expected-error@+1 {{expected SSA operand}}
  %0 = "foo.bar"( : () -> i32
  return
}

// -----

func.func @returns_nothing() -> i32 {
	%0 = "foo.bar"() : () -> i32	return  // expected-error {{'func.return' op has 0 operands, but enclosing function (@returns_nothing) returns 1}}
}

// -----

func.func @undeclared() -> tensor<4xf32> {
  // expected-error@below {{use of undeclared SSA value name '%z'}}
  return %z : tensor<4xf32>
}
