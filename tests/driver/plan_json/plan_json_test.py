#!/usr/bin/env python3
"""The machine-readable plans against their schema, their text twins and their documentation.

Usage: plan_json_test.py PLAN_JSON_DUMP ROOT        (ROOT: the repository; the dumps run there)

Validation is python3-jsonschema's (Draft 2020-12); without it the test is skipped (exit 77).
1. The schema itself is valid against the Draft 2020-12 metaschema, and uses only keywords the
   draft defines (jsonschema ignores an unknown keyword, which would then check nothing).
2. Every input the tests run dry runs on — every *.mlir and every host program (a *.py with an
   `@pl.program` line) under examples/ and tests/; lit files, those with a `// RUN:` (`# RUN:`)
   line, split at `// -----` (`# -----`), each chunk kept at its line numbers — through
   plan_json_dump: the ScheduleFusion plan, the FusionToComposite plan and the FusionToComposite plan after
   ScheduleFusion for MLIR, the comm-domain plan for host programs. Each document must be valid
   against docs/plan-schema.json and say
   what the text plan of the same run says: counts, clusters, moves, live values, conversions,
   scopes, and every refusal's code, op and message word for word. tests/corpus/invalid/ must be
   rejected; lit chunks and the files of the parser's corpus (tests/corpus/*.mlir,
   tests/corpus/expected/) that the reference parser or verifier rejects, as the driver would
   before any dry run, are skipped, counted and listed with the reason; everything else (the
   examples, the ScheduleFusion corpus, every host program) must be accepted.
3. The schema's enums equal the headers' code lists (plan_json_dump --enums), so neither can
   change without the other.
4. The schema rejects what it must: mutations of real documents (a missing or unknown key, a wrong
   version, pass, code, location, index, type) are each invalid.
5. docs/plan-format.md: every ```json block is marked `<!-- plan-json: PLAN INPUT -->` and equals
   what plan_json_dump prints for that input, byte for byte.
Each check prints one line; at the end, how many documents were validated and which codes they
held. Exits 1 if any check failed.
"""
import copy
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "support"))
from checks import Checks  # noqa: E402
try:
    import jsonschema  # noqa: E402
except ImportError:
    print(f"skipped: {sys.executable} cannot import jsonschema (Debian: apt-get install python3-jsonschema)")
    sys.exit(77)
from importlib.metadata import version as package_version  # noqa: E402

jsonschema_version = package_version("jsonschema")

dump, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
# The driver, when given: its `--plan-format=json` dry runs must print what plan_json_dump prints.
driver = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else None
DRIVER_ARGS = {
    "schedule-fusion": ["--schedule-fusion-dry-run"],
    "fusion-to-composite": ["--fusion-to-composite-dry-run"],
    "pipeline-fusion-to-composite": ["--schedule-fusion", "--fusion-to-composite-dry-run"],
    "materialize-comm-domain-scopes": ["--materialize-comm-domain-scopes-dry-run"],
    "synthesize-allreduce-signals": ["--synthesize-allreduce-signals-dry-run"],
}
driver_runs = 0
check = Checks()
schema_path = os.path.join(root, "docs", "plan-schema.json")


def parse_document(text):
    """A JSON document; a duplicate key is an error (json.loads would keep the last one)."""
    def no_duplicates(pairs):
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            raise ValueError("duplicate keys " + ", ".join(sorted({k for k in keys if keys.count(k) > 1})))
        return dict(pairs)
    return json.loads(text, object_pairs_hook=no_duplicates)


with open(schema_path, encoding="utf-8") as f:
    schema = parse_document(f.read())
validator = jsonschema.Draft202012Validator(schema)

MLIR_PLANS = ["schedule-fusion", "fusion-to-composite", "pipeline-fusion-to-composite"]
HOST_PLAN = "materialize-comm-domain-scopes"
HOST_PLANS = [HOST_PLAN, "synthesize-allreduce-signals"]


