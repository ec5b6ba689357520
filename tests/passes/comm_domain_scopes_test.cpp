// Tests for neuronrw/passes/comm_domain_scopes.hpp and comm_domain_scopes_check.hpp
// (MaterializeCommDomainScopes, SPEC §6).
//
// 1. The corpus, tests/corpus/host/NN_name.py: each scenario's exact output (NN_name.expected.py)
//    or exact diagnostics (NN_name.expected.err), plus for every one: round trip before and after,
//    idempotence, the checker on the output, and "an error changes nothing".
// 2. The plan (what a dry run reads), WindowBuffer sharing, the checker's own errors, options for
//    another dialect, and the pass instantiated on the archetype host program.
#include <neuronrw/ir/host/hash.hpp>
#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/passes/allreduce_signals.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/ir/host/comm_domain_scopes.hpp>

#include <archetype/host_archetype.hpp>
#include <passes/comm_domain_archetype.hpp>

#include <doctest/doctest.h>

#include "support/files.hpp"
#include "support/host_parse.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace neuronrw;
using namespace neuronrw::host;

static_assert(rewritable_host_program<archetype::host_program>);
static_assert(require_rewritable_host_program<archetype::host_program>());

using neuronrw::testing::join;
using neuronrw::testing::host::parse_ok;
using neuronrw::testing::read_file;

void check_roundtrip(const program& p) {
  const std::string text = print_program(p);
  auto r = parse_program(text, "printed.py");
  INFO(text);
  REQUIRE(r.ok());
  CHECK(structural_equal(p, *r.value));
  CHECK(structural_hash(p) == structural_hash(*r.value));
}

// ============================================================================ 1. the corpus

TEST_CASE("corpus: every scenario gives its exact output or its exact errors") {
  const char* dir = std::getenv("NEURONRW_CORPUS_DIR");
  REQUIRE_MESSAGE(dir, "NEURONRW_CORPUS_DIR is not set (meson test sets it)");
  std::vector<std::filesystem::path> inputs;
  for (auto& e : std::filesystem::directory_iterator(std::filesystem::path(dir) / "host")) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".py" && name.find(".expected.") == std::string::npos) inputs.push_back(e.path());
  }
  std::sort(inputs.begin(), inputs.end());
  CHECK(inputs.size() >= 30);
  int outputs = 0, errors = 0;
  for (const auto& in : inputs) {
    const std::string name = in.filename().string();
    const std::string stem = name.substr(0, name.size() - 3);
    INFO(name);
    program p = parse_ok(read_file(in), name);
    check_roundtrip(p);
    const program before = clone(p);
    const std::string before_text = print_program(p);

    const auto plan = plan_comm_domain_scopes(p);
    CHECK(structural_equal(before, p));  // planning never writes
    const diagnostics errs = materialize_comm_domain_scopes(p);
    CHECK(join(errs) == join(plan.errors()));

    const auto err_file = in.parent_path() / (stem + ".expected.err");
    const auto out_file = in.parent_path() / (stem + ".expected.py");
    if (std::filesystem::exists(err_file)) {
      ++errors;
      CHECK(join(errs) == read_file(err_file));
      CHECK(structural_equal(before, p));  // rejected: exactly as it was
      CHECK(print_program(p) == before_text);
      continue;
    }
    REQUIRE_MESSAGE(std::filesystem::exists(out_file), "missing " << out_file.string());
    ++outputs;
    CHECK(join(errs).empty());
    const std::string out = print_program(p);
    CHECK(out == read_file(out_file));
    CHECK(join(check_comm_domain_scopes(p)).empty());
    check_roundtrip(p);
    // The golden parses to the materialized program itself.
    CHECK(structural_equal(p, parse_ok(read_file(out_file), stem + ".expected.py")));
    // Idempotent: a second run changes nothing.
    const program once = clone(p);
    CHECK(materialize_comm_domain_scopes(p).empty());
    CHECK(structural_equal(once, p));
    CHECK(print_program(p) == out);
  }
  CHECK(outputs >= 15);
  CHECK(errors >= 15);
}

