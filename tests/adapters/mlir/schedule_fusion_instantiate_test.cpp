// neuronrw/passes/schedule_fusion/instantiate.hpp over the MLIR adapter: this TU declares
// ScheduleFusion's instances for mlir_adapter::ir extern (both patterns the corpus uses, and
// apply), schedule_fusion_instance.cpp defines them, and every ScheduleFusion corpus scenario run
// through them (plan_schedule_fusion[_composites] with the scenario's options, then apply with an
// IRRewriter) must print exactly as the reference IR's output of the same scenario, reparsed and
// printed by MLIR (differential_ref.cpp's half), and verify. The corpus is read at run time from
// the source tree.
#include <neuronrw/adapters/mlir/traits.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>
#include <neuronrw/passes/schedule_fusion/instantiate.hpp>

#include "adapters/mlir/differential_support.hpp"
#include "adapters/mlir/support.hpp"

#include <mlir/IR/PatternMatch.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

NEURONRW_EXTERN_SCHEDULE_FUSION(::neuronrw::mlir_adapter::ir);
NEURONRW_EXTERN_SCHEDULE_FUSION_PLAN(::diff::moe_pattern, ::neuronrw::mlir_adapter::ir);

namespace {

namespace fs = std::filesystem;
namespace ma = neuronrw::mlir_adapter;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

template <class Pattern>
neuronrw::schedule_fusion_plan_t<ma::ir> plan(const ma::ir& g, bool composites, const neuronrw::schedule_fusion_options& o) {
  return composites ? neuronrw::plan_schedule_fusion_composites<Pattern>(g, o) : neuronrw::plan_schedule_fusion<Pattern>(g, o);
}

}  // namespace

TEST_CASE("every ScheduleFusion corpus scenario through the separately compiled MLIR instances == the reference IR") {
  auto ctx = mlir_test::make_context();
  std::vector<fs::path> inputs;
  for (const auto& e : fs::directory_iterator(fs::path(diff::source_dir()) / "tests" / "corpus" / "schedule_fusion")) {
    const auto name = e.path().filename().string();
    if (e.path().extension() == ".mlir" && name.find(".expected.") == std::string::npos) inputs.push_back(e.path());
  }
  std::sort(inputs.begin(), inputs.end());
  REQUIRE(inputs.size() >= 25);
  std::size_t runs = 0, clustered = 0;
  for (const auto& path : inputs) {
    const std::string text = read(path);
    const diff::scenario s = diff::read_directives(text);
    neuronrw::schedule_fusion_options o;
    if (s.budget) o.budget = static_cast<std::size_t>(*s.budget);
    for (const diff::pipeline p : {diff::pipeline::schedule_fusion, diff::pipeline::composites}) {
      INFO(path.filename().string() << ", " << diff::name(p));
      const diff::ref_outcome r = diff::run_ref(text, path.filename().string(), p, s);
      REQUIRE_MESSAGE(r.parsed, r.error);
      std::string errors;
      auto m = mlir_test::parse(*ctx, r.custom_forms ? r.input : text, &errors);
      REQUIRE_MESSAGE(m, errors);
      mlir::IRRewriter rewriter(ctx.get());
      ma::ir g(m->getOperation(), ma::ir::default_kinds(), &rewriter);
      const bool composites = p == diff::pipeline::composites;
      const auto pl = s.moe ? plan<diff::moe_pattern>(std::as_const(g), composites, o)
                            : plan<neuronrw::schedule_fusion_pattern>(std::as_const(g), composites, o);
      CHECK(pl.clusters.size() == r.clusters);
      CHECK(pl.refused.size() == r.refused.size());
      const auto made = neuronrw::apply(g, pl);
      CHECK(made.size() == pl.clusters.size());
      auto want = mlir_test::parse(*ctx, r.output, &errors);
      REQUIRE_MESSAGE(want, errors);
      CHECK(mlir_test::print(m->getOperation()) == mlir_test::print(want->getOperation()));
      CHECK(diff::verify_errors(m->getOperation()).empty());
      ++runs;
      clustered += !pl.clusters.empty();
    }
  }
  CHECK(runs == 2 * inputs.size());
  CHECK(clustered * 2 > runs);  // most runs form clusters: the instances did the work
}
