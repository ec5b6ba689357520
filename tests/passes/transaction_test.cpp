// Transactional applies (passes/transaction.hpp, docs/concepts.md §"O5: transactions"): for every
// pass — ScheduleFusion, ScheduleFusion with composites, FusionToComposite (on each input and on
// ScheduleFusion's output), MaterializeCommDomainScopes — on every input of tests/corpus/,
// tests/corpus/schedule_fusion/, tests/corpus/host/, examples/mlir/, examples/host/, on random
// functions, on the archetype IR with only O5 added, and on examples/custom_ir's own IR
// (ScheduleFusion and its MoE pattern), a clean gated apply counts its mutation steps N; then for
// every k in 0..N-1 a fresh copy is applied with a gate refusing step k, and the test checks the
// status names step k, the printed IR is byte-identical to the input's print, what the print does
// not show (use lists, tombstones) is as before, and the very same plan applied again to the
// rolled-back IR gives the clean output (so every handle the plan holds still means the same op).
// The always-yes gate gives the gate-less apply's output and step count. One more case undoes
// each journaled primitive of the reference module on its own.
#include <neuronrw/ir/host/comm_domain_scopes.hpp>
#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/ir/ref/parse.hpp>
#include <neuronrw/ir/ref/print.hpp>
#include <neuronrw/ir/ref/schedule_fusion.hpp>
#include <neuronrw/ir/ref/fusion_to_composite.hpp>
#include <neuronrw/ir/ref/verify.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/passes/fusion_to_composite.hpp>
#include <neuronrw/passes/schedule_fusion.hpp>
#include <neuronrw/passes/transaction.hpp>

#include "passes/schedule_fusion_random_function.hpp"
#include "passes/schedule_fusion_support.hpp"
#include "archetype/archetype_ir.hpp"

#include "../examples/custom_ir/custom_ir_traits.hpp"  // the README's "adapt your own IR" example
#include "../examples/custom_ir/layers.hpp"

#include <doctest/doctest.h>

#include "support/files.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace neuronrw;
namespace fs = std::filesystem;

using neuronrw::testing::read_file;

fs::path env_dir(const char* var) {
  const char* d = std::getenv(var);
  REQUIRE_MESSAGE(d, var << " is not set (meson test sets it)");
  return fs::path(d);
}

/// The files of `dir` ending in `ext` (not the goldens), sorted.
std::vector<fs::path> inputs(const fs::path& dir, std::string_view ext) {
  std::vector<fs::path> r;
  for (auto& e : fs::directory_iterator(dir)) {
    const auto n = e.path().filename().string();
    if (!n.ends_with(ext) || n.find(".expected") != std::string::npos) continue;
    r.push_back(e.path());
  }
  std::sort(r.begin(), r.end());
  return r;
}

std::vector<fs::path> mlir_inputs() {
  const auto corpus = env_dir("NEURONRW_CORPUS_DIR");
  std::vector<fs::path> all = inputs(corpus, ".mlir");
  for (auto& p : inputs(corpus / "schedule_fusion", ".mlir")) all.push_back(p);
  for (auto& p : inputs(env_dir("NEURONRW_EXAMPLES_DIR") / "mlir", ".mlir")) all.push_back(p);
  return all;
}

std::vector<fs::path> host_inputs() {
  std::vector<fs::path> all = inputs(env_dir("NEURONRW_CORPUS_DIR") / "host", ".py");
  for (auto& p : inputs(env_dir("NEURONRW_EXAMPLES_DIR") / "host", ".py")) all.push_back(p);
  return all;
}

/// What one pass is, for the driver below: make a fresh IR, plan on it, apply the plan (plain or
/// gated), print.
template <class IR, class Plan>
struct pass_under_test {
  std::function<IR()> make;
  std::function<Plan(const IR&)> plan;
  std::function<void(IR&, const Plan&)> apply_plain;
  std::function<apply_status(IR&, const Plan&, std::function<bool(std::size_t)>)> apply_gated;
  std::function<std::string(const IR&)> print;
  std::function<void(const IR&)> check_valid = [](const IR&) {};
  /// What the print does not show, dumped for every entity of `fresh` (an IR as made), so a
  /// rolled-back IR can be compared with it; "" when the IR has nothing more to show.
  std::function<std::string(const IR& m, const IR& fresh)> state = [](const IR&, const IR&) { return std::string(); };
};

