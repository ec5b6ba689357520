"""Named checks, one line each: the check printer every scripted test under tests/ shares.

    import os, sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
    from checks import Checks

    check = Checks()
    check("the output is sorted", out == sorted(out), detail=out)  # returns the condition
    check.fail("the tool crashed", stderr)                         # a failure without a condition
    check.expect_run("--help", proc, 0, stdout=HELP)               # a subprocess's exit and output
    check.exit()                                                   # summary line, exit 1 or 0

Each check prints `ok   NAME` or `FAIL NAME`, then, for a failure with a detail, the detail
indented by five spaces. With verbose=False only the failures are printed (for tests with
thousands of checks). The stream is stdout unless another is given. exit() (or done(), which
returns the status instead of raising SystemExit) prints `N check(s) failed` or
`all checks passed`, after `LABEL: ` when a label is given.

The C++ twin for test programs that do not use doctest is tests/support/checks.hpp.
"""
import sys


class Checks:
    def __init__(self, verbose=True, stream=None, label=""):
        self.failures = 0
        self.passed = 0
        self.verbose = verbose
        self.stream = stream
        self.label = label

    def _print(self, line):
        print(line, file=self.stream if self.stream is not None else sys.stdout)

    def __call__(self, name, cond, detail=""):
        """Records one check; prints it (a pass only when verbose); returns bool(cond)."""
        cond = bool(cond)
        if cond:
            self.passed += 1
            if self.verbose:
                self._print("ok   " + name)
            return True
        self.failures += 1
        self._print("FAIL " + name)
        if detail:
            self._print("     " + str(detail).replace("\n", "\n     "))
        return False

    def fail(self, name, detail=""):
        """A failed check: what went wrong is known without a condition to test."""
        return self(name, False, detail)

    def expect_run(self, name, r, rc, stdout=None, stderr=None):
        """A finished subprocess (subprocess.run's result): its exit code and, when given, its
        exact standard output and error. Bytes outputs are shown with repr() (a CR stays visible)."""
        ok = r.returncode == rc and (stdout is None or r.stdout == stdout) and (stderr is None or r.stderr == stderr)
        detail = f"exit {r.returncode} (want {rc})"

        def shown(x):
            return repr(x) if isinstance(x, bytes) else x

        if stdout is not None and r.stdout != stdout:
            detail += f"\n--- stdout ---\n{shown(r.stdout)}\n--- want ---\n{shown(stdout)}"
        if stderr is not None and r.stderr != stderr:
            detail += f"\n--- stderr ---\n{shown(r.stderr)}\n--- want ---\n{shown(stderr)}"
        return self(name, ok, detail)

    def done(self):
        """Prints the summary line; returns the exit status (1 when any check failed, else 0)."""
        prefix = self.label + ": " if self.label else ""
        self._print(prefix + (f"{self.failures} check(s) failed" if self.failures else "all checks passed"))
        return 1 if self.failures else 0

    def exit(self):
        raise SystemExit(self.done())
