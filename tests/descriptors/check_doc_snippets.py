#!/usr/bin/env python3
"""Checks that docs/descriptors.md shows the compiled example's code, unchanged.

Usage: check_doc_snippets.py DOC.md EXAMPLE.cpp

Every `<!-- snippet: NAME -->` in the doc must be followed by a ```cpp block equal to the lines
between `// [NAME]` and `// [/NAME]` in the example, and every region of the example must be
shown. Exit 0 when they agree; otherwise print the first difference and exit 1.
"""
import difflib
import re
import sys


def main():
    doc_path, example_path = sys.argv[1], sys.argv[2]
    doc = open(doc_path, encoding="utf-8").read()
    example = open(example_path, encoding="utf-8").read()
    regions = {m.group(1): m.group(2)
               for m in re.finditer(r"// \[([\w-]+)\]\n(.*?)// \[/\1\]\n", example, re.S)}
    shown = {m.group(1): m.group(2)
             for m in re.finditer(r"<!-- snippet: ([\w-]+) -->\n```cpp\n(.*?)```\n", doc, re.S)}
    ok = True
    for name in sorted(set(regions) | set(shown)):
        if name not in shown:
            print(f"{doc_path}: region '{name}' of {example_path} is not shown")
            ok = False
        elif name not in regions:
            print(f"{doc_path}: snippet '{name}' has no region in {example_path}")
            ok = False
        elif shown[name] != regions[name]:
            print(f"{doc_path}: snippet '{name}' differs from {example_path}:")
            sys.stdout.writelines(difflib.unified_diff(regions[name].splitlines(True),
                                                       shown[name].splitlines(True),
                                                       "example", "doc"))
            ok = False
    if ok:
        print(f"{len(regions)} snippet(s) of {doc_path} match {example_path}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