struct totals {
  std::size_t inputs = 0, steps = 0;
};

/// The whole check for one input. Returns the number of steps of the clean apply.
template <class IR, class Plan>
std::size_t check_every_step(const pass_under_test<IR, Plan>& t) {
  IR m0 = t.make();
  const std::string before = t.print(m0);

  // The gate-less apply, and the always-yes gated apply: same output.
  IR plain = t.make();
  t.apply_plain(plain, t.plan(plain));
  const std::string clean = t.print(plain);
  IR gated = t.make();
  const auto st = t.apply_gated(gated, t.plan(gated), allow_all_steps{});
  REQUIRE(st.ok());
  CHECK(st.reason.empty());
  CHECK(t.print(gated) == clean);
  const std::size_t n = st.step;
  CHECK((n == 0) == (clean == before));

  for (std::size_t k = 0; k < n; ++k) {
    CAPTURE(k);
    IR m = t.make();
    const Plan p = t.plan(m);
    const auto f = t.apply_gated(m, p, fail_at_step{k});
    CHECK(f.code == apply_status_code::gate_refused);
    CHECK(f.step == k);
    CHECK(f.reason == "the mutation gate refused step " + std::to_string(k) + " (" + std::string(f.primitive) +
                          "); the IR was rolled back");
    REQUIRE(t.print(m) == before);
    t.check_valid(m);
    CHECK(t.state(m, m0) == t.state(m0, m0));
    // The plan made before the failed apply still applies to the rolled-back IR: its handles mean
    // the same ops again.
    const auto again = t.apply_gated(m, p, allow_all_steps{});
    CHECK(again.ok());
    CHECK(again.step == n);
    CHECK(t.print(m) == clean);
  }
  return n;
}

ref::module parse_mlir(const std::string& text, const std::string& name) {
  auto r = ref::parse(text, name);
  INFO(r.error.str());
  REQUIRE(r.ok());
  return std::move(*r.value);
}

/// Per op of `fresh`: name, erased, block, position, region, operands; per value: its users in
/// use-list order; and any op made since that is still alive or placed ("" for none).
std::string ref_state(const ref::module& m, const ref::module& fresh) {
  std::string s;
  auto id = [](auto h) { return h.valid() ? std::to_string(h.id) : std::string("-"); };
  for (std::uint32_t i = 0; i < fresh.op_capacity(); ++i) {
    const ref::op_ref o{i};
    s += "op " + std::to_string(i) + " " + std::string(m.name(o)) + (m.erased(o) ? " erased" : "") + (m.is_function(o) ? " function" : "") + " block " +
         id(m.block_of(o)) + " prev " + id(m.block_of(o).valid() ? m.prev_op(o) : ref::op_ref{}) + " region " +
         id(m.region_block(o));
    for (std::size_t r = 1; r < m.num_regions(o); ++r) s += "," + id(m.region_blocks(o)[r]);
    s += " operands";
    for (auto v : m.operands(o)) s += " " + id(v);
    for (auto& a : m.attributes(o)) s += " " + a.name + "=" + a.value;
    s += "\n";
  }
  for (std::uint32_t i = 0; i < fresh.value_capacity(); ++i) {
    s += "value " + std::to_string(i) + " users";
    for (auto u : m.users(ref::value_ref{i})) s += " " + id(u);
    s += "\n";
  }
  for (std::uint32_t b = 0; b < fresh.block_count(); ++b) s += "block " + std::to_string(b) + " args " + std::to_string(m.arguments(ref::block_ref{b}).size()) + "\n";
  for (auto i = static_cast<std::uint32_t>(fresh.op_capacity()); i < m.op_capacity(); ++i)
    if (!m.erased(ref::op_ref{i}) || m.block_of(ref::op_ref{i}).valid()) s += "new op " + std::to_string(i) + " alive\n";
  return s;
}

void check_verifies(const ref::module& m) {
  const auto errs = ref::verify(m);
  INFO((errs.empty() ? std::string() : errs[0].str()));
  CHECK(errs.empty());
}

