// The rewrite checks (docs/validation.md) through the MLIR adapter, against the reference IR.
// The random functions of tests/passes/schedule_fusion_random_function.hpp, printed by the
// reference IR and parsed by MLIR, get each wrong rewrite of tests/validate/fault_injector.hpp
// on both IRs with the same random choices; for every one:
//   - the adapter's check catches it, with the code the fault must produce;
//   - the check's verdict (its mismatch codes, in order) is the reference IR's on the same input;
//   - a correct checked apply through the adapter raises no alarm and prints what the plain
//     apply prints.
// The counts per fault kind are printed. Deterministic: fixed seeds.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <string>

#include <doctest/doctest.h>

#include <neuronrw/adapters/mlir/diagnostics.hpp>
#include <neuronrw/adapters/mlir/traits.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "adapters/mlir/differential_support.hpp"
#include "validate/fault_injector.hpp"

template <>
struct fault_injection::fault_primitives<neuronrw::mlir_adapter::ir> {
  using G = neuronrw::mlir_adapter::ir;
  static void set_operand(G&, mlir::Operation* o, std::size_t k, mlir::Value v) { o->setOperand(static_cast<unsigned>(k), v); }
  static bool same_type(const G&, mlir::Value a, mlir::Value b) { return a.getType() == b.getType(); }
  static void alter(G&, mlir::Operation* o) {
    o->setAttr("neuronrw.fault", mlir::IntegerAttr::get(mlir::IntegerType::get(o->getContext(), 64), 1));
  }
};

namespace {

namespace nr = neuronrw;
namespace na = neuronrw::mlir_adapter;
using namespace fault_injection;

struct counts {
  std::size_t injected = 0, caught = 0, agree = 0;
};

TEST_CASE("the adapter's verdicts are the reference IR's, and every fault is caught") {
  auto context = mlir_test::make_context();
  mlir::MLIRContext& ctx = *context;
  diff::register_all();
  std::map<fault, counts> tally;
  std::size_t correct = 0;
  for (std::uint32_t seed = 1; seed <= 300; ++seed) {
    const diff::ref_outcome r = diff::run_ref_random(seed, diff::pipeline::schedule_fusion, {});
    INFO("seed " << seed << "\n" << r.input);
    REQUIRE_MESSAGE(r.parsed, r.error);
    // A correct checked apply through the adapter: no alarm, the plain apply's output.
    for (bool composites : {false, true}) {
      auto m = mlir_test::parse(ctx, r.input);
      auto plain = mlir_test::parse(ctx, r.input);
      REQUIRE(m);
      REQUIRE(plain);
      na::ir g(m->getOperation());
      na::ir gp(plain->getOperation());
      const auto plan = composites ? nr::plan_schedule_fusion_composites(std::as_const(g)) : nr::plan_schedule_fusion(std::as_const(g));
      const auto checked = nr::apply_checked(g, plan, na::op_printer{});
      CHECK_MESSAGE(checked.check.ok(), fault_injection::codes(checked.check));
      nr::apply(gp, composites ? nr::plan_schedule_fusion_composites(std::as_const(gp)) : nr::plan_schedule_fusion(std::as_const(gp)));
      CHECK(mlir_test::print(m->getOperation()) == mlir_test::print(plain->getOperation()));
      ++correct;
    }
    for (fault f : {fault::drop_op, fault::rewire_operand, fault::swap_results, fault::move_unplanned, fault::use_before_def,
                    fault::body_op_changed, fault::body_rewired, fault::composite_rewired, fault::composite_swapped}) {
      const std::uint32_t rng_seed = seed * 16 + static_cast<std::uint32_t>(f);
      const auto want = diff::ref_fault_codes(r.input, static_cast<int>(f), rng_seed);
      auto m = mlir_test::parse(ctx, r.input);
      REQUIRE(m);
      na::ir g(m->getOperation());
      std::mt19937 rng(rng_seed);
      const bool schedule = static_cast<int>(f) <= static_cast<int>(fault::use_before_def);
      const auto c = schedule ? schedule_fault_check(g, f, rng, na::op_printer{}) : composite_fault_check(g, f, rng, na::op_printer{});
      INFO(to_string(f));
      CHECK(c.has_value() == want.has_value());
      if (!c) continue;
      auto& t = tally[f];
      ++t.injected;
      t.caught += !c->ok();
      const std::string got = codes(*c);
      CHECK(got.find(std::string(nr::to_string(expected_code(f)))) != std::string::npos);
      t.agree += want && got == *want;
      CHECK(got == want.value_or("(no fault made on the reference IR)"));
    }
  }
  std::printf("rewrite checks through the MLIR adapter: %zu correct checked runs, 0 alarms expected\n", correct);
  std::printf("  %-18s %9s %7s %15s\n", "fault", "injected", "caught", "same verdict");
  for (const auto& [f, t] : tally) {
    std::printf("  %-18s %9zu %7zu %15zu\n", std::string(to_string(f)).c_str(), t.injected, t.caught, t.agree);
    CHECK(t.caught == t.injected);
    CHECK(t.agree == t.injected);
  }
  CHECK(tally.size() == 9);
}

}  // namespace
