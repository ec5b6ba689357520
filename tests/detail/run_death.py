#!/usr/bin/env python3
"""Runs EXE CASE and checks how it ends.

Usage: run_death.py EXE CASE --abort STDERR_REGEX
       run_death.py EXE CASE --ok STDOUT_TEXT

--abort: the process must die of SIGABRT (std::abort) and its stderr must match STDERR_REGEX
(re.search). --ok: it must exit 0 and print exactly STDOUT_TEXT (plus a newline). Core dumps are
disabled for the child.
"""
import re
import resource
import signal
import subprocess
import sys


def no_core():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def main(argv):
    if len(argv) != 5 or argv[3] not in ("--abort", "--ok"):
        print(__doc__, file=sys.stderr)
        return 2
    exe, case, mode, expected = argv[1:]
    run = subprocess.run([exe, case], capture_output=True, text=True, preexec_fn=no_core, timeout=120)
    shown = f"exit {run.returncode}\nstdout: {run.stdout!r}\nstderr: {run.stderr!r}"
    if mode == "--abort":
        if run.returncode != -signal.SIGABRT:
            print(f"{case}: expected death by SIGABRT, got {shown}")
            return 1
        if not re.search(expected, run.stderr):
            print(f"{case}: stderr does not match {expected!r}; {shown}")
            return 1
    else:
        if run.returncode != 0 or run.stdout != expected + "\n":
            print(f"{case}: expected exit 0 and stdout {expected!r}; {shown}")
            return 1
    print(f"{case}: ok ({shown})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