using sf_plan = schedule_fusion_plan_t<ref::module>;
using f2c_plan = fusion_to_composite_plan<ref::op_ref>;

pass_under_test<ref::module, sf_plan> schedule_fusion_pass(std::function<ref::module()> make, bool composites) {
  pass_under_test<ref::module, sf_plan> t;
  t.make = std::move(make);
  t.plan = [composites](const ref::module& m) {
    return composites ? plan_schedule_fusion_composites(m) : plan_schedule_fusion(m);
  };
  t.apply_plain = [](ref::module& m, const sf_plan& p) { neuronrw::apply(m, p); };
  t.apply_gated = [](ref::module& m, const sf_plan& p, std::function<bool(std::size_t)> g) {
    return neuronrw::apply(m, p, std::move(g));
  };
  t.print = [](const ref::module& m) { return ref::print(m); };
  t.check_valid = check_verifies;
  t.state = ref_state;
  return t;
}

pass_under_test<ref::module, f2c_plan> fusion_to_composite_pass(std::function<ref::module()> make) {
  pass_under_test<ref::module, f2c_plan> t;
  t.make = std::move(make);
  t.plan = [](const ref::module& m) { return plan_fusion_to_composite(m); };
  t.apply_plain = [](ref::module& m, const f2c_plan& p) { neuronrw::apply(m, p); };
  t.apply_gated = [](ref::module& m, const f2c_plan& p, std::function<bool(std::size_t)> g) {
    auto st = neuronrw::apply(m, p, std::move(g));
    if (!p.ok()) {
      CHECK(st.code == apply_status_code::invalid_plan);
      CHECK(st.reason == "the plan has " + std::to_string(p.refused.size()) + " refusal(s): nothing is applied");
      return apply_status{};  // nothing to count: the plain apply applies nothing either
    }
    return st;
  };
  t.print = [](const ref::module& m) { return ref::print(m); };
  t.check_valid = check_verifies;
  t.state = ref_state;
  return t;
}

TEST_CASE("reference IR: a refused step at any point rolls every pass back byte for byte") {
  totals sf, sfc, f2c, f2c_after_sf;
  for (const auto& path : mlir_inputs()) {
    const std::string text = read_file(path);
    const std::string name = path.filename().string();
    CAPTURE(name);
    auto make = [text, name] { return parse_mlir(text, name); };
    {
      // Inputs the verifier rejects are not pass inputs (the driver refuses them first).
      auto m = make();
      if (!ref::verify(m).empty()) continue;
    }
    INFO("schedule-fusion");
    sf.steps += check_every_step(schedule_fusion_pass(make, false));
    ++sf.inputs;
    INFO("schedule-fusion composites");
    sfc.steps += check_every_step(schedule_fusion_pass(make, true));
    ++sfc.inputs;
    INFO("fusion-to-composite");
    f2c.steps += check_every_step(fusion_to_composite_pass(make));
    ++f2c.inputs;
    INFO("fusion-to-composite after schedule-fusion");
    f2c_after_sf.steps += check_every_step(fusion_to_composite_pass([make] {
      auto m = make();
      schedule_fusion(m);
      return m;
    }));
    ++f2c_after_sf.inputs;
  }
  MESSAGE("schedule-fusion: " << sf.inputs << " inputs, " << sf.steps << " steps; composites: " << sfc.steps
                              << " steps; fusion-to-composite: " << f2c.steps << " steps, after schedule-fusion: "
                              << f2c_after_sf.steps << " steps");
  // Not vacuous: the corpus has work for every pass.
  CHECK(sf.inputs >= 40);
  CHECK(sf.steps >= 60);
  CHECK(sfc.steps > sf.steps);
  CHECK(f2c.steps >= 3);
  CHECK(f2c_after_sf.steps >= 30);
}

TEST_CASE("reference IR: random functions roll back at every step") {
  std::size_t steps = 0;
  for (std::uint32_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    auto make = [seed] {
      sf_random::generator gen(seed);
      return std::move(gen.m);
    };
    steps += check_every_step(schedule_fusion_pass(make, false));
    steps += check_every_step(schedule_fusion_pass(make, true));
  }
  CHECK(steps >= 200);
}

