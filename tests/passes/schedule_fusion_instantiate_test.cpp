// Tests for neuronrw/passes/schedule_fusion/instantiate.hpp: ScheduleFusion compiled in one TU
// (tests/passes/schedule_fusion_instance.cpp: NEURONRW_INSTANTIATE_SCHEDULE_FUSION, and _PLAN for a
// second pattern) and
// run from this one, which declares the same instances extern.
//
//   - every corpus scenario (tests/corpus/schedule_fusion), through the entry points the macros
//     cover (plan_schedule_fusion[_composites] with options, apply, schedule_fusion), gives its
//     golden plan text and output, as in schedule_fusion_test.cpp;
//   - this TU defines none of the instantiated templates: schedule_fusion_instantiate_symbols.py
//     reads the object files with nm (meson test pass_schedule_fusion_instantiate_symbols), against
//     this same source compiled without the declarations (NEURONRW_TEST_IMPLICIT_INSTANCES), which
//     must define them, so the check can fail.
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/schedule_fusion.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/ir/ref/verify.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>
#include <neuronrw/passes/schedule_fusion/instantiate.hpp>

#include "passes/schedule_fusion_support.hpp"
#include "support/files.hpp"
#include "support/parse.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#ifndef NEURONRW_TEST_IMPLICIT_INSTANCES
NEURONRW_EXTERN_SCHEDULE_FUSION(::neuronrw::ref::module);
NEURONRW_EXTERN_SCHEDULE_FUSION_PLAN(::sf_support::moe_pattern, ::neuronrw::ref::module);
#endif

namespace {

using namespace neuronrw;
using sf_support::plan_with;
using sf_support::read_directives;
namespace fs = std::filesystem;

std::vector<fs::path> scenarios() {
  std::vector<fs::path> inputs;
  for (const auto& p : testing::files_with_extension(testing::corpus_dir() / "schedule_fusion", ".mlir"))
    if (p.filename().string().find(".expected.") == std::string::npos) inputs.push_back(p);
  return inputs;
}

}  // namespace

TEST_CASE("every corpus scenario through the separately compiled instances: golden plan and output") {
  const auto inputs = scenarios();
  REQUIRE(inputs.size() >= 25);
  std::size_t moe = 0, composites = 0, budget = 0;
  for (const auto& path : inputs) {
    const std::string stem = path.stem().string();
    INFO("scenario " << stem);
    const std::string text = testing::read_file(path);
    const auto opts = read_directives(text);
    moe += opts.moe;
    composites += opts.composites;
    budget += opts.pass.budget.has_value();
    auto m = testing::parse_verified(text, path.filename().string());
    const std::string before = ref::print(m);

    const auto plan = plan_with(std::as_const(m), opts);
    CHECK(print_schedule_fusion_plan(m, plan) == testing::read_file(path.parent_path() / (stem + ".plan.txt")));
    CHECK(ref::print(m) == before);

    const auto made = neuronrw::apply(m, plan);
    CHECK(made.size() == plan.clusters.size());
    const std::string expected = testing::read_file(path.parent_path() / (stem + ".expected.mlir"));
    CHECK(ref::print(m) == expected);
    CHECK(ref::verify(m).empty());

    // schedule_fusion(g[, options]): plan + apply in one call, the same output.
    if (!opts.moe) {
      auto again = testing::parse_verified(text, path.filename().string());
      if (opts.composites)
        schedule_fusion_composites(again, opts.pass);
      else
        schedule_fusion(again, opts.pass);
      CHECK(ref::print(again) == expected);
    }
  }
  // The corpus exercises every instance: both patterns, both flavours, options.
  CHECK(moe >= 1);
  CHECK(composites >= 1);
  CHECK(budget >= 1);
}

TEST_CASE("the instances answer for a module built in this TU: a refusal and a cluster") {
  // The reduce_scatter reads %y, so the walk from it visits %y and %x: over a budget of 1
  // (refused), within the default budget (one cluster): the options reach the separately
  // compiled planner.
  const std::string text =
      "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %g = \"mhlo.all_gather\"(%a) : (tensor<4xf32>) -> tensor<8xf32>\n"
      "  %x = \"mhlo.abs\"(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  %y = \"mhlo.negate\"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  %s = \"mhlo.reduce_scatter\"(%g, %y) : (tensor<8xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
      "  %r = \"mhlo.add\"(%s, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
      "  return %r : tensor<4xf32>\n"
      "}\n";
  auto m = testing::parse_verified(text);
  schedule_fusion_options tight;
  tight.budget = 1;
  const auto refused = plan_schedule_fusion(std::as_const(m), tight);
  REQUIRE(refused.refused.size() == 1);
  CHECK(refused.refused[0].code == schedule_refusal::budget_exceeded);
  CHECK(refused.clusters.empty());

  const auto plan = plan_schedule_fusion(std::as_const(m));
  REQUIRE(plan.clusters.size() == 1);
  CHECK(plan.refused.empty());
  CHECK(plan.clusters[0].ops.size() == 2);
  const auto made = neuronrw::apply(m, plan);
  REQUIRE(made.size() == 1);
  CHECK(ref::verify(m).empty());
  // The all_gather sank past %x and %y to its reduce_scatter; both are in the fusion, which
  // reads %a and %y and yields %s.
  CHECK(ref::print(m) ==
        "module {\n"
        "  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        "    %x = \"mhlo.abs\"(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
        "    %y = \"mhlo.negate\"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
        "    %0 = \"mhlo.fusion\"(%a, %y) ({\n"
        "    ^bb0(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>):\n"
        "      %g = \"mhlo.all_gather\"(%arg0) : (tensor<4xf32>) -> tensor<8xf32>\n"
        "      %s = \"mhlo.reduce_scatter\"(%g, %arg1) : (tensor<8xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
        "      \"mhlo.return\"(%s) : (tensor<4xf32>) -> ()\n"
        "    }) {FusionKind = \"ScheduleFusion\"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
        "    %r = \"mhlo.add\"(%0, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
        "    return %r : tensor<4xf32>\n"
        "  }\n"
        "}\n");
}
