#!/usr/bin/env python3
"""Lists every public header under include/neuronrw (sorted), minus those under excluded dirs."""
import os
import sys

root = sys.argv[1]
excluded = set(sys.argv[2:])
out = []
for d, _, files in os.walk(os.path.join(root, "neuronrw")):
    rel_dir = os.path.relpath(d, root).replace(os.sep, "/")
    if any(rel_dir == e or rel_dir.startswith(e + "/") for e in excluded):
        continue
    for f in files:
        if f.endswith(".hpp"):
            out.append(rel_dir + "/" + f)
print("\n".join(sorted(out)))
