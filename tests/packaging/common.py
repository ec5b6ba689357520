"""What the packaging tests share: running a command (its output is shown only when it fails),
exact comparisons, each test's scratch directory under the build directory, the staged install of
the build and the README blocks that must equal the consumers' files.

Every test is `python3 NAME_test.py ARGS...` (tests/packaging/meson.build passes the paths); it
prints `ok   NAME_test.py` and exits 0, prints `FAIL NAME_test.py` with the first difference and
exits 1, or exits 77 (meson's skip) when a tool it needs is missing (the printer is
tests/support/checks.py's).
"""
import difflib
import os
import re
import shutil
import subprocess
import sys

SKIP = 77
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "support"))
from checks import Checks  # noqa: E402


class Failure(Exception):
    pass


def run(cmd, cwd=None, env=None, expect_ok=True, timeout=600):
    """Runs cmd; returns (returncode, stdout, stderr). With expect_ok a non-zero exit fails the
    test, and with expect_ok=False a zero exit does."""
    try:
        proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failure("`{}` (in {}) ran longer than {} s".format(" ".join(cmd), cwd or os.getcwd(), timeout))
    except OSError as e:
        raise Failure("`{}` could not run: {}".format(" ".join(cmd), e))
    if (proc.returncode == 0) != expect_ok:
        raise Failure("`{}` (in {}) exited {}, expected {}\n--- stdout\n{}--- stderr\n{}".format(
            " ".join(cmd), cwd or os.getcwd(), proc.returncode,
            "0" if expect_ok else "an error", proc.stdout, proc.stderr))
    return proc.returncode, proc.stdout, proc.stderr


def check_equal(what, got, want):
    if got != want:
        diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                            "expected", "got"))
        raise Failure("{} differs from what is expected:\n{}{}".format(
            what, diff, "" if diff else "expected {!r}, got {!r}\n".format(want, got)))


def check_contains(what, text, needle):
    if needle not in text:
        raise Failure("{} lacks {!r}; it is:\n{}".format(what, needle, text))


def check_lacks(what, text, needle):
    if needle in text:
        raise Failure("{} has {!r}, which it must not; it is:\n{}".format(what, needle, text))


def scratch(build_root, name):
    """An empty directory of this test's own under the build directory. Fixed (not temporary),
    so what a failed run left can be inspected; emptied when the test starts again."""
    path = os.path.join(build_root, "meson-private", "packaging-tests", name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def stage_install(meson, build_root, destdir):
    """`meson install` of the build into destdir (DESTDIR), what a distribution's package does;
    the build's programs are built already (the test depends on them)."""
    run(meson + ["install", "-C", build_root, "--no-rebuild", "--quiet", "--destdir", destdir])


def staged(destdir, path):
    """Where the absolute install path `path` lands under destdir."""
    return os.path.join(destdir, os.path.relpath(path, "/"))


def expected_output():
    with open(os.path.join(HERE, "consumer.expected"), encoding="utf-8") as f:
        return f.read()


def copy_consumer(files, dest):
    """A consumer project in dest: the given files of tests/packaging/ and consumer.cpp."""
    for f in files + ["consumer.cpp"]:
        shutil.copy(os.path.join(HERE, f), os.path.join(dest, os.path.basename(f)))


def marked_region(path, comment):
    """The lines between `COMMENT [use]` and `COMMENT [/use]` of path."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^{0} \[use\]\n(.*?)^{0} \[/use\]$".format(re.escape(comment)), text,
                  re.MULTILINE | re.DOTALL)
    if not m:
        raise Failure("{} has no `{} [use]` ... `{} [/use]` region".format(path, comment, comment))
    return m.group(1)


def readme_blocks(source_root, lang):
    """The ```LANG blocks of README.md's section "Use neuronrw from your project"."""
    with open(os.path.join(source_root, "README.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^## Use neuronrw from your project\n(.*?)(?=^## |\Z)", text,
                  re.MULTILINE | re.DOTALL)
    if not m:
        raise Failure('README.md has no section "## Use neuronrw from your project"')
    return re.findall(r"^```{}\n(.*?)^```$".format(re.escape(lang)), m.group(1),
                      re.MULTILINE | re.DOTALL)


def readme_block(source_root, lang, containing=""):
    """The one ```LANG block of that section that contains `containing`."""
    blocks = [b for b in readme_blocks(source_root, lang) if containing in b]
    if len(blocks) != 1:
        raise Failure('README.md §"Use neuronrw from your project" has {} ```{} blocks{}, '
                      "expected 1".format(len(blocks), lang,
                                          " with " + repr(containing) if containing else ""))
    return blocks[0]


def check_readme_block(source_root, lang, consumer_file, comment):
    """README's block is the consumer's [use] region, so what the README shows is what is tested."""
    check_equal('README.md §"Use neuronrw from your project" ```{} block'.format(lang),
                readme_block(source_root, lang), marked_region(os.path.join(HERE, consumer_file), comment))


def main(test):
    """Runs test(argv) as one check named after the script (tests/support/checks.py prints it):
    a Failure is its detail."""
    check = Checks()
    name = os.path.basename(sys.argv[0])
    try:
        status = test(sys.argv[1:])
    except Failure as e:
        check.fail(name, str(e))
        sys.exit(check.done())
    if status == SKIP:
        sys.exit(SKIP)
    check(name, True)
    sys.exit(check.done())


def parse_args(argv):
    """The arguments tests/packaging/meson.build passes: `--name value` pairs, then `--` and
    the build's C++ compiler command."""
    if "--" not in argv:
        raise Failure("usage: TEST --source-root DIR --build-root DIR ... -- CXX...")
    split = argv.index("--")
    pairs, cxx = argv[:split], argv[split + 1:]
    if len(pairs) % 2 or not cxx:
        raise Failure("arguments must be `--name value` pairs, then `--` and the compiler: {}".format(argv))
    args = {}
    for name, value in zip(pairs[::2], pairs[1::2]):
        if not name.startswith("--"):
            raise Failure("expected an option name, got {!r}".format(name))
        args[name[2:].replace("-", "_")] = value
    args["cxx"] = cxx
    return args