TEST_CASE("examples/host: every example materializes and checks clean") {
  const char* tests = std::getenv("NEURONRW_TESTS_DIR");
  REQUIRE(tests);
  const auto dir = std::filesystem::path(tests) / ".." / "examples" / "host";
  int n = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".py") continue;
    ++n;
    INFO(e.path().string());
    program p = parse_ok(read_file(e.path()), e.path().filename().string());
    // pypto's pipeline order (a no-op where every allreduce has its signal).
    CHECK(synthesize_allreduce_signals(p).ok());
    const auto plan = plan_comm_domain_scopes(p);
    CHECK(plan.ok());
    CHECK(plan.has_changes());
    CHECK(join(materialize_comm_domain_scopes(p)).empty());
    CHECK(join(check_comm_domain_scopes(p)).empty());
    check_roundtrip(p);
  }
  CHECK(n >= 2);
}

// ============================================================================ 2. the plan

const char* const two_scope_program =
    "@pl.program\nclass P:\n"
    "    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
    "    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):\n"
    "        return a\n"
    "\n"
    "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
    "    def main(self):\n"
    "        buf = pld.tensor.alloc_window_buffer(64, name=\"buf\")\n"
    "        v = pld.tensor.window(buf, [16], dtype=pl.FP32)\n"
    "        u = pld.tensor.window(buf, [4, 4], dtype=pl.FP32)\n"
    "        sig = pld.tensor.alloc_window_buffer(8, name=\"sig\")\n"
    "        s = pld.tensor.window(sig, [2], dtype=pl.INT32)\n"
    "        one = pld.tensor.alloc_window_buffer(8, name=\"one\")\n"
    "        o = pld.tensor.window(one, [2], dtype=pl.INT32)\n"
    "        for r in pl.range(2):\n"
    "            self.chip(v, device=r)\n"
    "        self.chip(u, o, device=5)\n"
    "        y = pld.tensor.allreduce(u, s)\n";

TEST_CASE("the plan: allocations, views, dispatch descriptors, merged coverage, scopes") {
  program p = parse_ok(two_scope_program);
  const auto plan = plan_comm_domain_scopes(p);
  using plan_t = decltype(plan);
  REQUIRE(plan.ok());
  CHECK(plan.has_changes());
  REQUIRE(plan.functions.size() == 1);  // host orchestrators only
  const auto& f = plan.functions[0];
  CHECK(f.name == "main");
  CHECK(f.state == plan_t::status::materialize);
  REQUIRE(f.allocs.size() == 3);
  CHECK(f.allocs[0].name == "buf");
  CHECK(f.allocs[0].loc == source_loc{9, 15});
  CHECK(f.allocs[0].views == std::vector<std::size_t>{0, 1});
  CHECK(f.allocs[0].coverage == device_coverage::of({0, 1, 5}));
  CHECK(f.allocs[1].coverage == device_coverage::of({0, 1, 5}));  // inherited by the signal
  CHECK(f.allocs[2].coverage == device_coverage::single(5));
  REQUIRE(f.dispatches.size() == 2);
  CHECK(f.dispatches[0].callee == "chip");
  CHECK(f.dispatches[0].devices == device_coverage::range(0, 2));
  CHECK(f.dispatches[0].allocs == std::vector<std::size_t>{0});
  CHECK(f.dispatches[1].devices == device_coverage::single(5));
  CHECK(f.dispatches[1].allocs == std::vector<std::size_t>{0, 2});
  REQUIRE(f.collectives.size() == 1);
  CHECK(f.collectives[0].target == 0);
  CHECK(f.collectives[0].inheritors == std::vector<std::size_t>{1});
  REQUIRE(f.scopes.size() == 2);
  CHECK(f.scopes[0].name == "comm_d0");
  CHECK(f.scopes[0].devices == std::vector<std::int64_t>{0, 1, 5});
  CHECK(f.scopes[0].allocs == std::vector<std::size_t>{0, 1});
  CHECK(f.scopes[1].name == "comm_d1");
  CHECK(f.scopes[1].devices == std::vector<std::int64_t>{5});
  CHECK(describe_plan(plan) ==
        "function main: materialize\n"
        "  alloc buf at 9:15: 2 view(s), devices {0, 1, 5}, scope comm_d0\n"
        "  alloc sig at 12:15: 1 view(s), devices {0, 1, 5}, scope comm_d0\n"
        "  alloc one at 14:15: 1 view(s), devices {5}, scope comm_d1\n"
        "  dispatch chip at 17:13: devices {0, 1}, allocs [buf]\n"
        "  dispatch chip at 18:9: devices {5}, allocs [buf, one]\n"
        "  collective pld.tensor.allreduce at 19:13: target buf, inherits sig\n"
        "  scope comm_d0: devices [0, 1, 5], slots [buf, sig]\n"
        "  scope comm_d1: devices [5], slots [one]\n");
}

