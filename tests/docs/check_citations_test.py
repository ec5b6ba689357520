#!/usr/bin/env python3
"""Tests of check_citations.py on a fake repository: each kind of bad citation is reported with
its file and line, and good ones (also wrapped over comment lines) pass."""
import os
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_citations  # noqa: E402

GUIDE = textwrap.dedent("""\
    # Guide

    ## 1. Semantics

    ### What the budget counts `budget`

    See §"Semantics" above.

    ```text
    ## not a heading (inside a fence)
    ```
    """)
GOOD_HEADER = textwrap.dedent("""\
    // neuronrw/x.hpp — the walk (docs/guide.md §"What the budget counts budget", §"Semantics";
    // wrapped: docs/guide.md
    // §"Semantics"). A hash seed is fine: basic_fnv1a(H seed).
    #pragma once
    """)


class CheckCitations(unittest.TestCase):
    def run_on(self, files):
        with tempfile.TemporaryDirectory() as root:
            for rel, text in files.items():
                path = os.path.join(root, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
            return check_citations.check(root)

    def test_good_citations_pass(self):
        self.assertEqual(self.run_on({"docs/guide.md": GUIDE, "include/neuronrw/x.hpp": GOOD_HEADER,
                                      "README.md": 'See `docs/guide.md` §"Semantics".\n'}), [])

    def test_outside_documents_are_reported(self):
        problems = self.run_on({"docs/guide.md": GUIDE, "include/neuronrw/x.hpp": textwrap.dedent("""\
            // The walk (SPEC §4.3; the seed's BFS, seed §"Algorithm", seeds/000_x.txt).
            // As STYLE.md says.
            """)})
        self.assertEqual(problems, [
            "include/neuronrw/x.hpp:1: cites SPEC, a document outside the repository: 'SPEC'",
            "include/neuronrw/x.hpp:2: cites a document outside the repository: 'STYLE.md'",
            "include/neuronrw/x.hpp:1: cites seeds/, outside the repository: 'seeds/'",
            "include/neuronrw/x.hpp:1: cites the seed notes, outside the repository (cite docs/sources.md): "
            "'the seed'",
            "include/neuronrw/x.hpp:1: cites the seed notes, outside the repository (cite docs/sources.md): "
            "'seed §'",
            "include/neuronrw/x.hpp:1: §\"Algorithm\" does not name a section of a repository doc "
            "(cite it as docs/NAME.md §\"...\")",
        ])

    def test_unresolved_citations_are_reported(self):
        problems = self.run_on({"docs/guide.md": GUIDE + '\nAnd §"Nowhere".\n', "README.md": textwrap.dedent("""\
            See docs/gone.md and `docs/guide.md` §"Semantics", §"Missing".
            """)})
        self.assertEqual(problems, [
            "README.md:1: docs/gone.md does not exist",
            "README.md:1: docs/guide.md has no section \"Missing\"",
            "docs/guide.md:13: §\"Nowhere\" does not name a section of a repository doc "
            "(this page has no such section)",
        ])


if __name__ == "__main__":
    unittest.main(verbosity=2)
