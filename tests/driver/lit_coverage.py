#!/usr/bin/env python3
"""Asserts that the lit tests of neuronrw-opt (tests/lit/neuronrw-opt) cover every refusal code.

Usage: lit_coverage.py SOURCE_ROOT

The codes are read from the headers that define them, so a new code without a lit test fails
this check:
  ScheduleFusion             schedule_refusal          include/neuronrw/passes/schedule_fusion/plan.hpp
  FusionToComposite          f2c_problem_code          include/neuronrw/passes/fusion_to_composite.hpp
  MaterializeCommDomainScopes comm_domain_refusal_code include/neuronrw/passes/comm_domain_scopes/plan.hpp
  SynthesizeAllReduceSignals allreduce_signal_refusal_code include/neuronrw/passes/allreduce_signals.hpp
Each code must appear in an expectation of a lit file that runs --verify-diagnostics, worded
as the driver reports it:
  // expected-remark... {{...refused this candidate: CODE: ...}}
  // expected-error...  {{...fusion-to-composite: CODE: ...}}
  #  expected-error...  {{MaterializeCommDomainScopes: ... [CODE]}}      (pypto's text, code last)
  #  expected-error...  {{pld.tensor.allreduce ... [CODE]}}               SynthesizeAllReduceSignals
except the codes no text input can reach, listed in UNREACHABLE with the reason and the test
that covers them instead (which must exist and name the code).

Also checked: every file there with expectations runs them on its own text (`RUN: neuronrw-opt
%s`), and the notes attached to ScheduleFusion's remarks have one source, the library's
note_text (include/neuronrw/passes/schedule_fusion/plan.hpp, all 8 codes), which neither the
driver (examples/neuronrw-opt/passes.hpp) nor the MLIR pass (include/neuronrw/adapters/mlir/
passes.hpp) copies. A self-test removes one expectation from a copy of
the lit directory and requires the check to fail. Each check prints one line; exit 1 if any
failed.
"""
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../support"))
from checks import Checks  # noqa: E402

root = os.path.abspath(sys.argv[1])
check = Checks()
LIT = os.path.join(root, "tests", "lit", "neuronrw-opt")

# Codes the reference IR's verified text cannot reach, and the test that covers each instead.
UNREACHABLE = {
    ("schedule_refusal", "reschedule_refused"): (
        "the dominance repair refuses only a block the verifier rejects (a terminator mid-block, a "
        "consumer before its producer), and neuronrw-opt verifies every input before its passes",
        "tests/driver/unreachable_refusal_test.cpp"),
}

ENUMS = [
    # (enum, header, how an expectation names the code, severity): "PREFIX: " means `PREFIX: CODE:`
    # (the MLIR passes' form); "PREFIX [" means pypto's own text starting with PREFIX (may be empty)
    # and ending with `[CODE]` (the host passes carry pypto's messages, the code trails).
    ("schedule_refusal", "include/neuronrw/passes/schedule_fusion/plan.hpp", "refused this candidate: ", "remark"),
    ("f2c_problem_code", "include/neuronrw/passes/fusion_to_composite.hpp", "fusion-to-composite: ", "error"),
    ("comm_domain_refusal_code", "include/neuronrw/passes/comm_domain_scopes/plan.hpp", "[", "error"),
    ("allreduce_signal_refusal_code", "include/neuronrw/passes/allreduce_signals.hpp", "[", "error"),
]


def codes_in(prefix, text):
    """The codes an expectation's text names in the form `prefix` stands for."""
    if prefix == "[":
        m = re.search(r"\[(\w+)\]$", text)
        return [m.group(1)] if m else []
    return [c.group(1) for c in re.finditer(re.escape(prefix) + r"(\w+):", text)]


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def enumerators(enum, header):
    """The enumerators of `enum class ENUM`, in declaration order, and those to_string names."""
    text = read(os.path.join(root, header))
    m = re.search(r"enum class " + enum + r"\b[^{]*\{(.*?)\};", text, re.S)
    if not m:
        return [], []
    body = re.sub(r"//[^\n]*", "", m.group(1))
    declared = re.findall(r"\b([a-z_]+)\b\s*(?:=\s*\d+\s*)?,?", body)
    named = re.findall(r"case " + enum + r"::(\w+): return \"(\w+)\";", text)
    return declared, named


