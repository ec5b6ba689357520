// examples/custom_ir/layers.hpp — the two functions the example builds in the compiler's own IR
// (mini_ir.hpp): a tensor-parallel layer (two all_gather → reduce_scatter pairs with compute
// between them) and a mixture-of-experts layer (all-to-all dispatch → combine). main.cpp runs
// ScheduleFusion and a user-declared pattern on them; tests/passes/transaction_test.cpp refuses
// every step of those applies on the same functions; multi_pair_layer (several pairs with moves) is
// what tests/threads and bench/parallel_bench run over many functions.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mini_ir.hpp"

namespace mini_example {

inline mini::Function& tensor_parallel_layer(mini::Module& m) {
  auto& f = *m.functions.emplace_back(std::make_unique<mini::Function>());
  f.name = "layer";
  auto& b = f.entry;
  auto& w1 = mini::add_param(b, "%w1", "f32[4,8]");
  auto& w2 = mini::add_param(b, "%w2", "f32[4,8]");
  auto& x = mini::add_param(b, "%x", "f32[16,8]");
  auto* g1 = mini::emit(b, "all-gather", {&w1}, {{"%g1", "f32[16,8]"}}, {{"dim", "0"}}).results[0].get();
  auto* g2 = mini::emit(b, "all-gather", {&w2}, {{"%g2", "f32[16,8]"}}, {{"dim", "0"}}).results[0].get();
  auto* h = mini::emit(b, "multiply", {&x, g1}, {{"%h", "f32[16,8]"}}).results[0].get();
  auto* n = mini::emit(b, "negate", {&x}, {{"%n", "f32[16,8]"}}).results[0].get();
  auto* r1 = mini::emit(b, "reduce-scatter", {g1}, {{"%r1", "f32[4,8]"}}, {{"dim", "0"}}).results[0].get();
  auto* s = mini::emit(b, "add", {g2, h}, {{"%s", "f32[16,8]"}}).results[0].get();
  auto* r2 = mini::emit(b, "reduce-scatter", {g2, s}, {{"%r2", "f32[4,8]"}}, {{"dim", "0"}}).results[0].get();
  mini::emit(b, "return", {r1, r2, h, n});
  return f;
}

inline mini::Function& moe_layer(mini::Module& m) {
  auto& f = *m.functions.emplace_back(std::make_unique<mini::Function>());
  f.name = "moe";
  auto& b = f.entry;
  auto& tokens = mini::add_param(b, "%tokens", "f32[8,16]");
  auto& expert = mini::add_param(b, "%expert", "f32[16,16]");
  auto* d = mini::emit(b, "all-to-all", {&tokens}, {{"%dispatch", "f32[8,16]"}}).results[0].get();
  auto* e = mini::emit(b, "dot", {d, &expert}, {{"%e", "f32[8,16]"}}).results[0].get();
  auto* c = mini::emit(b, "all-to-all", {d}, {{"%combine", "f32[8,16]"}}).results[0].get();
  mini::emit(b, "return", {c, e});
  return f;
}

/// A function of `pairs` all-gather → reduce-scatter pairs (all-to-all pairs when `moe`), each
/// with a user of the gathered value between them (moved after the cluster) and a chain of
/// unrelated ops: several clusters and moves per function.
inline mini::Function& multi_pair_layer(mini::Module& m, int pairs, bool moe) {
  auto& f = *m.functions.emplace_back(std::make_unique<mini::Function>());
  f.name = "multi";
  auto& b = f.entry;
  auto* x = &mini::add_param(b, "%x", "f32[16,8]");
  auto* chain = x;
  std::vector<mini::Value*> outs;
  for (int i = 0; i < pairs; ++i) {
    const std::string k = std::to_string(i);
    auto* w = &mini::add_param(b, "%w" + k, "f32[4,8]");
    auto* gathered =
        mini::emit(b, moe ? "all-to-all" : "all-gather", {w}, {{"%g" + k, "f32[16,8]"}}).results[0].get();
    auto* u = mini::emit(b, "multiply", {x, gathered}, {{"%u" + k, "f32[16,8]"}}).results[0].get();
    chain = mini::emit(b, "negate", {chain}, {{"%c" + k, "f32[16,8]"}}).results[0].get();
    auto* r = mini::emit(b, moe ? "all-to-all" : "reduce-scatter", {gathered}, {{"%r" + k, "f32[4,8]"}})
                  .results[0]
                  .get();
    outs.push_back(r);
    outs.push_back(u);
  }
  outs.push_back(chain);
  mini::emit(b, "return", outs);
  return f;
}

}  // namespace mini_example