// Each primitive of the reference module on its own, on entities that existed before the
// transaction (the passes mostly edit ops they just created): after rollback the module prints
// and dumps (ref_state) exactly as before, and ops made inside are erased tombstones.
TEST_CASE("reference IR: every journaled primitive is undone on its own") {
  const std::string text = read_file(env_dir("NEURONRW_CORPUS_DIR") / "schedule_fusion" / "03_users_between.mlir");
  using prim = std::function<void(ref::module&)>;
  auto nth_op = [](const ref::module& m, std::size_t n) {
    const auto f = ref::functions(m).front();
    auto o = m.front(m.region_block(f));
    for (std::size_t i = 0; i < n; ++i) o = m.next_op(o);
    return o;
  };
  const std::vector<std::pair<std::string, prim>> prims = {
      {"move_before", [&](ref::module& m) { m.move_before(nth_op(m, 2), nth_op(m, 0)); }},
      {"move_after", [&](ref::module& m) { m.move_after(nth_op(m, 0), nth_op(m, 2)); }},
      {"move_to_end", [&](ref::module& m) { m.move_to_end(nth_op(m, 0), m.body()); }},
      {"detach", [&](ref::module& m) { m.detach(nth_op(m, 1)); }},
      {"create_op + insert_before",
       [&](ref::module& m) {
         const ref::value_ref ins[] = {m.result(nth_op(m, 0), 0)};
         m.insert_before(m.create_op("mhlo.copy", ins, {}), nth_op(m, 0));
       }},
      {"set_operand", [&](ref::module& m) { m.set_operand(nth_op(m, 2), 0, m.result(nth_op(m, 1), 0)); }},
      {"set_operands",
       [&](ref::module& m) {
         const ref::value_ref vs[] = {m.result(nth_op(m, 1), 0), m.result(nth_op(m, 0), 0)};
         m.set_operands(nth_op(m, 2), vs);
       }},
      {"replace_all_uses", [&](ref::module& m) { m.replace_all_uses(m.result(nth_op(m, 0), 0), m.result(nth_op(m, 1), 0)); }},
      {"erase_op", [&](ref::module& m) { m.erase_op(ref::functions(m).front()); }},
      {"add_region", [&](ref::module& m) { m.add_region(nth_op(m, 1), std::vector<ref::type_ref>{m.intern_type("i32")}); }},
      {"add_region (a second one)", [&](ref::module& m) { m.add_region(ref::functions(m).front()); }},
      {"add_region (a third one)", [&](ref::module& m) {
         m.add_region(ref::functions(m).front());
         m.add_region(ref::functions(m).front(), std::vector<ref::type_ref>{m.intern_type("f32")});
       }},
      {"add_block_argument", [&](ref::module& m) { m.add_block_argument(m.region_block(ref::functions(m).front()), m.intern_type("i32")); }},
      {"make_function", [&](ref::module& m) { m.make_function(nth_op(m, 1)).sym_name = "g"; }},
      {"set_attribute", [&](ref::module& m) { m.set_attribute(nth_op(m, 1), "k", "1 : i32"); }},
      {"remove_attribute", [&](ref::module& m) { CHECK(m.remove_attribute(nth_op(m, 0), m.attributes(nth_op(m, 0)).front().name)); }},
      {"set_loc_text", [&](ref::module& m) { m.set_loc_text(nth_op(m, 1), "loc(\"x\")"); }},
      {"set_properties_text", [&](ref::module& m) { m.set_properties_text(nth_op(m, 1), "<{a = 1}>"); }},
      {"set_name_hint", [&](ref::module& m) { m.set_name_hint(nth_op(m, 1), "renamed"); }},
      {"set_type", [&](ref::module& m) { m.set_type(m.result(nth_op(m, 1), 0), m.intern_type("i64")); }},
      {"set_arg_name_hint", [&](ref::module& m) { m.set_arg_name_hint(m.arguments(m.region_block(ref::functions(m).front()))[0], "renamed"); }},
      {"set_arg_loc_text", [&](ref::module& m) { m.set_arg_loc_text(m.arguments(m.region_block(ref::functions(m).front()))[0], "loc(\"y\")"); }},
      {"set_loc", [&](ref::module& m) { m.set_loc(nth_op(m, 1), source_loc{99, 9}); }},
  };
  const ref::module fresh = parse_mlir(text, "03.mlir");
  const std::string before = ref::print(fresh);
  // Op locations and value types of the entities of `fresh` (the print shows types only in part).
  auto locs = [&fresh](const ref::module& m) {
    std::string s;
    for (std::uint32_t i = 0; i < fresh.op_capacity(); ++i) s += std::to_string(m.loc(ref::op_ref{i}).line) + ",";
    for (std::uint32_t i = 0; i < fresh.value_capacity(); ++i) s += std::string(m.type_text(ref::value_ref{i})) + ",";
    return s;
  };
  for (const auto& entry : prims) {
    const std::string& name = entry.first;
    const prim& f = entry.second;
    CAPTURE(name);
    auto m = parse_mlir(text, "03.mlir");
    const auto token = m.begin_transaction();
    CHECK(m.in_transaction());
    f(m);
    CHECK(m.journal_size() > 0);
    const std::string changed = ref::print(m) + ref_state(m, fresh) + locs(m);
    CHECK(changed != before + ref_state(fresh, fresh) + locs(fresh));  // the primitive did something
    m.rollback(token);
    CHECK_FALSE(m.in_transaction());
    CHECK(m.journal_size() == 0);
    CHECK(ref::print(m) == before);
    CHECK(ref_state(m, fresh) == ref_state(fresh, fresh));
    CHECK(locs(m) == locs(fresh));
    // Committed instead, the change stays and the journal is emptied.
    auto c = parse_mlir(text, "03.mlir");
    c.commit(c.begin_transaction());
    const auto t2 = c.begin_transaction();
    f(c);
    c.commit(t2);
    CHECK(c.journal_size() == 0);
    CHECK(ref::print(c) + ref_state(c, fresh) + locs(c) == changed);
  }
  // Nesting: an inner commit keeps its entries for the outer rollback.
  auto m = parse_mlir(text, "03.mlir");
  const auto outer = m.begin_transaction();
  const auto inner = m.begin_transaction();
  m.move_before(nth_op(m, 2), nth_op(m, 0));
  m.commit(inner);
  CHECK(m.in_transaction());
  CHECK(ref::print(m) != before);
  m.rollback(outer);
  CHECK(ref::print(m) == before);
}

