#!/usr/bin/env python3
"""Tests of `neuronrw-opt --emit-dot[=before|after]` (examples/neuronrw-opt/emit_dot.hpp).

Usage: dot_test.py NEURONRW_OPT DOT_CHECK EXAMPLES_DIR TESTS_DIR [BOOST_GRAPH_VIEW_EXAMPLE]

Every picture is read back by Boost.Graph's own parser (boost::read_graphviz, in DOT_CHECK,
which prints the nodes it parsed). The pictures are checked against the ScheduleFusion dry run of
the same input: one `subgraph cluster_N` per cluster of the plan, holding the cluster's ops
(before) or its fusion op and the fusion's body (after); as many ops marked "(moved)" as the plan
moves; each refused candidate annotated with the plan's refusal code. When Graphviz's `dot` is
installed, every picture also renders to PNG; otherwise that part is skipped with a message.
The example examples/boost_graph_view, when given, must print its expected_output.txt, and its
DOT must parse back too. Each check prints one line; the script exits 1 if any failed.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../support"))
from checks import Checks  # noqa: E402

opt, dot_check, examples_dir, tests_dir = sys.argv[1:5]
check = Checks()


def run(args):
    return subprocess.run([opt] + args, capture_output=True, text=True)


def parse_back(text):
    """(nodes {id: label}, edge count) as boost::read_graphviz reads `text`, or None."""
    with tempfile.NamedTemporaryFile("w", suffix=".dot", delete=False) as f:
        f.write(text)
    try:
        r = subprocess.run([dot_check, f.name], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if r.returncode != 0:
        return None, r.stderr
    nodes, edges = {}, None
    for line in r.stdout.splitlines():
        if line.startswith("node "):
            _, nid, label = line.split(" ", 2)
            nodes[nid] = label
        elif line.startswith("edges "):
            edges = int(line.split()[1])
    return nodes, edges


def subgraphs(text):
    """{N: [member node ids]} of the `subgraph cluster_N { ... }` blocks."""
    out = {}
    for m in re.finditer(r"subgraph cluster_(\d+) \{\n(.*?)\n\}", text, re.S):
        out[int(m.group(1))] = re.findall(r"^  ([A-Za-z0-9_]+)(?:;|\[)", m.group(2), re.M)
    return out


def plan_of(path):
    """From the dry run: cluster count, distinct moved ops, refusal codes by consumer line."""
    r = run(["--schedule-fusion-dry-run", path])
    clusters = len(re.findall(r"^  cluster \d+:", r.stdout, re.M))
    moved = set(re.findall(r'^    move ("[^"]+" \(\d+:\d+\))', r.stdout, re.M))
    refused = re.findall(r'^  refused "[^"]+" \((\d+):\d+\): (\w+)', r.stdout, re.M)
    return clusters, moved, refused


def render(name, text):
    dot = shutil.which("dot")
    if not dot:
        print(f"skip {name} renders: Graphviz `dot` is not installed (apt-get install graphviz)")
        return
    r = subprocess.run([dot, "-Tpng"], input=text.encode(), capture_output=True)
    check(f"{name} renders with dot -Tpng", r.returncode == 0 and r.stdout.startswith(b"\x89PNG"), r.stderr.decode())


fsdp = os.path.join(examples_dir, "mlir", "fsdp_layer.mlir")
non_convex = os.path.join(tests_dir, "corpus", "schedule_fusion", "08_non_convex_compute.mlir")

# --- before: the input, the plan's clusters drawn over its ops
n_clusters, moved, _ = plan_of(fsdp)
r = run(["--schedule-fusion", "--emit-dot=before", fsdp])
check("--emit-dot=before exits 0 and prints one digraph", r.returncode == 0 and r.stdout.count("digraph G {") == 1, r.stderr)
nodes, edges = parse_back(r.stdout)
check("before: read_graphviz parses it", nodes is not None, edges)
if nodes is not None:
    check("before: one node per op of the function (14), one edge per use (18)", len(nodes) == 14 and edges == 18,
          f"{len(nodes)} nodes, {edges} edges")
    subs = subgraphs(r.stdout)
    check("before: one subgraph per cluster of the plan", n_clusters == 2 and sorted(subs) == list(range(n_clusters)), subs)
    for n, members in sorted(subs.items()):
        labels = [nodes.get(i, "?") for i in members]
        check(f"before: cluster_{n} holds its all_gather and reduce_scatter first",
              len(labels) >= 2 and labels[0].startswith("mhlo.all_gather") and labels[1].startswith("mhlo.reduce_scatter"),
              labels)
    n_moved = sum(1 for l in nodes.values() if l.endswith("\\n(moved)"))
    check("before: every op the plan moves is marked, no other", n_moved == len(moved), f"{n_moved} vs {sorted(moved)}")
    check("before: collectives coloured by kind",
          r.stdout.count('fillcolor="#9ecae1"') == 2 and r.stdout.count('fillcolor="#fdae6b"') == 2, r.stdout)
    render("before", r.stdout)

# --- after (the default): the fusions, each a subgraph with its body
r = run(["--schedule-fusion", "--emit-dot", fsdp])
check("--emit-dot exits 0", r.returncode == 0, r.stderr)
nodes, edges = parse_back(r.stdout)
check("after: read_graphviz parses it", nodes is not None, edges)
if nodes is not None:
    subs = subgraphs(r.stdout)
    check("after: one subgraph per cluster", sorted(subs) == list(range(n_clusters)), subs)
    for n, members in sorted(subs.items()):
        labels = [nodes.get(i, "?") for i in members]
        check(f"after: cluster_{n} holds the fusion op and its body",
              labels[0] == "mhlo.fusion" and labels[1].startswith("mhlo.all_gather")
              and labels[2].startswith("mhlo.reduce_scatter") and labels[-1] == "mhlo.return", labels)
    check("after: 10 ops in the function, 5 + 3 in the fusions, 24 edges", len(nodes) == 18 and edges == 24,
          f"{len(nodes)} nodes, {edges} edges")
    render("after", r.stdout)

# --- a refused candidate: red, with the plan's code
_, _, refused = plan_of(non_convex)
r = run(["--schedule-fusion", "--emit-dot=before", non_convex])
nodes, edges = parse_back(r.stdout)
check("refusal: read_graphviz parses it", nodes is not None, edges)
if nodes is not None:
    got = [l for l in nodes.values() if "\\nrefused: " in l]
    check("refusal: the candidate carries the plan's code", refused == [("6", "non_convex")]
          and got == ["mhlo.reduce_scatter %r\\nrefused: non_convex"], (refused, got))
    check("refusal: drawn red, no subgraph", "color=red" in r.stdout and "subgraph" not in r.stdout, r.stdout)
    render("refusal", r.stdout)

# --- without ScheduleFusion in the pipeline: a plain picture
r = run(["--emit-dot", fsdp])
nodes, edges = parse_back(r.stdout)
check("no pass: a picture without subgraphs or marks",
      r.returncode == 0 and nodes is not None and len(nodes) == 14 and "subgraph" not in r.stdout
      and "(moved)" not in r.stdout, r.stdout + r.stderr)

# --- hostile names (dot_escape.hpp; tests/lit/neuronrw-opt/dot_render.test renders them): a
# symbol name that would end the comment line and start a statement, op names with quotes,
# backslashes, an entity and bytes that are not UTF-8. Boost's parser reads the picture back with
# every node and its label in one piece.
hostile = (b'func.func @"x\\n}\\ndigraph Y {\\n\\"\\00\\FF"(%a: i32) -> i32 {\n'
           b'  %b = "q.\\"a\\\\&amp;\xff\xc0"(%a) : (i32) -> i32\n'
           b'  return %b : i32\n}\n')
with tempfile.NamedTemporaryFile("wb", suffix=".mlir", delete=False) as f:
    f.write(hostile)
try:
    r = subprocess.run([opt, "--emit-dot", f.name], capture_output=True)
finally:
    os.unlink(f.name)
text = r.stdout.decode("utf-8", errors="strict") if r.returncode == 0 else ""
check("hostile names: exit 0, one comment line and one digraph, valid UTF-8",
      r.returncode == 0 and text.splitlines()[0] == '// @"x\\n}\\ndigraph Y {\\n\\"\\00\ufffd"'
      and [l for l in text.splitlines() if l.startswith("digraph")] == ["digraph G {"], r.stdout + r.stderr)
nodes, edges = parse_back(text) if text else (None, None)
check("hostile names: read_graphviz parses it, labels whole",
      nodes is not None and edges == 1 and sorted(nodes.values()) == ['func.return', 'q.\\\\\"a\\\\\\\\&amp;amp;\ufffd\ufffd %b'],
      (nodes, edges))
render("hostile names", text)

# --- usage errors
r = run(["--emit-dot=sideways", fsdp])
check("--emit-dot=sideways exits 2", r.returncode == 2 and "--emit-dot takes 'before' or 'after'" in r.stderr, r.stderr)
r = run(["--emit-dot", "--emit-python", fsdp])
check("--emit-dot with --emit-python exits 2", r.returncode == 2 and r.stdout == "", r.stderr)
r = run(["--emit-dot", os.path.join(examples_dir, "host", "pipeline.py")])
check("--emit-dot on a host program exits 2", r.returncode == 2 and "needs MLIR input" in r.stderr, r.stderr)

# --- examples/boost_graph_view
if len(sys.argv) > 5:
    r = subprocess.run([sys.argv[5]], capture_output=True, text=True)
    with open(os.path.join(examples_dir, "boost_graph_view", "expected_output.txt"), encoding="utf-8") as f:
        expected = f.read()
    check("examples/boost_graph_view prints expected_output.txt", r.returncode == 0 and r.stdout == expected,
          r.stdout + r.stderr)
    nodes, edges = parse_back(r.stdout[r.stdout.find("digraph"):])
    check("examples/boost_graph_view: its DOT parses back", nodes is not None and len(nodes) == 6 and edges == 5, edges)

check.exit()