def covered(lit_dir):
    """{(prefix, severity, code)} found in expectations of files that run --verify-diagnostics."""
    found = set()
    for name in sorted(os.listdir(lit_dir)):
        text = read(os.path.join(lit_dir, name))
        if "--verify-diagnostics" not in text and "-verify-diagnostics" not in text:
            continue
        for m in re.finditer(r"expected-(error|remark|warning|note)(?:-re)?\s*(?:@\S+)?\s*\{\{(.*)\}\}\s*$", text, re.M):
            for _, _, prefix, _ in ENUMS:
                for c in codes_in(prefix, m.group(2)):
                    found.add((prefix, m.group(1), c))
    return found


def missing_codes(lit_dir):
    """[(enum, code)] not covered by `lit_dir` nor listed as unreachable."""
    found = covered(lit_dir)
    out = []
    for enum, header, prefix, sev in ENUMS:
        _, named = enumerators(enum, header)
        for _, code in named:
            if (prefix, sev, code) not in found and (enum, code) not in UNREACHABLE:
                out.append((enum, code))
    return out


# The codes, read from the headers.
for enum, header, prefix, sev in ENUMS:
    declared, named = enumerators(enum, header)
    check(f"{enum}: {len(declared)} enumerators in {header}, each named by to_string",
          declared and [d for d, _ in named] == declared and all(a == b for a, b in named),
          f"declared {declared}\nto_string {named}")

# Every code covered (or unreachable, with its covering test).
found = covered(LIT)
for enum, header, prefix, sev in ENUMS:
    for _, code in enumerators(enum, header)[1]:
        if (enum, code) in UNREACHABLE:
            why, test = UNREACHABLE[(enum, code)]
            path = os.path.join(root, test)
            check(f"{enum}::{code}: unreachable from text ({why}); covered by {test}",
                  os.path.exists(path) and code in read(path))
            check(f"{enum}::{code}: no lit expectation claims the unreachable code", (prefix, sev, code) not in found)
            continue
        form = f"...[{code}]" if prefix == "[" else f"...{prefix}{code}:"
        check(f"{enum}::{code}: a lit test expects `{sev}: {form}`", (prefix, sev, code) in found)

# Every file with expectations checks its own text (lit itself runs every file of the directory).
for name in sorted(os.listdir(LIT)):
    text = read(os.path.join(LIT, name))
    if not re.search(r"expected-(error|remark|warning|note)", text) or name.endswith(".test"):
        continue
    run = "# RUN:" if name.endswith(".py") else "// RUN:"
    check(f"lit/{name} starts its RUN lines with `{run} neuronrw-opt %s`",
          re.search(r"^" + re.escape(run) + r" neuronrw-opt %s ", text, re.M) is not None)

# The notes of ScheduleFusion's remarks: one source, the library's note_text, for the driver
# and the MLIR pass alike.
note = re.compile(r"case (?:nr::)?schedule_refusal::(\w+): return \"([^\"]*)\";")
plan_text = read(os.path.join(root, "include", "neuronrw", "passes", "schedule_fusion", "plan.hpp"))
at = plan_text.find("note_text(schedule_refusal")
library_notes = dict(note.findall(plan_text[at:])) if at >= 0 else {}
check("note_text(schedule_refusal) in passes/schedule_fusion/plan.hpp words all 8 codes",
      len(library_notes) == 8, str(library_notes))
for user in (os.path.join("examples", "neuronrw-opt", "passes.hpp"),
             os.path.join("include", "neuronrw", "adapters", "mlir", "passes.hpp")):
    copied = dict(note.findall(read(os.path.join(root, user))))
    check(f"{user} keeps no copy of the notes (it reports through to_diagnostics)", not copied, str(copied))

# Self-test: without the non_convex expectation the check reports non_convex missing.
with tempfile.TemporaryDirectory() as tmp:
    copy = os.path.join(tmp, "lit")
    shutil.copytree(LIT, copy)
    path = os.path.join(copy, "schedule_fusion_refusals.mlir")
    text = read(path)
    line = re.search(r"^.*expected-remark.*refused this candidate: non_convex:.*\n", text, re.M)
    check("self-test: the non_convex expectation exists", line is not None)
    if line:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace(line.group(0), ""))
        check("self-test: removing it makes schedule_refusal::non_convex uncovered",
              missing_codes(copy) == [("schedule_refusal", "non_convex")], str(missing_codes(copy)))
    check("self-test: the unmodified directory covers every reachable code", missing_codes(LIT) == [],
          str(missing_codes(LIT)))

check.exit()
