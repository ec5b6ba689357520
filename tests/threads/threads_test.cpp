// tests/threads/threads_test.cpp — the parallel passes (neuronrw/passes/parallel.hpp) against the
// sequential ones: for modules with many functions (random ScheduleFusion functions, the corpus's
// functions, FusionToComposite inputs, host programs with many orchestrators), each pass runs
// sequentially and then in parallel with 1, 2, 4 and 8 threads on a fresh parse of the same text;
// the plans must be equal field by field (handles included: the same text parses to the same ids)
// and the printed output byte-identical. CI runs this binary under ThreadSanitizer
// (scripts/tsan-ci), which checks rule R1 (concurrent reads) on the reference IR and the host IR,
// and R2 (function-local mutation) on the host IR and on the custom-IR example (examples/custom_ir,
// whose traits declare R2: ScheduleFusion rewrites its functions on different threads).
#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/ir/host/traits.hpp>
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/traits.hpp>
#include <neuronrw/passes/allreduce_signals.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/parallel.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>

#include "../examples/custom_ir/custom_ir_traits.hpp"  // a user's IR declaring R2
#include "../examples/custom_ir/layers.hpp"
#include "passes/schedule_fusion_random_function.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace neuronrw;
namespace fs = std::filesystem;
namespace np = neuronrw::passes;

constexpr unsigned all_thread_counts[] = {1, 2, 4, 8};
// The corpus modules hold one to three functions: one parallel run each checks their plans.
constexpr unsigned corpus_thread_counts[] = {4};

ref::module parse_ok(const std::string& text) {
  auto r = ref::parse(text, "threads");
  REQUIRE_MESSAGE(r.ok(), r.error.message);
  return std::move(*r.value);
}

// ---------------------------------------------------------------- modules with many functions

/// The functions of `text` (a printed module `module {\n...\n}\n`) without the module wrapper.
std::string module_inside(const std::string& text) {
  const auto open = text.find("{\n");
  const auto close = text.rfind('}');
  REQUIRE(open != std::string::npos);
  REQUIRE(close != std::string::npos);
  return text.substr(open + 2, close - open - 2);
}

/// `n` random ScheduleFusion functions (tests/passes/schedule_fusion_random_function.hpp), named
/// @f0 ... in one module.
std::string random_module(std::uint32_t first_seed, std::size_t n) {
  std::string out = "module {\n";
  for (std::size_t i = 0; i < n; ++i) {
    sf_random::generator gen(first_seed + static_cast<std::uint32_t>(i));
    gen.m.function(ref::functions(gen.m).front()).sym_name = "f" + std::to_string(i);
    out += module_inside(ref::print(gen.m));
  }
  return out + "}\n";
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Every corpus module with at least one function, as text.
std::vector<std::pair<std::string, std::string>> corpus_modules() {
  std::vector<std::pair<std::string, std::string>> out;
  const char* dir = std::getenv("NEURONRW_CORPUS_DIR");
  REQUIRE_MESSAGE(dir, "NEURONRW_CORPUS_DIR is not set");
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".mlir") files.push_back(e.path());
  for (const auto& e : fs::directory_iterator(fs::path(dir) / "schedule_fusion"))
    if (e.is_regular_file() && e.path().extension() == ".mlir") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    auto text = read_file(f);
    auto r = ref::parse(text, f.string());
    if (r.ok() && !ref::functions(*r.value).empty()) out.emplace_back(f.filename().string(), std::move(text));
  }
  return out;
}

// ---------------------------------------------------------------- plan equality, field by field

