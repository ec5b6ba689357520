#!/usr/bin/env python3
"""Include-graph layering check for include/neuronrw.

Usage: check_layering.py INCLUDE_ROOT

Builds the graph of every header under INCLUDE_ROOT/neuronrw: one edge per
`#include <neuronrw/...>` and per `#include "..."` (resolved like a compiler does: next to the
including file first, then under INCLUDE_ROOT). Fails when

  * a header of a generic layer (concepts/, descriptors/, algorithms/, passes/, validate/) reaches, directly
    or through any chain of includes, a header of a concrete layer (ir/, adapters/): the generic
    layers must compile without the reference IR or any adapter (docs/concepts.md, "Layers");
  * an include names a file that does not exist;
  * a file uses another pass's `*_detail` namespace: the detail namespaces declared by a pass's
    headers (passes/NAME.hpp and passes/NAME/*.hpp) are that pass's internals; any other file —
    another pass, the parallel driver, an adapter, the driver, a test (the extra directories given
    after INCLUDE_ROOT) — goes through the pass's public API or descriptor. A file may declare its
    own part of such a namespace and use what it declares there. The shared pieces of passes/
    (SHARED_PASS_FILES) are no pass: their detail namespaces are for every pass.

Each violation is reported once per generic header, with the shortest include chain that
reaches the concrete header, every step as `file:line`, so the fix is visible in the report.

Why a graph and not a grep: a generic header that includes another generic header that includes
ir/ is as broken as a direct include, and a grep of one file cannot see it.

Every `#include` line counts, also one under `#if`: a header that includes ir/ under some
configuration still drags it into a generic build in that configuration. Comments are skipped.
"""
import collections
import os
import re
import sys

GENERIC_LAYERS = ("concepts", "descriptors", "algorithms", "passes", "validate")
CONCRETE_LAYERS = ("ir", "adapters")
HEADER_SUFFIXES = (".hpp", ".h", ".hh", ".ipp", ".inc")
SOURCE_SUFFIXES = HEADER_SUFFIXES + (".cpp", ".cc")
# passes/ files every pass builds on: not a pass, so their detail namespaces are shared.
SHARED_PASS_FILES = ("protocol.hpp", "transaction.hpp", "parallel.hpp", "parallel_deprecated.hpp",
                     "composite_lowering.hpp", "diagnostics.hpp", "options.hpp")
DETAIL_DECL_RE = re.compile(r"\bnamespace\s+(?:\w+::)*(\w+_detail)\s*\{")
DETAIL_USE_RE = re.compile(r"\b(\w+_detail)::(\w+)")

INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.MULTILINE)


def strip_comments(text):
    """Blanks out // and /* */ comments and string literals' comment-like content, keeping line
    numbers (every newline stays where it was)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c == '"' and not _is_include_quote(text, i):
            # A string literal (not the quote of an #include): copy it blanked, so a "/*" inside
            # it does not start a comment.
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append('"' + " " * (min(j, n) - i - 1) + ('"' if j < n and text[j] == '"' else ""))
            i = j + 1 if j < n and text[j] == '"' else j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _is_include_quote(text, i):
    line_start = text.rfind("\n", 0, i) + 1
    return re.match(r'[ \t]*#[ \t]*include[ \t]*$', text[line_start:i]) is not None


def layer_of(rel):
    """The top-level directory of a path relative to INCLUDE_ROOT/neuronrw ('' for top-level
    headers such as neuronrw/diagnostic.hpp)."""
    parts = rel.split("/")
    return parts[0] if len(parts) > 1 else ""


class Graph:
    def __init__(self, include_root):
        self.include_root = os.path.abspath(include_root)
        self.lib_root = os.path.join(self.include_root, "neuronrw")
        # header (path relative to include_root, '/'-separated) -> [(line, target or None, spelled)]
        self.edges = {}
        self.missing = []  # (header, line, spelled)

    def rel(self, path):
        return os.path.relpath(path, self.include_root).replace(os.sep, "/")

    def headers(self):
        out = []
        for d, _, files in os.walk(self.lib_root):
            for f in files:
                if f.endswith(HEADER_SUFFIXES):
                    out.append(self.rel(os.path.join(d, f)))
        return sorted(out)

    def resolve(self, header, bracket, spelled):
        """The included file (relative to include_root), None when it does not exist, or '' when
        the include is outside the library (the standard library, Boost, ...)."""
        if bracket == '"':
            here = os.path.join(self.include_root, os.path.dirname(header), spelled)
            if os.path.isfile(here):
                return self.rel(os.path.normpath(here))
        if spelled.startswith("neuronrw/") or bracket == '"':
            there = os.path.join(self.include_root, spelled)
            if os.path.isfile(there):
                return self.rel(os.path.normpath(there))
            return None
        return ""

    def build(self):
        pending = self.headers()
        seen = set(pending)
        while pending:
            h = pending.pop()
            with open(os.path.join(self.include_root, h), encoding="utf-8") as f:
                text = strip_comments(f.read())
            out = []
            for m in INCLUDE_RE.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                bracket, spelled = m.group(1), m.group(2).strip()
                target = self.resolve(h, bracket, spelled)
                if target is None:
                    self.missing.append((h, line, spelled))
                    continue
                if target == "":
                    continue
                out.append((line, target))
                if target not in seen:
                    seen.add(target)
                    pending.append(target)
            self.edges[h] = out
        return self

    def shortest_forbidden_chain(self, start):
        """BFS from start; the first concrete header reached, as a list of (header, line) steps,
        the last step's line being None."""
        parent = {start: None}
        queue = collections.deque([start])
        while queue:
            h = queue.popleft()
            for line, t in self.edges.get(h, []):
                if t in parent:
                    continue
                parent[t] = (h, line)
                if t.startswith("neuronrw/") and layer_of(t[len("neuronrw/"):]) in CONCRETE_LAYERS:
                    chain = [(t, None)]
                    while parent[chain[-1][0]] is not None:
                        chain.append(parent[chain[-1][0]])
                    chain.reverse()  # each step: (file, line of its include of the next file)
                    return chain
                queue.append(t)
        return None


