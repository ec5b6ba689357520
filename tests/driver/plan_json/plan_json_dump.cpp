// plan_json_dump — runs one dry run on one input and prints its plan with the code the driver's
// `--plan-format=json` uses (examples/neuronrw-opt/plan_json.hpp), for plan_json_test.py, which
// validates the output for every input the tests run dry runs on against docs/plan-schema.json.
//
//   plan_json_dump [--text] PLAN INPUT    PLAN: schedule-fusion | fusion-to-composite |
//                                         pipeline-fusion-to-composite |
//                                         materialize-comm-domain-scopes | synthesize-allreduce-signals
//   plan_json_dump --enums                every enum spelling the documents can hold
//
// The input is read, parsed and checked as the driver does (MLIR: parse + ref::verify; host
// programs: parse + check_comm_domain_scopes); a rejected input prints its diagnostics on stderr
// and exits 1. `pipeline-fusion-to-composite` plans FusionToComposite after applying ScheduleFusion
// (the driver's `--schedule-fusion --fusion-to-composite` pipeline, dry-running its last pass).
// ScheduleFusion honours the corpus's `// schedule-fusion-options:` line (budget=N|unbounded,
// pattern=moe, emit=composites; tests/passes/schedule_fusion_test.cpp), so the JSON describes
// the plan the corpus's text goldens show. `--text` prints the text plan of the same run instead
// (the test checks that the JSON's refusal messages are the text plan's). The comm-domain plan
// is printed even when it has refusals (exit 0): the driver prints diagnostics then, but the
// schema covers refusals too. Exit codes: 0 printed, 1 input rejected, 2 usage.
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#include <neuronrw/ir/host/comm_domain_scopes.hpp>
#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/verify.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "plan_json.hpp"

namespace {

namespace nr = neuronrw;
namespace ref = neuronrw::ref;
namespace host = neuronrw::host;

/// The tests' second co-scheduling pattern (tests/passes/schedule_fusion_test.cpp).
using moe_pattern = nr::co_schedule_pattern<nr::kinds::all_to_all, nr::kinds::all_to_all, nr::default_boundary_set,
                                            100, "MoEOverlap">;

struct directives {
  nr::schedule_fusion_options pass;
  bool moe = false;
  bool composites = false;
};

/// The corpus's `// schedule-fusion-options:` words; false (with a message) on an unknown one.
bool read_directives(const std::string& text, directives& d) {
  std::istringstream in(text);
  const std::string key = "// schedule-fusion-options:";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key, 0) != 0) continue;
    std::istringstream words(line.substr(key.size()));
    for (std::string w; words >> w;) {
      if (w == "needs-argument-block") continue;  // concerns the archetype IR only
      if (w == "emit=composites") {
        d.composites = true;
      } else if (w == "pattern=moe") {
        d.moe = true;
      } else if (w == "budget=unbounded") {
        d.pass.budget = nr::unbounded_budget;
      } else if (w.rfind("budget=", 0) == 0 && w.size() > 7 && w.find_first_not_of("0123456789", 7) == std::string::npos) {
        d.pass.budget = std::stoul(w.substr(7));
      } else {
        std::cerr << "plan_json_dump: unknown schedule-fusion-options word '" << w << "'\n";
        return false;
      }
    }
  }
  return true;
}

nr::ref_schedule_fusion_plan plan_with(const ref::module& m, const directives& d) {
  if (d.composites)
    return d.moe ? nr::plan_schedule_fusion_composites<moe_pattern>(m, d.pass) : nr::plan_schedule_fusion_composites(m, d.pass);
  return d.moe ? nr::plan_schedule_fusion<moe_pattern>(m, d.pass) : nr::plan_schedule_fusion(m, d.pass);
}

int print_errors(const nr::diagnostics& errs) {
  for (const auto& e : errs) std::cerr << e.str() << "\n";
  return 1;
}

int usage() {
  std::cerr << "usage: plan_json_dump [--text] schedule-fusion|fusion-to-composite|pipeline-fusion-to-composite|"
               "materialize-comm-domain-scopes|synthesize-allreduce-signals INPUT\n       plan_json_dump --enums\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  int i = 1;
  if (argc == 2 && std::string_view(argv[1]) == "--enums") {
    std::cout << neuronrw_opt::plan_json_enums();
    return 0;
  }
  const bool text_plan = argc > 1 && std::string_view(argv[1]) == "--text";
  if (text_plan) ++i;
  if (argc - i != 2) return usage();
  const std::string_view mode = argv[i];
  const std::string file = argv[i + 1];

  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::cerr << file << ": error: cannot open input file\n";
    return 1;
  }
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());

  if (mode == "materialize-comm-domain-scopes") {
    auto parsed = host::parse_program(text, file);
    if (!parsed.ok()) return print_errors({parsed.error});
    const host::program& p = *parsed.value;
    if (auto errs = nr::check_comm_domain_scopes(p); !errs.empty()) return print_errors(errs);
    const auto plan = nr::plan_comm_domain_scopes(p);
    std::cout << (text_plan ? nr::describe_plan(plan) : neuronrw_opt::comm_domain_plan_json(p, plan, file));
    return 0;
  }
  if (mode == "synthesize-allreduce-signals") {
    auto parsed = host::parse_program(text, file);
    if (!parsed.ok()) return print_errors({parsed.error});
    const host::program& p = *parsed.value;
    if (auto errs = nr::check_comm_domain_scopes(p); !errs.empty()) return print_errors(errs);
    const auto plan = nr::plan_allreduce_signals(p);
    std::cout << (text_plan ? nr::describe_plan(plan) : neuronrw_opt::allreduce_signal_plan_json(p, plan, file));
    return 0;
  }
  if (mode != "schedule-fusion" && mode != "fusion-to-composite" && mode != "pipeline-fusion-to-composite")
    return usage();

  auto parsed = ref::parse(text, file);
  if (!parsed.ok()) return print_errors({parsed.error});
  ref::module& m = *parsed.value;
  if (auto errs = ref::verify(m); !errs.empty()) return print_errors(errs);
  const ref::plan_printer printer{m};

  if (mode == "schedule-fusion") {
    directives d;
    if (!read_directives(text, d)) return 2;
    const auto plan = plan_with(m, d);
    std::cout << (text_plan ? nr::print_schedule_fusion_plan(m, plan)
                            : neuronrw_opt::schedule_fusion_plan_json(m, plan, file));
    return 0;
  }
  if (mode == "pipeline-fusion-to-composite") {
    nr::apply(m, nr::plan_schedule_fusion(std::as_const(m)));
    if (auto errs = ref::verify(m); !errs.empty()) return print_errors(errs);
  }
  const auto plan = nr::plan_fusion_to_composite(std::as_const(m));
  std::cout << (text_plan ? nr::describe(m, plan, printer) : neuronrw_opt::fusion_to_composite_plan_json(m, plan, file));
  return 0;
}