// ---------------------------------------------------------------- the archetype IR
// The gated applies ask for nothing beyond their concept plus O5: instantiated and run on the
// archetype with only the transaction capability (a snapshot token), on the ScheduleFusion corpus.
using txn_archetype = archetype::ir_at<archetype::layer::outlinable, 0, archetype::cap::transaction>;
using arch_sf_plan = schedule_fusion_plan_t<txn_archetype>;

TEST_CASE("archetype IR with O5: a refused step at any point rolls ScheduleFusion back") {
  std::size_t steps = 0;
  for (const auto& path : inputs(env_dir("NEURONRW_CORPUS_DIR") / "schedule_fusion", ".mlir")) {
    const std::string text = read_file(path);
    const std::string name = path.filename().string();
    CAPTURE(name);
    for (const bool composites : {false, true}) {
      pass_under_test<txn_archetype, arch_sf_plan> t;
      t.make = [&] { return sf_support::to_archetype<txn_archetype>(parse_mlir(text, name)); };
      t.plan = [composites](const txn_archetype& a) {
        return composites ? plan_schedule_fusion_composites(a) : plan_schedule_fusion(a);
      };
      t.apply_plain = [](txn_archetype& a, const arch_sf_plan& p) { neuronrw::apply(a, p); };
      t.apply_gated = [](txn_archetype& a, const arch_sf_plan& p, std::function<bool(std::size_t)> g) {
        return neuronrw::apply(a, p, std::move(g));
      };
      t.print = [](const txn_archetype& a) { return sf_support::structure(a); };
      steps += check_every_step(t);
    }
  }
  CHECK(steps >= 100);
}

// ---------------------------------------------------------------- examples/custom_ir's IR
// The README's "adapt your own IR" example models O5 with an undo log of its own: its two
// functions (layers.hpp), ScheduleFusion and the MoE pattern, a refusal at every step.
mini::Module custom_module() {
  mini::Module m;
  mini_example::tensor_parallel_layer(m);
  mini_example::moe_layer(m);
  return m;
}

