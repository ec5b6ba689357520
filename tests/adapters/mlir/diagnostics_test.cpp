// Tests of include/neuronrw/adapters/mlir/diagnostics.hpp: the library's diagnostics reach MLIR's
// diagnostic engine with their severity, location (an op or an mlir::Location), message and notes,
// and a plan's refusals read there as the MLIR passes report them (to_diagnostics).
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <mlir/IR/Diagnostics.h>

#include <neuronrw/adapters/mlir/diagnostics.hpp>
#include <neuronrw/adapters/mlir/traits.hpp>
#include <neuronrw/diagnostic.hpp>
#include <neuronrw/passes/diagnostics.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "adapters/mlir/support.hpp"

namespace {

namespace nr = neuronrw;
namespace na = neuronrw::mlir_adapter;

/// What the engine was given: one entry per diagnostic, its notes after it.
struct seen {
  mlir::DiagnosticSeverity severity;
  mlir::Location loc;
  std::string message;
};

struct capture {
  std::vector<seen> all;
  mlir::ScopedDiagnosticHandler handler;
  explicit capture(mlir::MLIRContext& ctx)
      : handler(&ctx, [this](mlir::Diagnostic& d) {
          all.push_back({d.getSeverity(), d.getLocation(), d.str()});
          for (auto& n : d.getNotes()) all.push_back({n.getSeverity(), n.getLocation(), n.str()});
          return mlir::success();
        }) {}
};

}  // namespace

TEST_CASE("emit: severity, location, message and notes, at an mlir::Location or an op") {
  auto ctx = mlir_test::make_context();
  ctx->printOpOnDiagnostic(false);
  auto m = mlir_test::parse(*ctx, "func.func @f() {\n  return\n}\n");
  REQUIRE(m);
  mlir::Operation* fn = &*m->getBody()->begin();
  const mlir::Location here = mlir::FileLineColLoc::get(ctx.get(), "a.mlir", 3, 7);
  capture c(*ctx);

  nr::basic_diagnostic<mlir::Location> w{{}, here, "careful", nr::severity::warning};
  w.notes.push_back({{}, fn->getLoc(), "because of this", nr::severity::note});
  w.notes[0].notes.push_back({{}, here, "and this", nr::severity::note});  // flattened
  na::emit(w);
  REQUIRE(c.all.size() == 3);
  CHECK(c.all[0].severity == mlir::DiagnosticSeverity::Warning);
  CHECK(c.all[0].loc == here);
  CHECK(c.all[0].message == "careful");
  CHECK(c.all[1].severity == mlir::DiagnosticSeverity::Note);
  CHECK(c.all[1].loc == fn->getLoc());
  CHECK(c.all[1].message == "because of this");
  CHECK(c.all[2].severity == mlir::DiagnosticSeverity::Note);
  CHECK(c.all[2].message == "and this");

  c.all.clear();
  na::emit(nr::basic_diagnostic<mlir::Operation*>{{}, fn, "at the function", nr::severity::remark});
  na::emit(nr::basic_diagnostic<mlir::Operation*>{{}, fn, "an error"});
  na::emit(nr::basic_diagnostic<mlir::Location>{{}, here, "a note alone", nr::severity::note});
  REQUIRE(c.all.size() == 3);
  CHECK(c.all[0].severity == mlir::DiagnosticSeverity::Remark);
  CHECK(c.all[0].loc == fn->getLoc());
  CHECK(c.all[0].message == "at the function");
  CHECK(c.all[1].severity == mlir::DiagnosticSeverity::Error);
  CHECK(c.all[1].message == "an error");
  CHECK(c.all[2].severity == mlir::DiagnosticSeverity::Note);
  CHECK(c.all[2].loc == here);
}

TEST_CASE("a plan's refusals through to_diagnostics and emit: the MLIR passes' texts") {
  auto ctx = mlir_test::make_context();
  ctx->printOpOnDiagnostic(false);
  auto m = mlir_test::parse(*ctx, R"mlir(
func.func @f(%w: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %f = "mhlo.fusion"(%w) ({
  ^bb0(%a: tensor<4x8xf32>):
    %g = "mhlo.all_gather"(%a) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
    %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    %s = "mhlo.add"(%r, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    "mhlo.return"(%s) : (tensor<4x8xf32>) -> ()
  }) {FusionKind = "ScheduleFusion"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}
)mlir");
  REQUIRE(m);
  na::ir g(m->getOperation());
  capture c(*ctx);

  // ScheduleFusion: a remark at the reduce_scatter, a note at the fusion it is already in.
  const auto sf = nr::plan_schedule_fusion(std::as_const(g));
  REQUIRE(sf.refused.size() == 1);
  const auto sds = nr::to_diagnostics(g, sf, na::op_locator{}, {.pass = "neuronrw-schedule-fusion"});
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(sds)>, std::vector<nr::basic_diagnostic<mlir::Operation*>>>);
  for (const auto& d : sds) na::emit(d);
  REQUIRE(c.all.size() == 2);
  CHECK(c.all[0].severity == mlir::DiagnosticSeverity::Remark);
  CHECK(c.all[0].loc == sf.refused[0].consumer->getLoc());
  CHECK(c.all[0].message ==
        "neuronrw-schedule-fusion refused this candidate: already_fused: the reduce_scatter is already inside a fusion");
  CHECK(c.all[1].severity == mlir::DiagnosticSeverity::Note);
  CHECK(c.all[1].loc == sf.refused[0].op->getLoc());
  CHECK(c.all[1].message == "the fusion the candidate is already in");

  // FusionToComposite: an error at the add, which captures %b.
  c.all.clear();
  const auto f2c = nr::plan_fusion_to_composite(std::as_const(g));
  REQUIRE(f2c.refused.size() == 1);
  for (const auto& d : nr::to_diagnostics(g, f2c, na::op_locator{}, {.pass = "neuronrw-fusion-to-composite"})) na::emit(d);
  REQUIRE(c.all.size() == 1);
  CHECK(c.all[0].severity == mlir::DiagnosticSeverity::Error);
  CHECK(c.all[0].loc == f2c.refused[0].op->getLoc());
  CHECK(c.all[0].message ==
        "neuronrw-fusion-to-composite: captured_value: operand #1 uses a value defined outside the enclosing fusion, so "
        "the fusion cannot be outlined into a decomposition function");
}
