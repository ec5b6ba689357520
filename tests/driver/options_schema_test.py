#!/usr/bin/env python3
"""Every pass descriptor and its options schema (neuronrw/passes/protocol.hpp, options.hpp, dumped
by options_schema_dump: the library's five, neuronrw-opt's validate-kinds, the docs' prefetch)
against what the tools and the docs say about them:

  - neuronrw-opt --list-passes (prefetch-opt's for prefetch, registered from its descriptor alone):
    each pass's line (its descriptor's summary) and one line per option the driver offers (name,
    type, help, alias, default), exactly, in schema order; its dry-run line (when it has a
    `dry-run` option and a dry_run_help); its alias (its MLIR name); nothing else;
  - neuronrw-mlir-opt --help: each MLIR pass (descriptor_mlir_name) with its description
    (descriptor_mlir_summary) and options (names, types, MLIR help lines), and
    --dump-pass-pipeline: their defaults (the descriptor's, e.g. the pattern's budget);
  - docs/driver.md's pass table, docs/mlir.md's option tables and README.md's pass table: the same
    option names (and, where the docs give them, aliases and defaults).

usage: options_schema_test.py DUMPER NEURONRW_OPT PREFETCH_OPT NEURONRW_MLIR_OPT|'' SOURCE_ROOT
"""
import json
import os
import re
import subprocess
import sys

dumper, opt, prefetch_opt, mlir_opt, root = sys.argv[1:6]
failures = 0


def check(what, ok, detail=""):
    global failures
    print(("ok   " if ok else "FAIL ") + what + ("" if ok else "\n     " + detail))
    failures += not ok


def run(args):
    return subprocess.run(args, capture_output=True, text=True)


def pad(s, w=44):
    return s + " " * (w - len(s)) if len(s) + 1 < w else s + " "


TYPE_TEXT = {"uint64": "=<ulong>", "string": "=<string>", "boolean": ""}
passes = json.loads(run([dumper]).stdout)
check("the dumper lists the seven descriptors", len(passes) == 7, str([p["name"] for p in passes]))

# --------------------------------------------------------------------- neuronrw-opt --list-passes
builtin_listing = run([opt, "--list-passes"]).stdout.splitlines()
prefetch_listing = run([prefetch_opt, "--list-passes"]).stdout.splitlines()
expected_listing = {"Passes on MLIR input (--pass-pipeline='builtin.module(...)'):": [],
                    "Passes on host programs (--pass-pipeline='host.program(...)'):": [],
                    "Aliases (neuronrw-mlir-opt's pass names, so its pipelines run unchanged):": []}
heads = list(expected_listing)
for p in passes:
    listing = prefetch_listing if p["name"] == "prefetch" else builtin_listing
    head = pad("  --" + p["name"]) + "-   " + p["summary"]
    expected = [head]
    for o in p["options"]:
        if not o["driver"]:
            continue
        line = pad("    --" + o["name"] + TYPE_TEXT[o["type"]]) + "- " + o["help"] + " ("
        if o["alias"]:
            line += "alias: " + o["alias"] + "; "
        line += "default: " + (o["descriptor_default"] or '""') + ")"
        expected.append(line)
    if p["input"] == "ops":  # the run-level kinds option every pass over ops gets (docs/kinds.md)
        expected.append(pad("    --kinds=<string>") + "- " + p["kinds_help"] + ' (default: "")')
    if p["checked"] or p["host_checked"]:  # a checked apply: the pass's own verify-rewrites (docs/validation.md)
        expected.append(pad("    --verify-rewrites") + "- " + p["verify_rewrites_help"] + " (default: false)")
    at = listing.index(head) if head in listing else -1
    got = listing[at:at + len(expected)] if at >= 0 else []
    check(f"--list-passes shows {p['name']} and its options from the schema", got == expected,
          "expected:\n" + "\n".join(expected) + "\ngot:\n" + "\n".join(got))
    if at >= 0:
        nxt = listing[at + len(expected)] if at + len(expected) < len(listing) else ""
        check(f"--list-passes shows no other option of {p['name']}", not nxt.startswith("    --"), nxt)
    check(f"{p['name']}: every option with a member default-checks (open defaults come from the descriptor)",
          all(o["default"] == o["descriptor_default"] for o in p["options"]), p["name"])
    has_dry = any(o["name"] == "dry-run" and o["driver"] for o in p["options"]) and p["dry_run_help"]
    if has_dry:
        expected.append(pad("  --" + p["name"] + "-dry-run") + "-   " + p["name"] + "{dry-run=true}: " + p["dry_run_help"])
    if at >= 0 and has_dry:
        check(f"--list-passes shows {p['name']}-dry-run from the descriptor", listing[at + len(expected) - 1] == expected[-1],
              listing[at + len(expected) - 1])
    if p["name"] != "prefetch":
        expected_listing[heads[0 if p["input"] == "ops" else 1]] += expected
        if p["input"] == "ops" and p["mlir_name"]:
            expected_listing[heads[2]].append(pad("  --" + p["mlir_name"]) + "-   " + p["name"])
