// neuronrw-opt — the command-line driver, mlir-opt style:
//   neuronrw-opt [pass flags...] [-o OUT] [INPUT|-]
// Pass flags run in the order given; with none, the input is parsed, verified and printed (a
// round trip). The module is verified after parsing and after every pass; output is written only
// when everything succeeded, so a failure never leaves a partial file.
// Exit codes: 0 ok, 1 input or verification error (message on stderr), 2 usage error.
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/passes/composite_emitter.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/verify.hpp>

namespace {

namespace ref = neuronrw::ref;

/// One pass the driver can run: its flag, help line and body. A pass reports problems as
/// diagnostics and returns false; the driver then prints them and exits 1.
struct pass_entry {
  std::string_view flag;
  std::string_view help;
  std::function<bool(ref::module&, neuronrw::diagnostics&, std::ostream& info)> run;
};

/// The registry of passes, in --help order.
const std::vector<pass_entry>& passes() {
  static const std::vector<pass_entry> registry = {
      {"--fusion-to-composite",
       "lower every fusion to a stablehlo.composite + private decomposition function",
       [](ref::module& m, neuronrw::diagnostics& errs, std::ostream&) {
         errs = neuronrw::run_fusion_to_composite(m);
         return errs.empty();
       }},
      {"--validate-kinds",
       "check FusionKind / CompositeKind against the seed's registries (exact seed messages)",
       [](ref::module& m, neuronrw::diagnostics& errs, std::ostream&) {
         errs = neuronrw::validate_fusion_kinds(m);
         auto more = neuronrw::validate_composite_kinds(m);
         errs.insert(errs.end(), more.begin(), more.end());
         return errs.empty();
       }},
  };
  return registry;
}

struct options {
  std::vector<const pass_entry*> pipeline;
  std::string input = "-";
  std::string output = "-";
  bool name_hints = true;
  bool print_locations = true;
  bool emit_python = false;
};

void print_help(std::ostream& os) {
  os << "OVERVIEW: neuronrw-opt — run neuronrw passes on the reference IR (an MLIR subset)\n\n"
        "USAGE: neuronrw-opt [options] [pass flags...] [INPUT|-]\n\n"
        "With no pass flag the input is parsed, verified and printed.\n"
        "Pass flags run in the order given; the module is verified after each.\n\n"
        "OPTIONS:\n"
        "  -o FILE                 write the output to FILE (default: standard output)\n"
        "  --mlir-style-names      print values as %0, %arg0 like mlir-opt instead of keeping names\n"
        "  --strip-locations       do not print loc(...) annotations kept from the input\n"
        "  --emit-python           after the passes, print the module as Python-like emitter text\n"
        "                          (composites dispatched on CompositeKind) instead of MLIR\n"
        "  -h, --help              show this help\n\n"
        "PASSES:\n";
  if (passes().empty()) os << "  (none yet)\n";
  for (auto& p : passes()) {
    std::string f(p.flag);
    os << "  " << f << std::string(f.size() < 24 ? 24 - f.size() : 1, ' ') << p.help << "\n";
  }
  os << "\nEXIT CODES: 0 success, 1 input or verification error, 2 usage error\n";
}

int usage_error(const std::string& msg) {
  std::cerr << "neuronrw-opt: " << msg << "\nTry 'neuronrw-opt --help'.\n";
  return 2;
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
      continue;
    }
    if (a == "--mlir-style-names") {
      opt.name_hints = false;
      continue;
    }
    if (a == "--emit-python") {
      opt.emit_python = true;
      continue;
    }
    if (a == "--strip-locations") {
      opt.print_locations = false;
      continue;
    }
    if (a.size() > 1 && a[0] == '-') {
      const pass_entry* found = nullptr;
      for (auto& p : passes())
        if (p.flag == a) found = &p;
      if (!found) return usage_error("unknown option '" + std::string(a) + "'");
      opt.pipeline.push_back(found);
      continue;
    }
    if (have_input) return usage_error("more than one input file ('" + opt.input + "' and '" + std::string(a) + "')");
    opt.input = std::string(a);
    have_input = true;
  }

  std::string text;
  std::string file_name = opt.input == "-" ? "<stdin>" : opt.input;
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

  auto parsed = ref::parse(text, file_name);
  if (!parsed.ok()) {
    std::cerr << parsed.error.str() << "\n";
    return 1;
  }
  ref::module& m = *parsed.value;
  if (auto errs = ref::verify(m); !errs.empty()) {
    for (auto& e : errs) std::cerr << e.str() << "\n";
    return 1;
  }
  for (auto* p : opt.pipeline) {
    neuronrw::diagnostics errs;
    if (!p->run(m, errs, std::cerr)) {
      for (auto& e : errs) std::cerr << e.str() << "\n";
      if (errs.empty()) std::cerr << file_name << ": error: pass " << p->flag << " failed\n";
      return 1;
    }
    if (auto verrs = ref::verify(m); !verrs.empty()) {
      std::cerr << file_name << ": error: the module does not verify after " << p->flag << ":\n";
      for (auto& e : verrs) std::cerr << e.str() << "\n";
      return 1;
    }
  }

  std::string out;
  if (opt.emit_python) {
    if (auto errs = neuronrw::emit_python(m, out); !errs.empty()) {
      for (auto& e : errs) std::cerr << e.str() << "\n";
      return 1;
    }
  } else {
    ref::print_options po;
    po.use_name_hints = opt.name_hints;
    po.print_locations = opt.print_locations;
    out = ref::print(m, po);
  }
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
