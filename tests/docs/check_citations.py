#!/usr/bin/env python3
"""Docs and header comments cite the repository's own docs, and those citations resolve.

Usage: check_citations.py ROOT

Scans README.md, docs/*.md and every header under include/. Fails on
  * a reference to a document outside the repository: `SPEC` (the word, in capitals), `SPEC.md`,
    `STYLE.md`, `seeds/...`, "the seed", "seed's", `seed §...`, `seed 000`. What those documents
    say that the code relies on is written down in docs/ (docs/sources.md summarizes the two
    reverse-engineering notes), and that is what to cite;
  * `docs/NAME.md` naming a file that does not exist;
  * `docs/NAME.md §"Title"` (also chained: `docs/NAME.md §"A", §"B"`) whose title is not a heading
    of that file (compared without a leading `N.` and without backticks);
  * a `§"Title"` that is not part of such a citation, except inside a docs/ page, where it names
    a heading of the page itself.
Citations may wrap across comment lines. Each problem is printed as FILE:LINE: ... .
"""
import glob
import os
import re
import sys

OUTSIDE = [
    (re.compile(r"\bSPEC\b(?!\w)"), "cites SPEC, a document outside the repository"),
    (re.compile(r"\b(?:SPEC|STYLE)\.md\b"), "cites a document outside the repository"),
    (re.compile(r"\bseeds/"), "cites seeds/, outside the repository"),
    (re.compile(r"\b[Tt]he seed\b|\bseed's\b|\bseed §|\bseed\s+0\d\d\b"),
     "cites the seed notes, outside the repository (cite docs/sources.md)"),
]
DOC_REF = re.compile(r"docs/([\w.-]+\.md)")
# A citation: docs/NAME.md, optional closing backtick/quote, then §"A" (, §"B")*.
CITATION = re.compile(r'docs/([\w.-]+\.md)`?\s*((?:(?:,|;|and|or)?\s*§"[^"]*"\s*)+)')
SECTION = re.compile(r'§"([^"]*)"')


def norm_title(t):
    t = t.replace("`", "").strip()
    return re.sub(r"^\d+\.\s+", "", t)


def headings(path):
    out = set()
    in_fence = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                in_fence = not in_fence
            elif not in_fence:
                m = re.match(r"^#+\s+(.*?)\s*#*\s*$", line)
                if m:
                    out.add(norm_title(m.group(1)))
    return out


def joined(path, text):
    """The text with comment line breaks folded into spaces, and a map from each character to its
    1-based line, so a citation wrapped over two comment lines is one string."""
    is_source = not path.endswith(".md")
    chars, lines = [], []
    for n, line in enumerate(text.split("\n"), 1):
        if is_source:
            line = re.sub(r"^\s*(?:///?|\*)\s?", "", line)
        chars.append(line + " ")
        lines.extend([n] * (len(line) + 1))
    return "".join(chars), lines


def files(root):
    out = ["README.md"] if os.path.isfile(os.path.join(root, "README.md")) else []
    out += sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "*.md")))
    out += sorted(os.path.relpath(p, root)
                  for p in glob.glob(os.path.join(root, "include", "**", "*.hpp"), recursive=True))
    return [p.replace(os.sep, "/") for p in out]


def check(root):
    problems = []
    heading_cache = {}

    def headings_of(doc):
        if doc not in heading_cache:
            p = os.path.join(root, "docs", doc)
            heading_cache[doc] = headings(p) if os.path.isfile(p) else None
        return heading_cache[doc]

    for rel in files(root):
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            text, at = joined(rel, f.read())
        for rx, why in OUTSIDE:
            for m in rx.finditer(text):
                problems.append(f"{rel}:{at[m.start()]}: {why}: '{m.group(0)}'")
        for m in DOC_REF.finditer(text):
            if headings_of(m.group(1)) is None:
                problems.append(f"{rel}:{at[m.start()]}: docs/{m.group(1)} does not exist")
        covered = set()
        for m in CITATION.finditer(text):
            hs = headings_of(m.group(1))
            for s in SECTION.finditer(m.group(2)):
                covered.add(m.start(2) + s.start())
                if hs is not None and norm_title(s.group(1)) not in hs:
                    problems.append(f"{rel}:{at[m.start()]}: docs/{m.group(1)} has no section "
                                    f"\"{s.group(1)}\"")
        own = headings(os.path.join(root, rel)) if rel.startswith("docs/") else None
        for s in SECTION.finditer(text):
            if s.start() in covered:
                continue
            if own is not None and norm_title(s.group(1)) in own:
                continue
            where = "this page has no such section" if own is not None else "cite it as docs/NAME.md §\"...\""
            problems.append(f"{rel}:{at[s.start()]}: §\"{s.group(1)}\" does not name a section of a "
                            f"repository doc ({where})")
    return problems


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    problems = check(argv[1])
    for p in problems:
        print(p)
    print(f"citations: {len(problems)} problem(s) in {len(files(argv[1]))} files")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
