// cli.hpp — neuronrw-opt's command line, with LLVM's conventions (what mlir-opt accepts):
// `--name` and `-name` are the same option; a value follows `=` (`-o=FILE`, `--pass-pipeline=P`)
// or, for options that need one, comes as the next argument (`-o FILE`); `--` ends the options;
// `-` is standard input. Pass flags (`--schedule-fusion[=OPTIONS]`) run in the order given and
// cannot be mixed with `--pass-pipeline`. Usage errors exit 2 with a message on stderr; a
// located one (a pipeline or pass option) shows the text with a caret under the column.
//
// Hand-written rather than Boost.Program_options: the pass flags form an ordered pipeline whose
// elements carry their own option strings, and LLVM's conventions (single-dash long names,
// `-o=FILE`, `--flag=k=v`) are not Program_options' — the table below is shorter than the
// adaptation would be.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <neuronrw/ir/host/text/locate.hpp>

#include "diagnostics_render.hpp"
#include "pass_registry.hpp"
#include "pipeline.hpp"
#include "registry.hpp"
#include "plan_output.hpp"

#ifndef NEURONRW_OPT_VERSION
#define NEURONRW_OPT_VERSION "unknown"
#endif

namespace neuronrw_opt {

enum class dot_mode : std::uint8_t { none, before, after };

struct options {
  pipeline pipe;                     ///< the passes, from pass flags or --pass-pipeline
  std::optional<std::string> pipeline_text;
  std::optional<std::string> first_pass_flag;  ///< for "cannot be combined" errors
  std::string input = "-";
  std::string output = "-";
  std::optional<input_kind> kind;  ///< --input-kind
  input_kind effective_kind = input_kind::mlir;
  bool name_hints = true;
  bool print_locations = true;
  bool print_generic = false;  ///< --mlir-print-op-generic
  bool print_custom = false;   ///< --print-op-custom
  bool emit_python = false;
  dot_mode dot = dot_mode::none;
  bool split = false;
  std::string split_marker;         ///< empty: `// -----` (MLIR) or `# -----` (host programs)
  std::optional<std::string> output_split_marker;
  bool verify_diagnostics = false;
  bool verify_only_expected = false;  ///< --verify-diagnostics=only-expected
  bool print_before_all = false, print_after_all = false, print_after_change = false, print_after_failure = false;
  bool timing = false;
  bool statistics = false;
  bool dump_pass_pipeline = false;
  bool remarks = false;
  bool verify_rewrites = false;  ///< --verify-rewrites: check every pass's rewrite (docs/validation.md)
  std::string kinds_file;        ///< --kinds=FILE: which op names are which kinds (docs/kinds.md)
  /// --host-parameter=NAME=VALUE: the value of a parameter of the function a host program is
  /// defined in (a factory's), in the order given (docs/host-programs.md §"Programs built by
  /// factories"): an integer, or a pypto name (`pl.FP16`), the parameter's `symbol`
  struct host_parameter {
    std::string name;
    std::optional<std::int64_t> value;
    std::string symbol;
  };
  std::vector<host_parameter> host_parameters;
  bool quiet = false;
  unsigned progress_delay_ms = 1000;
  plan_format plans = plan_format::text;  ///< --plan-format: how dry runs print their plans
};

namespace cli_detail {

inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

/// Every option name without its dashes (for the "did you mean" hint).
inline std::vector<std::string_view> known_names(const pass_registry& reg) {
  std::vector<std::string_view> n = {"help", "version", "list-passes", "o", "input-kind", "mlir-style-names",
                                     "strip-locations", "mlir-print-op-generic", "print-op-custom", "emit-python", "emit-dot",
                                     "allow-unregistered-dialect",
                                     "pass-pipeline", "dump-pass-pipeline", "split-input-file", "output-split-marker",
                                     "verify-diagnostics", "mlir-print-ir-before-all", "mlir-print-ir-after-all",
                                     "mlir-print-ir-after-change", "mlir-print-ir-after-failure", "mlir-timing",
                                     "mlir-pass-statistics", "remarks", "quiet", "progress-delay", "plan-format", "kinds",
                                     "host-parameter"};
  for (const auto& p : reg.names()) n.push_back(p.name);
  return n;
}

inline std::string pad(std::string s, std::size_t width) {
  if (s.size() + 1 < width) s.append(width - s.size(), ' ');
  else s += ' ';
  return s;
}

}  // namespace cli_detail

/// `neuronrw-opt: MESSAGE` and the hint line; returns 2.
inline int usage_error(std::ostream& err, const std::string& msg) {
  err << "neuronrw-opt: " << msg << "\nTry 'neuronrw-opt --help'.\n";
  return 2;
}

/// A located usage error: `neuronrw-opt: SOURCE:1:COL: error: MESSAGE`, the text, a caret.
inline int located_usage_error(std::ostream& err, std::string_view source, std::string_view text, const located_error& e) {
  err << "neuronrw-opt: " << source << ":1:" << e.col << ": error: " << e.message << "\n"
      << text << "\n"
      << caret_line(text, static_cast<std::uint32_t>(e.col)) << "\n"
      << "Try 'neuronrw-opt --help'.\n";
  return 2;
}

inline void print_version(std::ostream& os) {
  os << "neuronrw-opt (neuronrw) version " << NEURONRW_OPT_VERSION << "\n";
}

/// --list-passes: every pass with its options (name, type, help, default), mlir-opt's layout.
inline void list_passes(std::ostream& os, const pass_registry& reg = default_registry()) {
  using cli_detail::pad;
  constexpr std::size_t w = 44;
  for (input_kind k : {input_kind::mlir, input_kind::host}) {
    os << (k == input_kind::mlir ? "Passes on MLIR input" : "Passes on host programs") << " (--pass-pipeline='"
       << anchor_of(k) << "(...)'):\n";
    for (const auto& n : reg.names()) {
      const pass_spec& s = *n.spec;
      if (s.kind != k || n.alias) continue;
      if (n.dry_run) {
        os << pad("  --" + std::string(n.name), w) << "-   " << n.help << "\n";
        continue;
      }
      os << pad("  --" + std::string(n.name), w) << "-   " << s.help << "\n";
      for (const auto& o : s.options) {
        os << pad("    --" + std::string(o.name) + std::string(type_text(o.type)), w) << "- " << o.help << " (";
        if (!o.alias.empty()) os << "alias: " << o.alias << "; ";
        os << "default: " << (o.default_text.empty() ? std::string("\"\"") : std::string(o.default_text)) << ")\n";
      }
    }
  }
  os << "Aliases (neuronrw-mlir-opt's pass names, so its pipelines run unchanged):\n";
  for (const auto& n : reg.names())
    if (n.alias) os << pad("  --" + std::string(n.name), w) << "-   " << n.spec->name << "\n";
}

inline void print_help(std::ostream& os, const pass_registry& reg = default_registry()) {
  os << "OVERVIEW: neuronrw-opt — run neuronrw passes on MLIR (the reference IR) or on pypto-style\n"
        "host programs\n\n"
        "USAGE: neuronrw-opt [options] [pass flags...] [-o FILE] [INPUT|-]\n\n"
        "With no pass the input is parsed, verified and printed. Pass flags run in the order given,\n"
        "or --pass-pipeline gives the whole pipeline; the input is verified after each pass.\n"
        "Options are also accepted with a single dash (-split-input-file), and take their value\n"
        "after '=' or as the next argument (-o FILE, -o=FILE).\n\n"
        "OPTIONS:\n"
        "  -o FILE                                 write the output to FILE (default: standard output);\n"
        "                                          written only when the run succeeds\n"
        "  --input-kind=mlir|host                  the input's kind (default: the pipeline's anchor,\n"
        "                                          else host for *.py, else mlir)\n"
        "  --pass-pipeline=PIPELINE                the passes, e.g. 'builtin.module(schedule-fusion{budget=64\n"
        "                                          kind=MyOverlap},fusion-to-composite)' or\n"
        "                                          'host.program(materialize-comm-domain-scopes)'\n"
        "  --PASS[=OPTIONS]                        run PASS with OPTIONS ('k=v k2=v2' or k=v,k2=v2)\n"
        "  --list-passes                           list the passes and their options, and exit\n"
        "  --dump-pass-pipeline                    print the pipeline with every option to stderr\n"
        "  --remarks                               every pass that can reports remarks (remarks=true)\n"
        "  --kinds=FILE                            which op names are which kinds: one 'OP-NAME KIND'\n"
        "                                          line per name, e.g. 'mycc.all_gather all_gather'\n"
        "                                          (docs/kinds.md); every pass over ops reads it\n"
        "  --host-parameter=NAME=VALUE             an integer or a pypto name (pl.FP16) for a parameter\n"
        "                                          of the function a host program is built in (def\n"
        "                                          build(n_ranks, dtype): ...): read as NAME = VALUE,\n"
        "                                          not as pl.dynamic or its default (repeatable)\n"
        "  --plan-format=text|json                 how dry runs print their plans (default text; json:\n"
        "                                          docs/plan-format.md)\n"
        "  --split-input-file[=MARKER]             split the input at lines '// -----' ('# -----' for\n"
        "                                          host programs) and process each chunk on its own\n"
        "  --output-split-marker=MARKER            the marker between the chunks' outputs\n"
        "  --verify-diagnostics[=only-expected]    check the diagnostics against the input's\n"
        "                                          expected-error/warning/remark/note comments\n"
        "  --verify-rewrites                       check that every pass's rewrite preserved the\n"
        "                                          program's dataflow (docs/validation.md); a dry run\n"
        "                                          applies, checks and rolls back\n"
        "  --mlir-print-ir-before-all              print the IR before every pass (to stderr)\n"
        "  --mlir-print-ir-after-all               print the IR after every pass (to stderr)\n"
        "  --mlir-print-ir-after-change            with -after-all, only after passes that changed it\n"
        "  --mlir-print-ir-after-failure           print the IR after a pass that failed\n"
        "  --mlir-timing                           print each pass's wall time (to stderr)\n"
        "  --mlir-pass-statistics                  print each pass's counters (to stderr)\n"
        "  --quiet                                 no progress report on a terminal\n"
        "  --progress-delay=MS                     report progress once a step ran MS ms (default 1000)\n"
        "  --allow-unregistered-dialect            accepted for mlir-opt compatibility (no effect: the\n"
        "                                          reference IR reads every dialect)\n"
        "  --mlir-style-names                      print values as %0, %arg0 like mlir-opt\n"
        "  --mlir-print-op-generic                 print every op in the generic form, inherent\n"
        "                                          attributes as properties <{...}> (with\n"
        "                                          --mlir-style-names: mlir-opt's own text)\n"
        "  --print-op-custom                       print every StableHLO op in its custom (pretty)\n"
        "                                          form where it has one (default: as read)\n"
        "  --strip-locations                       do not print loc(...) kept from the input\n"
        "  --emit-python                           print the final MLIR module as Python-like emitter\n"
        "                                          text (composites dispatched on CompositeKind)\n"
        "  --emit-dot[=before|after]               print a Graphviz picture of each function's dataflow\n"
        "                                          of the input (before) or of the result (after,\n"
        "                                          default): collectives coloured by kind, ScheduleFusion\n"
        "                                          clusters as subgraphs, moved ops dashed, refused\n"
        "                                          candidates in red with their reason\n"
        "  --version                               print the version and exit\n"
        "  -h, --help                              show this help\n\n";
  list_passes(os, reg);
  os << "\nEXIT CODES: 0 success, 1 input or verification error, 2 usage error\n";
}

/// Parses the command line into `opt`. Returns the exit code when the run ends here (help,
/// version, list-passes: 0; usage errors: 2), nothing when the driver goes on.
/// The passes are `reg`'s.
inline std::optional<int> parse_command_line(int argc, char** argv, options& opt, std::ostream& out, std::ostream& err,
                                             const pass_registry& reg = default_registry()) {
  bool have_input = false, only_positional = false;
  std::vector<pass_instance> flag_passes;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto positional = [&]() -> std::optional<int> {
      if (have_input)
        return usage_error(err, "more than one input file ('" + opt.input + "' and '" + std::string(a) + "')");
      opt.input = std::string(a);
      have_input = true;
      return std::nullopt;
    };
    if (only_positional || a == "-" || a.empty() || a[0] != '-') {
      if (auto rc = positional()) return rc;
      continue;
    }
    if (a == "--") {
      only_positional = true;
      continue;
    }
    const std::string_view body = a.substr(a.starts_with("--") ? 2 : 1);
    const auto eq = body.find('=');
    const std::string_view name = body.substr(0, eq);
    const std::optional<std::string_view> value =
        eq == std::string_view::npos ? std::nullopt : std::optional<std::string_view>(body.substr(eq + 1));
    // A value after '=' or in the next argument.
    auto take_value = [&]() -> std::optional<std::string> {
      if (value) return std::string(*value);
      if (i + 1 >= argc) return std::nullopt;
      return std::string(argv[++i]);
    };
    auto no_value = [&]() -> std::optional<int> {
      if (value) return usage_error(err, "option '-" + std::string(a.starts_with("--") ? "-" : "") + std::string(name) +
                                             "' takes no value");
      return std::nullopt;
    };
#define NEURONRW_OPT_FLAG(spelling, field)   \
  if (name == spelling) {                    \
    if (auto rc = no_value()) return rc;     \
    opt.field = true;                        \
    continue;                                \
  }
    if (name == "h" || name == "help") {
      if (auto rc = no_value()) return rc;
      print_help(out, reg);
      return 0;
    }
    if (name == "version") {
      if (auto rc = no_value()) return rc;
      print_version(out);
      return 0;
    }
    if (name == "list-passes") {
      if (auto rc = no_value()) return rc;
      list_passes(out, reg);
      return 0;
    }
    if (name == "o") {
      auto v = take_value();
      if (!v) return usage_error(err, "option '-o' needs a file name");
      if (v->empty()) return usage_error(err, "option '-o' needs a file name");
      opt.output = *v;
      continue;
    }
    if (name == "input-kind") {
      auto v = take_value();
      if (v == "mlir") opt.kind = input_kind::mlir;
      else if (v == "host") opt.kind = input_kind::host;
      else return usage_error(err, "--input-kind takes 'mlir' or 'host'" + (v ? ", not '" + *v + "'" : std::string()));
      continue;
    }
    if (name == "plan-format") {
      auto v = take_value();
      if (v == "text") opt.plans = plan_format::text;
      else if (v == "json") opt.plans = plan_format::json;
      else return usage_error(err, "--plan-format takes 'text' or 'json'" + (v ? ", not '" + *v + "'" : std::string()));
      continue;
    }
    if (name == "pass-pipeline") {
      auto v = take_value();
      if (!v) return usage_error(err, "option '--pass-pipeline' needs a pipeline, e.g. 'builtin.module(schedule-fusion)'");
      if (opt.pipeline_text) return usage_error(err, "option '--pass-pipeline' may be given only once");
      opt.pipeline_text = *v;
      continue;
    }
    if (name == "emit-dot") {
      if (value && *value != "before" && *value != "after")
        return usage_error(err, "--emit-dot takes 'before' or 'after', not '" + std::string(*value) + "'");
      opt.dot = value == "before" ? dot_mode::before : dot_mode::after;
      continue;
    }
    if (name == "split-input-file") {
      opt.split = true;
      if (value) {
        if (value->empty()) return usage_error(err, "--split-input-file= needs a marker, e.g. --split-input-file='// -----'");
        opt.split_marker = std::string(*value);
      }
      continue;
    }
    if (name == "output-split-marker") {
      auto v = take_value();
      if (!v) return usage_error(err, "option '--output-split-marker' needs a marker");
      opt.output_split_marker = *v;
      continue;
    }
    if (name == "verify-diagnostics") {
      opt.verify_diagnostics = true;
      if (value && *value != "all" && *value != "only-expected" && !value->empty())
        return usage_error(err, "--verify-diagnostics takes 'all' or 'only-expected', not '" + std::string(*value) + "'");
      opt.verify_only_expected = value == "only-expected";
      continue;
    }
    if (name == "progress-delay") {
      auto v = take_value();
      std::string why;
      auto n = v ? pipeline_detail::canonical_value(option_type::uint64, *v, why) : std::nullopt;
      if (!n || n->size() > 9) return usage_error(err, "--progress-delay takes a number of milliseconds");
      opt.progress_delay_ms = static_cast<unsigned>(std::stoul(*n));
      continue;
    }
    if (name == "kinds") {
      auto v = take_value();
      if (!v || v->empty()) return usage_error(err, "option '--kinds' needs a file, e.g. --kinds=mycc.kinds");
      opt.kinds_file = *v;
      continue;
    }
    if (name == "host-parameter") {
      auto v = take_value();
      const std::string_view s = v ? std::string_view(*v) : std::string_view();
      const std::size_t eq = s.find('=');
      const std::string_view n = s.substr(0, std::min(eq, s.size()));
      std::int64_t x = 0;
      const std::string_view digits = eq == std::string_view::npos ? std::string_view() : s.substr(eq + 1);
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), x);
      const bool ident = !n.empty() && !(n[0] >= '0' && n[0] <= '9') && std::all_of(n.begin(), n.end(), [](char ch) {
        return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
      });
      const bool integer = !digits.empty() && ec == std::errc() && end == digits.data() + digits.size();
      if (!ident || (!integer && !neuronrw::host::is_pypto_name(digits)))
        return usage_error(err, "--host-parameter takes NAME=INTEGER or NAME=pl.NAME, e.g. --host-parameter=n_ranks=4 "
                                "or --host-parameter=dtype=pl.FP16, not '" + std::string(s) + "'");
      for (const auto& q : opt.host_parameters)
        if (q.name == n) return usage_error(err, "--host-parameter: '" + std::string(n) + "' is given twice");
      opt.host_parameters.push_back({std::string(n), integer ? std::optional<std::int64_t>(x) : std::nullopt,
                                     integer ? std::string() : std::string(digits)});
      continue;
    }
    if (name == "verify-rewrites") {
      if (auto rc = no_value()) return rc;
      opt.verify_rewrites = true;
      continue;
    }
    if (name == "mlir-style-names") {
      if (auto rc = no_value()) return rc;
      opt.name_hints = false;
      continue;
    }
    if (name == "mlir-print-op-generic") {
      if (auto rc = no_value()) return rc;
      opt.print_generic = true;
      continue;
    }
    if (name == "print-op-custom") {
      if (auto rc = no_value()) return rc;
      opt.print_custom = true;
      continue;
    }
    if (name == "strip-locations") {
      if (auto rc = no_value()) return rc;
      opt.print_locations = false;
      continue;
    }
    if (name == "allow-unregistered-dialect") {
      if (auto rc = no_value()) return rc;
      continue;
    }
    NEURONRW_OPT_FLAG("emit-python", emit_python)
    NEURONRW_OPT_FLAG("dump-pass-pipeline", dump_pass_pipeline)
    NEURONRW_OPT_FLAG("mlir-print-ir-before-all", print_before_all)
    NEURONRW_OPT_FLAG("mlir-print-ir-after-all", print_after_all)
    NEURONRW_OPT_FLAG("mlir-print-ir-after-change", print_after_change)
    NEURONRW_OPT_FLAG("mlir-print-ir-after-failure", print_after_failure)
    NEURONRW_OPT_FLAG("mlir-timing", timing)
    NEURONRW_OPT_FLAG("mlir-pass-statistics", statistics)
    NEURONRW_OPT_FLAG("remarks", remarks)
    NEURONRW_OPT_FLAG("quiet", quiet)
