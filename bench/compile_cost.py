#!/usr/bin/env python3
"""Compile cost: what including neuronrw and instantiating ScheduleFusion adds to a translation
unit's compile, in CPU seconds and peak memory, against the same TU without neuronrw (issue 32,
"Compile cost as a benchmark"; targets below).

Each benchmark is one compile of a generated TU, `CXX -std=c++20 -O2 FLAGS -c TU.cpp -o /dev/null`,
with <compiler> gcc (g++) and clang (clang++); a compiler not on PATH is skipped with a note on
stderr. The TUs (printed by --tu-dir DIR, which keeps them):

  bm_compile_mlir_pass_base/<compiler>
      a minimal MLIR pass, MLIR headers only: a PassWrapper<..., OperationPass<ModuleOp>> whose
      runOnOperation walks the module and sinks each single-use "mhlo.all_gather" next to its user
      with an IRRewriter. FLAGS: LLVM's (`llvm-config --cxxflags` without its -std, plus
      -fno-rtti and, for a release LLVM, -DNDEBUG: what meson.build gives the MLIR targets)
  bm_compile_mlir_pass_neuronrw/<compiler>
      the same TU plus neuronrw/adapters/mlir/traits.hpp and neuronrw/passes/schedule_fusion.hpp,
      its runOnOperation also running ScheduleFusion (plan + apply) over mlir_adapter::ir with the
      pass's IRRewriter, as the neuronrw-schedule-fusion pass does. FLAGS: LLVM's, -I include/
  bm_compile_mlir_pass_added/<compiler>
      derived, no compile of its own: neuronrw − base, repetition by repetition (the two compiles
      of a repetition are paired); counters added_cpu_seconds, added_rss_bytes
  bm_compile_mlir_pass_extern/<compiler>
      the neuronrw TU with ScheduleFusion compiled elsewhere: it also includes
      neuronrw/passes/schedule_fusion/instantiate.hpp and declares
      NEURONRW_EXTERN_SCHEDULE_FUSION(neuronrw::mlir_adapter::ir) (the opt-in of that header), so it
      instantiates only the entry points' wrappers. FLAGS: the neuronrw TU's
  bm_compile_mlir_pass_extern_added/<compiler>
      derived: extern − base, as bm_compile_mlir_pass_added
  bm_compile_mlir_instance/<compiler>
      the TU those declarations need once per program: the adapter's traits and
      NEURONRW_INSTANTIATE_SCHEDULE_FUSION(neuronrw::mlir_adapter::ir), nothing else (no target: it
      is compiled once, not in every pass TU). FLAGS: the neuronrw TU's
  bm_compile_ref_driver_base/<compiler>
      a driver without neuronrw of similar standard-library use: reads a file into a std::string,
      splits it into lines (std::vector<std::string_view>), counts the op names in a
      std::unordered_map, rewrites the lines through a std::ostringstream and prints
  bm_compile_ref_driver_neuronrw/<compiler>
      the reference-IR driver: reads the file, ref::parse, ScheduleFusion, ref::verify, ref::print
      (examples/quickstart's calls). FLAGS: -I include/ (exceptions and RTTI on)
  bm_compile_ref_driver_added/<compiler>
      derived, as bm_compile_mlir_pass_added

Per repetition: real_time = the compile's wall time, cpu_time = its user + system time (seconds;
time_unit "s"), counters cpu_seconds (= cpu_time) and max_rss_bytes (peak resident set). Both are
the compiler driver's with every process it waited for (cc1plus, as): os.wait4's usage of that
child alone, not of other children of this script. CPU time rather than wall time because the
machine is shared; the medians come from --benchmark_repetitions (default 3). The compiles of a
repetition run one after another, one compiler process at a time, every TU and compiler in turn,
so that a change of the machine's load falls on all of them alike. Nothing is warmed up: a cold
page cache costs wall time (I/O waits), not CPU time.

Targets (bench/report; issue 32): the MLIR pass with neuronrw may cost at most +3 s CPU and
+100 MB peak RSS over the pass without it (bm_compile_mlir_pass_added: added_cpu_seconds <= 3 s,
added_rss_bytes <= 100 MB), g++ 12 -O2 and clang++ 14 alike; the same targets for the pass with
the instances compiled elsewhere (bm_compile_mlir_pass_extern_added). The reference-IR driver has none
(informative).

Output: Google Benchmark's console table, or its JSON (--benchmark_format=json, --benchmark_out=FILE
with --benchmark_out_format=json), with the same names, fields and aggregates (mean, median,
stddev, cv; --benchmark_report_aggregates_only=true keeps only those), so bench/report reads it
like a suite (bench/gbench_json.py). --benchmark_filter=REGEX picks the rows by name; an added row
compiles both TUs it needs (reported only when they match too). --benchmark_min_time and
--benchmark_display_aggregates_only are accepted and ignored, --build DIR too (bench/report passes
it; the TUs are compiled against this source tree's include/, nothing built is needed). A failed
compile is reported as Google Benchmark reports an error (error_occurred, error_message), for it
and its added row, and the script exits 1.

When llvm-config or the MLIR headers are missing, the MLIR rows are skipped with a note on stderr
(the others run; with none left the list is empty, exit 0). NEURONRW_BENCH_SMOKE set: the
reference-IR driver rows only, with the first compiler found, one repetition.

usage: compile_cost.py [--cxx gcc=g++,clang=clang++] [--llvm-config PATH] [--tu-dir DIR]
                       [--verbose] [--build DIR] [--benchmark_* flags]
  --cxx          the compilers: NAME=COMMAND, comma-separated (default gcc=g++,clang=clang++)
  --llvm-config  default: llvm-config-22 on PATH, else /usr/lib/llvm-22/bin/llvm-config
  --tu-dir       write the TUs there and keep them (default: a temporary directory)
  --verbose      print each compile command and its figures on stderr
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

from gbench_json import Output, add_flags, check_flags, first_line, run

HERE = pathlib.Path(__file__).resolve().parent
INCLUDE = HERE.parent / "include"
MB = 1e6

# ------------------------------------------------------------------------------ the TUs

# The MLIR pass: the neuronrw TU is the base TU with the includes and the ScheduleFusion lines added.
MLIR_PASS = """\
#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/PatternMatch.h>
#include <mlir/Pass/Pass.h>
#include <llvm/ADT/SmallVector.h>