want = []
for h in heads:
    want += [h] + expected_listing[h]
check("neuronrw-opt --list-passes is its descriptors' entries, dry runs and aliases, and nothing else",
      builtin_listing == want,
      "\n".join(l for l in builtin_listing if l not in want))

# ----------------------------------------------------------------------- neuronrw-mlir-opt
if mlir_opt:
    help_lines = run([mlir_opt, "--help"]).stdout.splitlines()
    # neuronrw-mlir-opt registers the library's MLIR passes (prefetch's: tests/adapters/mlir).
    mlir_passes = [p for p in passes if p["input"] == "ops" and p["mlir_name"] and p["name"] != "prefetch"]
    check("neuronrw-mlir-opt registers the library's three MLIR passes", len(mlir_passes) == 3,
          str([p["name"] for p in mlir_passes]))
    for p in mlir_passes:
        arg = p["mlir_name"]
        at = next((i for i, l in enumerate(help_lines) if l.split() and l.split()[0] == "--" + arg), -1)
        check(f"neuronrw-mlir-opt --help lists {arg}", at >= 0)
        check(f"{arg}'s description is the descriptor's MLIR summary",
              at >= 0 and help_lines[at].split(" - ", 1)[-1].strip() == p["mlir_summary"], help_lines[at] if at >= 0 else "")
        got = {}
        for line in help_lines[at + 1:]:
            m = re.match(r"^ {8}--(\S+?)(=<\w+>)?\s+- (.*)$", line)
            if not m:
                break
            got[m.group(1)] = (m.group(2) or "", m.group(3))
        expected = {o["name"]: (TYPE_TEXT[o["type"]], o["mlir_help"]) for o in p["options"] if o["mlir"]}
        for o in p["options"]:  # an alias is an option of its own (`kind` for `fusion-kind`)
            if o["mlir"] and o["alias"]:
                expected[o["alias"]] = (TYPE_TEXT[o["type"]], "The same as " + o["name"])
        expected["kinds"] = ("=<string>", p["kinds_help"])  # run-level, every pass (docs/kinds.md)
        if p["checked"]:  # a checked apply: the run-level verify-rewrites option (docs/validation.md)
            expected["verify-rewrites"] = ("", p["verify_rewrites_help"])
        check(f"{arg}'s options in --help are the schema's (names, types, help)", got == expected,
              f"expected {expected}\n     got {got}")
    # Defaults, as MLIR prints the pipeline.
    src = os.path.join(root, "examples", "mlir", "layer.mlir")
    pipeline = ",".join(p["mlir_name"] for p in mlir_passes)
    r = run([mlir_opt, "--allow-unregistered-dialect", src, "-o", os.devnull, "--dump-pass-pipeline",
             f"--pass-pipeline=builtin.module({pipeline})"])
    for p in mlir_passes:
        m = re.search(r"^  " + re.escape(p["mlir_name"]) + r"\{([^}]*)\}", r.stderr, re.M)
        got = dict(kv.split("=", 1) for kv in m.group(1).split()) if m else None
        expected = {o["name"]: o["descriptor_default"] for o in p["options"] if o["mlir"]}
        for o in p["options"]:
            if o["mlir"] and o["alias"]:
                expected[o["alias"]] = ""
        expected["kinds"] = ""
        if p["checked"]:
            expected["verify-rewrites"] = "false"
        check(f"{p['mlir_name']}'s defaults in --dump-pass-pipeline are the schema's", got == expected,
              f"expected {expected}\n     got {got}")


