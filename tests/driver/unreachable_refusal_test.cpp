// The ScheduleFusion refusal the lit tests cannot reach: reschedule_refused. The dominance repair
// refuses only on a block that breaks what the reference IR's verifier enforces (a terminator in
// the middle of a block: moves_terminator; a consumer before its producer: wrong_order), and
// neuronrw-opt verifies every input before any pass. This test parses such modules without
// verifying them (checking that the verifier does reject them, which is why no text input
// reaches the refusal), runs the driver's own schedule-fusion pass on them with remarks=true,
// and checks the remark and note it reports, rendered exactly as the driver prints them — the
// texts tests/adapters/mlir/opt/schedule_fusion_refusals.mlir expects from neuronrw-mlir-opt.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/verify.hpp>

#include "diagnostics_render.hpp"
#include "pass_registry.hpp"
#include "passes.hpp"
#include "pipeline.hpp"
#include "support/checks.hpp"

namespace {

neuronrw::testing::checks check;

/// The driver's stderr for `text` under `schedule-fusion{remarks=true}`, unverified.
std::string remarks_of(const std::string& name, const std::string& text) {
  using namespace neuronrw_opt;
  auto parsed = neuronrw::ref::parse(text, name);
  check(name + ": parses", parsed.ok(), parsed.ok() ? "" : parsed.error.str());
  if (!parsed.ok()) return {};
  auto& m = *parsed.value;
  const auto verrs = neuronrw::ref::verify(m);
  check(name + ": the verifier rejects it (so no text input reaches the refusal)", !verrs.empty());
  pass_instance p = make_instance(*find_pass_name("schedule-fusion"));
  check(name + ": remarks=true parses", !parse_options("remarks=true", 1, false, p));
  const source_text src(name, text);
  std::ostringstream err;
  pass_context cx;
  cx.emit = [&](diagnostic d) { render(err, d, &src); };
  check(name + ": the pass succeeds (a refusal is no error)", run_pass(m, p, cx));
  for (const auto& s : cx.stats)
    if (s.name == "refused-reschedule_refused")
      check(name + ": the refused-reschedule_refused statistic counts it", s.value == 1, std::to_string(s.value));
  return err.str();
}

}  // namespace

int main() {
  // A terminator in the middle of the block uses the all_gather: sinking it to the reduce_scatter
  // would carry the terminator.
  const std::string terminator = R"(func.func @moves_terminator(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  "mhlo.return"(%g) : (tensor<16x8xf32>) -> ()
  %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
)";
  const std::string got1 = remarks_of("terminator.mlir", terminator);
  const std::string want1 =
      "terminator.mlir:4:3: remark: schedule-fusion refused this candidate: reschedule_refused: the dominance repair "
      "refused: moves_terminator\n"
      "  %r = \"mhlo.reduce_scatter\"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>\n"
      "  ^\n"
      "terminator.mlir:3:3: note: the op the dominance repair could not move\n"
      "  \"mhlo.return\"(%g) : (tensor<16x8xf32>) -> ()\n"
      "  ^\n";
  check("moves_terminator: the remark and its note", got1 == want1, "got:\n" + got1);

  // The reduce_scatter before the all_gather it uses (a forward reference): the producer cannot
  // sink to a consumer it follows. The op the repair names is the candidate: no note.
  const std::string order = R"(func.func @wrong_order(%w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = "mhlo.reduce_scatter"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>
  %g = "mhlo.all_gather"(%w) {all_gather_dimension = 0 : i64} : (tensor<4x8xf32>) -> tensor<16x8xf32>
  return %r : tensor<4x8xf32>
}
)";
  const std::string got2 = remarks_of("order.mlir", order);
  const std::string want2 =
      "order.mlir:2:3: remark: schedule-fusion refused this candidate: reschedule_refused: the dominance repair "
      "refused: wrong_order\n"
      "  %r = \"mhlo.reduce_scatter\"(%g) {scatter_dimension = 0 : i64} : (tensor<16x8xf32>) -> tensor<4x8xf32>\n"
      "  ^\n";
  check("wrong_order: the remark, no note", got2 == want2, "got:\n" + got2);

  return check.done();
}