#include <memory>
#include <utility>
{includes}
namespace {{

struct CompileCostPass : mlir::PassWrapper<CompileCostPass, mlir::OperationPass<mlir::ModuleOp>> {{
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CompileCostPass)
  llvm::StringRef getArgument() const final {{ return "compile-cost"; }}
  void runOnOperation() override {{
    mlir::IRRewriter rewriter(&getContext());
    llvm::SmallVector<mlir::Operation*> sink;
    getOperation().walk([&](mlir::Operation* op) {{
      if (op->getName().getStringRef() == "mhlo.all_gather" && op->hasOneUse()) sink.push_back(op);
    }});
    for (mlir::Operation* op : sink) {{
      mlir::Operation* user = *op->getUsers().begin();
      if (user->getBlock() == op->getBlock()) rewriter.moveOpBefore(op, user);
    }}
{body}  }}
}};

}}  // namespace

std::unique_ptr<mlir::Pass> create_compile_cost_pass() {{ return std::make_unique<CompileCostPass>(); }}
"""

MLIR_PASS_NEURONRW_INCLUDES = """
#include <neuronrw/adapters/mlir/traits.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>
"""

# The opt-in of neuronrw/passes/schedule_fusion/instantiate.hpp: ScheduleFusion's code comes from
# the instance TU below.
MLIR_PASS_EXTERN_INCLUDES = MLIR_PASS_NEURONRW_INCLUDES + """#include <neuronrw/passes/schedule_fusion/instantiate.hpp>

NEURONRW_EXTERN_SCHEDULE_FUSION(neuronrw::mlir_adapter::ir);
"""

MLIR_INSTANCE = """\
#include <neuronrw/adapters/mlir/traits.hpp>
#include <neuronrw/passes/schedule_fusion/instantiate.hpp>

NEURONRW_INSTANTIATE_SCHEDULE_FUSION(neuronrw::mlir_adapter::ir);
"""

MLIR_PASS_NEURONRW_BODY = """\
    namespace ma = neuronrw::mlir_adapter;
    ma::ir g(getOperation().getOperation(), ma::ir::default_kinds(), &rewriter);
    auto plan = neuronrw::plan_schedule_fusion(std::as_const(g));
    neuronrw::apply(g, plan);
"""

# The driver: the same reading of the file and main(), then either a line pass or the reference IR.
REF_DRIVER = """\
#include <cstddef>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>
{includes}
namespace {{

bool read_file(const char* path, std::string& out) {{
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}}

}}  // namespace

