#!/usr/bin/env python3
"""The installed neuronrw.pc: `meson install --destdir` of the build, then pkg-config reads the
staged file (PKG_CONFIG_PATH, PKG_CONFIG_SYSROOT_DIR = the DESTDIR): its version, flags and
boost_min_version are exact, and README.md's compile command, run with those flags and the
build's compiler, builds consumer.cpp, which prints what consumer.expected holds.

Then the other side of how the file declares Boost: neuronrw configured (nothing but the
library) against a Boost found through BOOST_ROOT, which the compiler does not see by itself,
puts that Boost's -I into the file's Cflags.
"""
import os
import shlex

import common
from common import Failure, check_equal, run


def test(argv):
    a = common.parse_args(argv)
    if not a["pkg_config"]:
        print("SKIP: pkg-config not found when meson configured (Debian: apt-get install pkg-config)")
        return common.SKIP
    pkg_config = a["pkg_config"]
    readme = common.readme_block(a["source_root"], "sh", "pkg-config").strip()
    if not readme.startswith("c++ ") or "\n" in readme:
        raise Failure("README.md's pkg-config block must be one `c++ ...` command, it is:\n" + readme)

    scratch = common.scratch(a["build_root"], "pkg_config")
    destdir = os.path.join(scratch, "destdir")
    common.stage_install([a["meson"]], a["build_root"], destdir)
    env = dict(os.environ, PKG_CONFIG_PATH=common.staged(destdir, os.path.join(a["datadir"], "pkgconfig")),
               PKG_CONFIG_SYSROOT_DIR=destdir)
    env.pop("PKG_CONFIG_LIBDIR", None)

    def query(*args):
        return run([pkg_config] + list(args) + ["neuronrw"], env=env)[1]

    # The installed tools run as installed (no build tree, no LD_LIBRARY_PATH): neuronrw-mlir-opt
    # finds libMLIR through its install rpath.
    bindir = common.staged(destdir, os.path.join(a["prefix"], "bin"))
    plain_env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    for tool in ("neuronrw-opt", "neuronrw-mlir-opt"):
        path = os.path.join(bindir, tool)
        if os.path.exists(path):
            run([path, "--version"], env=plain_env)

    check_equal("pkg-config --modversion", query("--modversion"), a["version"] + "\n")
    check_equal("pkg-config --cflags", query("--cflags").strip(),
                "-I" + common.staged(destdir, a["includedir"]))
    check_equal("pkg-config --libs", query("--libs").strip(), "")
    check_equal("pkg-config --variable=boost_min_version", query("--variable=boost_min_version"),
                a["boost_min_version"] + "\n")

    # README's command, its `c++` the build's compiler, run by the shell as a reader would.
    src = os.path.join(scratch, "consumer")
    os.makedirs(src)
    common.copy_consumer([], src)
    command = shlex.join(a["cxx"]) + readme[len("c++"):]
    run(["sh", "-c", command], cwd=src, env=env)
    _, out, _ = run([os.path.join(src, "consumer")])
    check_equal("the pkg-config consumer's output", out, common.expected_output())

    # A Boost the compiler does not find by itself: BOOST_ROOT with only boost/version.hpp (meson
    # reads the version from it; nothing is compiled against it), a version no system has.
    boost_root = os.path.join(scratch, "boost_root")
    os.makedirs(os.path.join(boost_root, "include", "boost"))
    with open(os.path.join(boost_root, "include", "boost", "version.hpp"), "w", encoding="utf-8") as f:
        f.write('#define BOOST_VERSION 109901\n#define BOOST_LIB_VERSION "1_99_1"\n')
    build = os.path.join(scratch, "boost_root_build")
    options = ["-D{}=disabled".format(o) for o in ("tests", "examples", "benchmarks", "mlir")]
    run([a["meson"], "setup", build, a["source_root"]] + options,
        env=dict(os.environ, BOOST_ROOT=boost_root, CXX=" ".join(a["cxx"])))
    with open(os.path.join(build, "meson-private", "neuronrw.pc"), encoding="utf-8") as f:
        pc = f.read()
    cflags = [line for line in pc.splitlines() if line.startswith("Cflags:")]
    check_equal("Cflags of neuronrw.pc with BOOST_ROOT", "\n".join(cflags),
                "Cflags: -I${includedir} -I" + os.path.join(boost_root, "include") + " -DBOOST_ALL_NO_LIB")
    return 0


if __name__ == "__main__":
    common.main(test)
