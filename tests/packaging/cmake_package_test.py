#!/usr/bin/env python3
"""The installed CMake package: `meson install --destdir` of the build, then a CMake project
(cmake_consumer/) does find_package(neuronrw 0.1 CONFIG REQUIRED) against the staged prefix,
links neuronrw::neuronrw, builds consumer.cpp with the build's compiler and runs it; the target
must carry exactly the staged include directory, cxx_std_20 and Boost::headers. Then requests the
package must refuse: version 1.0 and 0.2 (SameMinorVersion: 0.x minor releases may break) and a
component (it has none). The DESTDIR install is also the relocation check: the config finds the
headers from its own location, not from the prefix it was configured for.

Skipped (77) only when meson found no cmake: the build then installs no CMake package.
"""
import os
import sys

import common
from common import Failure, check_contains, check_equal, run


def configure_fails(cmake, scratch, name, find_package_args, prefix_path):
    """Configures a project whose only statement is find_package(neuronrw ARGS); it must fail.
    Returns the configure output (stdout + stderr)."""
    src = os.path.join(scratch, name)
    os.makedirs(src)
    with open(os.path.join(src, "CMakeLists.txt"), "w", encoding="utf-8") as f:
        f.write("cmake_minimum_required(VERSION 3.20)\nproject({} LANGUAGES NONE)\n"
                "find_package(neuronrw {})\n".format(name, find_package_args))
    _, out, err = run([cmake, "-S", src, "-B", os.path.join(src, "build"),
                       "-DCMAKE_PREFIX_PATH=" + prefix_path], expect_ok=False)
    return out + err


def test(argv):
    a = common.parse_args(argv)
    if not a["cmake"]:
        print("SKIP: cmake not found when meson configured, so no CMake package is installed to "
              "test (Debian: apt-get install cmake)")
        return common.SKIP
    cmake = a["cmake"]
    common.check_readme_block(a["source_root"], "cmake", "cmake_consumer/CMakeLists.txt", "#")

    scratch = common.scratch(a["build_root"], "cmake_package")
    destdir = os.path.join(scratch, "destdir")
    common.stage_install([a["meson"]], a["build_root"], destdir)
    prefix = common.staged(destdir, a["prefix"])
    package_dir = common.staged(destdir, os.path.join(a["datadir"], "cmake", "neuronrw"))
    for f in ("neuronrwConfig.cmake", "neuronrwConfigVersion.cmake"):
        if not os.path.isfile(os.path.join(package_dir, f)):
            raise Failure("the install has no {} in {}".format(f, package_dir))

    # The consumer, compiled by the build's compiler (a launcher such as ccache stays one).
    src = os.path.join(scratch, "consumer")
    os.makedirs(src)
    common.copy_consumer(["cmake_consumer/CMakeLists.txt"], src)
    build = os.path.join(src, "build")
    configure = [cmake, "-S", src, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                 "-DCMAKE_PREFIX_PATH=" + prefix,
                 "-DCMAKE_CXX_COMPILER=" + a["cxx"][-1],
                 "-DCMAKE_CXX_FLAGS=-Wall -Wextra -Wpedantic -Werror"]
    if len(a["cxx"]) > 1:
        configure.append("-DCMAKE_CXX_COMPILER_LAUNCHER=" + ";".join(a["cxx"][:-1]))
    _, out, _ = run(configure)
    staged_include = common.staged(destdir, a["includedir"])
    for line in ("neuronrw::neuronrw INTERFACE_INCLUDE_DIRECTORIES=" + staged_include,
                 "neuronrw::neuronrw INTERFACE_COMPILE_FEATURES=cxx_std_20",
                 "neuronrw::neuronrw INTERFACE_LINK_LIBRARIES=Boost::headers",
                 "neuronrw_VERSION={} neuronrw_DIR={}".format(a["version"], package_dir)):
        check_contains("the consumer's configure output", out, "-- " + line + "\n")
    run([cmake, "--build", build])
    _, out, _ = run([os.path.join(build, "consumer")])
    check_equal("the CMake consumer's output", out, common.expected_output())

    # Requests the package must refuse, each with CMake's or the package's reason.
    config = os.path.join(package_dir, "neuronrwConfig.cmake")
    for version in ("1.0", "0.2"):
        out = configure_fails(cmake, scratch, "version_" + version.replace(".", "_"),
                              version + " CONFIG REQUIRED", prefix)
        check_contains("find_package(neuronrw {}) output".format(version), out,
                       'Could not find a configuration file for package "neuronrw" that is\n'
                       '  compatible with requested version "{}".'.format(version))
        check_contains("find_package(neuronrw {}) output".format(version), out,
                       "    {}, version: {}\n".format(config, a["version"]))
    out = configure_fails(cmake, scratch, "component", "0.1 CONFIG REQUIRED COMPONENTS mlir", prefix)
    check_contains("find_package(neuronrw COMPONENTS mlir) output", out,
                   "neuronrw has no components (asked for: mlir); link neuronrw::neuronrw")
    return 0


if __name__ == "__main__":
    common.main(test)