int main(int argc, char** argv) {{
  if (argc != 2) return std::cerr << "usage: " << argv[0] << " FILE.mlir\\n", 2;
  std::string text;
  if (!read_file(argv[1], text)) return std::cerr << argv[1] << ": cannot read\\n", 1;
{body}}}
"""

REF_DRIVER_BASE_BODY = """\
  // The op names by count (each `"dialect.op"(` of a line), the lines rewritten and printed.
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\\n', at);
    if (end == std::string::npos) end = text.size();
    lines.push_back(std::string_view(text).substr(at, end - at));
    at = end + 1;
  }
  std::unordered_map<std::string, std::size_t> counts;
  std::ostringstream out;
  for (std::string_view line : lines) {
    std::size_t open = line.find('"');
    std::size_t close = open == std::string_view::npos ? open : line.find("\\"(", open + 1);
    if (close == std::string_view::npos) {
      out << line << '\\n';
      continue;
    }
    std::string name(line.substr(open + 1, close - open - 1));
    ++counts[name];
    out << line.substr(0, open) << '"' << name << '"' << line.substr(close + 1) << '\\n';
  }
  std::cout << out.str();
  for (const auto& [name, n] : counts) std::cerr << name << ": " << n << '\\n';
"""

REF_DRIVER_NEURONRW_INCLUDES = """
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/ir/ref/verify.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>
"""

REF_DRIVER_NEURONRW_BODY = """\
  auto parsed = neuronrw::ref::parse(text, argv[1]);
  if (!parsed.ok()) return std::cerr << parsed.error.str() << '\\n', 1;
  auto& m = *parsed.value;
  auto plan = neuronrw::schedule_fusion(m);
  if (auto errors = neuronrw::ref::verify(m); !errors.empty()) return std::cerr << errors[0].str() << '\\n', 1;
  std::cout << neuronrw::ref::print(m);
  std::cerr << plan.clusters.size() << " clusters\\n";
"""

# name -> (source, kind of flags)
TUS = {
    "mlir_pass_base": (MLIR_PASS.format(includes="", body=""), "mlir"),
    "mlir_pass_neuronrw": (MLIR_PASS.format(includes=MLIR_PASS_NEURONRW_INCLUDES, body=MLIR_PASS_NEURONRW_BODY), "mlir"),
    "mlir_pass_extern": (MLIR_PASS.format(includes=MLIR_PASS_EXTERN_INCLUDES, body=MLIR_PASS_NEURONRW_BODY), "mlir"),
    "mlir_instance": (MLIR_INSTANCE, "mlir"),
    "ref_driver_base": (REF_DRIVER.format(includes="", body=REF_DRIVER_BASE_BODY), "plain"),
    "ref_driver_neuronrw": (REF_DRIVER.format(includes=REF_DRIVER_NEURONRW_INCLUDES, body=REF_DRIVER_NEURONRW_BODY),
                            "plain"),
}

# The families in output order: a compiled TU, or an added row (the difference of a TU pair,
# ADDED: base first).
FAMILIES = ["mlir_pass_base", "mlir_pass_neuronrw", "mlir_pass_added",
            "mlir_pass_extern", "mlir_pass_extern_added", "mlir_instance",
            "ref_driver_base", "ref_driver_neuronrw", "ref_driver_added"]
ADDED = {"mlir_pass_added": ["mlir_pass_base", "mlir_pass_neuronrw"],
         "mlir_pass_extern_added": ["mlir_pass_base", "mlir_pass_extern"],
         "ref_driver_added": ["ref_driver_base", "ref_driver_neuronrw"]}


def needed_tus(family):
    return ADDED.get(family, [family])


# ------------------------------------------------------------------------------ the compilers

def llvm_flags(llvm_config):
    """LLVM's compile flags for the MLIR TUs (meson.build's mlir_args), or (None, why)."""
    if not llvm_config or not os.access(llvm_config, os.X_OK):
        return None, f"llvm-config not found ({llvm_config or 'llvm-config-22 not on PATH'})"
    try:
        def ask(flag):
            return subprocess.run([llvm_config, flag], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True, check=True).stdout.strip()
        cxxflags, includedir, assertions = ask("--cxxflags"), ask("--includedir"), ask("--assertion-mode")
    except (OSError, subprocess.CalledProcessError) as e:
        return None, f"{llvm_config} failed: {e}"
    if not os.path.exists(os.path.join(includedir, "mlir", "Pass", "Pass.h")):
        return None, f"the MLIR headers are missing ({includedir}/mlir/Pass/Pass.h; Debian: libmlir-22-dev)"
    flags = [f for f in cxxflags.split() if not f.startswith("-std=")]
    flags += [f for f in ("-I" + includedir, "-fno-rtti") if f not in flags]
    if assertions == "OFF" and "-DNDEBUG" not in flags:
        flags.append("-DNDEBUG")
    return flags, None


def compilers(spec):
    """[(name, command, version line)] of the compilers on PATH; notes the missing ones."""
    found = []
    for item in spec.split(","):
        name, _, command = item.partition("=")
        path = shutil.which(command)
        if not path:
            print(f"compile_cost: {name}: {command} not found, its rows skipped", file=sys.stderr)
            continue
        version = subprocess.run([path, "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 text=True).stdout.splitlines()
        found.append((name, command, version[0] if version else command))
    return found


def parse_args(argv):
    p = argparse.ArgumentParser(description="compile cost of neuronrw (see the module doc)")
    p.add_argument("--cxx", default="gcc=g++,clang=clang++")
    default_llvm_config = shutil.which("llvm-config-22") or "/usr/lib/llvm-22/bin/llvm-config"
    p.add_argument("--llvm-config", default=default_llvm_config)
    p.add_argument("--tu-dir")
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--build", help="accepted and ignored (bench/report passes it)")
    add_flags(p, repetitions=3)
    args = p.parse_args(argv)
    if not re.fullmatch(r"\w+=[^,=]+(,\w+=[^,=]+)*", args.cxx):
        p.error(f"--cxx: expected NAME=COMMAND separated by commas, got '{args.cxx}'")
    check_flags(p, args)
    return args


def counters(e):
    """The console's counter text of one entry."""
    if "added_cpu_seconds" in e:
        return f"added_cpu={e['added_cpu_seconds']:.2f}s added_rss={e['added_rss_bytes'] / MB:.0f}MB"
    return f"max_rss={e['max_rss_bytes'] / MB:.0f}MB"


# ------------------------------------------------------------------------------ main

def main(argv) -> int:
    args = parse_args(argv)
    smoke = os.environ.get("NEURONRW_BENCH_SMOKE") is not None
    if smoke:
        args.benchmark_repetitions = 1
    reps = args.benchmark_repetitions
    found = compilers(args.cxx)
    if smoke:
        found = found[:1]
    families = FAMILIES
    mlir, why = llvm_flags(args.llvm_config)
    if smoke:
        families = [f for f in families if f.startswith("ref_driver")]
    elif mlir is None:
        print(f"compile_cost: the MLIR rows skipped: {why}", file=sys.stderr)
        families = [f for f in families if not f.startswith("mlir")]
    out = Output(__file__, args, counters, time_unit="s", digits=2,
                 compilers={name: version for name, _, version in found})

    wanted = re.compile(args.benchmark_filter)
    rows = [(f, c) for f in families for c in found if wanted.search(f"bm_compile_{f}/{c[0]}")]
    to_compile = list(dict.fromkeys((tu, c) for f, c in rows for tu in needed_tus(f)))
    if not to_compile:
        return out.emit(0)

    with tempfile.TemporaryDirectory(prefix="compile_cost.") as tmp:
        d = pathlib.Path(args.tu_dir or tmp)
        d.mkdir(parents=True, exist_ok=True)
        commands = {}
        for tu, (name, command, _) in to_compile:
            source, kind = TUS[tu]
            path = d / f"{tu}.cpp"
            path.write_text(source)
            flags = (mlir if kind == "mlir" else []) + ["-I" + str(INCLUDE)]
            commands[(tu, name)] = [command, "-std=c++20", "-O2", *flags, "-c", str(path), "-o", os.devnull]
        runs = {key: [] for key in commands}
        errors = {}
        for rep in range(reps):
            for key, cmd in commands.items():
                if key in errors:
                    continue
                wall, cpu, rss, rc, message = run(cmd)
                if args.verbose:
                    print(f"compile_cost: {' '.join(cmd)}: rep {rep + 1}: {cpu:.2f} s CPU, {wall:.2f} s wall, "
                          f"{rss / MB:.0f} MB", file=sys.stderr)
                if rc != 0:
                    lines = [l for l in message.splitlines() if "error" in l]
                    errors[key] = f"{key[1]} on {key[0]}.cpp exited {rc} in run {rep + 1}: " \
                                  f"{lines[0] if lines else first_line(message)}"
                    continue
                runs[key].append({"real_time": wall, "cpu_time": cpu, "cpu_seconds": cpu, "max_rss_bytes": float(rss)})

    # Google Benchmark's order: family by family, the compilers in order.
    selected = {(f, c[0]) for f, c in rows}
    for family_index, f in enumerate(families):
        instance = 0
        for name, _, _ in found:
            if (f, name) not in selected:
                continue
            error = next((errors[(tu, name)] for tu in needed_tus(f) if (tu, name) in errors), None)
            if f in ADDED:
                base, mine = (runs[(tu, name)] for tu in needed_tus(f))
                family_runs = [{"real_time": m["real_time"] - b["real_time"], "cpu_time": m["cpu_time"] - b["cpu_time"],
                                "added_cpu_seconds": m["cpu_seconds"] - b["cpu_seconds"],
                                "added_rss_bytes": m["max_rss_bytes"] - b["max_rss_bytes"]}
                               for b, m in zip(base, mine)]
            else:
                family_runs = runs[(f, name)]
            out.add(family_index, instance, f"bm_compile_{f}/{name}", family_runs, error)
            instance += 1
    return out.emit()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