template <class Plan>
std::string plan_difference(const Plan& a, const Plan& b) {
  std::string d;
  if (!(a.producer_kind == b.producer_kind)) d += "a.producer_kind == b.producer_kind; ";
  if (!(a.consumer_kind == b.consumer_kind)) d += "a.consumer_kind == b.consumer_kind; ";
  if (!(a.fusion_kind == b.fusion_kind)) d += "a.fusion_kind == b.fusion_kind; ";
  if (!(a.group_op_name == b.group_op_name)) d += "a.group_op_name == b.group_op_name; ";
  if (!(a.terminator_name == b.terminator_name)) d += "a.terminator_name == b.terminator_name; ";
  if (!(a.budget == b.budget)) d += "a.budget == b.budget; ";
  if (!(a.units == b.units)) d += "a.units == b.units; ";
  if (!(a.skip_attribute == b.skip_attribute)) d += "a.skip_attribute == b.skip_attribute; ";
  if (!(a.skipped_functions == b.skipped_functions)) d += "a.skipped_functions == b.skipped_functions; ";
  if (!(a.emit_composites == b.emit_composites)) d += "a.emit_composites == b.emit_composites; ";
  if (!(a.composite_order == b.composite_order)) d += "a.composite_order == b.composite_order; ";
  if (!(a.clusters.size() == b.clusters.size())) return d + "a.clusters.size() == b.clusters.size()";
  for (std::size_t i = 0; i < a.clusters.size(); ++i) {
    const auto &x = a.clusters[i], &y = b.clusters[i];
    if (!(x.candidate == y.candidate)) d += "#" + std::to_string(i) + ": x.candidate == y.candidate; ";
    if (!(x.unit == y.unit)) d += "#" + std::to_string(i) + ": x.unit == y.unit; ";
    if (!(x.ops == y.ops)) d += "#" + std::to_string(i) + ": x.ops == y.ops; ";
    if (!(x.carried == y.carried)) d += "#" + std::to_string(i) + ": x.carried == y.carried; ";
    if (!(x.moves == y.moves)) d += "#" + std::to_string(i) + ": x.moves == y.moves; ";
    if (!(x.live_ins == y.live_ins)) d += "#" + std::to_string(i) + ": x.live_ins == y.live_ins; ";
    if (!(x.live_outs == y.live_outs)) d += "#" + std::to_string(i) + ": x.live_outs == y.live_outs; ";
    if (!(x.walked == y.walked)) d += "#" + std::to_string(i) + ": x.walked == y.walked; ";
    if (!(x.decomposition == y.decomposition)) d += "#" + std::to_string(i) + ": x.decomposition == y.decomposition; ";
  }
  if (!(a.refused.size() == b.refused.size())) return d + "a.refused.size() == b.refused.size()";
  for (std::size_t i = 0; i < a.refused.size(); ++i) {
    const auto &x = a.refused[i], &y = b.refused[i];
    if (!(x.code == y.code)) d += "#" + std::to_string(i) + ": x.code == y.code; ";
    if (!(x.op == y.op)) d += "#" + std::to_string(i) + ": x.op == y.op; ";
    if (!(x.message == y.message)) d += "#" + std::to_string(i) + ": x.message == y.message; ";
    if (!(x.candidate == y.candidate)) d += "#" + std::to_string(i) + ": x.candidate == y.candidate; ";
    if (!(x.unit == y.unit)) d += "#" + std::to_string(i) + ": x.unit == y.unit; ";
    if (!(x.consumer == y.consumer)) d += "#" + std::to_string(i) + ": x.consumer == y.consumer; ";
    if (!(x.path_from == y.path_from)) d += "#" + std::to_string(i) + ": x.path_from == y.path_from; ";
    if (!(x.path_to == y.path_to)) d += "#" + std::to_string(i) + ": x.path_to == y.path_to; ";
    if (!(x.cluster == y.cluster)) d += "#" + std::to_string(i) + ": x.cluster == y.cluster; ";
    if (!(x.repair == y.repair)) d += "#" + std::to_string(i) + ": x.repair == y.repair; ";
  }
  return d;
}

