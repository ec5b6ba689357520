// examples/custom_ir — ScheduleFusion on a compiler's own IR (mini_ir.hpp), adapted in one header
// (custom_ir_traits.hpp): build a small tensor-parallel layer, plan, print the plan, apply, and
// print before/after in the compiler's own text form (a gated apply refused part-way first: it
// rolls back). Then declare a second co-scheduling pattern
// (mixture-of-experts dispatch → combine) in one line and run it the same way. Last, the pass over
// many functions on several threads (the traits declare rule R2 of passes/parallel.hpp).
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <neuronrw/passes/parallel.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "custom_ir_traits.hpp"
#include "layers.hpp"
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

// A user-declared pattern: all-to-all → all-to-all, the same boundary set, budget 64, its own kind.
using moe_overlap = neuronrw::co_schedule_pattern<neuronrw::kinds::all_to_all, neuronrw::kinds::all_to_all,
                                                  neuronrw::default_boundary_set, 64, "MoEOverlap">;

}  // namespace

int main() {
  mini::Module m;
  // This compiler's fusion op is "fusion" ending with "return"; its functions are not ops, so the
  // pass is given the blocks to walk.
  const neuronrw::schedule_fusion_options opts{.group_op_name = "fusion", .terminator_name = "return"};

  auto& layer = mini_example::tensor_parallel_layer(m);
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
  // The checked apply (docs/validation.md): the same rewrite, compared with a snapshot of the
  // input; a rewrite that changed the dataflow would be reported here.
  const auto checked = neuronrw::apply_checked(m, plan);
  std::cout << "== checked apply: " << (checked.check.ok() ? "dataflow preserved" : "MISMATCH") << " ("
            << checked.check.ops << " ops checked)\n";
  std::cout << "== after\n";
  mini::print(std::cout, layer);

  auto& moe = mini_example::moe_layer(m);
  std::cout << "\n== before\n";
  mini::print(std::cout, moe);
  auto moe_plan = neuronrw::schedule_fusion<moe_overlap>(m, std::vector<mini::Block*>{&moe.entry}, opts);
  std::cout << "== MoEOverlap plan\n";
  print_plan(std::cout, moe_plan);
  std::cout << "== after\n";
  mini::print(std::cout, moe);

  // Many functions on 4 threads: planned and rewritten one function per task (R2), the same
  // result as the sequential pass.
  auto text_of = [](const mini::Module& mod) {
    std::ostringstream os;
    for (auto& f : mod.functions) mini::print(os, *f);
    return os.str();
  };
  auto roots_of = [](mini::Module& mod) {
    std::vector<mini::Block*> roots;
    for (auto& f : mod.functions) roots.push_back(&f->entry);
    return roots;
  };
  mini::Module seq, par;
  for (int i = 0; i < 8; ++i) {
    mini_example::tensor_parallel_layer(seq);
    mini_example::tensor_parallel_layer(par);
  }
  const auto seq_plan = neuronrw::schedule_fusion(seq, roots_of(seq), opts);
  std::vector<neuronrw::root_block<mini::Block*>> units;  // the parallel driver's units: one per function
  for (auto* b : roots_of(par)) units.push_back({b});
  const auto par_plan = neuronrw::run_pass_parallel<neuronrw::passes::schedule_fusion>(par, units, opts, {.threads = 4});
  std::cout << "\n== 8 layers on 4 threads: " << par_plan.clusters.size() << " clusters, output "
            << (text_of(par) == text_of(seq) && par_plan.clusters.size() == seq_plan.clusters.size() ? "identical"
                                                                                                      : "DIFFERENT")
            << " to the sequential pass\n";
}
