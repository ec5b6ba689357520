// neuronrw-opt — the command-line driver, mlir-opt style:
//   neuronrw-opt [options] [pass flags...] [-o OUT] [INPUT|-]
// Two kinds of input: MLIR (the reference IR) and pypto-style host programs (`.py` files, or
// `--input-kind=host`). Pass flags run in the order given; with none, the input is parsed,
// verified and printed (a round trip). The input is verified after parsing and after every pass;
// output is written only when everything succeeded, so a failure never leaves a partial file.
// A dry-run pass replaces the printed program by its plan.
// `--emit-dot[=before|after]` prints a Graphviz picture of each function instead (emit_dot.hpp),
// of the input (before) or of the result (after, the default), annotated with the ScheduleFusion
// plan when the pipeline runs ScheduleFusion; it needs Boost.Graph's headers at build time.
// Exit codes: 0 ok, 1 input or verification error (message on stderr), 2 usage error.
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/verify.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/ir/host/comm_domain_scopes.hpp>
#include <neuronrw/ir/ref/fusion_to_composite.hpp>
#include <neuronrw/ir/ref/python_emitter.hpp>
#include <neuronrw/ir/ref/schedule_fusion.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#if __has_include(<boost/graph/graphviz.hpp>)
#include "emit_dot.hpp"
#define NEURONRW_OPT_HAVE_DOT 1
#else
#define NEURONRW_OPT_HAVE_DOT 0
#endif

