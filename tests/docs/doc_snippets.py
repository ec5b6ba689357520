#!/usr/bin/env python3
"""Compiles the documentation: every ```cpp block of README.md and docs/*.md.

Each ```cpp block is one of:
  * a complete translation unit (the default). It is compiled with the project's warnings as
    errors; when it defines `int main`, it is also run and must exit 0, and when the doc shows
    what it prints — a fenced block (any language) right after it, preceded by the line
    `<!-- output -->` — its standard output must equal that block, byte for byte;
  * `<!-- snippet: NAME -->` before it: an excerpt of a compiled example, the lines between
    `// [NAME]` and `// [/NAME]` of a file under examples/; it must equal that region;
  * `<!-- fragment -->` before it: not compiled (a declaration listing that cannot stand alone).
    Use sparingly: a reader copies a complete block, not a fragment.
A marker is the last non-blank line before the opening fence.

Subcommands (ROOT is the repository root; meson.build in this directory drives them):
  list ROOT                      `doc PATH` per document, then `block NAME KIND PATH INDEX` per
                                 compiled block (KIND: compile, run, run-output)
  emit ROOT PATH INDEX OUT       writes block INDEX of PATH as a translation unit (with #line
                                 directives, so compiler errors point into the .md file)
  run EXE ROOT PATH INDEX        runs EXE (cwd ROOT), checks the exit status and the output
  check ROOT LISTING             fails when the docs no longer match LISTING (the `list` output
                                 the build was configured with: a block was added, removed or
                                 changed kind, or a document appeared), when a fragment or
                                 snippet marker is malformed, or when a snippet differs from its
                                 example
"""
import glob
import os
import re
import subprocess
import sys

FENCE_OPEN = re.compile(r"^```([\w+-]*)[ \t]*$")
FENCE_CLOSE = re.compile(r"^```[ \t]*$")
MARKER = re.compile(r"^<!--\s*(fragment|output|snippet:\s*([\w-]+))\s*-->\s*$")
MAIN = re.compile(r"^\s*int\s+main\s*\(", re.MULTILINE)


class DocError(Exception):
    pass


def documents(root):
    """README.md and docs/*.md, as paths relative to root, in a fixed order."""
    docs = ["README.md"] if os.path.isfile(os.path.join(root, "README.md")) else []
    docs += sorted(os.path.relpath(p, root).replace(os.sep, "/")
                   for p in glob.glob(os.path.join(root, "docs", "*.md")))
    return docs


def fenced_blocks(path, text):
    """[(lang, first content line (1-based), content, marker)] for every top-level fence."""
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        m = FENCE_OPEN.match(lines[i])
        if not m:
            i += 1
            continue
        j = i - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        marker = None
        if j >= 0 and lines[j].lstrip().startswith("<!--"):
            mm = MARKER.match(lines[j].strip())
            if mm:
                marker = mm.group(1) if mm.group(2) is None else ("snippet", mm.group(2))
            elif re.match(r"^<!--\s*(fragment|output|snippet)", lines[j].strip()):
                raise DocError(f"{path}:{j + 1}: malformed marker {lines[j].strip()!r}")
        k = i + 1
        while k < len(lines) and not FENCE_CLOSE.match(lines[k]):
            k += 1
        if k == len(lines):
            raise DocError(f"{path}:{i + 1}: unclosed code fence")
        content = "\n".join(lines[i + 1:k]) + "\n"
        out.append((m.group(1), i + 2, content, marker))
        i = k + 1
    return out


def stem(path):
    base = os.path.splitext(os.path.basename(path))[0]
    return "readme" if path == "README.md" else base.replace("-", "_").lower()


def blocks(root, path):
    """The ```cpp blocks of one document: dicts with name, index (1-based among its cpp blocks),
    kind (compile / run / run-output / fragment / snippet), line, code, expected output."""
    with open(os.path.join(root, path), encoding="utf-8") as f:
        fences = fenced_blocks(path, f.read())
    out = []
    for lang, line, content, marker in fences:
        if marker == "output":
            if lang == "cpp":
                raise DocError(f"{path}:{line - 1}: an output block must not be a cpp block")
            if not out or out[-1]["kind"] not in ("run",) or out[-1]["expected"] is not None:
                raise DocError(f"{path}:{line - 1}: <!-- output --> must follow a cpp block with "
                               "`int main` (and only one output block per program)")
            out[-1]["expected"] = content
            out[-1]["kind"] = "run"
            continue
        if lang != "cpp":
            continue
        b = {"name": f"{stem(path)}_{len(out) + 1}", "index": len(out) + 1, "doc": path,
             "line": line, "code": content, "expected": None}
        if marker == "fragment":
            b["kind"] = "fragment"
        elif isinstance(marker, tuple):
            b["kind"] = "snippet"
            b["snippet"] = marker[1]
        else:
            b["kind"] = "run" if MAIN.search(content) else "compile"
        out.append(b)
    for b in out:
        if b["kind"] == "run" and b["expected"] is not None:
            b["kind"] = "run-output"
    return out