std::string f2c_difference(const fusion_to_composite_plan<ref::op_ref>& a, const fusion_to_composite_plan<ref::op_ref>& b) {
  std::string d;
  if (!(a.composite_op_name == b.composite_op_name)) d += "a.composite_op_name == b.composite_op_name; ";
  if (!(a.skipped_names == b.skipped_names)) d += "a.skipped_names == b.skipped_names; ";
  if (!(a.conversions.size() == b.conversions.size())) return d + "a.conversions.size() == b.conversions.size()";
  for (std::size_t i = 0; i < a.conversions.size(); ++i) {
    const auto &x = a.conversions[i], &y = b.conversions[i];
    if (!(x.fusion == y.fusion)) d += "#" + std::to_string(i) + ": x.fusion == y.fusion; ";
    if (!(x.function == y.function)) d += "#" + std::to_string(i) + ": x.function == y.function; ";
    if (!(x.decomposition == y.decomposition)) d += "#" + std::to_string(i) + ": x.decomposition == y.decomposition; ";
    if (!(x.composite_kind == y.composite_kind)) d += "#" + std::to_string(i) + ": x.composite_kind == y.composite_kind; ";
    if (!(x.kind_defaulted == y.kind_defaulted)) d += "#" + std::to_string(i) + ": x.kind_defaulted == y.kind_defaulted; ";
  }
  if (!(a.skipped_functions.size() == b.skipped_functions.size())) return d + "a.skipped_functions.size() == b.skipped_functions.size()";
  for (std::size_t i = 0; i < a.skipped_functions.size(); ++i) {
    if (!(a.skipped_functions[i].function == b.skipped_functions[i].function)) d += "#" + std::to_string(i) + ": a.skipped_functions[i].function == b.skipped_functions[i].function; ";
    if (!(a.skipped_functions[i].reason == b.skipped_functions[i].reason)) d += "#" + std::to_string(i) + ": a.skipped_functions[i].reason == b.skipped_functions[i].reason; ";
  }
  if (!(a.refused.size() == b.refused.size())) return d + "a.refused.size() == b.refused.size()";
  for (std::size_t i = 0; i < a.refused.size(); ++i) {
    if (!(a.refused[i].code == b.refused[i].code)) d += "#" + std::to_string(i) + ": a.refused[i].code == b.refused[i].code; ";
    if (!(a.refused[i].op == b.refused[i].op)) d += "#" + std::to_string(i) + ": a.refused[i].op == b.refused[i].op; ";
    if (!(a.refused[i].message == b.refused[i].message)) d += "#" + std::to_string(i) + ": a.refused[i].message == b.refused[i].message; ";
  }
  return d;
}

// ---------------------------------------------------------------- the three passes, both ways

struct sf_counts {
  std::size_t clusters = 0, refusals = 0, cross_function_refs = 0;
};

/// ScheduleFusion (and, with `composites`, its composites flavour) sequentially and in parallel;
/// returns what the sequential plan held, so callers can check the input exercised the merge.
sf_counts check_schedule_fusion(const std::string& text, bool composites,
                                std::span<const unsigned> thread_counts = all_thread_counts) {
  auto seq = parse_ok(text);
  const auto plan = composites ? schedule_fusion_composites(seq) : schedule_fusion(seq);
  const auto expected = ref::print(seq);
  sf_counts n{plan.clusters.size(), plan.refused.size(), 0};
  for (const auto& r : plan.refused) n.cross_function_refs += r.cluster != plan.none && r.unit > 0;
  for (const unsigned t : thread_counts) {
    CAPTURE(t);
    auto par = parse_ok(text);
    const auto planned = composites ? plan_pass_parallel<np::schedule_fusion_composites>(std::as_const(par), {}, {.threads = t})
                                    : plan_pass_parallel<np::schedule_fusion>(std::as_const(par), {}, {.threads = t});
    CHECK_MESSAGE(plan_difference(plan, planned).empty(), plan_difference(plan, planned));
    auto again = parse_ok(text);
    const auto applied = composites ? run_pass_parallel<np::schedule_fusion_composites>(again, {}, {.threads = t})
                                    : run_pass_parallel<np::schedule_fusion>(again, {}, {.threads = t});
    CHECK_MESSAGE(plan_difference(plan, applied).empty(), plan_difference(plan, applied));
    CHECK(ref::print(again) == expected);
  }
  return n;
}

/// FusionToComposite sequentially and in parallel; returns the number of conversions.
std::size_t check_fusion_to_composite(const std::string& text,
                                      std::span<const unsigned> thread_counts = all_thread_counts) {
  auto seq = parse_ok(text);
  const auto plan = fusion_to_composite(seq);
  const auto expected = ref::print(seq);
  for (const unsigned t : thread_counts) {
    CAPTURE(t);
    auto par = parse_ok(text);
    const auto applied = run_pass_parallel<np::fusion_to_composite>(par, {}, {.threads = t});
    CHECK_MESSAGE(f2c_difference(plan, applied).empty(), f2c_difference(plan, applied));
    CHECK(ref::print(par) == expected);
  }
  return plan.conversions.size();
}

// ---------------------------------------------------------------- host programs