TEST_CASE("apply: one WindowBuffer per allocation, shared by its views and their calls; params untouched") {
  program p = parse_ok(two_scope_program);
  REQUIRE(materialize_comm_domain_scopes(p).empty());
  const function& chip = *p.functions[0];
  CHECK(chip.params[0]->type.window == nullptr);
  const function& main = *p.functions[1];
  REQUIRE(main.body.size() == 1);
  const stmt& outer = *main.body[0];
  REQUIRE(outer.kind == stmt_kind::comm_domain_scope);
  CHECK(outer.scope->name == "comm_d0");
  REQUIRE(outer.body.size() == 1);
  const stmt& inner = *outer.body[0];
  CHECK(inner.scope->name == "comm_d1");
  const auto& body = inner.body;
  const var* buf = body[0]->target.get();
  const window_ptr& wv = body[1]->target->type.window;
  REQUIRE(wv);
  CHECK(wv == body[2]->target->type.window);  // v and u: pointer-equal
  CHECK(wv == body[1]->value->call->type.window);   // and the defining calls
  CHECK(wv == body[2]->value->call->type.window);
  CHECK(wv->base == buf);
  CHECK(wv->name() == "buf");
  REQUIRE(wv->size);
  CHECK(wv->size->value == 64);
  CHECK_FALSE(wv->load_from_host);
  CHECK_FALSE(wv->store_to_host);
  CHECK(outer.scope->slots.size() == 2);
  CHECK(outer.scope->slots[0] == wv);
  CHECK(outer.scope->slots[1] == body[4]->target->type.window);
  CHECK(inner.scope->slots[0] == body[6]->target->type.window);
  CHECK(outer.scope->devices == std::vector<std::int64_t>{0, 1, 5});
  CHECK(inner.scope->devices == std::vector<std::int64_t>{5});
  // The allreduce result keeps the type it was given: only views and their calls are re-typed.
  CHECK(body.back()->target->type.window == nullptr);
}

TEST_CASE("an error in one function is reported with the others, and nothing changes anywhere") {
  program p = parse_ok(
      "@pl.program\nclass P:\n"
      "    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
      "    def chip(self, a):\n"
      "        return a\n"
      "\n"
      "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "    def good(self):\n"
      "        b = pld.tensor.alloc_window_buffer(8, name=\"b\")\n"
      "        v = pld.tensor.window(b, [2], dtype=pl.FP32)\n"
      "        self.chip(v, device=0)\n"
      "\n"
      "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "    def bad(self):\n"
      "        b = pld.tensor.alloc_window_buffer(8, name=\"b\")\n"
      "        v = pld.tensor.window(b, [2], dtype=pl.FP32)\n"
      "        self.chip(v, device=-3)\n"
      "        self.chip(v, device=pld.system.rank())\n"
      "\n"
      "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "    def dead(self):\n"
      "        b = pld.tensor.alloc_window_buffer(8, name=\"b\")\n",
      "multi.py");
  const program before = clone(p);
  const auto plan = plan_comm_domain_scopes(p);
  using plan_t = decltype(plan);
  REQUIRE(plan.functions.size() == 3);
  CHECK(plan.functions[0].state == plan_t::status::materialize);
  CHECK(plan.functions[1].state == plan_t::status::failed);
  CHECK(plan.functions[2].state == plan_t::status::failed);
  CHECK(join(materialize_comm_domain_scopes(p)) ==
        "multi.py:17:9: error: MaterializeCommDomainScopes: device= ConstInt must be non-negative, got -3\n"
        "multi.py:18:9: error: MaterializeCommDomainScopes: device= expression must be ConstInt or the induction var "
        "of pl.range; got an unsupported expression\n"
        "multi.py:22:13: error: MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer 'b' has no "
        "pld.tensor.window materialisation (dead allocation)\n");
  CHECK(structural_equal(before, p));
}

