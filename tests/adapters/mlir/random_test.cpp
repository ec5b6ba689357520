// The random ScheduleFusion test through the MLIR adapter: the random functions of
// tests/passes/schedule_fusion_random_function.hpp (pairs with compute between them, tuple
// reduce_scatters, reductions capturing outer values, loops, existing fusions) are built on the
// reference IR, printed, parsed by MLIR, and run through both. For each function:
//   - the plan made on the adapter (plan_schedule_fusion on `mlir_adapter::ir`) is the reference
//     IR's: candidate and cluster counts, refusal codes and messages in order; planning leaves
//     the MLIR module's text unchanged;
//   - the MLIR pass's output, printed by MLIR, equals the reference IR's output reparsed and
//     printed by MLIR (both texts printed on a mismatch);
//   - mlir::verify accepts the output and every use is properly dominated (DominanceInfo and the
//     library's view agree);
//   - every pass runs with verify-rewrites=true: the rewrite checks (docs/validation.md) raise no
//     alarm through the adapter (a mismatch would be an error diagnostic and a failed pass).
// Two runs, as the reference IR's random test: an unbounded budget, and budgets 0..3 (which make
// budget_exceeded refusals); every fifth function also runs the composites flavour.
// Deterministic: the seeds are fixed; a failure names the seed and prints the input.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include <doctest/doctest.h>

#include <neuronrw/passes/schedule_fusion.hpp>

#include "adapters/mlir/differential_support.hpp"

namespace {

namespace nr = neuronrw;
namespace na = neuronrw::mlir_adapter;

struct tally {
  std::size_t functions = 0, runs = 0, clusters = 0, changed = 0;
  std::map<std::string, std::size_t> codes;
};

void run_one(mlir::MLIRContext& ctx, std::uint32_t seed, diff::pipeline p, const diff::scenario& s, tally& t) {
  const diff::ref_outcome r = diff::run_ref_random(seed, p, s);
  INFO("seed " << seed << ", pipeline " << diff::name(p) << ", budget "
               << (s.budget ? std::to_string(*s.budget) : std::string("default")) << "\n"
               << r.input);
  REQUIRE_MESSAGE(r.parsed, r.error);
  std::string errors;
  auto m = mlir_test::parse(ctx, r.input, &errors);
  REQUIRE_MESSAGE(m, "MLIR cannot parse the generated function:\n" << errors);
  const std::string before = mlir_test::print(m->getOperation());

  // The plan, made on the adapter directly.
  {
    const na::ir g(m->getOperation());
    nr::schedule_fusion_options opt;
    if (s.budget) opt.budget = static_cast<std::size_t>(*s.budget);
    const auto plan = p == diff::pipeline::composites ? nr::plan_schedule_fusion_composites(g, opt)
                                                      : nr::plan_schedule_fusion(g, opt);
    CHECK(plan.candidates() == r.candidates);
    CHECK(plan.clusters.size() == r.clusters);
    std::string got, want;
    for (const auto& x : plan.refused) got += std::string(nr::to_string(x.code)) + ": " + x.message + "\n";
    for (const auto& x : r.refused) want += x.code + ": " + x.message + "\n";
    CHECK(got == want);
    CHECK(mlir_test::print(m->getOperation()) == before);
  }

  // The pass.
  std::vector<diff::diag> ds;
  CHECK(diff::run(*m, diff::pipeline_text(p, s, {}, /*verify=*/true), ds));  // every rewrite checked
  CHECK(diff::str(ds) == "");
  const std::string got = mlir_test::print(m->getOperation());
  auto ref_out = mlir_test::parse(ctx, r.output, &errors);
  REQUIRE_MESSAGE(ref_out, "MLIR cannot parse the reference IR's output:\n" << errors << r.output);
  const std::string want = mlir_test::print(ref_out->getOperation());
  if (got != want) MESSAGE("mismatch\n--- reference IR, printed by MLIR ---\n" << want << "--- MLIR adapter ---\n" << got);
  CHECK(got == want);
  CHECK(r.verify_errors == "");
  CHECK(diff::verify_errors(m->getOperation()) == "");
  CHECK(diff::dominance_report(m->getOperation()) == "");
  if (r.clusters == 0) CHECK(got == before);

  ++t.runs;
  t.clusters += r.clusters;
  t.changed += got != before;
  for (const auto& x : r.refused) ++t.codes[x.code];
}

void report(const tally& t) {
  std::string codes;
  for (const auto& [c, n] : t.codes) codes += " " + c + "=" + std::to_string(n);
  MESSAGE(t.functions << " functions, " << t.runs << " runs, " << t.clusters << " clusters, " << t.changed
                      << " runs changed the module; refusals:" << codes);
}

}  // namespace

TEST_CASE("random functions through the MLIR adapter, unbounded budget: same plan, same output") {
  diff::register_all();
  auto ctx = mlir_test::make_context();
  tally t;
  const diff::scenario s{.budget = nr::unbounded_budget, .moe = false};
  for (std::uint32_t seed = 1; seed <= 1000; ++seed) {
    ++t.functions;
    run_one(*ctx, seed, diff::pipeline::schedule_fusion, s, t);
    if (seed % 5 == 0) run_one(*ctx, seed, diff::pipeline::composites, s, t);
  }
  report(t);
  CHECK(t.clusters > 700);
  for (std::string_view c : {"no_producer_operand", "already_fused", "producer_claimed", "different_block",
                             "non_convex", "splits_cluster"})
    CHECK_MESSAGE(t.codes.count(std::string(c)), "no random function refuses with " << c);
}

TEST_CASE("random functions through the MLIR adapter, budgets 0 to 3: same plan, same output") {
  diff::register_all();
  auto ctx = mlir_test::make_context();
  tally t;
  for (std::uint32_t seed = 5001; seed <= 6000; ++seed) {
    const diff::scenario s{.budget = seed % 4, .moe = false};
    ++t.functions;
    run_one(*ctx, seed, diff::pipeline::schedule_fusion, s, t);
    if (seed % 5 == 0) run_one(*ctx, seed, diff::pipeline::composites, s, t);
  }
  report(t);
  CHECK(t.codes["budget_exceeded"] > 0);
}
