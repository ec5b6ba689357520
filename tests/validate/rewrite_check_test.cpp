// Tests of the rewrite checks (include/neuronrw/validate/, docs/validation.md) on the reference IR:
//   - no alarm on any correct run: every corpus input through ScheduleFusion (both flavours),
//     then FusionToComposite on the result, and 1,500 random functions
//     (tests/passes/schedule_fusion_random_function.hpp) the same way; the checked apply gives
//     the plain apply's output byte for byte;
//   - mutation testing: each kind of wrong rewrite (tests/validate/fault_injector.hpp) made on
//     those outputs is caught, every one, with the code it must produce; the counts per kind are
//     printed;
//   - exact diagnostics of one fault, and the check's snapshot size per op.
#include <neuronrw/ir/ref/diagnostics.hpp>
#include <neuronrw/ir/ref/plan_printer.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/schedule_fusion.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/ir/ref/verify.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>
#include <neuronrw/validate/check.hpp>

#include <doctest/doctest.h>

#include "passes/schedule_fusion_random_function.hpp"
#include "support/files.hpp"
#include "support/parse.hpp"
#include "validate/fault_injector.hpp"
#include "validate/ref_fault_primitives.hpp"

#include <cstdio>
#include <map>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace neuronrw;
using namespace fault_injection;
using neuronrw::testing::join;

std::string diags(const ref::module& m, const rewrite_check<ref::op_ref>& c) {
  return join(to_diagnostics(m, c, ref::op_locator{m}, "test"));
}

/// The inputs: every corpus file that has a function, and random functions.
struct input {
  std::string name;
  std::string text;  ///< empty for a random function
  std::uint32_t seed = 0;
};

std::vector<input> inputs(std::uint32_t randoms) {
  std::vector<input> out;
  for (const auto& f : neuronrw::testing::files_with_extension(neuronrw::testing::corpus_dir(), ".mlir"))
    out.push_back({f.filename().string(), neuronrw::testing::read_file(f), 0});
  for (std::uint32_t s = 1; s <= randoms; ++s) out.push_back({"random seed " + std::to_string(s), {}, s});
  return out;
}

/// The module of `in` (nullopt: a corpus file the parser or verifier rejects on purpose).
std::optional<ref::module> load(const input& in) {
  if (in.text.empty()) return std::move(sf_random::generator(in.seed).m);
  auto r = ref::parse(in.text, in.name);
  if (!r.ok() || !ref::verify(*r.value).empty()) return std::nullopt;
  return std::move(*r.value);
}

TEST_CASE("no alarm on correct runs; the checked apply is the apply") {
  std::size_t runs = 0, clusters = 0, conversions = 0, checked_ops = 0;
  for (const auto& in : inputs(1500)) {
    INFO(in.name);
    for (bool composites : {false, true}) {
      auto m = load(in);
      if (!m) continue;
      auto plain = load(in);
      const auto plan = composites ? plan_schedule_fusion_composites(std::as_const(*m)) : plan_schedule_fusion(std::as_const(*m));
      const auto r = apply_checked(*m, plan, ref::plan_printer{*m});
      CHECK_MESSAGE(r.check.ok(), diags(*m, r.check));
      const auto plan2 = composites ? plan_schedule_fusion_composites(std::as_const(*plain)) : plan_schedule_fusion(std::as_const(*plain));
      apply(*plain, plan2);
      CHECK(ref::print(*m) == ref::print(*plain));
      CHECK(join(ref::verify(*m)).empty());
      ++runs;
      clusters += plan.clusters.size();
      checked_ops += r.check.ops;
      if (!composites) {
        const auto f2c = plan_fusion_to_composite(std::as_const(*m));
        const auto r2 = apply_checked(*m, f2c, ref::plan_printer{*m});
        CHECK_MESSAGE(r2.check.ok(), diags(*m, r2.check));
        CHECK(join(ref::verify(*m)).empty());
        conversions += r2.applied.size();
      }
    }
  }
  std::printf("rewrite checks, correct runs: %zu runs, %zu clusters, %zu conversions, %zu ops checked, 0 alarms expected\n",
              runs, clusters, conversions, checked_ops);
  CHECK(clusters > 1000);
  CHECK(conversions > 1000);
}

struct counts {
  std::size_t injected = 0, caught = 0, right_code = 0;
};

