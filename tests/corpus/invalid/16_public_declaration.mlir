// expected-error@4:1: 'func.func' op symbol declaration cannot have public visibility
// mlir-opt: rejects
// A declaration must not be public (private or nested are fine).
func.func @f(i32) -> i32
func.func nested @g(i32) -> i32
