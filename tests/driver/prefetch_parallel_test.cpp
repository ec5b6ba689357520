// The user pass of docs/passes.md (examples/prefetch/prefetch.hpp) through the generic parallel
// driver (neuronrw/passes/parallel.hpp) from its descriptor alone: run_pass_parallel<prefetch> on
// the reference IR, 1 to 4 threads, gives the sequential plan (D::plan) and the same module.
#include <cstdint>
#include <string>

#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/parallel.hpp>

#include "../../examples/prefetch/prefetch.hpp"
#include "support/checks.hpp"

namespace {

neuronrw::testing::checks check;

std::string module_text() {
  std::string text;
  for (int f = 0; f < 12; ++f) {
    const std::string n = std::to_string(f);
    text += "func.func @f" + n + R"((%w: tensor<4xf32>, %x: tensor<16xf32>) -> tensor<16xf32> {
  %a = "mhlo.exp"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %k = "mhlo.all_gather"(%a) : (tensor<16xf32>) -> tensor<64xf32>
  %b = "mhlo.log"(%a) : (tensor<16xf32>) -> tensor<16xf32>
)";
    for (int i = 0; i < f % 4; ++i)
      text += "  %c" + std::to_string(i) + " = \"mhlo.log\"(%a) : (tensor<16xf32>) -> tensor<16xf32>\n";
    text += R"(  %g = "mhlo.all_gather"(%w) : (tensor<4xf32>) -> tensor<16xf32>
  %h = "mhlo.all_gather"(%g) : (tensor<16xf32>) -> tensor<16xf32>
  %y = "mhlo.add"(%b, %h) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
)";
  }
  return text;
}

}  // namespace

int main() {
  namespace nr = neuronrw;
  using pass = prefetch_example::prefetch;
  const std::string text = module_text();
  for (std::uint64_t distance : {3u, 4u, 16u}) {
    auto seq = nr::ref::parse(text, "prefetch.mlir");
    if (!check("the module parses", seq.ok(), seq.ok() ? "" : seq.error.str())) return check.done();
    const pass::options o{.max_distance = distance};
    const auto plan = pass::plan(*seq.value, o);
    pass::apply(*seq.value, plan);
    const std::string want = nr::ref::print(*seq.value);
    check("max-distance=" + std::to_string(distance) + ": the sequential pass moves and refuses",
          !plan.moves.empty() && !plan.refused.empty());
    for (unsigned threads : {1u, 2u, 4u}) {
      auto par = nr::ref::parse(text, "prefetch.mlir");
      const auto pplan = nr::run_pass_parallel<pass>(*par.value, o, {.threads = threads});
      const std::string what = "max-distance=" + std::to_string(distance) + ", " + std::to_string(threads) + " threads: ";
      check(what + "the parallel plan is the sequential one",
            pplan.moves.size() == plan.moves.size() && pplan.refused.size() == plan.refused.size() &&
                pass::describe(*par.value, pplan, [](auto) { return std::string("op"); }) ==
                    pass::describe(*seq.value, plan, [](auto) { return std::string("op"); }));
      check(what + "the module is the sequential pass's", nr::ref::print(*par.value) == want);
    }
  }
  return check.done();
}
