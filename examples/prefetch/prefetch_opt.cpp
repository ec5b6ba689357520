// prefetch-opt — neuronrw-opt with one more pass, Prefetch (prefetch.hpp), registered from its
// descriptor alone: its flag `--prefetch[=OPTIONS]`, `--prefetch-dry-run`, the pipeline element
// `prefetch{max-distance=4}`, the alias `neuronrw-prefetch` (its MLIR name), its --list-passes
// entry and its statistics come from the descriptor and its options schema (docs/passes.md
// §"Adding a pass"). Everything else is neuronrw-opt's (docs/driver.md).
#include "../neuronrw-opt/cli.hpp"
#include "../neuronrw-opt/driver.hpp"
#include "prefetch.hpp"

// [prefetch-opt]
int main(int argc, char** argv) {
  neuronrw_opt::pass_registry passes = neuronrw_opt::builtin_passes();
  passes.register_pass<prefetch_example::prefetch>();
  return neuronrw_opt::driver_main(argc, argv, passes);
}
// [/prefetch-opt]
