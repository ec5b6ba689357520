#!/usr/bin/env python3
"""Every test on disk is registered, and every registered test is on disk.

Usage: registered.py TESTS_DIR REGISTERED_FILE...

The meson.build files under tests/ name each test's sources with files(), so a registered file
that was deleted or renamed fails the configure. This script checks the other direction: each
file under TESTS_DIR that is a test (below) must be among the REGISTERED_FILEs, the files
tests/meson.build collected from its subdirectories (`registered_tests`). tests/meson.build runs
it when meson configures (a mismatch is a configure error) and as the test `tests_registered`
(so a build directory configured before a test was added fails too).

Test files:
  *.cpp anywhere under tests/ (test programs, compile-fail snippets, programs tests run)
  *_test.py                    (the scripted tests)
Not test files: tests/corpus/ (inputs), tests/lit/ (lit finds and runs every file there
itself), and the Python helpers the tests import or run (names not ending in _test.py).

Prints one line per problem and exits 1; exits 0 silently when all agree.
"""
import os
import sys

UNREGISTERED_DIRS = {"corpus", "lit"}


def test_files(tests_dir):
    found = []
    for dirpath, dirnames, filenames in os.walk(tests_dir):
        rel = os.path.relpath(dirpath, tests_dir)
        if rel == ".":
            dirnames[:] = sorted(d for d in dirnames if d not in UNREGISTERED_DIRS)
        else:
            dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".cpp") or name.endswith("_test.py"):
                found.append(os.path.normpath(os.path.join(dirpath, name)))
    return found


def main(argv):
    if len(argv) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    tests_dir = os.path.abspath(argv[1])
    registered = {os.path.normpath(os.path.abspath(p)) for p in argv[2:]}
    problems = []
    for path in test_files(tests_dir):
        if path not in registered:
            problems.append(f"{os.path.relpath(path, os.path.dirname(tests_dir))}: a test file no meson.build "
                            "registers (add it to its directory's test list, or delete it)")
    for path in sorted(registered):
        if not os.path.isfile(path):
            problems.append(f"{os.path.relpath(path, os.path.dirname(tests_dir))}: registered, but not on disk")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