namespace {

namespace nr = neuronrw;
namespace ref = neuronrw::ref;
namespace host = neuronrw::host;

enum class input_kind { mlir, host };
enum class dot_mode { none, before, after };

/// The plan of the pipeline's last ScheduleFusion run (what --emit-dot annotates). Its handles
/// stay valid after apply: ScheduleFusion moves ops and never erases them.
std::optional<nr::ref_schedule_fusion_plan>& last_schedule_fusion_plan() {
  static std::optional<nr::ref_schedule_fusion_plan> plan;
  return plan;
}

/// One pass: its flag, help line and body. A pass reports problems as diagnostics and returns
/// false (the driver prints them, exits 1). A dry run sets `report`, which is printed instead of
/// the program.
template <class Doc>
struct pass_entry {
  std::string_view flag;
  std::string_view help;
  std::function<bool(Doc&, nr::diagnostics&, std::optional<std::string>& report)> run;
};

const std::vector<pass_entry<ref::module>>& mlir_passes() {
  static const std::vector<pass_entry<ref::module>> registry = {
      {"--schedule-fusion", "co-schedule all_gather -> reduce_scatter pairs into ScheduleFusion fusions",
       [](ref::module& m, nr::diagnostics& errs, std::optional<std::string>&) {
         errs.clear();
         auto plan = nr::plan_schedule_fusion(std::as_const(m));
         nr::apply(m, plan);
         last_schedule_fusion_plan() = std::move(plan);
         return true;
       }},
      {"--schedule-fusion-dry-run", "print the ScheduleFusion plan (clusters, moves, refusals); change nothing",
       [](ref::module& m, nr::diagnostics& errs, std::optional<std::string>& report) {
         errs.clear();
         auto plan = nr::plan_schedule_fusion(std::as_const(m));
         report = nr::print_schedule_fusion_plan(m, plan);
         last_schedule_fusion_plan() = std::move(plan);
         return true;
       }},
      {"--fusion-to-composite", "lower every fusion to a stablehlo.composite + private decomposition function",
       [](ref::module& m, nr::diagnostics& errs, std::optional<std::string>&) {
         errs = nr::run_fusion_to_composite(m);
         return errs.empty();
       }},
      {"--validate-kinds", "check FusionKind / CompositeKind against the seed's registries",
       [](ref::module& m, nr::diagnostics& errs, std::optional<std::string>&) {
         errs = nr::validate_fusion_kinds(m);
         auto more = nr::validate_composite_kinds(m);
         errs.insert(errs.end(), more.begin(), more.end());
         return errs.empty();
       }},
  };
  return registry;
}

const std::vector<pass_entry<host::program>>& host_passes() {
  static const std::vector<pass_entry<host::program>> registry = {
      {"--materialize-comm-domain-scopes", "infer comm domains of window buffers and wrap them in scopes",
       [](host::program& p, nr::diagnostics& errs, std::optional<std::string>&) {
         errs = nr::materialize_comm_domain_scopes(p);
         return errs.empty();
       }},
      {"--materialize-comm-domain-scopes-dry-run", "print the comm-domain plan; change nothing",
       [](host::program& p, nr::diagnostics& errs, std::optional<std::string>& report) {
         auto plan = nr::plan_comm_domain_scopes(p);
         if (!plan.ok()) {
           errs = plan.errors;
           return false;
         }
         report = nr::describe_plan(plan);
         return true;
       }},
  };
  return registry;
}

struct options {
  std::vector<std::string_view> pipeline;
  std::string input = "-";
  std::string output = "-";
  std::optional<input_kind> kind;
  bool name_hints = true;
  bool print_locations = true;
  bool emit_python = false;
  dot_mode dot = dot_mode::none;
};

template <class Doc>
void list_passes(std::ostream& os, const std::vector<pass_entry<Doc>>& ps) {
  for (auto& p : ps) {
    std::string f(p.flag);
    os << "  " << f << (f.size() < 40 ? std::string(40 - f.size(), ' ') : std::string("\n" + std::string(42, ' ')))
       << p.help << "\n";
  }
}

void print_help(std::ostream& os) {
  os << "OVERVIEW: neuronrw-opt — run neuronrw passes on MLIR (the reference IR) or on pypto-style\n"
        "host programs\n\n"
        "USAGE: neuronrw-opt [options] [pass flags...] [-o FILE] [INPUT|-]\n\n"
        "With no pass flag the input is parsed, verified and printed.\n"
        "Pass flags run in the order given; the input is verified after each.\n\n"
        "OPTIONS:\n"
        "  -o FILE                                 write the output to FILE (default: standard output)\n"
        "  --input-kind=mlir|host                  the input's kind (default: host for *.py, else mlir)\n"
        "  --mlir-style-names                      print values as %0, %arg0 like mlir-opt\n"
        "  --strip-locations                       do not print loc(...) kept from the input\n"
        "  --emit-python                           print the final MLIR module as Python-like emitter\n"
        "                                          text (composites dispatched on CompositeKind)\n"
        "  --emit-dot[=before|after]               print a Graphviz picture of each function's dataflow\n"
        "                                          of the input (before) or of the result (after,\n"
        "                                          default): collectives coloured by kind, ScheduleFusion\n"
        "                                          clusters as subgraphs, moved ops dashed, refused\n"
        "                                          candidates in red with their reason\n"
        "  -h, --help                              show this help\n\n"
        "PASSES ON MLIR:\n";
  list_passes(os, mlir_passes());
  os << "\nPASSES ON HOST PROGRAMS:\n";
  list_passes(os, host_passes());
  os << "\nEXIT CODES: 0 success, 1 input or verification error, 2 usage error\n";
}

int usage_error(const std::string& msg) {
  std::cerr << "neuronrw-opt: " << msg << "\nTry 'neuronrw-opt --help'.\n";
  return 2;
}

template <class Doc>
const pass_entry<Doc>* find_pass(const std::vector<pass_entry<Doc>>& ps, std::string_view flag) {
  for (auto& p : ps)
    if (p.flag == flag) return &p;
  return nullptr;
}

void print_diagnostics(const nr::diagnostics& errs) {
  for (auto& e : errs) std::cerr << e.str() << "\n";
}

/// Runs the pipeline on `doc`, verifying after each pass. Returns the exit code; on success
/// `report` holds a dry run's text if one ran.
template <class Doc, class Verify>
int run_pipeline(Doc& doc, const std::vector<pass_entry<Doc>>& registry, const options& opt,
                 const std::string& file_name, Verify verify, std::optional<std::string>& report) {
  for (auto flag : opt.pipeline) {
    const auto* p = find_pass(registry, flag);
    nr::diagnostics errs;
    if (!p->run(doc, errs, report)) {
      print_diagnostics(errs);
      if (errs.empty()) std::cerr << file_name << ": error: pass " << flag << " failed\n";
      return 1;
    }
    if (auto verrs = verify(doc); !verrs.empty()) {
      std::cerr << file_name << ": error: the output of " << flag << " does not verify:\n";
      print_diagnostics(verrs);
      return 1;
    }
  }
  return 0;
}

int write_output(const options& opt, const std::string& out) {
  if (opt.output == "-") {
    std::cout << out;
    std::cout.flush();
    return std::cout ? 0 : 1;
  }
  // Write next to the target and rename, so a failed write never leaves a truncated file.
  const std::string tmp = opt.output + ".tmp";
  {
    std::ofstream o(tmp, std::ios::binary | std::ios::trunc);
    if (!(o << out) || !o.flush()) {
      std::cerr << opt.output << ": error: cannot write output file\n";
      std::remove(tmp.c_str());
      return 1;
    }
  }
  if (std::rename(tmp.c_str(), opt.output.c_str()) != 0) {
    std::cerr << opt.output << ": error: cannot write output file\n";
    std::remove(tmp.c_str());
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  options opt;
  bool have_input = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "-h" || a == "--help") {
      print_help(std::cout);
      return 0;
    }
    if (a == "-o") {
      if (i + 1 >= argc) return usage_error("option '-o' needs a file name");
      opt.output = argv[++i];
    } else if (a == "--mlir-style-names") {
      opt.name_hints = false;
    } else if (a == "--strip-locations") {
      opt.print_locations = false;
    } else if (a == "--emit-python") {
      opt.emit_python = true;
    } else if (a == "--emit-dot" || a == "--emit-dot=after" || a == "--emit-dot=before") {
      if (!NEURONRW_OPT_HAVE_DOT) return usage_error("--emit-dot needs Boost.Graph, which this build did not find");
      opt.dot = a == "--emit-dot=before" ? dot_mode::before : dot_mode::after;
    } else if (a.starts_with("--emit-dot=")) {
      return usage_error("--emit-dot takes 'before' or 'after', not '" + std::string(a.substr(11)) + "'");
    } else if (a == "--input-kind=mlir") {
      opt.kind = input_kind::mlir;
    } else if (a == "--input-kind=host") {
      opt.kind = input_kind::host;
    } else if (a.size() > 1 && a[0] == '-') {
      if (!find_pass(mlir_passes(), a) && !find_pass(host_passes(), a))
        return usage_error("unknown option '" + std::string(a) + "'");
      opt.pipeline.push_back(a);
    } else {
      if (have_input)
        return usage_error("more than one input file ('" + opt.input + "' and '" + std::string(a) + "')");
      opt.input = std::string(a);
      have_input = true;
    }
  }
  const input_kind kind = opt.kind.value_or(
      opt.input.size() > 3 && opt.input.ends_with(".py") ? input_kind::host : input_kind::mlir);
  for (auto flag : opt.pipeline) {
    const bool ok = kind == input_kind::mlir ? find_pass(mlir_passes(), flag) != nullptr
                                             : find_pass(host_passes(), flag) != nullptr;
    if (!ok)
      return usage_error("pass '" + std::string(flag) + "' does not apply to " +
                         (kind == input_kind::mlir ? "MLIR input" : "host programs") +
                         " (use --input-kind= to choose)");
  }
  if (opt.emit_python && kind != input_kind::mlir) return usage_error("--emit-python needs MLIR input");
  if (opt.dot != dot_mode::none && kind != input_kind::mlir) return usage_error("--emit-dot needs MLIR input");
  if (opt.dot != dot_mode::none && opt.emit_python) return usage_error("--emit-dot and --emit-python exclude each other");