TEST_CASE("the same allocation name in different scopes is fine; the pass skips non-orchestrators") {
  program p = parse_ok(
      "@pl.program\nclass P:\n"
      "    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
      "    def chip(self, a):\n"
      "        return a\n"
      "\n"
      "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "    def main(self):\n"
      "        a = pld.tensor.alloc_window_buffer(8, name=\"x\")\n"
      "        av = pld.tensor.window(a, [2], dtype=pl.FP32)\n"
      "        b = pld.tensor.alloc_window_buffer(8, name=\"x\")\n"
      "        bv = pld.tensor.window(b, [2], dtype=pl.FP32)\n"
      "        self.chip(av, device=0)\n"
      "        self.chip(bv, device=1)\n");
  REQUIRE(materialize_comm_domain_scopes(p).empty());
  CHECK(join(check_comm_domain_scopes(p)).empty());
}

TEST_CASE("a program without host orchestrators or allocations is left alone") {
  program p = parse_ok(
      "@pl.program\nclass P:\n"
      "    @pl.function(level=pl.Level.HOST)\n"
      "    def helper(self):\n"
      "        b = pld.tensor.alloc_window_buffer(8, name=\"b\")\n"
      "\n"
      "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "    def main(self):\n"
      "        x = pld.system.world_size()\n");
  const program before = clone(p);
  const auto plan = plan_comm_domain_scopes(p);
  CHECK(plan.ok());
  CHECK_FALSE(plan.has_changes());
  REQUIRE(plan.functions.size() == 1);
  CHECK(plan.functions[0].state == decltype(plan)::status::no_allocs);
  CHECK(describe_plan(plan) == "function main: no allocations\n");
  CHECK(materialize_comm_domain_scopes(p).empty());
  CHECK(structural_equal(before, p));
}

// ============================================================================ the checker

program materialized() {
  program p = parse_ok(two_scope_program, "c.py");
  REQUIRE(materialize_comm_domain_scopes(p).empty());
  REQUIRE(check_comm_domain_scopes(p).empty());
  return p;
}

TEST_CASE("checker: a WindowBuffer placed in two scopes") {
  program p = materialized();
  stmt& outer = *p.functions[1]->body[0];
  stmt& inner = *outer.body[0];
  inner.scope->slots.push_back(outer.scope->slots[0]);
  CHECK(join(check_comm_domain_scopes(p)) ==
        "c.py:9:15: error: CommDomainScopesMaterialized: WindowBuffer 'buf' appears in multiple CommDomainScopeStmts "
        "('comm_d0' and 'comm_d1')\n");
}

TEST_CASE("checker: empty scope, null slot") {
  program p = materialized();
  stmt& outer = *p.functions[1]->body[0];
  stmt& inner = *outer.body[0];
  outer.loc = {3, 4};
  inner.scope->slots.clear();
  outer.scope->slots.push_back(nullptr);
  CHECK(join(check_comm_domain_scopes(p)) ==
        "c.py:3:4: error: CommDomainScopesMaterialized: CommDomainScopeStmt 'comm_d0' has a null slot\n"
        "c.py:14:15: error: CommDomainScopesMaterialized: CommDomainScopeStmt 'comm_d1' has no slots — every comm-domain "
        "scope must carry at least one WindowBuffer\n"
        "c.py:15:9: error: CommDomainScopesMaterialized: WindowBuffer 'one' of window view 'o' is not a slot of an "
        "enclosing comm-domain scope\n");
}

