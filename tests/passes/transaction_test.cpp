// Transactional applies (passes/transaction.hpp, docs/concepts.md §"O5: transactions"): for every
// pass — ScheduleFusion, ScheduleFusion with composites, FusionToComposite (on each input and on
// ScheduleFusion's output), MaterializeCommDomainScopes — on every input of tests/corpus/,
// tests/corpus/schedule_fusion/, tests/corpus/host/, examples/mlir/, examples/host/ and on random
// functions, a clean gated apply counts its mutation steps N; then for every k in 0..N-1 a fresh
// copy is applied with a gate refusing step k, and the test checks the status names step k, the
// printed IR is byte-identical to the input's print, and the very same plan applied again to the
// rolled-back IR gives the clean output (so every handle the plan holds still means the same op).
// The always-yes gate gives the gate-less apply's output and step count.
#include <neuronrw/ir/host/comm_domain_scopes.hpp>
#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/schedule_fusion.hpp>
#include <neuronrw/ir/ref/fusion_to_composite.hpp>
#include <neuronrw/ir/ref/verify.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>
#include <neuronrw/passes/transaction.hpp>

#include "passes/schedule_fusion_random_function.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace neuronrw;
namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

fs::path env_dir(const char* var) {
  const char* d = std::getenv(var);
  REQUIRE_MESSAGE(d, var << " is not set (meson test sets it)");
  return fs::path(d);
}

/// The files of `dir` ending in `ext` (not the goldens), sorted.
std::vector<fs::path> inputs(const fs::path& dir, std::string_view ext) {
  std::vector<fs::path> r;
  for (auto& e : fs::directory_iterator(dir)) {
    const auto n = e.path().filename().string();
    if (!n.ends_with(ext) || n.find(".expected") != std::string::npos) continue;
    r.push_back(e.path());
  }
  std::sort(r.begin(), r.end());
  return r;
}

std::vector<fs::path> mlir_inputs() {
  const auto corpus = env_dir("NEURONRW_CORPUS_DIR");
  std::vector<fs::path> all = inputs(corpus, ".mlir");
  for (auto& p : inputs(corpus / "schedule_fusion", ".mlir")) all.push_back(p);
  for (auto& p : inputs(env_dir("NEURONRW_EXAMPLES_DIR") / "mlir", ".mlir")) all.push_back(p);
  return all;
}

[[maybe_unused]] std::vector<fs::path> host_inputs() {
  std::vector<fs::path> all = inputs(env_dir("NEURONRW_CORPUS_DIR") / "host", ".py");
  for (auto& p : inputs(env_dir("NEURONRW_EXAMPLES_DIR") / "host", ".py")) all.push_back(p);
  return all;
}

/// What one pass is, for the driver below: make a fresh IR, plan on it, apply the plan (plain or
/// gated), print.
template <class IR, class Plan>
struct pass_under_test {
  std::function<IR()> make;
  std::function<Plan(const IR&)> plan;
  std::function<void(IR&, const Plan&)> apply_plain;
  std::function<apply_status(IR&, const Plan&, std::function<bool(std::size_t)>)> apply_gated;
  std::function<std::string(const IR&)> print;
  std::function<void(const IR&)> check_valid = [](const IR&) {};
};

struct totals {
  std::size_t inputs = 0, steps = 0;
};

/// The whole check for one input. Returns the number of steps of the clean apply.
template <class IR, class Plan>
std::size_t check_every_step(const pass_under_test<IR, Plan>& t) {
  IR m0 = t.make();
  const std::string before = t.print(m0);

  // The gate-less apply, and the always-yes gated apply: same output.
  IR plain = t.make();
  t.apply_plain(plain, t.plan(plain));
  const std::string clean = t.print(plain);
  IR gated = t.make();
  const auto st = t.apply_gated(gated, t.plan(gated), allow_all_steps{});
  REQUIRE(st.ok());
  CHECK(st.reason.empty());
  CHECK(t.print(gated) == clean);
  const std::size_t n = st.step;
  CHECK((n == 0) == (clean == before));

  for (std::size_t k = 0; k < n; ++k) {
    CAPTURE(k);
    IR m = t.make();
    const Plan p = t.plan(m);
    const auto f = t.apply_gated(m, p, fail_at_step{k});
    CHECK(f.code == apply_status_code::gate_refused);
    CHECK(f.step == k);
    CHECK(f.reason == "the mutation gate refused step " + std::to_string(k) + " (" + std::string(f.primitive) +
                          "); the IR was rolled back");
    REQUIRE(t.print(m) == before);
    t.check_valid(m);
    // The plan made before the failed apply still applies to the rolled-back IR: its handles mean
    // the same ops again.
    const auto again = t.apply_gated(m, p, allow_all_steps{});
    CHECK(again.ok());
    CHECK(again.step == n);
    CHECK(t.print(m) == clean);
  }
  return n;
}