/// A host program with one chip orchestrator and `n` host orchestrators, each with 1-3 window
/// allocations dispatched over random device sets; with `bad` set, some functions fail (a dead
/// allocation, a non-unit step), so the diagnostics of several functions must merge in order.
std::string many_orchestrators(std::uint64_t seed, std::size_t n, bool bad) {
  std::mt19937_64 rng(seed);
  auto pick = [&](std::size_t k) { return static_cast<std::size_t>(rng() % k); };
  std::string s =
      "import pypto.language as pl\n"
      "import pypto.language.distributed as pld\n\n\n"
      "@pl.program\n"
      "class Many:\n"
      "    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
      "    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):\n"
      "        return a\n";
  for (std::size_t f = 0; f < n; ++f) {
    s += "\n    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n";
    s += "    def h" + std::to_string(f) + "(self):\n";
    const std::size_t allocs = 1 + pick(3);
    const bool fails = bad && pick(3) == 0;
    for (std::size_t a = 0; a < allocs; ++a) {
      const std::string b = "b" + std::to_string(a), v = "v" + std::to_string(a), r = "r" + std::to_string(a);
      s += "        " + b + " = pld.tensor.alloc_window_buffer(64, name=\"" + b + "\")\n";
      if (fails && a == 0 && pick(2) == 0) continue;  // a dead allocation
      s += "        " + v + " = pld.tensor.window(" + b + ", [16], dtype=pl.FP32)\n";
      switch (pick(3)) {
        case 0: s += "        self.chip(" + v + ", device=" + std::to_string(pick(4)) + ")\n"; break;
        case 1:
          s += "        for " + r + " in pl.range(" + std::to_string(1 + pick(4)) + (fails && a == 0 ? ", 2" : "") + "):\n";
          s += "            self.chip(" + v + ", device=" + r + ")\n";
          break;
        default:
          s += "        for " + r + " in pl.range(pld.system.world_size()):\n";
          s += "            self.chip(" + v + ", device=" + r + ")\n";
          break;
      }
    }
  }
  return s;
}

host::program parse_host(const std::string& text) {
  auto r = host::parse_program(text, "many.py");
  REQUIRE_MESSAGE(r.ok(), r.error.message);
  return std::move(*r.value);
}

/// MaterializeCommDomainScopes sequentially and in parallel; returns the sequential diagnostics.
diagnostics check_comm_domain(const std::string& text, std::span<const unsigned> thread_counts = all_thread_counts,
                              const comm_domain_options& opts = {}) {
  auto seq = parse_host(text);
  const auto seq_plan = plan_comm_domain_scopes(std::as_const(seq), opts);
  const auto errors = materialize_comm_domain_scopes(seq, opts);
  const auto expected = host::print_program(seq);
  for (const unsigned t : thread_counts) {
    CAPTURE(t);
    auto par = parse_host(text);
    const auto plan = plan_pass_parallel<np::materialize_comm_domain_scopes>(std::as_const(par), opts, {.threads = t});
    CHECK(describe_plan(plan) == describe_plan(seq_plan));
    REQUIRE(plan.functions.size() == seq_plan.functions.size());
    CHECK(plan.refused.size() == seq_plan.refused.size());
    const auto got = run_pass_parallel<np::materialize_comm_domain_scopes>(par, opts, {.threads = t});
    CHECK(got.errors() == errors);
    CHECK(host::print_program(par) == expected);
  }
  return errors;
}

}  // namespace

TEST_CASE("ScheduleFusion: random modules with many functions, 1/2/4/8 threads = sequential") {
  sf_counts total;
  for (std::uint32_t seed = 1; seed <= 2; ++seed) {
    CAPTURE(seed);
    const auto text = random_module(seed * 1000, 16);
    const auto n = check_schedule_fusion(text, false);
    total.clusters += n.clusters;
    total.refusals += n.refusals;
    total.cross_function_refs += n.cross_function_refs;
  }
  // The inputs exercise the merge: clusters in many functions, and refusals naming a cluster
  // index outside the first function (whose index and message the merge shifts).
  CHECK(total.clusters > 20);
  CHECK(total.cross_function_refs > 0);
}

TEST_CASE("ScheduleFusion composites: the decomposition names are counted over the whole module") {
  const auto text = random_module(7000, 10);
  const auto n = check_schedule_fusion(text, true);
  CHECK(n.clusters > 10);
  // The names continue across functions: the last cluster's name is not number 0.
  auto m = parse_ok(text);
  const auto plan = plan_pass_parallel<np::schedule_fusion_composites>(std::as_const(m), {}, {.threads = 4});
  REQUIRE(!plan.composite_order.empty());
  CHECK(plan.clusters[plan.composite_order.back()].decomposition ==
        "hilo.FusedComposite." + std::to_string(plan.composite_order.size() - 1));
}