#undef NEURONRW_OPT_FLAG
    if (const pass_name* pn = reg.find(name)) {
      pass_instance inst = make_instance(*pn);
      if (value) {
        const std::string source = "--" + std::string(name);
        if (auto e = parse_options(*value, 1, true, inst)) return located_usage_error(err, source, *value, *e);
      }
      if (!opt.first_pass_flag) opt.first_pass_flag = "--" + std::string(name);
      flag_passes.push_back(std::move(inst));
      continue;
    }
    std::string msg = "unknown option '" + std::string(a) + "'";
    std::string_view best;
    std::size_t best_d = 3;
    for (auto n : cli_detail::known_names(reg))
      if (auto d = n.size() < 3 ? best_d : cli_detail::edit_distance(name, n); d < best_d) best_d = d, best = n;
    if (!best.empty()) msg += "\nneuronrw-opt: did you mean '--" + std::string(best) + "'?";
    return usage_error(err, msg);
  }

  // The pipeline and the input kind.
  if (opt.pipeline_text && opt.first_pass_flag)
    return usage_error(err, "'--pass-pipeline' cannot be combined with individual pass flags ('" + *opt.first_pass_flag + "')");
  if (opt.pipeline_text) {
    if (auto e = parse_pipeline(*opt.pipeline_text, opt.pipe, reg)) return located_usage_error(err, "--pass-pipeline", *opt.pipeline_text, *e);
    if (opt.kind && *opt.kind != opt.pipe.kind) {
      const auto at = opt.pipeline_text->find_first_not_of(" \t\r\n");
      return located_usage_error(err, "--pass-pipeline", *opt.pipeline_text,
                                 {at == std::string::npos ? 1 : at + 1,
                                  "a '" + std::string(anchor_of(opt.pipe.kind)) + "' pipeline cannot run on " +
                                      std::string(describe(*opt.kind)) + " (--input-kind=" +
                                      (*opt.kind == input_kind::mlir ? "mlir" : "host") + ")"});
    }
    opt.effective_kind = opt.pipe.kind;
  } else {
    opt.effective_kind = opt.kind.value_or(opt.input.size() > 3 && opt.input.ends_with(".py") ? input_kind::host : input_kind::mlir);
    opt.pipe.kind = opt.effective_kind;
    for (const auto& p : flag_passes)
      if (p.spec->kind != opt.effective_kind)
        return usage_error(err, "pass '--" + std::string(p.spec->name) + "' does not apply to " +
                                    std::string(describe(opt.effective_kind)) + " (use --input-kind= to choose)");
    opt.pipe.passes = std::move(flag_passes);
  }
  if (opt.remarks)
    for (auto& p : opt.pipe.passes)
      if (auto k = p.index_of("remarks"); k < p.spec->options.size() && !p.explicitly_set[k]) p.values[k] = "true";
  const input_kind kind = opt.effective_kind;
  if (opt.emit_python && kind != input_kind::mlir) return usage_error(err, "--emit-python needs MLIR input");
  if (opt.dot != dot_mode::none && kind != input_kind::mlir) return usage_error(err, "--emit-dot needs MLIR input");
  if (opt.dot != dot_mode::none && opt.emit_python) return usage_error(err, "--emit-dot and --emit-python exclude each other");
  if (opt.print_generic && opt.print_custom)
    return usage_error(err, "--mlir-print-op-generic and --print-op-custom exclude each other");
  if (opt.split_marker.empty()) opt.split_marker = kind == input_kind::mlir ? "// -----" : "# -----";
  if (!opt.output_split_marker) opt.output_split_marker = opt.split_marker;
  return std::nullopt;
}

}  // namespace neuronrw_opt