# ------------------------------------------------------------------------------------- docs
def read(rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return f.read()


def table_rows(text, header_start):
    """The rows (lists of cells) of the markdown table whose header line starts with header_start."""
    lines = text.splitlines()
    at = next(i for i, l in enumerate(lines) if l.startswith(header_start))
    rows = []
    for l in lines[at + 2:]:
        if not l.startswith("|"):
            break
        rows.append([c.strip() for c in l.strip().strip("|").split("|")])
    return rows


by_name = {p["name"]: p for p in passes}
driver_md = read("docs/driver.md")
for row in table_rows(driver_md, "| pass | display name | input | options (default) |"):
    name = row[0].strip("`")
    if name not in by_name or row[3].startswith("the same"):
        continue
    p = by_name[name]
    check(f"docs/driver.md: {name}'s display name is its descriptor's", row[1] == p["display"], row[1])
    got = [(m.group(1), m.group(2) or "", m.group(3))
           for m in re.finditer(r"`([\w-]+)`(?: alias `([\w-]+)`)? \(([^)]*)\)", row[3])]
    expected = [(o["name"], o["alias"], o["descriptor_default"]) for o in p["options"] if o["driver"]]
    check(f"docs/driver.md: {name}'s options (name, alias, default) are the schema's", got == expected,
          f"expected {expected}\n     got {got}")

mlir_md = read("docs/mlir.md")
for header, names in [("| ScheduleFusion option (both flavours) |", ["schedule-fusion", "schedule-fusion-composites"]),
                      ("| FusionToComposite option |", ["fusion-to-composite"])]:
    rows = table_rows(mlir_md, header)
    got = {r[0].strip("`"): r[1] for r in rows}
    for n in names:
        opts = [o for o in by_name[n]["options"] if o["mlir"]] + [{"name": "kinds", "default": ""}]
        if by_name[n]["checked"]:
            opts = opts + [{"name": "verify-rewrites", "default": "false"}]
        check(f"docs/mlir.md: {n}'s options are the schema's", sorted(got) == sorted(o["name"] for o in opts),
              f"expected {sorted(o['name'] for o in opts)}\n     got {sorted(got)}")
        for o in opts:
            cell = got.get(o["name"], "")
            ok = cell.startswith("`" + o["default"] + "`") or (o["default"] in cell and "pattern" in cell)
            check(f"docs/mlir.md: {n}'s {o['name']} default is the schema's ({o['default']})", ok, cell)

readme = read("README.md")
for p in passes:
    m = re.search(r"^\| `--" + re.escape(p["name"]) + r"` \|[^|]*\|[^|]*\| ([^|]*) \|", readme, re.M)
    if not m or m.group(1).startswith("as above"):
        continue
    got = sorted(set(re.findall(r"`([\w-]+)`", m.group(1))))
    names = sorted({o["name"] for o in p["options"] if o["driver"]} | {o["alias"] for o in p["options"] if o["alias"]})
    check(f"README.md: {p['name']}'s options are the schema's", got == names, f"expected {names}\n     got {got}")

sys.exit(1 if failures else 0)