TEST_CASE("FusionToComposite: fusions in many functions, names taken by the module skipped") {
  // The random functions hold existing fusions; ScheduleFusion's output adds one per cluster.
  auto m = parse_ok(random_module(9000, 10));
  schedule_fusion(m);
  // A function whose name the counter reaches, so the merged numbering must skip it once.
  std::string text = ref::print(m);
  text.insert(text.rfind('}'), "  func.func private @\"hilo.FusedComposite.3\"()\n");
  CHECK(check_fusion_to_composite(text) > 10);
}

TEST_CASE("the corpus modules: every pass, 4 threads = sequential") {
  const auto modules = corpus_modules();
  CHECK(modules.size() > 10);
  for (const auto& module : modules) {
    const std::string& name = module.first;
    const std::string& text = module.second;
    CAPTURE(name);
    check_schedule_fusion(text, false, corpus_thread_counts);
    check_schedule_fusion(text, true, corpus_thread_counts);
    check_fusion_to_composite(text, corpus_thread_counts);
  }
}

TEST_CASE("MaterializeCommDomainScopes: host programs with many orchestrators") {
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    CAPTURE(seed);
    CHECK(check_comm_domain(many_orchestrators(seed, 30, false)).empty());
  }
  // Failing functions: the diagnostics of several functions, merged in program order.
  const auto errors = check_comm_domain(many_orchestrators(11, 30, true));
  CHECK(errors.size() > 2);
}

TEST_CASE("MaterializeCommDomainScopes: the program-wide device limit counts in program order") {
  // Each worker counts only the functions it planned; near the limit the parallel plan must still
  // refuse exactly the allocations (with the same "after N" counts) the sequential one refuses.
  const auto text = many_orchestrators(5, 30, false);
  std::size_t refused = 0;
  for (const std::uint64_t limit : {8u, 20u, 40u, 1000u}) {
    CAPTURE(limit);
    comm_domain_options opts;
    opts.max_total_listed_devices = limit;
    const auto errors = check_comm_domain(text, all_thread_counts, opts);
    if (limit == 1000u) CHECK(errors.empty());
    for (const auto& e : errors) refused += e.message.find("can be listed in all") != std::string::npos;
  }
  CHECK(refused > 3);  // the small limits are reached, late in the program
}

TEST_CASE("MaterializeCommDomainScopes: the corpus host programs") {
  const char* dir = std::getenv("NEURONRW_CORPUS_DIR");
  REQUIRE(dir);
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(dir) / "host"))
    if (e.path().extension() == ".py" && e.path().string().find(".expected.") == std::string::npos)
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  CHECK(files.size() > 10);
  for (const auto& f : files) {
    CAPTURE(f.string());
    const auto text = read_file(f);
    if (!host::parse_program(text, "many.py").ok()) continue;
    check_comm_domain(text, corpus_thread_counts);
    // SynthesizeAllReduceSignals: one unit (the program), through the same driver.
    auto seq = parse_host(text);
    const auto seq_plan = synthesize_allreduce_signals(seq);
    auto par = parse_host(text);
    const auto par_plan = run_pass_parallel<np::synthesize_allreduce_signals>(par, {}, {.threads = 4});
    CHECK(describe_plan(par_plan) == describe_plan(seq_plan));
    CHECK(host::print_program(par) == host::print_program(seq));
  }
}

TEST_CASE("SynthesizeAllReduceSignals: many orchestrators with allreduces written without a signal") {
  std::string text =
      "import pypto.language as pl\n"
      "import pypto.language.distributed as pld\n\n\n"
      "@pl.program\n"
      "class Many:\n"
      "    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
      "    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):\n"
      "        return a\n";
  for (int f = 0; f < 12; ++f) {
    const std::string n = std::to_string(f);
    text += "\n    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n    def h" + n + "(self):\n";
    text += "        buf = pld.tensor.alloc_window_buffer(64, name=\"buf\")\n";
    text += "        v = pld.tensor.window(buf, [16], dtype=pl.FP32)\n";
    text += "        for r in pl.range(pld.system.world_size()):\n            self.chip(v, device=r)\n";
    text += f % 2 ? "        return pld.tensor.allreduce(v)\n" : "        y = pld.tensor.allreduce(v)\n        return y\n";
  }
  auto seq = parse_host(text);
  const auto seq_plan = synthesize_allreduce_signals(seq);
  REQUIRE(seq_plan.ok());
  CHECK(seq_plan.rewrites.size() == 12);
  for (const unsigned t : all_thread_counts) {
    CAPTURE(t);
    auto par = parse_host(text);
    const auto par_plan = run_pass_parallel<np::synthesize_allreduce_signals>(par, {}, {.threads = t});
    CHECK(describe_plan(par_plan) == describe_plan(seq_plan));
    CHECK(host::print_program(par) == host::print_program(seq));
  }
}