TEST_CASE("checker: views typed with the wrong WindowBuffer, or not sharing one") {
  program p = materialized();
  auto& body = p.functions[1]->body[0]->body[0]->body;
  var* u = body[2]->target.get();
  // u gets a look-alike copy of buf's WindowBuffer: same contents, different object.
  auto copy = std::make_shared<window_buffer>();
  copy->base = u->type.window->base;
  copy->size = make_int(64);
  u->type.window = copy;
  body[2]->value->call->type.window = copy;
  // o's defining call loses its WindowBuffer; s is typed with buf's.
  body[6]->value->call->type.window = nullptr;
  body[4]->target->type.window = body[1]->target->type.window;
  CHECK(join(check_comm_domain_scopes(p)) ==
        "c.py:11:9: error: CommDomainScopesMaterialized: window views of alloc 'buf' do not share one WindowBuffer\n"
        "c.py:11:9: error: CommDomainScopesMaterialized: WindowBuffer 'buf' of window view 'u' is not a slot of an "
        "enclosing comm-domain scope\n"
        "c.py:13:9: error: CommDomainScopesMaterialized: window view 's' is not typed with the WindowBuffer of its "
        "alloc 'sig'\n"
        "c.py:15:13: error: CommDomainScopesMaterialized: the defining call of window view 'o' does not carry the "
        "WindowBuffer of its alloc 'one'\n");
}

// ============================================================================ options

TEST_CASE("options: another dialect's names") {
  program p = parse_ok(
      "@pl.program\nclass P:\n"
      "    @pl.function(level=pl.Level.NODE, role=pl.Role.Driver)\n"
      "    def kernel(self, a):\n"
      "        return a\n"
      "\n"
      "    @pl.function(level=pl.Level.CLUSTER, role=pl.Role.Driver)\n"
      "    def main(self):\n"
      "        n = dist.nranks()\n"
      "        b = dist.alloc(64, label=\"b\")\n"
      "        v = dist.view(b, [16], dtype=pl.FP32)\n"
      "        s = dist.alloc(8, label=\"s\")\n"
      "        sv = dist.view(s, [2], dtype=pl.FP32)\n"
      "        for r in pl.range(n):\n"
      "            self.kernel(v, attrs={\"rank\": r})\n"
      "        dist.sum(v, sv)\n");
  // The views' types are unknown to the reference IR's inference for dist.view, so type them.
  for (auto& s : p.functions[1]->body)
    if (s->kind == stmt_kind::assign && s->value->text == "dist.view") {
      s->target->type = type::distributed({{16, nullptr}}, "FP32");
      s->value->call->type = s->target->type;
    }
  const collective_spec colls[] = {{"dist.sum", 2, 0, 1, -1, 0, false, "data"}};
  const comm_domain_options opts{.host_level = "CLUSTER",
                                 .chip_level = "NODE",
                                 .orchestrator_role = "Driver",
                                 .alloc_op = "dist.alloc",
                                 .window_op = "dist.view",
                                 .world_size_op = "dist.nranks",
                                 .device_attr = "rank",
                                 .name_kwarg = "label",
                                 .scope_prefix = "group",
                                 .collectives = colls};
  const auto plan = plan_comm_domain_scopes(p, opts);
  INFO(join(plan.errors()));
  REQUIRE(plan.ok());
  REQUIRE(plan.functions.size() == 1);
  const auto& f = plan.functions[0];
  REQUIRE(f.scopes.size() == 1);
  CHECK(f.scopes[0].name == "group0");
  CHECK(f.scopes[0].devices.empty());
  CHECK(f.scopes[0].allocs == std::vector<std::size_t>{0, 1});
  apply_comm_domain_scopes(p, plan);
  CHECK(join(check_comm_domain_scopes(p, opts)).empty());
  // And its messages use the dialect's names.
  program q = parse_ok(
      "@pl.program\nclass Q:\n"
      "    @pl.function(level=pl.Level.CLUSTER, role=pl.Role.Driver)\n"
      "    def main(self):\n"
      "        b = dist.alloc(64, label=\"b\")\n",
      "q.py");
  CHECK(join(plan_comm_domain_scopes(q, opts).errors()) ==
        "q.py:5:13: error: MaterializeCommDomainScopes: dist.alloc 'b' has no dist.view materialisation (dead "
        "allocation)\n");
}

// ============================================================================ limits

