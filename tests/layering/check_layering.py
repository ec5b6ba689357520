#!/usr/bin/env python3
"""Include-graph layering check for include/neuronrw.

Usage: check_layering.py INCLUDE_ROOT

Builds the graph of every header under INCLUDE_ROOT/neuronrw: one edge per
`#include <neuronrw/...>` and per `#include "..."` (resolved like a compiler does: next to the
including file first, then under INCLUDE_ROOT). Fails when

  * a header of a generic layer (concepts/, descriptors/, algorithms/, passes/) reaches, directly
    or through any chain of includes, a header of a concrete layer (ir/, adapters/): the generic
    layers must compile without the reference IR or any adapter (docs/concepts.md, "Layers");
  * an include names a file that does not exist.

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

GENERIC_LAYERS = ("concepts", "descriptors", "algorithms", "passes")
CONCRETE_LAYERS = ("ir", "adapters")
HEADER_SUFFIXES = (".hpp", ".h", ".hh", ".ipp", ".inc")

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


def check(include_root):
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
    return problems


def main(argv):
    if len(argv) != 2:
        print("usage: check_layering.py INCLUDE_ROOT", file=sys.stderr)
        return 2
    if not os.path.isdir(os.path.join(argv[1], "neuronrw")):
        print(f"check_layering: {argv[1]}/neuronrw is not a directory", file=sys.stderr)
        return 2
    problems = check(argv[1])
    for p in problems:
        print(p)
    if problems:
        print(f"layering: {len(problems)} problem(s); generic layers ({', '.join(GENERIC_LAYERS)}) "
              f"must not include concrete ones ({', '.join(CONCRETE_LAYERS)})")
        return 1
    g = Graph(argv[1]).build()
    print(f"layering: ok ({len(g.edges)} headers, "
          f"{sum(len(e) for e in g.edges.values())} library includes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