ref::module parse_mlir(const std::string& text, const std::string& name) {
  auto r = ref::parse(text, name);
  INFO(r.error.str());
  REQUIRE(r.ok());
  return std::move(*r.value);
}

void check_verifies(const ref::module& m) {
  const auto errs = ref::verify(m);
  INFO((errs.empty() ? std::string() : errs[0].str()));
  CHECK(errs.empty());
}

using sf_plan = schedule_fusion_plan_t<ref::module>;
using f2c_plan = fusion_to_composite_plan<ref::op_ref>;

pass_under_test<ref::module, sf_plan> schedule_fusion_pass(std::function<ref::module()> make, bool composites) {
  pass_under_test<ref::module, sf_plan> t;
  t.make = std::move(make);
  t.plan = [composites](const ref::module& m) {
    return composites ? plan_schedule_fusion_composites(m) : plan_schedule_fusion(m);
  };
  t.apply_plain = [](ref::module& m, const sf_plan& p) { neuronrw::apply(m, p); };
  t.apply_gated = [](ref::module& m, const sf_plan& p, std::function<bool(std::size_t)> g) {
    return neuronrw::apply(m, p, std::move(g));
  };
  t.print = [](const ref::module& m) { return ref::print(m); };
  t.check_valid = check_verifies;
  return t;
}

pass_under_test<ref::module, f2c_plan> fusion_to_composite_pass(std::function<ref::module()> make) {
  pass_under_test<ref::module, f2c_plan> t;
  t.make = std::move(make);
  t.plan = [](const ref::module& m) { return plan_fusion_to_composite(m); };
  t.apply_plain = [](ref::module& m, const f2c_plan& p) { neuronrw::apply(m, p); };
  t.apply_gated = [](ref::module& m, const f2c_plan& p, std::function<bool(std::size_t)> g) {
    auto st = neuronrw::apply(m, p, std::move(g));
    if (!p.ok()) {
      CHECK(st.code == apply_status_code::invalid_plan);
      CHECK(st.reason == "the plan has " + std::to_string(p.problems.size()) + " refusal(s): nothing is applied");
      return apply_status{};  // nothing to count: the plain apply applies nothing either
    }
    return st;
  };
  t.print = [](const ref::module& m) { return ref::print(m); };
  t.check_valid = check_verifies;
  return t;
}

TEST_CASE("reference IR: a refused step at any point rolls every pass back byte for byte") {
  totals sf, sfc, f2c, f2c_after_sf;
  for (const auto& path : mlir_inputs()) {
    const std::string text = read_file(path);
    const std::string name = path.filename().string();
    CAPTURE(name);
    auto make = [text, name] { return parse_mlir(text, name); };
    {
      // Inputs the verifier rejects are not pass inputs (the driver refuses them first).
      auto m = make();
      if (!ref::verify(m).empty()) continue;
    }
    INFO("schedule-fusion");
    sf.steps += check_every_step(schedule_fusion_pass(make, false));
    ++sf.inputs;
    INFO("schedule-fusion composites");
    sfc.steps += check_every_step(schedule_fusion_pass(make, true));
    ++sfc.inputs;
    INFO("fusion-to-composite");
    f2c.steps += check_every_step(fusion_to_composite_pass(make));
    ++f2c.inputs;
    INFO("fusion-to-composite after schedule-fusion");
    f2c_after_sf.steps += check_every_step(fusion_to_composite_pass([make] {
      auto m = make();
      schedule_fusion(m);
      return m;
    }));
    ++f2c_after_sf.inputs;
  }
  MESSAGE("schedule-fusion: " << sf.inputs << " inputs, " << sf.steps << " steps; composites: " << sfc.steps
                              << " steps; fusion-to-composite: " << f2c.steps << " steps, after schedule-fusion: "
                              << f2c_after_sf.steps << " steps");
  // Not vacuous: the corpus has work for every pass.
  CHECK(sf.inputs >= 40);
  CHECK(sf.steps >= 60);
  CHECK(sfc.steps > sf.steps);
  CHECK(f2c.steps >= 3);
  CHECK(f2c_after_sf.steps >= 30);
}

TEST_CASE("reference IR: random functions roll back at every step") {
  std::size_t steps = 0;
  for (std::uint32_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    auto make = [seed] {
      sf_random::generator gen(seed);
      return std::move(gen.m);
    };
    steps += check_every_step(schedule_fusion_pass(make, false));
    steps += check_every_step(schedule_fusion_pass(make, true));
  }
  CHECK(steps >= 200);
}

}  // namespace