def run_dump(args, cwd=root):
    return subprocess.run([dump] + args, cwd=cwd, capture_output=True, text=True, encoding="utf-8")


def schema_errors(doc):
    return [f"/{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))]


# ---------------------------------------------------------------------------------- 1. the schema
try:
    jsonschema.Draft202012Validator.check_schema(schema)
    check("docs/plan-schema.json is a valid Draft 2020-12 schema", True)
except jsonschema.exceptions.SchemaError as e:
    check("docs/plan-schema.json is a valid Draft 2020-12 schema", False, str(e))
# Every key of a schema object must be a keyword of the draft (or an annotation): jsonschema
# ignores the rest, so a misspelt keyword would silently check nothing.
known = set(jsonschema.Draft202012Validator.VALIDATORS) | {
    "$schema", "$id", "$defs", "$comment", "$anchor", "title", "description", "default", "examples",
    "deprecated", "readOnly", "writeOnly"}


def unknown_keywords(node, path="#"):
    """(path, keyword) for each key of a schema object that the draft does not define."""
    out = []
    if isinstance(node, dict):
        for k, v in node.items():
            if k not in known:
                out.append((path, k))
            if k in ("properties", "$defs", "patternProperties", "dependentSchemas"):
                for name, sub in v.items():
                    out += unknown_keywords(sub, f"{path}/{k}/{name}")
            elif k in ("items", "additionalProperties", "not", "if", "then", "else", "contains",
                       "propertyNames", "unevaluatedItems", "unevaluatedProperties"):
                out += unknown_keywords(v, f"{path}/{k}")
            elif k in ("oneOf", "anyOf", "allOf", "prefixItems"):
                for i, sub in enumerate(v):
                    out += unknown_keywords(sub, f"{path}/{k}/{i}")
    return out


check("docs/plan-schema.json uses only the draft's keywords", not unknown_keywords(schema), unknown_keywords(schema))
check("self-test: a misspelt keyword is found", unknown_keywords(
    {"type": "object", "properties": {"a": {"enumm": [1]}}, "oneOf": [{"minItem": 1}]}) ==
    [("#/properties/a", "enumm"), ("#/oneOf/0", "minItem")], unknown_keywords({"properties": {"a": {"enumm": [1]}}}))


# --------------------------------------------------------------- 2. the inputs and their plans
def op_text(op):
    """An op as the text plans print it (ref::plan_printer)."""
    if op is None:
        return "<none>"
    loc = op["loc"]
    return f'"{op["name"]}" ({loc["line"]}:{loc["col"]})' if loc else f'"{op["name"]}" (?)'


def plural(n, one, many):
    return f"{n} {one if n == 1 else many}"


def text_problems_schedule_fusion(d, text):
    lines = text.split("\n")
    want = [
        plural(d["candidates"], "candidate", "candidates") + ": " + plural(len(d["clusters"]), "cluster", "clusters")
        + f", {len(d['refusals'])} refused",
    ]
    # A function's header line appears when it holds a candidate.
    want += [f"@{x['function']}" for x in d["clusters"] + d["refusals"] if x["function"] is not None]
    want += [f"skipped @{s['function']}: carries {s['attribute']}" for s in d["skipped_functions"]]
    for c in d["clusters"]:
        want.append(f"  cluster {c['index']}: " + " + ".join(op_text(o) for o in c["ops"]))
        want += [f"    move {op_text(m['op'])} {m['position']} {op_text(m['anchor'])}" for m in c["moves"]]
        want.append("    live-ins: " + (", ".join(c["live_ins"]) or "(none)"))
        want.append("    live-outs: " + (", ".join(c["live_outs"]) or "(none)"))
        if d["emit_composites"]:
            want.append(f"    lowered to a composite, decomposition @{c['decomposition']}")
    want += [f"  refused {op_text(r['consumer'])}: {r['code']}: {r['message']}" for r in d["refusals"]]
    return [w for w in want if w not in lines]


def text_problems_fusion_to_composite(d, text):
    lines = text.split("\n")
    want = [
        "fusion-to-composite plan: " + plural(len(d["conversions"]), "conversion", "conversions")
        + f", {len(d['refusals'])} refused" + ("" if d["ok"] else " (nothing is applied)"),
    ]
    want += [f"skipped @{s['function']}: carries genComposite" for s in d["skipped_functions"]]
    want += [f"name @{n} taken: skipped" for n in d["skipped_names"]]
    want += [f"refused {op_text(r['op'])}: {r['code']}: {r['message']}" for r in d["refusals"]]
    missing = [w for w in want if w not in lines]
    for c in d["conversions"]:
        prefix = f"convert {op_text(c['fusion'])} in @{c['function']} -> @{c['decomposition']}, CompositeKind "
        if not any(l.startswith(prefix) and l.endswith(" (no FusionKind)") == c["kind_defaulted"] for l in lines):
            missing.append(prefix + "...")
    return missing


def coverage_text(cov):
    if cov["all"]:
        return "all"
    ranks = [str(r) for first, last in cov["ranges"] for r in range(first, last + 1)]
    return "{" + ", ".join(ranks) + "}" if ranks else "bottom"


STATUS_TEXT = {"materialize": "materialize", "no_allocs": "no allocations",
               "already_materialized": "already materialized", "failed": "failed"}


def text_problems_comm_domain(d, text):
    lines = text.split("\n")
    want = []
    for f in d["functions"]:
        want.append(f"function {f['name']}: {STATUS_TEXT[f['status']]}")
        if f["status"] != "materialize":
            continue
        bufs = f["buffers"]
        for b in bufs:
            loc = b["op"]["loc"]
            want.append(f"  alloc {b['name']} at {loc['line']}:{loc['col']}: {len(b['views'])} view(s), devices "
                        f"{coverage_text(b['devices'])}, scope {f['scopes'][b['scope']]['name']}")
        for x in f["dispatches"]:
            loc = x["op"]["loc"]
            want.append(f"  dispatch {x['callee']} at {loc['line']}:{loc['col']}: devices {coverage_text(x['devices'])}, "
                        "allocs [" + ", ".join(bufs[i]["name"] for i in x["buffers"]) + "]")
        for c in f["collectives"]:
            loc = c["op"]["loc"]
            s = f"  collective {c['op']['name']} at {loc['line']}:{loc['col']}: "
            s += "no target" if c["target"] is None else f"target {bufs[c['target']]['name']}"
            want.append(s + "".join(f", inherits {bufs[i]['name']}" for i in c["inheritors"]))
        for s in f["scopes"]:
            want.append(f"  scope {s['name']}: devices [" + ", ".join(map(str, s["devices"])) + "], slots ["
                        + ", ".join(bufs[i]["name"] for i in s["slots"]) + "]")
    for r in d["refusals"]:
        loc = r["loc"]
        where = f"{d['file']}:{loc['line']}:{loc['col']}" if loc else d["file"]
        want.append(f"{where}: error: {r['message']}")
    missing = [w for w in want if w not in lines]
    if d["ok"] != (not d["refusals"]):
        missing.append("ok must be true exactly when there are no refusals")
    return missing


def text_problems_allreduce(d, text):
    lines = text.split("\n")
    want = []
    for r in d["rewrites"]:
        loc = r["op"]["loc"]
        s = f"allreduce at {loc['line']}:{loc['col']} in {r['function']}: "
        s += (f"signal {r['signal']} over {r['buffer']} ([{r['world_size']}, {r['core_num']}] INT32)" if r["synthesize"]
              else "explicit signal")
        if r["form"] == "return":
            s += f", result bound to {r['result']}"
        want.append(s)
    for r in d["refusals"]:
        loc = r["loc"]
        where = f"{d['file']}:{loc['line']}:{loc['col']}" if loc else d["file"]
        want.append(f"{where}: error: {r['message']}")
    missing = [w for w in want if w not in lines]
    if d["ok"] != (not d["refusals"]):
        missing.append("ok must be true exactly when there are no refusals")
    return missing


TEXT_CHECKS = {"schedule-fusion": text_problems_schedule_fusion,
               "fusion-to-composite": text_problems_fusion_to_composite,
               "materialize-comm-domain-scopes": text_problems_comm_domain,
               "synthesize-allreduce-signals": text_problems_allreduce}


def is_lit(path):
    """A lit test file: it has a `// RUN:` (MLIR) or `# RUN:` (host program) line."""
    with open(path, encoding="utf-8") as f:
        return re.search(r"^(//|#) RUN:", f.read(), re.M) is not None


def lit_chunks(path, tmp):
    """The `// -----` (`# -----` in host programs) chunks of a lit file as files, each padded with
    blank lines so that its lines keep their numbers; [(label, file)]."""
    comment = "#" if path.endswith(".py") else "//"
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    starts = [0] + [i + 1 for i, l in enumerate(lines) if re.match(rf"^{comment} -----\s*$", l)]
    ends = [s - 1 for s in starts[1:]] + [len(lines)]
    out = []
    rel = os.path.relpath(path, root)
    for k, (s, e) in enumerate(zip(starts, ends)):
        base, ext = os.path.splitext(os.path.basename(path))
        name = os.path.join(tmp, f"{base}.chunk{k}{ext}")
        with open(name, "w", encoding="utf-8") as f:
            f.write("\n" * s + "\n".join(lines[s:e]) + "\n")
        out.append((f"{rel} chunk {k} (line {s + 1})", name))
    return out


documents = {"schedule-fusion": 0, "fusion-to-composite": 0, "materialize-comm-domain-scopes": 0,
             "synthesize-allreduce-signals": 0}
codes_seen = {}
inputs_seen = {"accepted": 0, "invalid (rejected as expected)": 0, "skipped": 0}
skipped = []  # lit chunks and parser-corpus files the reference parser or verifier rejects
samples = {}  # the richest valid document of each pass, for the mutations of part 4


def richness(doc):
    """Which of the parts the mutations need a document has (refusals, clusters with moves,
    functions with buffers and scopes); the first document with the most wins."""
    parts = [bool(doc["refusals"])]
    if doc["pass"] == "schedule-fusion":
        parts += [any(c["moves"] for c in doc["clusters"])]
    if doc["pass"] == "materialize-comm-domain-scopes":
        parts += [any(f["buffers"] for f in doc["functions"])]
    if doc["pass"] == "synthesize-allreduce-signals":
        parts += [bool(doc["rewrites"])]
    return sum(parts)


def has_options_line(path):
    with open(path if os.path.isabs(path) else os.path.join(root, path), encoding="utf-8") as f:
        return "// schedule-fusion-options:" in f.read()


def check_plan(label, plan, path):
    """Runs one dry run on `path`; returns whether it printed (False: the input was rejected)."""
    j = run_dump([plan, path])
    if j.returncode == 1:
        return False
    t = run_dump(["--text", plan, path])
    if j.returncode != 0 or t.returncode != 0:
        check(f"{plan} on {label} runs", False, j.stderr + t.stderr)
        return True
    try:
        doc = parse_document(j.stdout)
    except ValueError as e:
        check(f"{plan} on {label} is JSON", False, str(e))
        return True
    problems = schema_errors(doc)
    if not j.stdout.endswith("}\n") or j.stdout.endswith("\n\n"):
        problems.append("the document must end with '}' and exactly one newline")
    pass_name = doc.get("pass")
    if not problems:
        problems = [f"not in the text plan: {w}" for w in TEXT_CHECKS[pass_name](doc, t.stdout)]
    check(f"{plan} on {label}: valid, and says what the text plan says", not problems,
          "\n".join(problems[:12]) + "\n--- text plan ---\n" + t.stdout)
    if not problems and driver and not has_options_line(path) and (pass_name not in HOST_PLANS + ["fusion-to-composite"] or doc.get("ok")):
        # The driver prints the same document (a refused comm-domain or FusionToComposite plan is its errors and exit 1
        # instead; the corpus's `// schedule-fusion-options:` lines are plan_json_dump's own).
        global driver_runs
        d = subprocess.run([driver, "--plan-format=json"] + DRIVER_ARGS[plan] + [path], cwd=root,
                           capture_output=True, text=True, encoding="utf-8")
        driver_runs += 1
        if d.returncode != 0 or d.stdout != j.stdout:
            problems.append(f"neuronrw-opt --plan-format=json {' '.join(DRIVER_ARGS[plan])} exits {d.returncode} "
                            f"and prints another document than plan_json_dump:\n{d.stdout[:2000]}{d.stderr[:2000]}")
        check(f"{plan} on {label}: neuronrw-opt --plan-format=json prints the same document", not problems,
              "\n".join(problems[-1:]))
    if not problems:
        documents[pass_name] += 1
        for r in doc["refusals"]:
            codes_seen.setdefault(pass_name, set()).add(r["code"])
            if r.get("repair"):
                codes_seen.setdefault("repair", set()).add(r["repair"])
        if pass_name not in samples or richness(doc) > richness(samples[pass_name]):
            samples[pass_name] = doc
    return True


with tempfile.TemporaryDirectory() as tmp:
    mlir = sorted(set(glob.glob("examples/**/*.mlir", root_dir=root, recursive=True)
                      + glob.glob("tests/**/*.mlir", root_dir=root, recursive=True)))
    for rel in mlir:
        lit = is_lit(os.path.join(root, rel))
        # The parser's corpus holds inputs the verifier rejects on purpose (graph regions, regions
        # without terminators); the driver rejects them before any dry run.
        parser_corpus = os.path.dirname(rel) in ("tests/corpus", "tests/corpus/expected")
        targets = lit_chunks(os.path.join(root, rel), tmp) if lit else [(rel, rel)]
        for label, path in targets:
            printed = [check_plan(label, plan, path) for plan in MLIR_PLANS]
            if rel.startswith("tests/corpus/invalid/"):
                check(f"{label} is rejected as invalid", not any(printed))
                inputs_seen["invalid (rejected as expected)"] += 1
            elif (lit or parser_corpus) and not any(printed):
                inputs_seen["skipped"] += 1
                why = run_dump([MLIR_PLANS[0], path]).stderr.split("\n")[0].replace(path, rel)
                skipped.append(f"{label}: {why}")
            else:
                check(f"{label} is accepted", all(printed), run_dump([MLIR_PLANS[0], path]).stderr)
                inputs_seen["accepted"] += 1
    hosts = []
    for rel in sorted(glob.glob("examples/**/*.py", root_dir=root, recursive=True)
                      + glob.glob("tests/**/*.py", root_dir=root, recursive=True)):
        if rel.endswith("_test.py"):  # the tests' own scripts, which may embed host programs in strings
            continue
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            if re.search(r"^@pl\.program", f.read(), re.M):
                hosts.append(rel)
    for rel in hosts:
        lit = is_lit(os.path.join(root, rel))
        for label, path in lit_chunks(os.path.join(root, rel), tmp) if lit else [(rel, rel)]:
            printed = all([check_plan(label, plan, path) for plan in HOST_PLANS])
            if lit and not printed:
                inputs_seen["skipped"] += 1
                skipped.append(f"{label}: " + run_dump([HOST_PLAN, path]).stderr.split("\n")[0].replace(path, rel))
            else:
                check(f"{label} is accepted", printed, run_dump([HOST_PLAN, path]).stderr)
                inputs_seen["accepted"] += 1

check("every pass has documents", all(documents.values()), documents)

# --------------------------------------------------------------------------- 3. enums vs headers
r = run_dump(["--enums"])
enums = json.loads(r.stdout) if r.returncode == 0 else {}
schema_enums = {k: v["enum"] for k, v in schema["$defs"].items() if "enum" in v}
check("the schema's enums are exactly the headers' code lists",
      r.returncode == 0 and schema_enums == enums,
      f"schema: {json.dumps(schema_enums, indent=1)}\nheaders: {r.stdout}{r.stderr}")


# ---------------------------------------------------------------------- 4. the schema rejects
def mutated(doc, path, value=None, delete=False):
    d = copy.deepcopy(doc)
    node = d
    for p in path[:-1]:
        node = node[p]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return d


def first_op_path(doc):
    """A path to the first op reference of the document."""
    if doc["pass"] == "schedule-fusion":
        return ["refusals", 0, "op"] if doc["refusals"] else ["clusters", 0, "ops", 0]
    if doc["pass"] == "fusion-to-composite":
        return ["refusals", 0, "op"] if doc["refusals"] else ["conversions", 0, "fusion"]
    if doc["pass"] == "synthesize-allreduce-signals":
        return ["refusals", 0, "op"] if doc["refusals"] else ["rewrites", 0, "op"]
    return ["refusals", 0, "op"] if doc["refusals"] else ["functions", 0, "buffers", 0, "op"]


for pass_name, doc in sorted(samples.items()):
    op = first_op_path(doc)
    located = op + ["loc"]
    mutations = [
        ("no 'file'", mutated(doc, ["file"], delete=True)),
        ("an unknown top-level key", mutated(doc, ["extra"], 1)),
        ("version 2", mutated(doc, ["version"], 2)),
        ("another format", mutated(doc, ["format"], "neuronrw-plan2")),
        ("another pass's name", mutated(doc, ["pass"], "fusion-to-composite" if pass_name == "schedule-fusion"
                                          else "schedule-fusion")),
        ("file null", mutated(doc, ["file"], None)),
        ("an op without 'result'", mutated(doc, op + ["result"], delete=True)),
        ("an op with an unknown key", mutated(doc, op + ["kind"], "x")),
        ("an op name that is a number", mutated(doc, op + ["name"], 3)),
        ("a location at line 0", mutated(doc, located, {"file": "f", "line": 0, "col": 1})),
        ("a location without 'col'", mutated(doc, located, {"file": "f", "line": 1})),
        ("a location line true", mutated(doc, located, {"file": "f", "line": True, "col": 1})),
        ("refusals not an array", mutated(doc, ["refusals"], {})),
        ("a refusal with an unknown code", None if not doc["refusals"] else mutated(doc, ["refusals", 0, "code"], "nope")),
        ("a refusal without a message", None if not doc["refusals"] else mutated(doc, ["refusals", 0, "message"], delete=True)),
    ]
    if pass_name == "schedule-fusion":
        mutations += [
            ("budget as a string", mutated(doc, ["pattern", "budget"], "100")),
            ("a negative candidate count", mutated(doc, ["candidates"], -1)),
            ("a cluster with one op", None if not doc["clusters"] else
             mutated(doc, ["clusters", 0, "ops"], doc["clusters"][0]["ops"][:1])),
            ("a move to 'inside'", None if not any(c["moves"] for c in doc["clusters"]) else
             mutated(doc, ["clusters", next(i for i, c in enumerate(doc["clusters"]) if c["moves"]), "moves", 0, "position"], "inside")),
            ("a repair code that does not exist", None if not doc["refusals"] else
             mutated(doc, ["refusals", 0, "repair"], "nope")),
        ]
    if pass_name == "fusion-to-composite":
        mutations += [("a refusal without an op", None if not doc["refusals"] else mutated(doc, ["refusals", 0, "op"], None)),
                      ("ok as a string", mutated(doc, ["ok"], "true"))]
    if pass_name == "materialize-comm-domain-scopes":
        fn = ["functions", 0]
        mutations += [
            ("a function status that does not exist", mutated(doc, fn + ["status"], "done")),
            ("a device range of three numbers", mutated(doc, fn + ["buffers"], [{
                "name": "b", "op": {"name": "x", "result": None, "loc": None}, "views": [], "scope": None,
                "devices": {"all": False, "ranges": [[0, 1, 2]]}}])),
            ("a scope without slots", mutated(doc, fn + ["scopes"], [{"name": "s", "all_devices": True, "devices": [], "slots": []}])),
            ("a negative device", mutated(doc, fn + ["scopes"], [{"name": "s", "all_devices": False, "devices": [-1], "slots": [0]}])),
        ]
    if pass_name == "synthesize-allreduce-signals":
        mutations += [("a rewrite form that does not exist", None if not doc["rewrites"] else
                       mutated(doc, ["rewrites", 0, "form"], "call")),
                      ("core_num 0", None if not doc["rewrites"] else mutated(doc, ["rewrites", 0, "core_num"], 0))]
    check(f"schema: a real {pass_name} document is valid", not schema_errors(doc), schema_errors(doc))
    for what, d in mutations:
        if d is None:
            check(f"schema rejects a {pass_name} document with {what}", False,
                  "no validated document has the part this mutation changes")
            continue
        check(f"schema rejects a {pass_name} document with {what}", not validator.is_valid(d), "accepted")

# ------------------------------------------------------------------------ 5. the documentation
doc_path = os.path.join(root, "docs", "plan-format.md")
with open(doc_path, encoding="utf-8") as f:
    doc_lines = f.read().split("\n")
marker = re.compile(r"^<!--\s*plan-json:\s*(\S+)\s+(\S+)\s*-->$")
examples = []
i = 0
while i < len(doc_lines):
    if doc_lines[i].startswith("```json"):
        j = i - 1
        while j >= 0 and not doc_lines[j].strip():
            j -= 1
        m = marker.match(doc_lines[j].strip()) if j >= 0 else None
        k = i + 1
        while k < len(doc_lines) and doc_lines[k] != "```":
            k += 1
        body = "\n".join(doc_lines[i + 1:k]) + "\n"
        check(f"docs/plan-format.md:{i + 1}: the json block is marked <!-- plan-json: PLAN INPUT -->", m is not None)
        if m:
            examples.append((i + 1, m.group(1), m.group(2), body))
        i = k
    i += 1
passes_shown = set()
for line, plan, path, body in examples:
    r = run_dump([plan, path])
    check(f"docs/plan-format.md:{line}: the {plan} example is what plan_json_dump prints for {path}",
          r.returncode == 0 and r.stdout == body, r.stderr + "\n--- printed ---\n" + r.stdout)
    if r.returncode == 0:
        passes_shown.add(json.loads(r.stdout)["pass"])
check("docs/plan-format.md shows an example of every pass", passes_shown == set(documents), passes_shown)

# -------------------------------------------------------------------------------- the summary
print("validated by jsonschema " + jsonschema_version + ": "
      + ", ".join(f"{n} {p} documents" for p, n in documents.items()))
print("inputs: " + ", ".join(f"{n} {k}" for k, n in inputs_seen.items()))
if driver:
    print(f"neuronrw-opt --plan-format=json printed the same document on {driver_runs} dry runs")
    check("the driver's JSON was compared on every pass's dry runs", driver_runs >= sum(documents.values()) // 2,
          driver_runs)
for label in skipped:
    print(f"  skipped, rejected before any dry run: {label}")
enum_of = {"schedule-fusion": "schedule_refusal", "fusion-to-composite": "f2c_problem_code",
           "materialize-comm-domain-scopes": "comm_domain_refusal_code",
           "synthesize-allreduce-signals": "allreduce_signal_refusal_code", "repair": "repair_refusal"}
for p, e in enum_of.items():
    seen = codes_seen.get(p, set())
    unseen = [c for c in schema_enums.get(e, []) if c not in seen]
    print(f"{e} codes in the validated documents: {', '.join(sorted(seen)) or '(none)'}"
          + (f"; not produced by any input: {', '.join(unseen)}" if unseen else ""))
check.exit()
