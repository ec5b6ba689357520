// The README's example: parse MLIR text into the reference IR, read it through the generic IR
// concept, reschedule one op, verify and print. Everything neuronrw's passes do follows this shape.
#include <iostream>
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/ir/ref/verify.hpp>

int main() {
  namespace nr = neuronrw;
  auto parsed = nr::ref::parse(R"(func.func @f(%w: tensor<4xf32>) -> tensor<16xf32> {
  %g = "mhlo.all_gather"(%w) : (tensor<4xf32>) -> tensor<16xf32>
  %c = "mhlo.constant"() {value = dense<1.0> : tensor<16xf32>} : () -> tensor<16xf32>
  %y = "mhlo.add"(%g, %c) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
})", "quickstart.mlir");
  if (!parsed.ok()) return std::cerr << parsed.error.str() << "\n", 1;
  auto& m = *parsed.value;
  auto body = m.region_block(nr::ref::lookup_function(m, "f"));
  nr::ref::op_ref gather;
  for (auto op : nr::ir::ops(m, body))  // generic access: works on any IR modelling the concept
    if (nr::ir::kind(m, op) == nr::kind_id_v<nr::kinds::all_gather>) gather = op;
  nr::ir::move_before(m, gather, m.prev_op(m.back(body)));  // sink the gather next to its user
  if (auto errors = nr::ref::verify(m); !errors.empty()) return std::cerr << errors[0].str() << "\n", 1;
  std::cout << nr::ref::print(m);
}