bool has_code(const rewrite_check<ref::op_ref>& c, rewrite_fault code) {
  for (const auto& x : c.mismatches)
    if (x.code == code) return true;
  return false;
}

TEST_CASE("mutation testing: every injected fault is caught") {
  std::map<fault, counts> tally;
  std::mt19937 rng(20261203);
  for (const auto& in : inputs(600)) {
    INFO(in.name);
    for (fault f : schedule_faults) {
      auto m = load(in);
      if (!m) break;
      const std::string before = ref::print(*m);
      const auto c = schedule_fault_check(*m, f, rng, ref::plan_printer{*m});
      if (!c) continue;
      auto& t = tally[f];
      ++t.injected;
      INFO(to_string(f) << "\n" << before);
      CHECK_MESSAGE(!c->ok(), to_string(f));
      t.caught += !c->ok();
      t.right_code += has_code(*c, expected_code(f));
      CHECK_MESSAGE(has_code(*c, expected_code(f)), diags(*m, *c));
    }
    for (fault f : composite_faults) {
      auto m = load(in);
      if (!m) break;
      const auto c = composite_fault_check(*m, f, rng, ref::plan_printer{*m});
      if (!c) continue;
      auto& t = tally[f];
      ++t.injected;
      INFO(to_string(f) << "\n" << ref::print(*m));
      CHECK_MESSAGE(!c->ok(), to_string(f));
      t.caught += !c->ok();
      t.right_code += has_code(*c, expected_code(f));
      CHECK_MESSAGE(has_code(*c, expected_code(f)), diags(*m, *c));
    }
  }
  std::printf("rewrite checks, mutation testing (reference IR):\n  %-18s %9s %7s %11s\n", "fault", "injected", "caught",
              "right code");
  for (auto f : schedule_faults) {
    const auto& t = tally[f];
    std::printf("  %-18s %9zu %7zu %11zu\n", std::string(to_string(f)).c_str(), t.injected, t.caught, t.right_code);
    CHECK(t.injected >= 50);
    CHECK(t.caught == t.injected);
  }
  for (auto f : composite_faults) {
    const auto& t = tally[f];
    std::printf("  %-18s %9zu %7zu %11zu\n", std::string(to_string(f)).c_str(), t.injected, t.caught, t.right_code);
    CHECK(t.injected >= 50);
    CHECK(t.caught == t.injected);
  }
}

constexpr std::string_view pair_input = R"(func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %a = stablehlo.add %y, %y : tensor<4xf32>
  %b = stablehlo.multiply %a, %a : tensor<4xf32>
  %r = "stablehlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %s = stablehlo.add %r, %b : tensor<4xf32>
  return %s : tensor<4xf32>
}
)";

TEST_CASE("a wrong rewrite is reported at the op, with what the input had and what the output has") {
  auto m = neuronrw::testing::parse_verified(pair_input);
  const auto plan = plan_schedule_fusion(std::as_const(m));
  REQUIRE(plan.clusters.size() == 1);
  const auto snap = snapshot_schedule_fusion(std::as_const(m), plan);
  const auto groups = apply(m, plan);
  // %s = add %r, %b: rewire its first operand (the fusion's result) to %b.
  auto s = m.prev_op(m.back(m.region_block(ref::lookup_function(m, "main"))));
  const auto b = m.operand(s, 1);
  fault_primitives<ref::module>::set_operand(m, s, 0, b);
  const auto c = check_schedule_fusion(std::as_const(m), plan, snap, groups, ref::plan_printer{m});
  CHECK(diags(m, c) ==
        "t.mlir:6:3: error: test: rewrite check failed: operand_changed: operand #0 stands for another value than in the input\n"
        "t.mlir:6:3: note: the input had: %r\n"
        "t.mlir:6:3: note: the output has: %b\n");
}

TEST_CASE("the snapshot: what it covers and its size") {
  auto m = neuronrw::testing::parse_verified(pair_input);
  const auto plan = plan_schedule_fusion(std::as_const(m));
  const auto scope = check_scope(m, plan);
  CHECK(scope.ops == 6);  // the function's block: five ops and the return
  CHECK(scope.ok());
  const auto r = apply_checked(m, plan);
  CHECK(r.check.ok());
  CHECK(r.check.ops == scope.ops);
  CHECK(r.check.bytes == scope.bytes);
}

}  // namespace
