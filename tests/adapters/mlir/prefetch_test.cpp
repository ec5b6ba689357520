// The user pass of docs/passes.md (examples/prefetch/prefetch.hpp) as an MLIR pass from its
// descriptor alone (neuronrw/adapters/mlir/descriptor_pass.hpp): register_descriptor_pass
// registers `neuronrw-prefetch` with the description, options and defaults of its descriptor and
// schema, and a textual pipeline runs it through an mlir::PassManager with the reference IR's
// result; its remarks arrive at their ops; a dry run changes nothing.
#include <string>

#include <doctest/doctest.h>

#include <mlir/Pass/PassRegistry.h>
#include <llvm/Support/raw_ostream.h>

#include <neuronrw/adapters/mlir/descriptor_pass.hpp>
#include <neuronrw/adapters/mlir/traits.hpp>

#include "../examples/prefetch/prefetch.hpp"
#include "adapters/mlir/support.hpp"

namespace {

namespace na = neuronrw::mlir_adapter;
using prefetch = prefetch_example::prefetch;

const char* const source = R"(func.func @f(%w: tensor<4xf32>, %x: tensor<16xf32>) -> tensor<16xf32> {
  %a = "mhlo.exp"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %k = "mhlo.all_gather"(%a) : (tensor<16xf32>) -> tensor<64xf32>
  %b = "mhlo.log"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %g = "mhlo.all_gather"(%w) : (tensor<4xf32>) -> tensor<16xf32>
  %h = "mhlo.all_gather"(%g) : (tensor<16xf32>) -> tensor<16xf32>
  %y = "mhlo.add"(%b, %h) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
})";

const char* const moved = R"(func.func @f(%w: tensor<4xf32>, %x: tensor<16xf32>) -> tensor<16xf32> {
  %g = "mhlo.all_gather"(%w) : (tensor<4xf32>) -> tensor<16xf32>
  %h = "mhlo.all_gather"(%g) : (tensor<16xf32>) -> tensor<16xf32>
  %a = "mhlo.exp"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %k = "mhlo.all_gather"(%a) : (tensor<16xf32>) -> tensor<64xf32>
  %b = "mhlo.log"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  %y = "mhlo.add"(%b, %h) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
})";

struct registered {
  registered() { na::register_descriptor_pass<prefetch>(); }
};

void ensure_registered() { static registered once; }

}  // namespace

TEST_CASE("descriptor_pass<prefetch>: argument, description and options from the descriptor") {
  ensure_registered();
  const mlir::PassInfo* info = mlir::PassInfo::lookup("neuronrw-prefetch");
  REQUIRE(info != nullptr);
  CHECK(info->getPassDescription().str() == "Start every all_gather as early as its operands allow");
  na::descriptor_pass<prefetch> pass;
  CHECK(pass.getArgument().str() == "neuronrw-prefetch");
  CHECK(pass.getName().str() == "neuronrw-prefetch");
  std::string text;
  llvm::raw_string_ostream os(text);
  pass.printAsTextualPipeline(os);
  CHECK(os.str() == "neuronrw-prefetch{dry-run=false kinds= max-distance=16 remarks=false}");
}

TEST_CASE("neuronrw-prefetch runs through a PassManager as the reference IR's pass does") {
  ensure_registered();
  auto ctx = mlir_test::make_context();
  auto m = mlir_test::parse(*ctx, source);
  REQUIRE(m);
  std::string diags;
  REQUIRE(mlir_test::run_pipeline(*m, "builtin.module(neuronrw-prefetch)", &diags));
  CHECK(mlir_test::print(m->getOperation()) == mlir_test::canonical(*ctx, moved));
  CHECK(diags.empty());
}

TEST_CASE("neuronrw-prefetch: options from a pipeline, remarks at their ops, a dry run changes nothing") {
  ensure_registered();
  auto ctx = mlir_test::make_context();
  auto m = mlir_test::parse(*ctx, source);
  REQUIRE(m);
  const std::string before = mlir_test::print(m->getOperation());
  std::string diags;
  REQUIRE(mlir_test::run_pipeline(*m, "builtin.module(neuronrw-prefetch{max-distance=2 remarks=true})", &diags));
  CHECK(mlir_test::print(m->getOperation()) == before);
  CHECK(diags.find("neuronrw-prefetch: too_far: it would move past 3 ops") != std::string::npos);
  CHECK(diags.find("neuronrw-prefetch: already_early: its operands are defined just before it") != std::string::npos);
  diags.clear();
  REQUIRE(mlir_test::run_pipeline(*m, "builtin.module(neuronrw-prefetch{dry-run=true})", &diags));
  CHECK(mlir_test::print(m->getOperation()) == before);
  diags.clear();
  CHECK_FALSE(mlir_test::run_pipeline(*m, "builtin.module(neuronrw-prefetch{max-distance=x})", &diags));
}