/// A host program whose functions main0, main1, ... each hold one allocation per entry of `ranges`
/// (sizes of `pl.range` loops dispatching on it): one comm domain per distinct size.
std::string limits_program(const std::vector<std::vector<int>>& functions) {
  std::string s =
      "@pl.program\nclass L:\n"
      "    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
      "    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):\n"
      "        return a\n";
  for (std::size_t f = 0; f < functions.size(); ++f) {
    s += "\n    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n    def main" + std::to_string(f) + "(self):\n";
    for (std::size_t i = 0; i < functions[f].size(); ++i) {
      const std::string b = "b" + std::to_string(i), v = "v" + std::to_string(i);
      s += "        " + b + " = pld.tensor.alloc_window_buffer(64, name=\"" + b + "\")\n";
      s += "        " + v + " = pld.tensor.window(" + b + ", [16], dtype=pl.FP32)\n";
      s += "        for r in pl.range(" + std::to_string(functions[f][i]) + "):\n";
      s += "            self.chip(" + v + ", device=r)\n";
    }
  }
  return s;
}

/// materialize_comm_domain_scopes on `text` with `opts`: its errors, and the program unchanged
/// when there are any.
std::string materialize_errors(const std::string& text, const comm_domain_options& opts) {
  program p = parse_ok(text, "l.py");
  const std::string before = print_program(p);
  const std::string errors = join(materialize_comm_domain_scopes(p, opts));
  if (!errors.empty()) CHECK(print_program(p) == before);
  return errors;
}

TEST_CASE("limits: the devices all the comm domains of a program list together") {
  CHECK(comm_domain_options{}.max_total_listed_devices == std::uint64_t{1} << 20);
  const std::string one = limits_program({{4, 5, 6}});
  CHECK(materialize_errors(one, {.max_total_listed_devices = 15}).empty());  // 4 + 5 + 6: at the limit
  CHECK(materialize_errors(one, {.max_total_listed_devices = 14}) ==
        "l.py:17:14: error: MaterializeCommDomainScopes: comm domain of 'b2' lists 6 devices after 9 in the program's "
        "other comm domains; at most 14 can be listed in all\n");
  // The same coverage twice is one domain, listed once.
  CHECK(materialize_errors(limits_program({{4, 4, 4}}), {.max_total_listed_devices = 4}).empty());
  // The count runs across functions.
  const std::string two = limits_program({{5}, {5}});
  CHECK(materialize_errors(two, {.max_total_listed_devices = 10}).empty());
  CHECK(materialize_errors(two, {.max_total_listed_devices = 9}) ==
        "l.py:16:14: error: MaterializeCommDomainScopes: comm domain of 'b0' lists 5 devices after 5 in the program's "
        "other comm domains; at most 9 can be listed in all\n");
}

TEST_CASE("limits: the comm domains of one function") {
  CHECK(comm_domain_options{}.max_scopes_per_function == 64);
  const std::string text = limits_program({{1, 2, 3}, {1, 2, 3}});
  CHECK(materialize_errors(text, {.max_scopes_per_function = 3}).empty());
  CHECK(materialize_errors(text, {.max_scopes_per_function = 2}) ==
        "l.py:17:14: error: MaterializeCommDomainScopes: comm domain of 'b2' would be comm domain 3 of 'main0'; at "
        "most 2 can nest in one function\n"
        "l.py:32:14: error: MaterializeCommDomainScopes: comm domain of 'b2' would be comm domain 3 of 'main1'; at "
        "most 2 can nest in one function\n");
  // Allocations sharing a coverage share a domain and do not count twice.
  CHECK(materialize_errors(limits_program({{2, 2, 3, 3}}), {.max_scopes_per_function = 2}).empty());
}

// ============================================================================ the archetype

/// The program of tests/passes/comm_domain_archetype.hpp, on the full (rewritable) archetype.
using archetype_program = comm_domain_test::archetype_program<archetype::host_program>;