TEST_CASE("parallel passes: no functions, more threads than functions") {
  check_schedule_fusion("module {\n}\n", false);
  check_fusion_to_composite("module {\n}\n");
  check_schedule_fusion(random_module(42, 1), false);
  CHECK(parallel_detail::worker_count({.threads = 8}, 3) == 3);
  CHECK(parallel_detail::worker_count({.threads = 8}, 0) == 1);
  CHECK(parallel_detail::worker_count({.threads = 2}, 100) == 2);
}

TEST_CASE("R1 is declared by the reference IR, the host IR and the custom-IR example; R2 not by the reference IR") {
  static_assert(declares_concurrent_reads<host_traits<host::program>>);
  static_assert(declares_concurrent_reads<ir_traits<mini::Module>>);
  static_assert(declares_concurrent_reads<ir_traits<ref::module>>);
  static_assert(declares_concurrent_function_mutation<host_traits<host::program>>);
  static_assert(declares_concurrent_function_mutation<ir_traits<mini::Module>>);
  static_assert(!declares_concurrent_function_mutation<ir_traits<ref::module>>);
}

namespace {

// ------------------------------------------------ the custom-IR example: R2, roots, parallel apply

/// `n` functions: the example's two shapes (layers.hpp) and functions of 1 to 4 pairs, mixed.
void build_layers(mini::Module& m, int n) {
  for (int i = 0; i < n; ++i) {
    auto& f = i % 4 == 0   ? mini_example::tensor_parallel_layer(m)
              : i % 4 == 1 ? mini_example::moe_layer(m)
                           : mini_example::multi_pair_layer(m, 1 + i % 5, i % 3 == 0);
    f.name += std::to_string(i);
  }
}

std::string mini_text(const mini::Module& m) {
  std::ostringstream os;
  for (auto& f : m.functions) {
    mini::print(os, *f);
    os << "fusions: " << f->fusion_count << "\n";
  }
  return os.str();
}

std::vector<root_block<mini::Block*>> mini_roots(mini::Module& m) {
  std::vector<root_block<mini::Block*>> roots;
  for (auto& f : m.functions) roots.push_back({&f->entry});
  return roots;
}

/// A plan of the mini IR in names (function name / value name), for comparing plans of two
/// modules built alike.
template <class Plan>
std::string mini_plan_text(const Plan& p) {
  auto name = [](const mini::Instr* i) {
    return mini::function_of(*i).name + "/" + (i->results.empty() ? i->opcode : i->results[0]->name);
  };
  std::ostringstream os;
  for (const auto& c : p.clusters) {
    os << "cluster " << c.candidate << " unit " << c.unit << ":";
    for (auto* o : c.ops) os << " " << name(o);
    for (const auto& mv : c.moves) os << " move " << name(mv.op) << (mv.where == move_position::before ? "<" : ">") << name(mv.anchor);
    os << "\n";
  }
  for (const auto& r : p.refused) os << "refused " << r.candidate << " " << to_string(r.code) << " " << name(r.op) << "\n";
  os << "units " << p.units.size() << "\n";
  return os.str();
}

const schedule_fusion_options mini_opts{.group_op_name = "fusion", .terminator_name = "return"};
using mini_moe = co_schedule_pattern<kinds::all_to_all, kinds::all_to_all, default_boundary_set, 64, "MoEOverlap">;

template <class Pattern>
void check_mini(int functions) {
  mini::Module seq;
  build_layers(seq, functions);
  std::vector<mini::Block*> seq_roots;
  for (auto& f : seq.functions) seq_roots.push_back(&f->entry);
  const auto seq_plan = schedule_fusion<Pattern>(seq, seq_roots, mini_opts);
  const std::string expected = mini_text(seq), expected_plan = mini_plan_text(seq_plan);
  REQUIRE(seq_plan.clusters.size() > static_cast<std::size_t>(functions) / 2);
  std::size_t moves = 0;
  for (const auto& c : seq_plan.clusters) moves += c.moves.size();
  REQUIRE(moves > seq_plan.clusters.size());
  for (const unsigned t : all_thread_counts) {
    CAPTURE(t);
    mini::Module planned;
    build_layers(planned, functions);
    CHECK(mini_plan_text(plan_pass_parallel<np::basic_schedule_fusion<Pattern>>(std::as_const(planned), mini_roots(planned),
                                                                                mini_opts, {.threads = t})) == expected_plan);
    CHECK(mini_text(planned) == mini_text([&] {
            mini::Module fresh;
            build_layers(fresh, functions);
            return fresh;
          }()));
    mini::Module par;
    build_layers(par, functions);
    const auto par_plan = run_pass_parallel<np::basic_schedule_fusion<Pattern>>(par, mini_roots(par), mini_opts, {.threads = t});
    CHECK(mini_plan_text(par_plan) == expected_plan);
    CHECK(mini_text(par) == expected);
    // A plan alone: its units are the entry blocks' owners, unknown (null) for this IR, so the
    // parallel apply cannot tell the functions apart and applies sequentially — the same result.
    mini::Module again;
    build_layers(again, functions);
    std::vector<mini::Block*> again_roots;
    for (auto& f : again.functions) again_roots.push_back(&f->entry);
    const auto plan = plan_schedule_fusion<Pattern>(std::as_const(again), again_roots, mini_opts);
    CHECK(!np::basic_schedule_fusion<Pattern>::apply_begin(std::as_const(again), plan));
    CHECK(np::basic_schedule_fusion<Pattern>::apply_begin(std::as_const(again), plan, true));
    apply_pass_parallel<np::basic_schedule_fusion<Pattern>>(again, plan, {.threads = t});
    CHECK(mini_text(again) == expected);
  }
}

}  // namespace

