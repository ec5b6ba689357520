// expected-error@8:3: 'func.call' op incorrect number of operands for callee
// expected-error@9:3: 'func.call' op operand type mismatch: expected operand type 'i32', but provided 'f32' for operand number 0
// expected-error@10:3: 'func.call' op incorrect number of results for callee
// expected-error@11:3: 'func.call' op result type mismatch at index 0
// mlir-opt: rejects
func.func private @g(i32) -> i32
func.func @f(%a: i32, %x: f32) {
  %0 = func.call @g(%a, %a) : (i32, i32) -> i32
  %1 = func.call @g(%x) : (f32) -> i32
  func.call @g(%a) : (i32) -> ()
  %2 = func.call @g(%a) : (i32) -> f32
  return
}
