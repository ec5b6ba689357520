// The program the packaging tests build against neuronrw from outside its build: through the
// installed CMake package (cmake_consumer/), as a meson subproject (meson_consumer/) and with
// the flags of the installed neuronrw.pc. It needs a compile-time descriptor (Boost.Hana) and
// ScheduleFusion on the reference IR, so it compiles only when the package brings the include
// directory, C++20 and Boost; it prints what consumer.expected holds.
#include <iostream>

#include <neuronrw/descriptors/boundary_set.hpp>
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/schedule_fusion.hpp>

NEURONRW_DECLARE_KIND(send);
using my_boundary = neuronrw::default_boundary_set::with<send>;
static_assert(my_boundary::contains_v<send>);
static_assert(my_boundary::contains_v<neuronrw::kinds::all_gather>);
static_assert(!my_boundary::contains_v<neuronrw::kinds::fusion>);

int main() {
  namespace nr = neuronrw;
  auto parsed = nr::ref::parse(R"(func.func @layer(%w: tensor<4xf32>, %x: tensor<16xf32>) -> (tensor<4xf32>, tensor<16xf32>) {
  %g = "mhlo.all_gather"(%w) : (tensor<4xf32>) -> tensor<16xf32>
  %u = "mhlo.negate"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %r = "mhlo.reduce_scatter"(%g) : (tensor<16xf32>) -> tensor<4xf32>
  return %r, %u : tensor<4xf32>, tensor<16xf32>
})", "layer.mlir");
  if (!parsed.ok()) return std::cerr << parsed.error.str() << "\n", 1;
  auto& m = *parsed.value;
  std::string plan;
  nr::run_schedule_fusion(m, &plan);
  std::cout << "boundary set:";
  for (auto name : my_boundary::names()) std::cout << " " << name;
  std::cout << "\n" << plan;
  nr::run_schedule_fusion(m);
  std::cout << nr::ref::print(m);
}
