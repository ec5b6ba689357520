#!/usr/bin/env python3
"""Tests of check_layering.py on small fake include trees, so the layering test itself can fail:
a violating chain must be reported (with the chain), a tree that keeps the layering must pass."""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, "check_layering.py")
sys.path.insert(0, HERE)
import check_layering  # noqa: E402


def make_tree(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(text).lstrip("\n"))


# A tree that keeps the layering: generic headers include generic ones, standard and Boost
# headers; concrete headers include generic ones (the allowed direction); an include of ir/ that
# is only in a comment does not count; two generic headers include each other (a cycle).
CLEAN = {
    "neuronrw/concepts/ir.hpp": """
        #pragma once
        #include <vector>
        #include <boost/hana/set.hpp>
        #include <neuronrw/descriptors/kinds.hpp>
        // #include <neuronrw/ir/ref/ir.hpp>  (commented out: not an include)
        /* #include <neuronrw/adapters/mlir/mlir.hpp>
           #include <neuronrw/ir/host/ir.hpp> */
        """,
    "neuronrw/descriptors/kinds.hpp": """
        #pragma once
        #include "../detail/util.hpp"
        """,
    "neuronrw/detail/util.hpp": "#pragma once\n",
    "neuronrw/algorithms/walk.hpp": """
        #pragma once
        #  include <neuronrw/concepts/ir.hpp>
        #include <neuronrw/algorithms/order.hpp>
        """,
    "neuronrw/algorithms/order.hpp": """
        #pragma once
        #include "walk.hpp"
        """,
    "neuronrw/passes/pass.hpp": """
        #pragma once
        const char* s = "#include <neuronrw/ir/ref/ir.hpp> /* in a string, not a comment";
        #include <neuronrw/algorithms/walk.hpp>
        """,
    "neuronrw/ir/ref/ir.hpp": """
        #pragma once
        #include <neuronrw/passes/pass.hpp>
        """,
    "neuronrw/adapters/mlir/mlir.hpp": """
        #pragma once
        #include <neuronrw/ir/ref/ir.hpp>
        """,
}


