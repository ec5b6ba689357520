#!/usr/bin/env python3
"""No std::regex anywhere in the tree (issue 31; docs/reliability.md §"The test-facing surfaces").

std::regex backtracks and recurses per character: a hostile pattern or a long subject overflows
the stack or runs for exponential time. Every pattern a user supplies (--verify-diagnostics'
`{{...}}` and `-re` expectations) runs on RE2, which is linear and does not recurse. This check
fails on any C++ source (include/, examples/, bench/, tests/, fuzz/) that includes <regex> or
names std::regex, std::wregex, std::basic_regex, std::regex_match, std::regex_search or
std::regex_replace, outside comments.

    check_no_std_regex.py ROOT        exit 1 and one line per use found, else 0
    check_no_std_regex.py --self-test the check on small texts: a use is found, a comment is not
"""
import pathlib
import re
import sys

DIRS = ["include", "examples", "bench", "tests", "fuzz"]
SUFFIXES = {".hpp", ".cpp", ".h", ".cc", ".hh", ".ipp"}
USE = re.compile(r"#\s*include\s*<regex>|\bstd\s*::\s*(?:w?regex|basic_regex|regex_(?:match|search|replace)|"
                 r"[sc]?regex_iterator|[sc]?regex_token_iterator)\b")


def strip_comments(text):
    """`text` with // and /* */ comments and string literals blanked (line numbers kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text[i] == '"' and not text.startswith('#include', text.rfind("\n", 0, i) + 1):
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append('""')
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def uses(text):
    """(line, match) of every use in `text`."""
    code = strip_comments(text)
    return [(code.count("\n", 0, m.start()) + 1, m.group(0)) for m in USE.finditer(code)]


def self_test():
    cases = [
        ("#include <regex>\n", 1),
        ("std::regex r(p);\n", 1),
        ("auto ok = std::regex_search(s, r);\n", 1),
        ("// std::regex backtracks\n", 0),
        ("/* std::regex */ int x;\n", 0),
        ('const char* s = "std::regex";\n', 0),
        ("re2::RE2 r(p);\n", 0),
    ]
    bad = [(t, want, len(uses(t))) for t, want in cases if len(uses(t)) != want]
    for t, want, got in bad:
        print(f"FAIL self-test: {t!r}: expected {want} use(s), found {got}")
    print("self-test: " + ("all cases passed" if not bad else f"{len(bad)} case(s) failed"))
    return 1 if bad else 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1])
    found = 0
    for d in DIRS:
        for path in sorted((root / d).rglob("*")):
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            for line, what in uses(path.read_text(encoding="utf-8", errors="replace")):
                print(f"{path.relative_to(root)}:{line}: uses {what} (user patterns run on RE2: docs/reliability.md)")
                found += 1
    scanned = sum(1 for d in DIRS for p in (root / d).rglob("*") if p.suffix in SUFFIXES)
    print(f"check_no_std_regex: {scanned} files, {found} use(s) of std::regex")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