TEST_CASE("archetype: the pass runs on a minimal host program model") {
  archetype_program a;
  const auto plan = plan_comm_domain_scopes(a.p);
  INFO(join(plan.errors()));
  REQUIRE(plan.ok());
  REQUIRE(plan.functions.size() == 1);
  const auto& f = plan.functions[0];
  REQUIRE(f.allocs.size() == 2);
  CHECK(f.allocs[0].coverage == device_coverage::of({0, 1, 2, 7}));
  CHECK(f.allocs[1].coverage == device_coverage::of({0, 1, 2, 7}));
  REQUIRE(f.scopes.size() == 1);
  CHECK(f.scopes[0].devices == std::vector<std::int64_t>{0, 1, 2, 7});

  apply_comm_domain_scopes(a.p, plan);
  REQUIRE(a.p.windows.size() == 2);
  CHECK(a.p.windows[0].base == a.buf);
  CHECK(a.p.windows[1].base == a.sig);
  const auto& vars = a.p.vars;
  CHECK(vars[static_cast<std::size_t>(a.v)].window == 0);
  CHECK(vars[static_cast<std::size_t>(a.w)].window == 0);  // shared
  CHECK(vars[static_cast<std::size_t>(a.s)].window == 1);
  CHECK(a.p.exprs[static_cast<std::size_t>(a.v_call)].window == 0);
  CHECK(a.p.exprs[static_cast<std::size_t>(a.s_call)].window == 1);
  const auto& body = a.p.fns[static_cast<std::size_t>(a.main)].body;
  REQUIRE(body.size() == 1);
  const auto& scope = a.p.stmts[static_cast<std::size_t>(body[0])];
  CHECK(scope.kind == host_stmt_kind::comm_domain_scope);
  CHECK(scope.scope_name == "comm_d0");
  CHECK(scope.slots == std::vector<int>{0, 1});
  CHECK(scope.body.size() == 8);

  // Idempotent on the archetype too.
  const auto again = plan_comm_domain_scopes(a.p);
  CHECK(again.ok());
  CHECK_FALSE(again.has_changes());
  CHECK(again.functions[0].state == decltype(again)::status::already_materialized);
}

TEST_CASE("archetype: errors carry the archetype's file and locations, and nothing is applied") {
  archetype_program a(-2);
  const auto stmts_before = a.p.stmts.size();
  CHECK(join(materialize_comm_domain_scopes(a.p)) ==
        "archetype.py:9:1: error: MaterializeCommDomainScopes: device= ConstInt must be non-negative, got -2\n");
  CHECK(a.p.windows.empty());
  CHECK(a.p.stmts.size() == stmts_before);
  CHECK(a.p.vars[static_cast<std::size_t>(a.v)].window == -1);
}

TEST_CASE("archetype: coverage inheritance, dead allocation, different scopes") {
  archetype_program a;
  using k = host_callee_kind;
  // A third allocation with a view but used only by a barrier with no coverage of its own.
  const int lone = a.p.var("lone");
  const int lv = a.p.var("lv", true);
  auto& body = a.p.fns[static_cast<std::size_t>(a.main)].body;
  body.push_back(a.p.s_assign(lone, a.p.e_call(k::op, "pld.tensor.alloc_window_buffer", {a.p.e_int(4)},
                                               {{"name", a.p.e_str("lone")}}, {}, {20, 3})));
  body.push_back(a.p.s_assign(lv, a.p.e_call(k::op, "pld.tensor.window", {a.p.e_var(lone)})));
  body.push_back(a.p.s_expr(a.p.e_call(k::op, "pld.tensor.barrier", {a.p.e_var(lv)}, {}, {}, {22, 3})));
  CHECK(join(plan_comm_domain_scopes(a.p).errors()) ==
        "archetype.py:22:3: error: MaterializeCommDomainScopes: pld.tensor.barrier signal buffer has no inferred "
        "comm-domain coverage — add a device= annotation or ensure the signal window is consumed by a "
        "device-tagged chip dispatch\n");
  // Give it a dispatch of its own on device 9: a second scope.
  body.push_back(a.p.s_expr(a.p.e_call(k::function, "chip", {a.p.e_var(lv)}, {}, {{"device", a.p.e_int(9)}})));
  const auto plan = plan_comm_domain_scopes(a.p);
  INFO(join(plan.errors()));
  REQUIRE(plan.ok());
  REQUIRE(plan.functions[0].scopes.size() == 2);
  CHECK(plan.functions[0].scopes[1].devices == std::vector<std::int64_t>{9});
  apply_comm_domain_scopes(a.p, plan);
  const auto& outer = a.p.stmts[static_cast<std::size_t>(a.p.fns[static_cast<std::size_t>(a.main)].body[0])];
  CHECK(outer.scope_name == "comm_d0");
  REQUIRE(outer.body.size() == 1);
  CHECK(a.p.stmts[static_cast<std::size_t>(outer.body[0])].scope_name == "comm_d1");
}

}  // namespace