def listing(root):
    """A malformed document lists no blocks (so configuring never fails on a doc); `check`
    reports why."""
    lines = [f"doc {d}" for d in documents(root)]
    for d in documents(root):
        try:
            found = blocks(root, d)
        except DocError:
            continue
        for b in found:
            if b["kind"] in ("compile", "run", "run-output"):
                lines.append(f"block {b['name']} {b['kind']} {d} {b['index']}")
    return lines


def find_block(root, path, index):
    for b in blocks(root, path):
        if b["index"] == int(index):
            return b
    raise DocError(f"{path}: has no cpp block #{index} (reconfigure the build: the doc changed)")


def example_regions(root):
    regions = {}
    for p in sorted(glob.glob(os.path.join(root, "examples", "**", "*.[ch]pp"), recursive=True)):
        with open(p, encoding="utf-8") as f:
            text = f.read()
        rel = os.path.relpath(p, root).replace(os.sep, "/")
        for m in re.finditer(r"// \[([\w-]+)\]\n(.*?)// \[/\1\]\n", text, re.S):
            regions.setdefault(m.group(1), []).append((rel, m.group(2)))
    return regions


def cmd_emit(root, path, index, out):
    b = find_block(root, path, index)
    text = (f"// Generated by tests/docs/doc_snippets.py from {path}, cpp block #{b['index']}: "
            f"edit the document, not this file.\n"
            f"#line {b['line']} \"{path}\"\n" + b["code"])
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


def cmd_run(exe, root, path, index):
    b = find_block(root, path, index)
    run = subprocess.run([os.path.abspath(exe)], cwd=root, capture_output=True, text=True, timeout=300)
    where = f"{path}:{b['line'] - 1} (cpp block #{b['index']})"
    if run.returncode != 0:
        print(f"{where}: exited with {run.returncode}\nstdout:\n{run.stdout}\nstderr:\n{run.stderr}")
        return 1
    if b["expected"] is not None and run.stdout != b["expected"]:
        import difflib
        print(f"{where}: prints something else than the doc shows:")
        sys.stdout.writelines(difflib.unified_diff(b["expected"].splitlines(True), run.stdout.splitlines(True),
                                                   "shown in the doc", "printed"))
        return 1
    print(f"{where}: ok" + (" (output matches the doc)" if b["expected"] is not None else ""))
    return 0


def cmd_check(root, configured):
    problems = []
    current = listing(root)
    configured_lines = [l for l in configured.strip().split("\n") if l]
    if current != configured_lines:
        added = [l for l in current if l not in configured_lines]
        removed = [l for l in configured_lines if l not in current]
        problems.append("the docs' code blocks changed since the build was configured, so the build "
                        "does not compile what the docs show; run `meson setup --reconfigure BUILD_DIR`"
                        + "".join(f"\n  new:  {l}" for l in added)
                        + "".join(f"\n  gone: {l}" for l in removed))
    regions = example_regions(root)
    counts = {"compile": 0, "run": 0, "run-output": 0, "fragment": 0, "snippet": 0}
    for d in documents(root):
        try:
            found = blocks(root, d)
        except DocError as e:
            problems.append(str(e))
            continue
        for b in found:
            counts[b["kind"]] += 1
            if b["kind"] == "fragment":
                print(f"{d}:{b['line'] - 1}: fragment, not compiled")
            if b["kind"] != "snippet":
                continue
            found = regions.get(b["snippet"], [])
            if not found:
                problems.append(f"{d}:{b['line'] - 1}: snippet '{b['snippet']}' has no `// [{b['snippet']}]` "
                                "region in any file under examples/")
            elif not any(code == b["code"] for _, code in found):
                problems.append(f"{d}:{b['line'] - 1}: snippet '{b['snippet']}' differs from its region in "
                                + ", ".join(f for f, _ in found))
    for p in problems:
        print(p)
    print(f"docs: {counts['run-output']} blocks run and compared, {counts['run']} run, "
          f"{counts['compile']} compiled, {counts['snippet']} excerpts of compiled examples, "
          f"{counts['fragment']} fragments")
    return 1 if problems else 0


def main(argv):
    try:
        if len(argv) == 3 and argv[1] == "list":
            print("\n".join(listing(argv[2])))
            return 0
        if len(argv) == 6 and argv[1] == "emit":
            return cmd_emit(*argv[2:])
        if len(argv) == 6 and argv[1] == "run":
            return cmd_run(*argv[2:])
        if len(argv) == 4 and argv[1] == "check":
            return cmd_check(argv[2], argv[3])
    except DocError as e:
        print(e)
        return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
