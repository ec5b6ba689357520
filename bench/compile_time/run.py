#!/usr/bin/env python3
"""Compile-time benchmark of the descriptors (boundary sets, kind registries, dispatch).

Generates one translation unit per (variant, size) and reports how long the compiler takes on
it. Sizes default to 8, 64 and 256 kinds. Variants:

  includes   only the descriptor headers: the fixed cost every user pays
  boundary   N kind tags, a boundary_set of all N, a static_assert per member, run-time lookup
  registry   a kind_registry of N names: validate, index_of, iteration, static index_v per name
  dispatch   registry + dispatch with one handler per kind (the compile-time completeness check)
  full       boundary + registry + dispatch in one TU (the budget: 64 kinds < 2 s at -O0)
  hana_set   reference point, not library code: a hana::set of N types and hana::contains
             static_asserts, the approach STYLE.md warns scales badly

Usage: python3 bench/compile_time/run.py [--cxx g++] [--sizes 8,64,256] [--repeat 3]
                                         [--opt -O0] [--markdown]
Each figure is the best of --repeat runs of `CXX -std=c++20 OPT -c tu.cpp`, in CPU seconds
(user + system time of the compiler process). CPU time, not wall time, because this machine is
shared: other jobs stretch wall time without changing the work the compiler does; best-of for
the same reason. The wall time of the best run is printed alongside.
"""
import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INCLUDE = os.path.join(ROOT, "include")
BUDGET_SECONDS = 2.0
BUDGET_SIZE = 64

HEADERS = """#include <neuronrw/descriptors/boundary_set.hpp>
#include <neuronrw/descriptors/kind_registry.hpp>
#include <string_view>
"""


def kind_name(i):
    return f"kind_{i:03d}"


def boundary_part(n):
    tags = "\n".join(f"NEURONRW_DECLARE_KIND({kind_name(i)});" for i in range(n))
    members = ", ".join(kind_name(i) for i in range(n))
    asserts = "\n".join(f"static_assert(bench_set::contains_v<{kind_name(i)}>);" for i in range(n))
    return f"""
namespace tags {{
{tags}
}}  // namespace tags
using namespace tags;
using bench_set = neuronrw::boundary_set<{members}>;
{asserts}
bool is_member(neuronrw::kind_id id) {{ return bench_set::contains(id); }}
"""


def registry_part(n):
    names = ", ".join(f'"{kind_name(i)}"' for i in range(n))
    asserts = "\n".join(f'static_assert(bench_registry::index_v<"{kind_name(i)}"> == {i});'
                        for i in range(n))
    return f"""
using bench_registry = neuronrw::kind_registry<"unknown kind '{{}}'; known: {{}}",
                                               neuronrw::list_style::comma_and, {names}>;
{asserts}
bool known(std::string_view s) {{ return !bench_registry::validate(s).has_value(); }}
std::size_t position(std::string_view s) {{ return bench_registry::index_of(s).value_or(0); }}
std::size_t name_bytes() {{
  std::size_t n = 0;
  bench_registry::for_each_kind([&](auto k) {{ n += k.name.size(); }});
  return n;
}}
"""


def dispatch_part(n):
    handlers = ",\n      ".join(
        f'neuronrw::on<"{kind_name(i)}">([](auto k, int x) {{ return x + static_cast<int>(k.index); }})'
        for i in range(n))
    return f"""
int dispatch(std::string_view s, int x) {{
  static const auto hs = neuronrw::handlers(
      {handlers});
  return bench_registry::dispatch(s, hs, [](std::string_view, int) {{ return -1; }}, x);
}}
"""


def hana_set_tu(n):
    tags = "\n".join(f"struct {kind_name(i)} {{}};" for i in range(n))
    types = ", ".join(f"hana::type_c<{kind_name(i)}>" for i in range(n))
    asserts = "\n".join(f"static_assert(hana::contains(bench_set, hana::type_c<{kind_name(i)}>));"
                        for i in range(n))
    return f"""#include <boost/hana/contains.hpp>
#include <boost/hana/set.hpp>
#include <boost/hana/type.hpp>
namespace hana = boost::hana;
{tags}
constexpr auto bench_set = hana::make_set({types});
{asserts}
"""