TEST_CASE("custom-IR example (R2): ScheduleFusion planned and applied per function on 1/2/4/8 threads") {
  check_mini<schedule_fusion_pattern>(48);
  check_mini<mini_moe>(48);
}

TEST_CASE("apply_begin: the plan's clusters grouped by function, or sequential when it cannot tell") {
  auto m = parse_ok(random_module(7000, 12));
  auto plan = plan_schedule_fusion(std::as_const(m));
  REQUIRE(plan.clusters.size() > 4);
  auto bounds_of = [&](const schedule_fusion_plan_t<ref::module>& p, bool distinct = false) {
    const auto st = np::schedule_fusion::apply_begin(std::as_const(m), p, distinct);
    return st ? st->bounds : std::vector<std::size_t>{};
  };
  const auto bounds = bounds_of(plan);
  REQUIRE(bounds.size() >= 3);
  CHECK(bounds.front() == 0);
  CHECK(bounds.back() == plan.clusters.size());
  // Each range is one function, and the next range another one.
  std::vector<ref::op_ref> seen;
  for (std::size_t k = 0; k + 1 < bounds.size(); ++k) {
    const auto f = plan.units[plan.clusters[bounds[k]].unit];
    CHECK(std::find(seen.begin(), seen.end(), f) == seen.end());
    seen.push_back(f);
    for (std::size_t i = bounds[k]; i < bounds[k + 1]; ++i) CHECK(plan.units[plan.clusters[i].unit] == f);
  }
  CHECK(seen == [&] {
    std::vector<ref::op_ref> fs;
    for (auto f : ref::functions(m))
      for (const auto& c : plan.clusters)
        if (plan.units[c.unit] == f) {
          fs.push_back(f);
          break;
        }
    return fs;
  }());
  // A function's clusters split by another's: not function by function, so sequential.
  auto shuffled = plan;
  std::swap(shuffled.clusters.front(), shuffled.clusters.back());
  CHECK(bounds_of(shuffled).empty());
  CHECK(bounds_of(shuffled, true).empty());
  // A unit whose function is unknown: sequential, unless the units are known to be functions.
  auto unknown = plan;
  unknown.units[unknown.clusters.front().unit] = ref::op_ref{};
  CHECK(bounds_of(unknown).empty());
  CHECK(bounds_of(unknown, true) == bounds);
  // The reference IR does not declare R2: the parallel apply is the sequential one.
  auto seq = parse_ok(random_module(7000, 12));
  neuronrw::apply(seq, plan);
  apply_pass_parallel<np::schedule_fusion>(m, plan, {.threads = 4});
  CHECK(ref::print(m) == ref::print(seq));
}
