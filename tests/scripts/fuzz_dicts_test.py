#!/usr/bin/env python3
"""The dictionaries scripts/fuzz-ci hands libFuzzer (fuzz/*.dict) parse as libFuzzer parses them.

libFuzzer refuses a whole dictionary over one bad entry (`ParseDictionaryFile: error in line N`)
and the target exits at once, which .ci/run's fuzzing step reports as a failure, while the
replay tests of fuzz/regressions (which read no dictionary) pass. This checks each line by
libFuzzer's rules (FuzzerUtil.cpp, ParseOneDictionaryEntry): blank lines and `#` comments are
skipped; an entry is `[name=]"value"` whose value has at least one byte, printable or space
characters only, and the escapes `\\\\`, `\\"` and `\\xAB`, nothing else.

usage: fuzz_dicts_test.py SOURCE_ROOT
"""
import pathlib
import string
import sys

HEX = set(string.hexdigits)


def entry_problem(line):
    """Why libFuzzer refuses `line` as a dictionary entry, or None when it reads it."""
    s = line.strip()
    if len(s) < 3:
        return "too short for [name=]\"value\""
    if not s.endswith('"'):
        return "does not end with '\"'"
    left = s.find('"')
    if left >= len(s) - 1:
        return "no opening '\"'"
    body = s[left + 1:-1]
    if not body:
        return "an empty value"
    i = 0
    while i < len(body):
        c = body[i]
        if not (c.isprintable() or c.isspace()) or ord(c) > 126:
            return f"a character libFuzzer does not read ({c!r}): write it as \\xAB"
        if c == "\\":
            nxt = body[i + 1:i + 2]
            if nxt in ("\\", '"'):
                i += 2
                continue
            if nxt == "x" and len(body) >= i + 4 and body[i + 2] in HEX and body[i + 3] in HEX:
                i += 4
                continue
            return f"an escape libFuzzer does not read ('\\{nxt}'): only \\\\, \\\" and \\xAB"
        i += 1
    return None


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    dicts = sorted((root / "fuzz").glob("*.dict"))
    problems, entries = [], 0
    for path in dicts:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            entries += 1
            why = entry_problem(line)
            if why:
                problems.append(f"{path.relative_to(root)}:{n}: {why}: {line}")
    # The checker itself: entries libFuzzer reads and refuses.
    assert entry_problem('a="x"') is None and entry_problem('"\\\\\\"\\x0a"') is None
    for bad in ('a="\\n"', 'a=""', 'a="x', "a='x'", 'a="\\x0"', 'a="\\q"', 'a="\x01"'):
        assert entry_problem(bad), bad
    if not dicts or entries == 0:
        problems.append(f"no dictionary entries under {root / 'fuzz'}")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"fuzz dictionaries: {len(dicts)} files, {entries} entries, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
