#!/usr/bin/env python3
"""scripts/install-deps against fake apt-get and dpkg-query (no package is touched).

Usage: install_deps_test.py SOURCE_ROOT

The fakes are shell scripts in a scratch directory, named by NEURONRW_APT_GET and
NEURONRW_DPKG_QUERY; each apt-get call appends its arguments to a log, and answers from a script
of outcomes (`ok`, `lock`: another apt holds a lock, `net`: a download failed), one per call.
Checked: nothing missing means no apt-get call and no output; the missing packages are listed
with why each is needed, then installed with apt's dpkg lock timeout; a held lock is waited for
(one message, then the retries) and a lock held past NEURONRW_APT_LOCK_WAIT fails with apt's
message; a failed `apt-get update` is retried once, a second failure gives up; --list and an
unknown option. Each check prints one line; exit 1 if any failed.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../support"))
from checks import Checks  # noqa: E402

root = os.path.abspath(sys.argv[1])
script = os.path.join(root, "scripts", "install-deps")
check = Checks()
tmp = tempfile.mkdtemp(prefix="install-deps-test.")

APT = """#!/bin/sh
echo "$*" >> "{log}"
n=$(wc -l < "{log}")
outcome=$(sed -n "${{n}}p" "{plan}")
case "$outcome" in
  lock) echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2; exit 100 ;;
  net)  echo "E: Failed to fetch http://deb.debian.org/debian/dists/bookworm/InRelease  Temporary failure" >&2; exit 100 ;;
  *)    echo "fake apt-get: $1 done"; exit 0 ;;
esac
"""
# dpkg-query: the packages named in {installed} are installed, every other one is not.
DPKG = """#!/bin/sh
for last; do :; done
if grep -qx "$last" "{installed}"; then printf 'install ok installed'; else exit 1; fi
"""


def setup(name, installed, plan):
    d = os.path.join(tmp, name)
    os.mkdir(d)
    paths = {k: os.path.join(d, k) for k in ("log", "plan", "installed", "apt-get", "dpkg-query")}
    with open(paths["plan"], "w") as f:
        f.write("\n".join(plan) + "\n")
    with open(paths["installed"], "w") as f:
        f.write("\n".join(installed) + "\n")
    open(paths["log"], "w").close()
    for tool, text in (("apt-get", APT), ("dpkg-query", DPKG)):
        with open(paths[tool], "w") as f:
            f.write(text.format(**paths))
        os.chmod(paths[tool], 0o755)
    return paths


def run(paths, args=(), lock_wait="60"):
    env = dict(os.environ, NEURONRW_APT_GET=paths["apt-get"], NEURONRW_DPKG_QUERY=paths["dpkg-query"],
               NEURONRW_ASSUME_ROOT="1", NEURONRW_APT_RETRY_SECONDS="0", NEURONRW_APT_LOCK_WAIT=lock_wait)
    r = subprocess.run([script, *args], capture_output=True, text=True, env=env, timeout=120)
    with open(paths["log"]) as f:
        calls = f.read().splitlines()
    return r, calls


listing = subprocess.run([script, "--list", "--mlir", "--plot"], capture_output=True, text=True)
packages = [line.split()[0] for line in listing.stdout.splitlines()]
base = [line.split()[0] for line in subprocess.run([script, "--list"], capture_output=True, text=True).stdout.splitlines()]
check("--list names every package with why it is needed", listing.returncode == 0 and len(packages) >= 15 and all(
    len(line.split(None, 1)) == 2 for line in listing.stdout.splitlines()), listing.stdout + listing.stderr)
check("--list --mlir adds the MLIR packages and LLVM's lit and its test tools",
      {"libmlir-22-dev", "mlir-22-tools", "llvm-22-tools"} <= set(packages) and "llvm-22-tools" not in base, packages)
check("the base packages include python3-jsonschema (the plan-JSON tests)", "python3-jsonschema" in base, base)

p = setup("nothing_missing", packages, [])
r, calls = run(p, ["--mlir", "--plot"])
check("nothing missing: exit 0, no output, no apt-get call", r.returncode == 0 and not r.stdout and not r.stderr
      and calls == [], f"exit {r.returncode}\n{r.stderr}\ncalls {calls}")

p = setup("two_missing", [x for x in base if x not in ("cmake", "doctest-dev")], ["ok", "ok"])
r, calls = run(p)
check("missing packages: listed with their reasons", r.returncode == 0
      and "install-deps: installing 2 Debian package(s):" in r.stderr
      and "doctest-dev          the unit tests' framework" in r.stderr and "cmake " in r.stderr, r.stderr)
check("missing packages: apt-get update, then install of exactly those, waiting for dpkg's lock",
      len(calls) == 2 and calls[0].startswith("-o DPkg::Lock::Timeout=60 update")
      and calls[1] == "-o DPkg::Lock::Timeout=60 install -y -q --no-install-recommends doctest-dev cmake", calls)

p = setup("lock_then_free", ["meson"], ["lock", "lock", "ok", "lock", "ok"])
r, calls = run(p)
check("a held lock is waited for: exit 0 once it is free", r.returncode == 0 and len(calls) == 5, f"{r.stderr}\n{calls}")
check("a held lock is reported once per step, with apt's words",
      r.stderr.count("another apt or dpkg holds a lock") == 2
      and "Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" in r.stderr, r.stderr)

p = setup("lock_forever", ["meson"], ["lock"] * 50)
r, calls = run(p, lock_wait="0")
check("a lock held past NEURONRW_APT_LOCK_WAIT: exit 1 with apt's message, update tried twice",
      r.returncode == 1 and "Could not get lock" in r.stderr and "apt-get update failed twice; giving up" in r.stderr
      and len(calls) == 2, f"exit {r.returncode}\n{r.stderr}\n{calls}")

p = setup("update_fails_once", ["meson"], ["net", "ok", "ok"])
r, calls = run(p)
check("a failed apt-get update is retried once", r.returncode == 0 and len(calls) == 3
      and "apt-get update failed; trying once more" in r.stderr and calls[2].startswith("-o DPkg::Lock::Timeout=60 install"),
      f"exit {r.returncode}\n{r.stderr}\n{calls}")

p = setup("update_fails_twice", ["meson"], ["net", "net", "ok"])
r, calls = run(p)
check("two failed apt-get updates: exit 1, nothing installed", r.returncode == 1 and len(calls) == 2
      and "Temporary failure" in r.stderr and "giving up" in r.stderr, f"exit {r.returncode}\n{r.stderr}\n{calls}")

p = setup("install_fails", ["meson"], ["ok", "net"])
r, calls = run(p)
check("a failed apt-get install: exit 1 naming the packages", r.returncode == 1
      and "install-deps: apt-get install" in r.stderr and "failed" in r.stderr, f"exit {r.returncode}\n{r.stderr}")

r = subprocess.run([script, "--no-such-option"], capture_output=True, text=True)
check("an unknown option: exit 2", r.returncode == 2 and "unknown option '--no-such-option'" in r.stderr, r.stderr)
check.exit()
