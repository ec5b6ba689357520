// A module of a user's own `mycc` dialect: a gather feeds a scatter, with compute between that
// does not depend on it, which ScheduleFusion moves out of the way. Without a kinds file both tools leave it alone and, with remarks on, say
// why; with examples/kinds/mycc.kinds ScheduleFusion groups the pair into a mycc.group and
// FusionToComposite lowers the group (docs/kinds.md):
//
//   neuronrw-opt --kinds=examples/kinds/mycc.kinds \
//     --pass-pipeline='builtin.module(schedule-fusion{group-op=mycc.group terminator=mycc.yield},fusion-to-composite)' \
//     examples/kinds/mycc.mlir
func.func @layer(%w: tensor<4x8xf32>, %x: tensor<16x8xf32>, %b: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<16x8xf32>) {
  %g = "mycc.gather"(%w) {dim = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  %h = "mycc.mul"(%x, %b) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %s = "mycc.scatter"(%g) {dim = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %s, %h : tensor<4x8xf32>, tensor<16x8xf32>
}
