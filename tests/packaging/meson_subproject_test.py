#!/usr/bin/env python3
"""neuronrw as a meson subproject: a project (meson_consumer/) whose only use of neuronrw is
dependency('neuronrw'), with subprojects/neuronrw a link to this source tree and no wrap file.
It must configure with the subproject building nothing of its own (its tests, benchmarks and
examples default to off there, so doctest and Google Benchmark are never looked up), install
nothing, find Boost through the dependency, and build and run consumer.cpp.
"""
import json
import os

import common
from common import Failure, check_contains, check_equal, check_lacks, run


def test(argv):
    a = common.parse_args(argv)
    common.check_readme_block(a["source_root"], "meson", "meson_consumer/meson.build", "#")
    meson = [a["meson"]]

    proj = common.scratch(a["build_root"], "meson_subproject")
    common.copy_consumer(["meson_consumer/meson.build"], proj)
    os.makedirs(os.path.join(proj, "subprojects"))
    os.symlink(a["source_root"], os.path.join(proj, "subprojects", "neuronrw"))

    # The build's compiler; --force-fallback-for: a neuronrw installed on this machine must not
    # stand in for the subproject.
    env = dict(os.environ, CXX=" ".join(a["cxx"]))
    build = os.path.join(proj, "build")
    _, out, _ = run(meson + ["setup", build, "--force-fallback-for=neuronrw"], cwd=proj, env=env)
    for line in ("\nExecuting subproject neuronrw \n", "\nneuronrw| Build targets in project: 0\n",
                 "\nDependency neuronrw found: YES {} (overridden)\n".format(a["version"])):
        check_contains("the consumer's configure output", out, line)
    with open(os.path.join(build, "meson-logs", "meson-log.txt"), encoding="utf-8") as f:
        log = f.read()
    sub = log[log.find("Executing subproject neuronrw"):log.find("Subproject neuronrw finished")]
    check_contains("the subproject's configure log", sub, "Run-time dependency Boost found: YES")
    for absent in ("Run-time dependency doctest", "Run-time dependency benchmark",
                   "Dependency doctest", "Dependency benchmark", "Program llvm-config"):
        check_lacks("the subproject's configure log", sub, absent)

    _, out, _ = run(meson + ["introspect", "--targets", build])
    targets = sorted(t["name"] + " (" + t["subproject"] + ")" if t["subproject"] else t["name"]
                     for t in json.loads(out))
    check_equal("the targets of the consumer's build", "\n".join(targets) + "\n", "consumer\n")
    _, out, _ = run(meson + ["introspect", "--installed", build])
    check_equal("what the consumer's build installs", out.strip(), "{}")
    _, out, _ = run(meson + ["introspect", "--tests", "--benchmarks", build])
    check_equal("the consumer's tests and benchmarks", json.dumps(json.loads(out), sort_keys=True),
                '{"benchmarks": [], "tests": []}')

    run(meson + ["compile", "-C", build])
    _, out, _ = run([os.path.join(build, "consumer")])
    check_equal("the meson consumer's output", out, common.expected_output())
    return 0


if __name__ == "__main__":
    common.main(test)
