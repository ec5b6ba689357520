// fuzz_passes — the reference IR passes and pipelines of neuronrw-opt on parsed, verified input,
// run through the driver's own code (pipeline.hpp parses the pipeline, passes.hpp runs each pass).
//
// Input: one option byte, then the text. Bits 0-2 pick the pipeline (`pipelines` below), bit 3
// prints numbered values instead of name hints. Input that does not parse or verify is skipped
// (fuzz_ref_roundtrip covers it). Properties (a violation prints what differs and traps):
//   - a pass that fails leaves the module byte-identical, and its errors, when located, are
//     inside the input; a pass that succeeds leaves a module that verifies;
//   - printing the result is deterministic and a fixed point of print∘parse;
//   - second runs, as docs/*.md document them:
//       FusionToComposite (docs/fusion-to-composite.md §"The rewrite"): after it, a second run changes nothing;
//       ScheduleFusion, unbounded budget (docs/schedule-fusion.md §"Decisions", "Second runs"): a second run
//         forms a cluster only for a consumer the first run refused as non_convex or
//         splits_cluster and whose first operand is not the cluster's producer;
//       every pipeline: running it again on its output succeeds or fails cleanly as above, and
//         the output verifies.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/verify.hpp>

#include "passes.hpp"
#include "pipeline.hpp"

#include "common.hpp"

namespace {

namespace nr = neuronrw;
namespace opt = neuronrw_opt;

/// The pipelines, by the option byte's bits 0-2: each pass alone, its documented variants, and
/// the combinations docs/driver.md shows.
constexpr std::array<std::string_view, 8> pipelines = {{
    "builtin.module(schedule-fusion)",
    "builtin.module(schedule-fusion{budget=18446744073709551615 remarks})",
    "builtin.module(schedule-fusion-composites)",
    "builtin.module(fusion-to-composite)",
    "builtin.module(schedule-fusion,fusion-to-composite)",
    "builtin.module(schedule-fusion{budget=64 kind=MyOverlap},fusion-to-composite{symbol-prefix=dec.})",
    "builtin.module(schedule-fusion-composites{skip-functions-with=\"\"},fusion-to-composite,validate-kinds)",
    "builtin.module(fusion-to-composite{validate-fusion-kind=true},schedule-fusion{budget=18446744073709551615})",
}};

struct run_state {
  std::string_view input;
  nr::ref::print_options pr;
};

std::string print(const nr::ref::module& m, const run_state& s) { return nr::ref::print(m, s.pr); }

/// Runs one pass as the driver does and checks what every pass promises. Returns whether it
/// succeeded; `plan` receives a plain ScheduleFusion's plan.
bool run_checked(nr::ref::module& m, const opt::pass_instance& p, const run_state& s,
                 std::optional<nr::ref_schedule_fusion_plan>* plan = nullptr) {
  const std::string before = print(m, s);
  opt::pass_context cx;
  std::string errors;
  cx.emit = [&](nr::diagnostic d) {
    if (d.loc.known() && !fuzz::located_inside(s.input, d.loc))
      fuzz::violation(std::string(p.spec->name) + " reported a diagnostic not located inside the input: " +
                      std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " + d.message);
    if (d.sev == nr::severity::error) errors += d.message + "\n";
  };
  cx.dot_plan = plan;
  const bool ok = opt::run_pass(m, p, cx);
  const std::string after = print(m, s);
  if (!ok) {
    if (after != before) fuzz::violation(std::string(p.spec->name) + " failed and changed the module", before, after);
    if (errors.empty()) fuzz::violation(std::string(p.spec->name) + " failed without an error");
    return false;
  }
  if (p.dry_run() && after != before) fuzz::violation(std::string(p.spec->name) + " dry run changed the module", before, after);
  if (!cx.changed && after != before)
    fuzz::violation(std::string(p.spec->name) + " said it changed nothing but changed the module", before, after);
  if (auto v = nr::ref::verify(m); !v.empty())
    fuzz::violation("the output of " + std::string(p.spec->name) + " does not verify:\n" + fuzz::join(v), before, after);
  if (print(m, s) != after) fuzz::violation("printing the output of " + std::string(p.spec->name) + " twice differs");
  auto again = nr::ref::parse(after, "fuzz.mlir");
  if (!again.ok()) fuzz::violation("the output of " + std::string(p.spec->name) + " does not parse: " + again.error.str(), after);
  const std::string reprinted = print(*again.value, s);
  if (reprinted != after) fuzz::violation("the output of " + std::string(p.spec->name) + " is not a print fixed point", after, reprinted);
  return true;
}

/// docs/schedule-fusion.md §"Decisions" ("Second runs"), with an unbounded budget.
void check_schedule_fusion_second_run(nr::ref::module& m, const opt::pass_instance& p, const run_state& s,
                                      const nr::ref_schedule_fusion_plan& first) {
  opt::pass_instance dry = p;
  dry.values[dry.index_of("dry-run")] = "true";
  std::optional<nr::ref_schedule_fusion_plan> second;
  run_checked(m, dry, s, &second);
  if (!second) fuzz::violation("a ScheduleFusion dry run kept no plan");
  for (const auto& c : second->clusters) {
    const auto refused = std::find_if(first.refused.begin(), first.refused.end(),
                                      [&](const auto& r) { return r.consumer == c.consumer(); });
    if (refused == first.refused.end() || (refused->code != nr::schedule_refusal::non_convex &&
                     refused->code != nr::schedule_refusal::splits_cluster))
      fuzz::violation("a second ScheduleFusion run formed a cluster the first run did not refuse as non_convex or "
                      "splits_cluster: consumer at " + opt::pass_detail::loc_text(m, c.consumer()), print(m, s));
    if (m.defining_op(m.operands(c.consumer())[0]) == c.producer())
      fuzz::violation("a second ScheduleFusion run clustered a consumer with its first operand's producer: consumer at " +
                      opt::pass_detail::loc_text(m, c.consumer()), print(m, s));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned flags = data[0];
  run_state s;
  s.input = std::string_view(reinterpret_cast<const char*>(data + 1), size - 1);
  s.pr.use_name_hints = (flags & 8) == 0;
  auto parsed = nr::ref::parse(s.input, "fuzz.mlir");
  if (!parsed.ok() || !nr::ref::verify(*parsed.value).empty()) return 0;
  nr::ref::module& m = *parsed.value;

  opt::pipeline pipe;
  if (auto e = opt::parse_pipeline(pipelines[flags & 7], pipe)) fuzz::violation("a fuzz pipeline does not parse: " + e->message);

  for (int round = 0; round < 2; ++round) {
    for (const auto& p : pipe.passes) {
      const bool plain_sf = p.spec->name == nr::passes::schedule_fusion::name;
      std::optional<nr::ref_schedule_fusion_plan> plan;
      if (!run_checked(m, p, s, plain_sf ? &plan : nullptr)) return 0;
      if (plain_sf && p.u64("budget") == nr::unbounded_budget) {
        if (!plan) fuzz::violation("a ScheduleFusion run kept no plan");
        check_schedule_fusion_second_run(m, p, s, *plan);
      }
      if (p.spec->name == nr::passes::fusion_to_composite::name) {
        const std::string before = print(m, s);
        opt::pass_context cx;
        cx.emit = [](nr::diagnostic) {};
        if (!opt::run_pass(m, p, cx) || cx.changed)
          fuzz::violation("a second FusionToComposite run failed or changed something", before, print(m, s));
        if (print(m, s) != before) fuzz::violation("a second FusionToComposite run changed the module", before, print(m, s));
      }
    }
  }
  return 0;
}
