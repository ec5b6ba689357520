# Sourced by scripts/demo and scripts/test (README's two commands) and .ci/run: the one way
# build/ is configured, so the two commands can run in any order and after anything else (an
# older build/, a partial install, a build/ configured by hand).
#
#   neuronrw_prepare_build DIR   installs the packages (scripts/install-deps --mlir), then makes
#                                DIR a build configured with README's options: configures it when
#                                it is not configured, reconfigures it when it was configured
#                                with other values of those options (say without MLIR, before the
#                                MLIR packages were installed), wipes and configures it when an
#                                earlier configure failed half-way. Fails, saying why, when MLIR
#                                cannot be built: the tests never skip the MLIR suites silently.
#   neuronrw_ccache_env          exports the ccache settings of every build (when ccache exists).
#
# NEURONRW_DRY_RUN=1 (for tests/scripts/build_order_test.py): scripts/demo and scripts/test
# configure build/ as usual, then print what they would build and run instead of doing it.

# README's build: g++, warnings as errors, the MLIR adapter and its tests required (a build/
# configured otherwise is reconfigured with these), optimized without debug information (only
# when build/ is first configured: `meson configure build -Ddebug=true` for a debugger is kept;
# debug information makes the build half as slow again).
NEURONRW_BUILD_OPTIONS=(-Dwerror=true -Dmlir=enabled)
NEURONRW_FIRST_OPTIONS=(-Ddebug=false)

neuronrw_ccache_env() {
  # Hits survive a clean clone in another folder: paths under the source tree are hashed as
  # relative paths, and the build directory's own path is not hashed.
  if command -v ccache >/dev/null 2>&1; then
    export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(pwd -P)}
    export CCACHE_NOHASHDIR=1
    export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
  fi
}

# Prints the options of a configured build dir that differ from NEURONRW_BUILD_OPTIONS, one
# `name: have -> want` per line (nothing when they agree). Exit 1 when DIR cannot be read.
neuronrw_option_drift() {
  python3 - "$1/meson-info/intro-buildoptions.json" "${NEURONRW_BUILD_OPTIONS[@]}" <<'EOF'
import json, sys
try:
    with open(sys.argv[1], encoding="utf-8") as f:
        have = {o["name"]: o["value"] for o in json.load(f)}
except (OSError, ValueError, KeyError, TypeError):
    sys.exit(1)
for arg in sys.argv[2:]:
    name, want = arg[2:].split("=", 1)
    value = have.get(name)
    shown = str(value).lower() if isinstance(value, bool) else str(value)
    if shown != want:
        print(f"{name}: {shown} -> {want}")
EOF
}

neuronrw_prepare_build() {
  local dir=$1 log drift
  scripts/install-deps --mlir
  neuronrw_ccache_env
  log=$(mktemp)
  if [ -f "$dir/meson-private/coredata.dat" ] && [ -f "$dir/build.ninja" ]; then
    if ! drift=$(neuronrw_option_drift "$dir"); then
      drift="its options cannot be read"
    fi
    if [ -n "$drift" ]; then
      echo "$(basename "$0"): $dir was configured differently (${drift//$'\n'/, }); reconfiguring it as README's commands do" >&2
      meson setup --reconfigure "$dir" "${NEURONRW_BUILD_OPTIONS[@]}" >"$log" 2>&1 \
        || { cat "$log" >&2; rm -f "$log"; echo "$(basename "$0"): reconfiguring $dir failed (above)" >&2; return 1; }
    fi
  else
    local wipe=()
    if [ -f "$dir/meson-private/coredata.dat" ]; then
      echo "$(basename "$0"): $dir holds a configuration that did not finish; configuring it afresh" >&2
      wipe=(--wipe)
    elif [ -d "$dir/meson-private" ]; then
      echo "$(basename "$0"): $dir holds a configuration that did not finish; configuring it afresh" >&2
      rm -rf "$dir"
    fi
    meson setup "${wipe[@]}" "$dir" "${NEURONRW_BUILD_OPTIONS[@]}" "${NEURONRW_FIRST_OPTIONS[@]}" >"$log" 2>&1 \
      || { cat "$log" >&2; rm -f "$log"; echo "$(basename "$0"): configuring $dir failed (above)" >&2; return 1; }
  fi
  rm -f "$log"
}
