#!/usr/bin/env python3
"""The separately compiled ScheduleFusion instances (neuronrw/passes/schedule_fusion/instantiate.hpp)
are where the declarations say: read with nm.

Usage: schedule_fusion_instantiate_symbols_test.py NM USER CONTROL INSTANCE

USER is schedule_fusion_instantiate_test.cpp's object or archive (NEURONRW_EXTERN_SCHEDULE_FUSION
declarations), CONTROL the same source compiled without them (NEURONRW_TEST_IMPLICIT_INSTANCES),
INSTANCE schedule_fusion_instance.cpp's (NEURONRW_INSTANTIATE_SCHEDULE_FUSION, and _PLAN for the
mixture-of-experts pattern). Checked,
on the demangled symbols:
  - INSTANCE defines sf_detail::plan_functions for both patterns over ref::module, and
    apply<ref::module>;
  - USER defines neither, nor any of the planner, the dependence walk or the dominance repair,
    and refers to both (undefined symbols, resolved by INSTANCE at link time);
  - CONTROL defines the planner and the algorithms, and refers to neither template as defined
    elsewhere (apply may be inlined whole at -O2): a TU without the declarations instantiates what
    it calls, so the checks of USER could fail.
Prints each failed check; exit 1 if any, 0 otherwise; 77 (meson: skipped) when NM cannot run.
"""
import subprocess
import sys

PLAN = "neuronrw::sf_detail::plan_functions<"
APPLY = "neuronrw::apply<neuronrw::ref::module>("
# What the planner's instantiation brings along: a TU that defines none of these compiled none of
# the pass's algorithms.
ALGORITHMS = ["neuronrw::sf_detail::planner<", "neuronrw::walk_detail::walk_from_op<", "neuronrw::plan_sink<",
              "neuronrw::check_convexity<"]


def symbols(nm, path, *flags):
    out = subprocess.run([nm, "-C", *flags, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, check=True).stdout
    return [line.split(" ", 2)[-1] if line[:1] != " " else line.strip().split(" ", 1)[-1]
            for line in out.splitlines() if line.strip() and not line.endswith(":")]


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    nm, user, control, instance = argv[1:]
    try:
        defined = {p: symbols(nm, p, "--defined-only") for p in (user, control, instance)}
        undefined = {p: symbols(nm, p, "-u") for p in (user, control)}
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"nm could not read the objects: {e}")
        return 77
    problems = []

    def count(names, what):
        return sum(1 for n in names if what in n)

    def ref_plans(names):
        return [n for n in names if PLAN in n and "neuronrw::ref::module" in n]

    plans = ref_plans(defined[instance])
    if not any("co_schedule_pattern<neuronrw::kinds::all_gather, neuronrw::kinds::reduce_scatter" in n for n in plans):
        problems.append(f"{instance}: no plan_functions<schedule_fusion_pattern, ref::module> defined")
    if not any("co_schedule_pattern<neuronrw::kinds::all_to_all, neuronrw::kinds::all_to_all" in n for n in plans):
        problems.append(f"{instance}: no plan_functions<moe_pattern, ref::module> defined")
    if count(defined[instance], APPLY) == 0:
        problems.append(f"{instance}: apply<ref::module> not defined")

    for what in [PLAN, APPLY, *ALGORITHMS]:
        if count(defined[user], what) != 0:
            problems.append(f"{user}: defines {what}... though the TU declares the instances extern")
    # The control compiled the pass itself: the planner's code is in it (apply may be inlined
    # whole, so it is asked only not to leave apply to another TU).
    for what in [PLAN, *ALGORITHMS]:
        if count(defined[control], what) == 0:
            problems.append(f"{control}: does not define {what}... (the control must, or the check of "
                            f"{user} proves nothing)")
    for what in [PLAN, APPLY]:
        if count(undefined[control], what) != 0:
            problems.append(f"{control}: refers to {what}... as defined elsewhere, though it declares nothing extern")
    if not ref_plans(undefined[user]):
        problems.append(f"{user}: does not refer to plan_functions<..., ref::module> (the pass is not run through it)")
    if count(undefined[user], APPLY) == 0:
        problems.append(f"{user}: does not refer to apply<ref::module>")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
