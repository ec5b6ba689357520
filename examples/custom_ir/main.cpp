// examples/custom_ir — ScheduleFusion on a compiler's own IR (mini_ir.hpp), adapted in one header
// (custom_ir_traits.hpp): build a small tensor-parallel layer, plan, print the plan, apply, and
// print before/after in the compiler's own text form (a gated apply refused part-way first: it
// rolls back). Then declare a second co-scheduling pattern
// (mixture-of-experts dispatch → combine) in one line and run it the same way.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <neuronrw/passes/schedule_fusion.hpp>

#include "custom_ir_traits.hpp"
#include "mini_ir.hpp"

namespace {

/// The plan, in the compiler's vocabulary (the plan is plain data: handles are mini::Instr*).
template <class Plan>
void print_plan(std::ostream& os, const Plan& plan) {
  auto name = [](const mini::Instr* i) { return i->results.empty() ? i->opcode : i->results[0]->name; };
  for (const auto& c : plan.clusters) {
    os << "  cluster:";
    for (const mini::Instr* i : c.ops) os << " " << name(i);
    os << "\n";
    for (const auto& m : c.moves)
      os << "    move " << name(m.op) << (m.where == neuronrw::move_position::before ? " before " : " after ")
         << name(m.anchor) << "\n";
  }
  for (const auto& r : plan.refused)
    os << "  refused " << name(r.consumer) << ": " << neuronrw::to_string(r.code) << " (" << name(r.op) << ")\n";
}

mini::Function& tensor_parallel_layer(mini::Module& m) {
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

mini::Function& moe_layer(mini::Module& m) {
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

// A user-declared pattern: all-to-all → all-to-all, the same boundary set, budget 64, its own kind.
using moe_overlap = neuronrw::co_schedule_pattern<neuronrw::kinds::all_to_all, neuronrw::kinds::all_to_all,
                                                  neuronrw::default_boundary_set, 64, "MoEOverlap">;

}  // namespace

int main() {
  mini::Module m;
  // This compiler's fusion op is "fusion" ending with "return"; its functions are not ops, so the
  // pass is given the blocks to walk.
  const neuronrw::schedule_fusion_options opts{.group_op_name = "fusion", .terminator_name = "return"};

  auto& layer = tensor_parallel_layer(m);
  std::cout << "== before\n";
  mini::print(std::cout, layer);
  auto plan = neuronrw::plan_schedule_fusion(std::as_const(m), std::vector<mini::Block*>{&layer.entry}, opts);
  std::cout << "== ScheduleFusion plan\n";
  print_plan(std::cout, plan);
  // A gated apply asks a gate before each mutation step; refusing step 2 (the grouping) rolls back.
  std::ostringstream before, after;
  mini::print(before, layer);
  const auto status = neuronrw::apply(m, plan, neuronrw::fail_at_step{2});
  mini::print(after, layer);
  std::cout << "== refusing step 2: " << status.reason
            << "; unchanged: " << (before.str() == after.str() ? "yes" : "no") << "\n";
  neuronrw::apply(m, plan);
  std::cout << "== after\n";
  mini::print(std::cout, layer);

  auto& moe = moe_layer(m);
  std::cout << "\n== before\n";
  mini::print(std::cout, moe);
  auto moe_plan = neuronrw::schedule_fusion<moe_overlap>(m, std::vector<mini::Block*>{&moe.entry}, opts);
  std::cout << "== MoEOverlap plan\n";
  print_plan(std::cout, moe_plan);
  std::cout << "== after\n";
  mini::print(std::cout, moe);
}
