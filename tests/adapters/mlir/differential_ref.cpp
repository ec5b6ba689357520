// The reference IR's half of the MLIR adapter's differential tests (differential_support.hpp):
// parse, run the reference IR's entry points, print. Built with the project's ordinary flags
// (ref::parse throws internally), without MLIR, into a static library the two MLIR test
// executables link.
#define DIFF_REF_HALF
#include "adapters/mlir/differential_support.hpp"

#include <algorithm>
#include <iterator>
#include <random>

#include <neuronrw/ir/ref/fusion_to_composite.hpp>
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/plan_printer.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/schedule_fusion.hpp>
#include <neuronrw/ir/ref/verify.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "passes/schedule_fusion_random_function.hpp"
#include "validate/fault_injector.hpp"
#include "validate/ref_fault_primitives.hpp"

#ifndef NEURONRW_SOURCE_DIR
#error "the build defines NEURONRW_SOURCE_DIR (tests/adapters/mlir/meson.build)"
#endif

namespace diff {

namespace {

namespace nr = neuronrw;
namespace ref = neuronrw::ref;

const ref::print_options generic_form{.forms = ref::op_forms::generic};

std::string join(const nr::diagnostics& ds) {
  std::string s;
  for (const auto& d : ds) s += d.str() + "\n";
  return s;
}

template <class Pattern, class Plan>
void record(const ref::module& m, ref_outcome& r, const Plan& plan) {
  r.candidates = plan.candidates();
  // What the tools' "no op of kind ..." remark says (docs/kinds.md), by the generic hook.
  r.missing_kinds = nr::passes::basic_schedule_fusion<Pattern>::missing_kinds(m, plan);
  r.clusters = plan.clusters.size();
  for (const auto& x : plan.refused) r.refused.push_back({std::string(nr::to_string(x.code)), x.message});
}

template <class Pattern>
void schedule(ref::module& m, ref_outcome& r, bool composites, const nr::schedule_fusion_options& opt) {
  auto plan = composites ? nr::plan_schedule_fusion_composites<Pattern>(std::as_const(m), opt)
                         : nr::plan_schedule_fusion<Pattern>(std::as_const(m), opt);
  record<Pattern>(m, r, plan);
  nr::apply(m, plan);
}

void run_on(ref::module& m, ref_outcome& r, pipeline p, const scenario& s) {
  r.parsed = true;
  // The generic form: all MLIR without the StableHLO dialect reads (an input in StableHLO's
  // custom forms included); for a generic input it is the same module.
  r.input = ref::print(m, generic_form);
  r.custom_forms = m.custom_forms;
  nr::schedule_fusion_options opt;
  if (s.budget) opt.budget = static_cast<std::size_t>(*s.budget);
  r.ok = true;
  if (runs_schedule_fusion(p)) {
    const bool composites = p == pipeline::composites;
    if (s.moe)
      schedule<moe_pattern>(m, r, composites, opt);
    else
      schedule<nr::schedule_fusion_pattern>(m, r, composites, opt);
  }
  if (p == pipeline::fusion_to_composite || p == pipeline::schedule_then_f2c) {
    // run_fusion_to_composite reports its plan's problems in order; the plan gives their codes.
    const auto plan = nr::plan_fusion_to_composite(std::as_const(m));
    const auto ds = nr::run_fusion_to_composite(m);
    for (std::size_t i = 0; i < ds.size(); ++i)
      r.problems.push_back({ds[i].loc.line, ds[i].loc.col,
                            i < plan.refused.size() ? std::string(nr::to_string(plan.refused[i].code)) : "?",
                            ds[i].message});
    r.ok = ds.empty();
  }
  r.output = ref::print(m, generic_form);
  r.verify_errors = join(ref::verify(m));
}

}  // namespace

ref_outcome run_ref(std::string_view text, std::string_view file, pipeline p, const scenario& s) {
  ref_outcome r;
  auto parsed = ref::parse(text, file);
  if (!parsed.ok()) {
    r.error = parsed.error.str();
    return r;
  }
  if (auto errs = ref::verify(*parsed.value); !errs.empty()) {
    r.error = join(errs);
    return r;
  }
  if (parsed.value->custom_forms) {
    // MLIR reads the generic form of such an input (differential_test.cpp): the passes run on
    // that text here too, so both sides start from, and create ops in, the same form.
    auto generic = ref::parse(ref::print(*parsed.value, generic_form), file);
    if (!generic.ok()) {
      r.error = "the generic form does not read back: " + generic.error.str();
      return r;
    }
    run_on(*generic.value, r, p, s);
    r.custom_forms = true;
    return r;
  }
  run_on(*parsed.value, r, p, s);
  return r;
}

ref_outcome run_ref_random(std::uint32_t seed, pipeline p, const scenario& s) {
  ref_outcome r;
  sf_random::generator gen(seed);
  if (auto errs = ref::verify(gen.m); !errs.empty()) {
    r.error = join(errs);
    return r;
  }
  run_on(gen.m, r, p, s);
  return r;
}

std::optional<std::string> ref_fault_codes(std::string_view text, int fault, std::uint32_t rng_seed) {
  auto parsed = ref::parse(text, "-");
  if (!parsed.ok()) return std::string("the reference IR cannot parse the input: ") + parsed.error.str();
  ref::module& m = *parsed.value;
  std::mt19937 rng(rng_seed);
  const auto f = static_cast<fault_injection::fault>(fault);
  const bool schedule = std::find(std::begin(fault_injection::schedule_faults), std::end(fault_injection::schedule_faults), f) !=
                        std::end(fault_injection::schedule_faults);
  const auto c = schedule ? fault_injection::schedule_fault_check(m, f, rng, ref::plan_printer{m})
                          : fault_injection::composite_fault_check(m, f, rng, ref::plan_printer{m});
  if (!c) return std::nullopt;
  return fault_injection::codes(*c);
}

std::string source_dir() { return NEURONRW_SOURCE_DIR; }

}  // namespace diff