class CheckLayering(unittest.TestCase):
    def check_tree(self, files):
        with tempfile.TemporaryDirectory() as root:
            make_tree(root, files)
            problems = check_layering.check(root)
            run = subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True)
        return problems, run

    def test_clean_tree_passes(self):
        problems, run = self.check_tree(CLEAN)
        self.assertEqual(problems, [])
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("layering: ok (8 headers, 8 library includes)", run.stdout)

    def test_transitive_chain_is_reported_with_every_step(self):
        files = dict(CLEAN)
        # passes/pass.hpp -> algorithms/walk.hpp -> detail/glue.hpp (not a layer) -> ir/host/ir.hpp
        files["neuronrw/algorithms/walk.hpp"] = """
            #pragma once
            #include <neuronrw/concepts/ir.hpp>

            #include "../detail/glue.hpp"
            """
        files["neuronrw/detail/glue.hpp"] = """
            #pragma once
            #include <cstddef>
            #include <neuronrw/ir/host/ir.hpp>
            """
        files["neuronrw/ir/host/ir.hpp"] = "#pragma once\n"
        problems, run = self.check_tree(files)
        self.assertEqual(run.returncode, 1)
        expected_pass = ("neuronrw/passes/pass.hpp: generic header reaches concrete header "
                         "neuronrw/ir/host/ir.hpp: neuronrw/passes/pass.hpp:3 -> "
                         "neuronrw/algorithms/walk.hpp:4 -> neuronrw/detail/glue.hpp:3 -> "
                         "neuronrw/ir/host/ir.hpp")
        self.assertIn(expected_pass, problems)
        self.assertIn(expected_pass, run.stdout)
        # Every generic header on the way is reported too (order.hpp includes walk.hpp), and the
        # non-layer header detail/glue.hpp is not.
        offenders = sorted(p.split(":")[0] for p in problems)
        self.assertEqual(offenders, ["neuronrw/algorithms/order.hpp", "neuronrw/algorithms/walk.hpp",
                                     "neuronrw/passes/pass.hpp"])

    def test_shortest_chain_is_reported(self):
        files = dict(CLEAN)
        files["neuronrw/passes/pass.hpp"] = """
            #pragma once
            #include <neuronrw/algorithms/walk.hpp>
            #include <neuronrw/passes/long1.hpp>
            #include <neuronrw/passes/short.hpp>
            """
        files["neuronrw/passes/long1.hpp"] = "#include <neuronrw/passes/long2.hpp>\n"
        files["neuronrw/passes/long2.hpp"] = "#include <neuronrw/ir/ref/ir.hpp>\n"
        files["neuronrw/passes/short.hpp"] = "#include <neuronrw/ir/ref/ir.hpp>\n"
        problems, _ = self.check_tree(files)
        self.assertIn("neuronrw/passes/pass.hpp: generic header reaches concrete header "
                      "neuronrw/ir/ref/ir.hpp: neuronrw/passes/pass.hpp:4 -> "
                      "neuronrw/passes/short.hpp:1 -> neuronrw/ir/ref/ir.hpp", problems)

    def test_each_generic_layer_and_adapters(self):
        for layer in ("concepts", "descriptors", "algorithms", "passes"):
            for concrete in ("neuronrw/adapters/mlir/mlir.hpp", "neuronrw/ir/ref/ir.hpp"):
                with self.subTest(layer=layer, concrete=concrete):
                    files = dict(CLEAN)
                    files[f"neuronrw/{layer}/extra.hpp"] = f'#pragma once\n#include "{concrete}"\n'
                    problems, run = self.check_tree(files)
                    self.assertEqual(run.returncode, 1)
                    self.assertEqual(problems, [
                        f"neuronrw/{layer}/extra.hpp: generic header reaches concrete header "
                        f"{concrete}: neuronrw/{layer}/extra.hpp:2 -> {concrete}"])

    def test_missing_include_is_reported(self):
        files = dict(CLEAN)
        files["neuronrw/algorithms/order.hpp"] = """
            #pragma once
            #include "walk.hpp"
            #include <neuronrw/algorithms/gone.hpp>
            #include "not_there.hpp"
            """
        problems, run = self.check_tree(files)
        self.assertEqual(run.returncode, 1)
        self.assertEqual(problems, [
            "neuronrw/algorithms/order.hpp:3: includes 'neuronrw/algorithms/gone.hpp', which does not exist",
            "neuronrw/algorithms/order.hpp:4: includes 'not_there.hpp', which does not exist",
        ])

    def test_pass_detail_used_by_another_pass_is_reported(self):
        files = dict(CLEAN)
        files["neuronrw/passes/protocol.hpp"] = """
            #pragma once
            namespace neuronrw::describe_detail { inline int plural() { return 1; } }
            """
        files["neuronrw/passes/alpha.hpp"] = """
            #pragma once
            #include <neuronrw/passes/protocol.hpp>
            namespace neuronrw::alpha_detail { inline int step() { return describe_detail::plural(); } }
            """
        files["neuronrw/passes/beta/plan.hpp"] = """
            #pragma once
            namespace neuronrw::beta_detail { inline int planner() { return 0; } }
            """
        files["neuronrw/passes/beta/apply.hpp"] = """
            #pragma once
            #include <neuronrw/passes/alpha.hpp>
            #include <neuronrw/passes/beta/plan.hpp>
            // alpha_detail::step() in a comment does not count
            namespace neuronrw::beta_detail { inline int apply() { return planner() + alpha_detail::step(); } }
            inline int f() { return neuronrw::beta_detail::planner(); }
            """
        files["neuronrw/ir/host/wrap.hpp"] = """
            #pragma once
            namespace neuronrw::alpha_detail { inline int own() { return 2; } }
            inline int g() { return neuronrw::alpha_detail::own() + neuronrw::beta_detail::apply(); }
            """
        problems, run = self.check_tree(files)
        self.assertEqual(run.returncode, 1)
        self.assertEqual(problems, [
            "neuronrw/ir/host/wrap.hpp:3: uses beta_detail::apply, an internal of pass 'beta' "
            "(use its public API or its descriptor in neuronrw::passes)",
            "neuronrw/passes/beta/apply.hpp:5: uses alpha_detail::step, an internal of pass 'alpha' "
            "(use its public API or its descriptor in neuronrw::passes)",
        ])

    def test_bad_arguments(self):
        with tempfile.TemporaryDirectory() as root:
            run = subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True)
        self.assertEqual(run.returncode, 2)
        self.assertIn("is not a directory", run.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