using moe_overlap = co_schedule_pattern<kinds::all_to_all, kinds::all_to_all, default_boundary_set, 64, "MoEOverlap">;
using mini_plan = schedule_fusion_plan_t<mini::Module>;

TEST_CASE("examples/custom_ir: a refused step at any point rolls the custom IR back") {
  const schedule_fusion_options opts{.group_op_name = "fusion", .terminator_name = "return"};
  std::size_t steps = 0;
  for (const bool moe : {false, true}) {
    CAPTURE(moe);
    pass_under_test<mini::Module, mini_plan> t;
    t.make = custom_module;
    t.plan = [&](const mini::Module& m) {
      const std::vector<mini::Block*> roots{&m.functions[0]->entry, &m.functions[1]->entry};
      return moe ? plan_schedule_fusion<moe_overlap>(m, roots, opts) : plan_schedule_fusion(m, roots, opts);
    };
    t.apply_plain = [](mini::Module& m, const mini_plan& p) { neuronrw::apply(m, p); };
    t.apply_gated = [](mini::Module& m, const mini_plan& p, std::function<bool(std::size_t)> g) {
      auto st = neuronrw::apply(m, p, std::move(g));
      CHECK(m.undo_log.empty());
      CHECK(m.transactions == 0);
      return st;
    };
    t.print = [](const mini::Module& m) {
      std::ostringstream os;
      for (auto& f : m.functions) {
        mini::print(os, *f);
        os << "fusions made: " << f->fusion_count << "\n";
      }
      return os.str();
    };
    // Users lists, which the print does not show: same sets of users (order may differ).
    t.state = [](const mini::Module& m, const mini::Module&) {
      std::string s;
      for (auto& f : m.functions) {
        std::vector<const mini::Block*> blocks{&f->entry};
        while (!blocks.empty()) {
          const auto* b = blocks.back();
          blocks.pop_back();
          for (auto& p : b->params) s += p->name + ":" + std::to_string(p->users.size()) + " ";
          for (auto& i : b->instrs) {
            s += i.opcode + (i.parent == b ? "" : "(wrong parent)") + " ";
            for (auto& r : i.results) s += r->name + ":" + std::to_string(r->users.size()) + " ";
            if (i.body) blocks.push_back(i.body.get());
          }
        }
      }
      return s;
    };
    steps += check_every_step(t);
  }
  CHECK(steps == 5);  // layer: 2 moves + 1 grouping; moe: 1 move + 1 grouping
}

using comm_plan = comm_domain_plan<host::program>;

TEST_CASE("host programs: a refused step at any point rolls MaterializeCommDomainScopes back byte for byte") {
  std::size_t steps = 0, refused_inputs = 0, inputs = 0;
  for (const auto& path : host_inputs()) {
    const std::string text = read_file(path);
    const std::string name = path.filename().string();
    CAPTURE(name);
    pass_under_test<host::program, comm_plan> t;
    t.make = [&] {
      auto r = host::parse_program(text, name);
      INFO(r.error.str());
      REQUIRE(r.ok());
      return std::move(*r.value);
    };
    t.plan = [](const host::program& p) { return plan_comm_domain_scopes(p); };
    t.apply_plain = [](host::program& p, const comm_plan& plan) {
      if (plan.ok()) apply_comm_domain_scopes(p, plan);
    };
    t.apply_gated = [&](host::program& p, const comm_plan& plan, std::function<bool(std::size_t)> g) {
      auto st = apply_comm_domain_scopes(p, plan, std::move(g));
      if (!plan.ok()) {
        ++refused_inputs;
        CHECK(st.code == apply_status_code::invalid_plan);
        CHECK(st.reason == "the plan has " + std::to_string(plan.refused.size()) + " error(s): nothing is applied");
        return apply_status{};
      }
      return st;
    };
    t.print = [](const host::program& p) { return host::print_program(p); };
    steps += check_every_step(t);
    ++inputs;
  }
  MESSAGE("materialize-comm-domain-scopes: " << inputs << " inputs, " << steps << " steps");
  CHECK(inputs >= 30);
  CHECK(refused_inputs >= 10);
  CHECK(steps >= 50);
}

}  // namespace