def make_tu(variant, n):
    if variant == "includes":
        return HEADERS
    if variant == "boundary":
        return HEADERS + boundary_part(n)
    if variant == "registry":
        return HEADERS + registry_part(n)
    if variant == "dispatch":
        return HEADERS + registry_part(n) + dispatch_part(n)
    if variant == "full":
        return HEADERS + boundary_part(n) + registry_part(n) + dispatch_part(n)
    if variant == "hana_set":
        return hana_set_tu(n)
    raise ValueError(variant)


def cpu_of_children():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def compile_seconds(cxx, opt, path, repeat):
    """(cpu, wall) of the run with the least CPU time."""
    cmd = [cxx, "-std=c++20", opt, "-I" + INCLUDE, "-c", path, "-o", os.devnull]
    best = None
    for _ in range(repeat):
        cpu0 = cpu_of_children()
        start = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - start
        cpu = cpu_of_children() - cpu0
        if r.returncode != 0:
            sys.stderr.write(f"compile failed: {' '.join(cmd)}\n{r.stderr[-3000:]}\n")
            sys.exit(1)
        if best is None or cpu < best[0]:
            best = (cpu, wall)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    ap.add_argument("--sizes", default="8,64,256")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--opt", default="-O0")
    ap.add_argument("--variants", default="includes,boundary,registry,dispatch,full,hana_set")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--keep", help="write the generated TUs to this directory")
    args = ap.parse_args()

    sizes = [int(s) for s in args.sizes.split(",")]
    variants = args.variants.split(",")
    workdir = args.keep or tempfile.mkdtemp(prefix="neuronrw_ct_")
    os.makedirs(workdir, exist_ok=True)
    version = subprocess.run([args.cxx, "--version"], capture_output=True, text=True).stdout.splitlines()[0]

    results = {}
    try:
        for v in variants:
            for n in ([0] if v == "includes" else sizes):
                path = os.path.join(workdir, f"{v}_{n}.cpp")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(make_tu(v, n))
                results[(v, n)] = compile_seconds(args.cxx, args.opt, path, args.repeat)
                cpu, wall = results[(v, n)]
                sys.stderr.write(f"{v:9s} {n:4d} kinds: {cpu:.2f} s cpu ({wall:.2f} s wall)\n")
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)

    print(f"compiler: {version}; flags: -std=c++20 {args.opt}; best of {args.repeat}; "
          f"{os.cpu_count()} cores; CPU seconds (wall seconds of that run)")
    if args.markdown:
        print()
        print("| variant | " + " | ".join(f"{n} kinds" for n in sizes) + " |")
        print("|---|" + "---|" * len(sizes))
    for v in variants:
        def cell(r):
            return f"{r[0]:.2f} s ({r[1]:.2f})"
        if v == "includes":
            row = [cell(results[(v, 0)])] + [""] * (len(sizes) - 1)
        else:
            row = [cell(results[(v, n)]) for n in sizes]
        if args.markdown:
            print(f"| {v} | " + " | ".join(row) + " |")
        else:
            print(f"{v:9s} " + "  ".join(f"{n:4d}: {c:>15s}" for n, c in zip(sizes, row) if c))
    if "full" in variants and BUDGET_SIZE in sizes:
        t = results[("full", BUDGET_SIZE)][0]
        verdict = "within" if t < BUDGET_SECONDS else "OVER"
        print(f"\nbudget: full TU with {BUDGET_SIZE} kinds = {t:.2f} s CPU, {verdict} the "
              f"{BUDGET_SECONDS:.0f} s budget")
        return 0 if t < BUDGET_SECONDS else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
