// neuronrw-opt — the command-line driver, mlir-opt style (docs/driver.md):
//   neuronrw-opt [options] [pass flags... | --pass-pipeline=PIPELINE] [-o FILE] [INPUT|-]
// Two kinds of input: MLIR (the reference IR) and pypto-style host programs (`.py` files, or
// `--input-kind=host`). Passes run in the order given; with none, the input is parsed, verified
// and printed (a round trip). The input is verified after parsing and after every pass; output is
// written only when everything succeeded, so a failure never leaves a partial file. A dry-run
// pass replaces the printed program by its plan (plan_output.hpp).
// `--emit-dot[=before|after]` prints a Graphviz picture of each function instead (emit_dot.hpp),
// of the input (before) or of the result (after, the default), annotated with the ScheduleFusion
// plan when the pipeline runs ScheduleFusion; it needs Boost.Graph's headers at build time.
//
// The parts: cli.hpp (command line, help, --list-passes), registry.hpp (the passes, each
// registered from its descriptor), pass_registry.hpp (what the driver knows of a pass and its
// typed options), pipeline.hpp (pipeline and option syntax), passes.hpp (what each pass does),
// driver.hpp (chunks, pipeline, output), diagnostics_render.hpp (severity, source line, caret),
// split_input.hpp, verify_diagnostics.hpp, instrumentation.hpp (IR dumps, timing, statistics),
// progress.hpp, plan_output.hpp.
// Exit codes: 0 ok, 1 input or verification error (message on stderr), 2 usage error.
#include "cli.hpp"
#include "driver.hpp"

int main(int argc, char** argv) { return neuronrw_opt::driver_main(argc, argv); }