  std::string text;
  const std::string file_name = opt.input == "-" ? "<stdin>" : opt.input;
  if (opt.input == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(opt.input, std::ios::binary);
    if (!in) {
      std::cerr << opt.input << ": error: cannot open input file\n";
      return 1;
    }
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }

  std::optional<std::string> report;
  std::string out;
  if (kind == input_kind::host) {
    auto parsed = host::parse_program(text, file_name);
    if (!parsed.ok()) {
      std::cerr << parsed.error.str() << "\n";
      return 1;
    }
    host::program& p = *parsed.value;
    auto check = [](const host::program& prog) { return nr::check_comm_domain_scopes(prog); };
    if (auto errs = check(p); !errs.empty()) {
      print_diagnostics(errs);
      return 1;
    }
    if (int rc = run_pipeline(p, host_passes(), opt, file_name, check, report)) return rc;
    out = report ? *report : host::print_program(p);
  } else {
    auto parsed = ref::parse(text, file_name);
    if (!parsed.ok()) {
      std::cerr << parsed.error.str() << "\n";
      return 1;
    }
    ref::module& m = *parsed.value;
    auto verify = [](const ref::module& mod) { return ref::verify(mod); };
    if (auto errs = verify(m); !errs.empty()) {
      print_diagnostics(errs);
      return 1;
    }
    std::optional<std::string> dot;
#if NEURONRW_OPT_HAVE_DOT
    if (opt.dot == dot_mode::before) {
      // The plan the pipeline's ScheduleFusion would make on the input (the same plan when
      // ScheduleFusion is the pipeline's first pass).
      std::optional<nr::ref_schedule_fusion_plan> plan;
      for (auto flag : opt.pipeline)
        if (flag == "--schedule-fusion" || flag == "--schedule-fusion-dry-run") plan = nr::plan_schedule_fusion(std::as_const(m));
      dot = neuronrw_opt::emit_dot(m, plan ? &*plan : nullptr);
    }
#endif
    if (int rc = run_pipeline(m, mlir_passes(), opt, file_name, verify, report)) return rc;
#if NEURONRW_OPT_HAVE_DOT
    if (opt.dot == dot_mode::after) {
      auto& plan = last_schedule_fusion_plan();
      dot = neuronrw_opt::emit_dot(m, plan ? &*plan : nullptr);
    }
#endif
    if (dot) {
      out = *dot;
    } else if (report) {
      out = *report;
    } else if (opt.emit_python) {
      if (auto errs = nr::emit_python(m, out); !errs.empty()) {
        print_diagnostics(errs);
        return 1;
      }
    } else {
      ref::print_options po;
      po.use_name_hints = opt.name_hints;
      po.print_locations = opt.print_locations;
      out = ref::print(m, po);
    }
  }
  return write_output(opt, out);
}
