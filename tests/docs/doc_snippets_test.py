#!/usr/bin/env python3
"""Tests of doc_snippets.py on a fake repository: the docs test must be able to fail when a block
changes, appears, prints something else than the doc shows, or drifts from its example."""
import io
import os
import stat
import sys
import tempfile
import textwrap
import unittest
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import doc_snippets  # noqa: E402

FENCE = "```"
README = textwrap.dedent(f"""\
    # Demo

    {FENCE}sh
    scripts/test
    {FENCE}

    {FENCE}cpp
    #include <cstdio>
    int main() {{ std::puts("hello"); }}
    {FENCE}

    It prints

    <!-- output -->
    {FENCE}text
    hello
    {FENCE}
    """)
GUIDE = textwrap.dedent(f"""\
    # Guide

    <!-- fragment -->
    {FENCE}cpp
    template <class G> void f(const G&);   // a listing
    {FENCE}

    {FENCE}cpp
    int twice(int x) {{ return 2 * x; }}
    {FENCE}

    <!-- snippet: pick -->
    {FENCE}cpp
    int pick() {{ return 1; }}
    {FENCE}

    {FENCE}cpp
    int main() {{ return 0; }}
    {FENCE}
    """)
EXAMPLE = "// an example\n// [pick]\nint pick() { return 1; }\n// [/pick]\n"


class DocSnippets(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        self.write("README.md", README)
        self.write("docs/user-guide.md", GUIDE)
        self.write("examples/pick/pick.cpp", EXAMPLE)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, rel, text):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def call(self, *argv):
        out = io.StringIO()
        with redirect_stdout(out):
            rc = doc_snippets.main(["doc_snippets.py", *argv])
        return rc, out.getvalue()

    def listing(self):
        return "\n".join(doc_snippets.listing(self.root))

    def test_list_names_kinds_and_skips_fragments_and_snippets(self):
        self.assertEqual(doc_snippets.listing(self.root), [
            "doc README.md",
            "doc docs/user-guide.md",
            "block readme_1 run-output README.md 1",
            "block user_guide_2 compile docs/user-guide.md 2",
            "block user_guide_4 run docs/user-guide.md 4",
        ])

    def test_emit_points_errors_into_the_document(self):
        out = os.path.join(self.root, "tu.cpp")
        self.assertEqual(self.call("emit", self.root, "docs/user-guide.md", "2", out)[0], 0)
        with open(out, encoding="utf-8") as f:
            text = f.read()
        self.assertIn('#line 9 "docs/user-guide.md"\nint twice(int x) { return 2 * x; }\n', text)

    def fake_exe(self, body):
        path = os.path.join(self.root, "prog.sh")
        with open(path, "w", encoding="utf-8") as f:
            f.write("#!/bin/sh\n" + body + "\n")
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        return path

    def test_run_compares_the_output_the_doc_shows(self):
        rc, out = self.call("run", self.fake_exe("echo hello"), self.root, "README.md", "1")
        self.assertEqual(rc, 0, out)
        self.assertIn("output matches the doc", out)
        rc, out = self.call("run", self.fake_exe("echo hullo"), self.root, "README.md", "1")
        self.assertEqual(rc, 1)
        self.assertIn("prints something else than the doc shows", out)
        self.assertIn("-hello\n+hullo\n", out)

    def test_run_fails_on_a_nonzero_exit(self):
        rc, out = self.call("run", self.fake_exe("exit 3"), self.root, "docs/user-guide.md", "4")
        self.assertEqual(rc, 1)
        self.assertIn("exited with 3", out)

    def test_check_passes_when_current(self):
        rc, out = self.call("check", self.root, self.listing())
        self.assertEqual(rc, 0, out)
        self.assertIn("1 blocks run and compared, 1 run, 1 compiled, 1 excerpts of compiled examples, "
                      "1 fragments", out)

    def test_check_fails_on_a_new_block_or_document(self):
        configured = self.listing()
        self.write("docs/user-guide.md", GUIDE + f"\n{FENCE}cpp\nint more();\n{FENCE}\n")
        rc, out = self.call("check", self.root, configured)
        self.assertEqual(rc, 1)
        self.assertIn("new:  block user_guide_5 compile docs/user-guide.md 5", out)
        self.write("docs/user-guide.md", GUIDE)
        self.write("docs/passes.md", f"# Passes\n\n{FENCE}cpp\nint main() {{}}\n{FENCE}\n")
        rc, out = self.call("check", self.root, configured)
        self.assertEqual(rc, 1)
        self.assertIn("new:  doc docs/passes.md", out)
        self.assertIn("new:  block passes_1 run docs/passes.md 1", out)

    def test_check_fails_when_a_snippet_drifts_from_its_example(self):
        self.write("examples/pick/pick.cpp", EXAMPLE.replace("return 1", "return 2"))
        rc, out = self.call("check", self.root, self.listing())
        self.assertEqual(rc, 1)
        self.assertIn("docs/user-guide.md:13: snippet 'pick' differs from its region in examples/pick/pick.cpp",
                      out)
        self.write("examples/pick/pick.cpp", "int pick();\n")
        rc, out = self.call("check", self.root, self.listing())
        self.assertEqual(rc, 1)
        self.assertIn("snippet 'pick' has no `// [pick]` region", out)

    def test_malformed_markers_fail_the_check_not_the_configure(self):
        self.write("docs/user-guide.md", GUIDE.replace("<!-- fragment -->", "<!-- fragmnet -->")
                   .replace("<!-- snippet: pick -->", "<!-- snippet pick -->"))
        self.assertNotIn("user_guide", self.listing())
        rc, out = self.call("check", self.root, self.listing())
        self.assertEqual(rc, 1)
        self.assertIn("docs/user-guide.md:12: malformed marker '<!-- snippet pick -->'", out)

    def test_output_must_follow_a_program(self):
        self.write("docs/user-guide.md", f"{FENCE}cpp\nint f();\n{FENCE}\n<!-- output -->\n{FENCE}\nx\n{FENCE}\n")
        rc, out = self.call("check", self.root, self.listing())
        self.assertEqual(rc, 1)
        self.assertIn("<!-- output --> must follow a cpp block with `int main`", out)


if __name__ == "__main__":
    unittest.main(verbosity=2)