def check(include_root, extra_dirs=()):
    """Returns the list of problem lines (empty when the layering holds)."""
    g = Graph(include_root).build()
    problems = []
    for h, line, spelled in sorted(g.missing):
        problems.append(f"{h}:{line}: includes '{spelled}', which does not exist")
    for h in g.headers():
        if layer_of(h[len("neuronrw/"):]) not in GENERIC_LAYERS:
            continue
        chain = g.shortest_forbidden_chain(h)
        if chain is None:
            continue
        steps = " -> ".join(f"{f}:{line}" if line is not None else f for f, line in chain)
        problems.append(f"{h}: generic header reaches concrete header {chain[-1][0]}: {steps}")
    return problems + check_detail_uses(include_root, extra_dirs)


def pass_of(rel):
    """The pass a path under neuronrw/ belongs to (passes/NAME.hpp, passes/NAME/...), or None."""
    parts = rel.split("/")
    if len(parts) < 3 or parts[0] != "neuronrw" or parts[1] != "passes":
        return None
    if len(parts) == 3:
        return None if parts[2] in SHARED_PASS_FILES else os.path.splitext(parts[2])[0]
    return parts[2]


def detail_blocks(text, ns):
    """The text inside every `namespace NS {` block of `text` (comments already blanked)."""
    out = []
    for m in re.finditer(r"\bnamespace\s+(?:\w+::)*" + re.escape(ns) + r"\s*\{", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        out.append(text[m.end():i])
    return out


def check_detail_uses(include_root, extra_dirs=()):
    """Problem lines for uses of a pass's detail namespace outside that pass."""
    files = {}  # display name -> (pass or None, comment-free text)
    for root, dirs, names in os.walk(os.path.join(include_root, "neuronrw")):
        dirs.sort()
        for n in sorted(names):
            if n.endswith(HEADER_SUFFIXES):
                path = os.path.join(root, n)
                rel = os.path.relpath(path, include_root).replace(os.sep, "/")
                with open(path, encoding="utf-8") as f:
                    files[rel] = (pass_of(rel), strip_comments(f.read()))
    for d in extra_dirs:
        for root, dirs, names in os.walk(d):
            dirs.sort()
            for n in sorted(names):
                if n.endswith(SOURCE_SUFFIXES):
                    path = os.path.join(root, n)
                    with open(path, encoding="utf-8") as f:
                        files[path] = (None, strip_comments(f.read()))
    owner = {}  # detail namespace -> the pass whose headers declare it
    for rel, (p, text) in files.items():
        if p is not None:
            for m in DETAIL_DECL_RE.finditer(text):
                owner.setdefault(m.group(1), p)
    problems = []
    for rel, (p, text) in sorted(files.items()):
        for m in DETAIL_USE_RE.finditer(text):
            ns, name = m.group(1), m.group(2)
            if ns not in owner or owner[ns] == p:
                continue
            if any(re.search(r"\b" + re.escape(name) + r"\b", b) for b in detail_blocks(text, ns)):
                continue  # its own part of the namespace
            line = text.count("\n", 0, m.start()) + 1
            problems.append(f"{rel}:{line}: uses {ns}::{name}, an internal of pass '{owner[ns]}' "
                            f"(use its public API or its descriptor in neuronrw::passes)")
    return problems


def main(argv):
    if len(argv) < 2:
        print("usage: check_layering.py INCLUDE_ROOT [DIR...]", file=sys.stderr)
        return 2
    if not os.path.isdir(os.path.join(argv[1], "neuronrw")):
        print(f"check_layering: {argv[1]}/neuronrw is not a directory", file=sys.stderr)
        return 2
    problems = check(argv[1], argv[2:])
    for p in problems:
        print(p)
    if problems:
        print(f"layering: {len(problems)} problem(s); generic layers ({', '.join(GENERIC_LAYERS)}) "
              f"must not include concrete ones ({', '.join(CONCRETE_LAYERS)}), and a pass's *_detail "
              f"is its own")
        return 1
    g = Graph(argv[1]).build()
    print(f"layering: ok ({len(g.edges)} headers, "
          f"{sum(len(e) for e in g.edges.values())} library includes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
