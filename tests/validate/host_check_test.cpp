// Tests of the host passes' rewrite checks (include/neuronrw/validate/host.hpp,
// validate/comm_domain_scopes.hpp, validate/allreduce_signals.hpp, docs/validation.md §"Host
// programs") on the reference host IR. MaterializeCommDomainScopes:
//   - no alarm on any correct run: every host program of tests/corpus/host and examples/host the
//     pass materializes;
//   - mutation testing: each kind of wrong rewrite made on those outputs (drop a statement, swap
//     two, rewire a variable, put statements outside their scope, give a scope the wrong device
//     set, drop a slot, give a view another WindowBuffer) is caught, every one, with the code it
//     must produce; the counts per kind are printed;
//   - exact diagnostics of one fault; the unscoped view reads an output as its input.
// SynthesizeAllReduceSignals, on the examples and 60 generated programs (every form: assigned,
// statement, returned; with and without a signal; core_num; several functions):
//   - no alarm on a correct run, and the checked apply is the apply; it rolls back in a
//     transaction;
//   - mutation testing: a synthesized statement dropped or moved, the signal argument dropped or
//     rewired, the returned result rewired, an input statement rewired: every one caught.
#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/ir/host/traits.hpp>
#include <neuronrw/passes/allreduce_signals.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/validate/allreduce_signals.hpp>
#include <neuronrw/validate/comm_domain_scopes.hpp>
#include <neuronrw/validate/host.hpp>

#include <doctest/doctest.h>

#include "support/files.hpp"
#include "support/host_parse.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace neuronrw;
using neuronrw::testing::join;
using stmt_list = std::vector<host::stmt_ptr>;

static_assert(scope_inspectable_host_program<host::program>);
static_assert(host_program<unscoped_program<host::program>>);

std::string diags(const host::program& p, const rewrite_check<source_loc>& c) {
  return join(to_diagnostics(p, c, [&](const source_loc& l) { return diagnostic_location<source_loc>{p.file, l}; }, "test"));
}

std::filesystem::path examples_dir() {
  const char* d = std::getenv("NEURONRW_EXAMPLES_DIR");
  return d != nullptr ? std::filesystem::path(d) : std::filesystem::path("examples");
}

/// Every host program of the corpus and the examples that the pass materializes.
std::vector<std::filesystem::path> inputs() {
  std::vector<std::filesystem::path> out;
  for (const auto& dir : {neuronrw::testing::corpus_dir() / "host", examples_dir() / "host"})
    for (const auto& f : neuronrw::testing::files_with_extension(dir, ".py"))
      if (f.stem().extension() != ".expected") out.push_back(f);
  return out;
}

/// The program at `f` with its plan, when it parses and the pass materializes something.
struct case_t {
  host::program p;
  comm_domain_plan<host::program> plan;
};
std::optional<case_t> load(const std::filesystem::path& f) {
  auto r = host::parse_program(neuronrw::testing::read_file(f), f.filename().string());
  if (!r.ok()) return std::nullopt;
  case_t c{std::move(*r.value), {}};
  c.plan = plan_comm_domain_scopes(std::as_const(c.p));
  if (!c.plan.has_changes()) return std::nullopt;
  return c;
}

// ------------------------------------------------------------------ faults on the output
/// Every statement list of `body`, scopes' and loops' too, outermost first.
void lists(stmt_list& body, std::vector<stmt_list*>& out) {
  out.push_back(&body);
  for (auto& s : body) lists(s->body, out);
}

host::function* materialized(host::program&, const comm_domain_plan<host::program>& plan) {
  for (const auto& fp : plan.functions)
    if (fp.state == comm_domain_plan<host::program>::status::materialize) return fp.fn;
  return nullptr;
}

bool uses_window(const host::expr* e) {
  if (!e) return false;
  if (e->kind == host::expr_kind::var_ref && e->ref && e->ref->type.window) return true;
  for (const auto& a : e->args)
    if (uses_window(a.get())) return true;
  if (e->call) {
    for (const auto& k : e->call->kwargs)
      if (uses_window(k.value.get())) return true;
  }
  return false;
}
bool uses_window(const host::stmt& s) {
  if (s.target && s.target->type.window) return true;
  for (const host::expr* e : {s.value.get(), s.start.get(), s.stop.get(), s.step.get()})
    if (uses_window(e)) return true;
  for (const auto& v : s.values)
    if (uses_window(v.get())) return true;
  for (const auto& c : s.body)
    if (uses_window(*c)) return true;
  return false;
}

/// Each fault kind: makes the fault in `p` (the output of the plan), or returns false when `p`
/// offers no place for it; `expect` is the code the check must report.
struct fault_kind {
  std::string name;
  rewrite_fault expect;
  std::function<bool(host::program&, const comm_domain_plan<host::program>&)> inject;
};

std::vector<fault_kind> fault_kinds() {
  std::vector<fault_kind> ks;
  ks.push_back({"drop a statement", rewrite_fault::statement_changed, [](host::program& p, const auto& plan) {
    std::vector<stmt_list*> ls;
    lists(materialized(p, plan)->body, ls);
    for (auto* l : ls)
      for (std::size_t i = 0; i < l->size(); ++i)
        if ((*l)[i]->kind != host::stmt_kind::comm_domain_scope) {
          // Its variable stays alive (the program's loose pool): a dropped definition must not
          // leave dangling references for the check to read.
          if ((*l)[i]->target) p.loose_vars.push_back(std::move((*l)[i]->target));
          l->erase(l->begin() + static_cast<std::ptrdiff_t>(i));
          return true;
        }
    return false;
  }});
  ks.push_back({"swap two statements", rewrite_fault::statement_changed, [](host::program& p, const auto& plan) {
    std::vector<stmt_list*> ls;
    lists(materialized(p, plan)->body, ls);
    for (auto* l : ls)
      for (std::size_t i = 0; i + 1 < l->size(); ++i)
        if ((*l)[i]->kind != host::stmt_kind::comm_domain_scope && (*l)[i + 1]->kind != host::stmt_kind::comm_domain_scope) {
          std::swap((*l)[i], (*l)[i + 1]);
          return true;
        }
    return false;
  }});
  ks.push_back({"rewire a variable", rewrite_fault::statement_changed, [](host::program& p, const auto& plan) {
    // The first variable reference of an assignment's value reads another assignment's target.
    std::vector<stmt_list*> ls;
    lists(materialized(p, plan)->body, ls);
    host::var* other = nullptr;
    for (auto* l : ls)
      for (auto& s : *l)
        if (s->kind == host::stmt_kind::assign && s->value) {
          std::vector<host::expr*> st{s->value.get()};
          while (!st.empty()) {
            auto* e = st.back();
            st.pop_back();
            if (e->kind == host::expr_kind::var_ref && other && e->ref != other) {
              e->ref = other;
              return true;
            }
            for (auto& a : e->args)
              if (a) st.push_back(a.get());
          }
          other = s->target.get();
        }
    return false;
  }});
  ks.push_back({"statements outside their scope", rewrite_fault::scope_mismatch, [](host::program& p, const auto& plan) {
    // The tail of the innermost scope's body, from its last statement using a window view on,
    // moves out after the outermost scope: the statement order is the same, the scoping is not.
    auto* f = materialized(p, plan);
    host::stmt* inner = f->body.front().get();
    while (inner->body.size() == 1 && inner->body.front()->kind == host::stmt_kind::comm_domain_scope)
      inner = inner->body.front().get();
    for (std::size_t i = inner->body.size(); i-- > 0;)
      if (uses_window(*inner->body[i])) {
        for (std::size_t k = i; k < inner->body.size(); ++k) f->body.push_back(std::move(inner->body[k]));
        inner->body.resize(i);
        return true;
      }
    return false;
  }});
  ks.push_back({"a scope with the wrong device set", rewrite_fault::scope_mismatch, [](host::program& p, const auto& plan) {
    auto& d = materialized(p, plan)->body.front()->scope->devices;
    if (d.empty()) d = {0};
    else if (d.size() > 1) d.pop_back();
    else d.push_back(d.back() + 1);
    return true;
  }});
  ks.push_back({"a slot dropped", rewrite_fault::scope_mismatch, [](host::program& p, const auto& plan) {
    auto& slots = materialized(p, plan)->body.front()->scope->slots;
    if (slots.empty()) return false;
    slots.pop_back();
    return true;
  }});
  ks.push_back({"a view with another WindowBuffer", rewrite_fault::scope_mismatch, [](host::program&, const auto& plan) {
    for (const auto& fp : plan.functions)
      if (fp.state == comm_domain_plan<host::program>::status::materialize)
        for (const auto& v : fp.views) {
          const auto& old = *v.var->type.window;
          auto w = std::make_shared<host::window_buffer>();
          w->base = old.base;  // the same allocation, another WindowBuffer
          w->loc = old.loc;
          v.var->type.window = w;
          return true;
        }
    return false;
  }});
  return ks;
}

bool has_code(const rewrite_check<source_loc>& c, rewrite_fault f) {
  for (const auto& m : c.mismatches)
    if (m.code == f) return true;
  return false;
}

TEST_CASE("no alarm on correct runs; the checked apply is the apply") {
  std::size_t runs = 0, statements = 0;
  for (const auto& f : inputs()) {
    INFO(f.string());
    auto c = load(f);
    if (!c) continue;
    auto plain = load(f);
    const auto r = apply_checked(c->p, c->plan);
    CHECK(r.applied);
    CHECK_MESSAGE(r.check.ok(), diags(c->p, r.check));
    passes::materialize_comm_domain_scopes::apply(plain->p, plain->plan);
    CHECK(host::print_program(c->p) == host::print_program(plain->p));
    ++runs;
    statements += r.check.ops;
  }
  std::printf("host rewrite check: %zu correct runs, %zu statements checked, no alarm\n", runs, statements);
  CHECK(runs >= 20);
}

TEST_CASE("mutation testing: every injected fault is caught") {
  std::map<std::string, std::pair<std::size_t, std::size_t>> counts;  // kind → {injected, caught}
  for (const auto& f : inputs()) {
    for (const auto& k : fault_kinds()) {
      auto c = load(f);
      if (!c) break;
      const auto snap = snapshot_host(c->p);
      apply_comm_domain_scopes(c->p, c->plan);
      if (!k.inject(c->p, c->plan)) continue;
      const auto check = check_comm_domain_rewrite(c->p, c->plan, snap);
      auto& n = counts[k.name];
      ++n.first;
      INFO(f.string() << ": " << k.name << "\n" << diags(c->p, check));
      CHECK(has_code(check, k.expect));
      if (has_code(check, k.expect)) ++n.second;
    }
  }
  std::size_t total = 0, caught = 0;
  for (const auto& [name, n] : counts) {
    std::printf("host fault %-36s injected %4zu  caught %4zu\n", name.c_str(), n.first, n.second);
    CHECK(n.first > 0);
    CHECK(n.first == n.second);
    total += n.first;
    caught += n.second;
  }
  CHECK(counts.size() == fault_kinds().size());
  std::printf("host faults: %zu injected, %zu caught\n", total, caught);
}

TEST_CASE("a wrong device set is reported at the allocation, with the recomputed set") {
  auto p = neuronrw::testing::host::parse_ok(R"(import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip_fn(self, x: pld.DistributedTensor[[64], pl.FP32]):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def main(self):
        buf = pld.tensor.alloc_window_buffer(256, name="buf")
        v = pld.tensor.window(buf, [64], dtype=pl.FP32)
        for r in pl.range(0, 2, 1):
            self.chip_fn(v, device=r)
)", "t.py");
  auto plan = plan_comm_domain_scopes(std::as_const(p));
  REQUIRE(plan.has_changes());
  const auto snap = snapshot_host(p);
  apply_comm_domain_scopes(p, plan);
  p.functions.back()->body.front()->scope->devices = {0, 1, 2};
  const auto check = check_comm_domain_rewrite(p, plan, snap);
  CHECK(diags(p, check) ==
        "t.py:13:15: error: test: rewrite check failed: scope_mismatch: the scope holding allocation 'buf' has not the "
        "device set a recomputation from the output finds\n"
        "t.py:13:15: note: the input had: devices [0, 1] (recomputed)\n"
        "t.py:13:15: note: the output has: devices [0, 1, 2]\n");
  CHECK(check.ops == 5);  // chip_fn's return and main's four
}

TEST_CASE("the unscoped view reads a materialized program as its input") {
  for (const auto& f : inputs()) {
    INFO(f.string());
    auto c = load(f);
    if (!c) continue;
    const auto before = plan_comm_domain_scopes(std::as_const(c->p));
    apply_comm_domain_scopes(c->p, c->plan);
    const unscoped_program<host::program> view{&c->p};
    const auto again = plan_comm_domain_scopes(view);
    REQUIRE(again.functions.size() == before.functions.size());
    for (std::size_t i = 0; i < before.functions.size(); ++i) {
      CHECK(static_cast<int>(again.functions[i].state) == static_cast<int>(before.functions[i].state));
      REQUIRE(again.functions[i].scopes.size() == before.functions[i].scopes.size());
      for (std::size_t s = 0; s < before.functions[i].scopes.size(); ++s)
        CHECK(again.functions[i].scopes[s].devices == before.functions[i].scopes[s].devices);
    }
  }
}

// ------------------------------------------------------------------ SynthesizeAllReduceSignals
/// A generated host program with allreduces in every form (deterministic in `seed`).
std::string allreduce_program(std::uint32_t seed) {
  std::uint32_t x = seed * 2654435761u + 12345u;
  const auto next = [&](std::uint32_t n) {
    x = x * 1664525u + 1013904223u;
    return (x >> 8) % n;
  };
  std::string s = R"(import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Gen:
    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip_fn(self, x: pld.DistributedTensor[[64], pl.FP32]):
        return x
)";
  const std::uint32_t functions = 1 + next(2);
  for (std::uint32_t f = 0; f < functions; ++f) {
    s += "\n    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n    def main" + std::to_string(f) + "(self):\n";
    s += "        buf = pld.tensor.alloc_window_buffer(256, name=\"buf\")\n";
    s += "        v = pld.tensor.window(buf, [64], dtype=pl.FP32)\n";
    s += "        sig_buf = pld.tensor.alloc_window_buffer(64, name=\"sig_buf\")\n";
    s += "        sig = pld.tensor.window(sig_buf, [16], dtype=pl.INT32)\n";
    s += "        for r in pl.range(0, 4, 1):\n            self.chip_fn(v, device=r)\n";
    const std::uint32_t n = 1 + next(4);
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::string core = next(3) == 0 ? ", core_num=" + std::to_string(1 + next(4)) : "";
      const std::string args = next(4) == 0 ? "v, sig" : "v";
      if (next(2) == 0)
        s += "        y" + std::to_string(i) + " = pld.tensor.allreduce(" + args + ", op=pld.ReduceOp.Sum" + core + ")\n";
      else
        s += "        pld.tensor.allreduce(" + args + ", op=pld.ReduceOp.Sum" + core + ")\n";
      if (next(3) == 0) s += "        self.chip_fn(v, device=" + std::to_string(next(4)) + ")\n";
    }
    if (next(2) == 0) s += "        return pld.tensor.allreduce(v, op=pld.ReduceOp.Sum)\n";
    else s += "        return v\n";
  }
  return s;
}

struct allreduce_case {
  std::string name;
  host::program p;
  allreduce_signal_plan<host::program> plan;
};
std::vector<std::pair<std::string, std::string>> allreduce_texts() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& f : neuronrw::testing::files_with_extension(examples_dir() / "host", ".py"))
    out.push_back({f.filename().string(), neuronrw::testing::read_file(f)});
  for (std::uint32_t seed = 1; seed <= 60; ++seed) out.push_back({"generated " + std::to_string(seed), allreduce_program(seed)});
  return out;
}
std::optional<allreduce_case> load_allreduce(const std::pair<std::string, std::string>& t) {
  auto r = host::parse_program(t.second, "t.py");
  if (!r.ok()) return std::nullopt;
  allreduce_case c{t.first, std::move(*r.value), {}};
  c.plan = plan_allreduce_signals(std::as_const(c.p));
  if (!c.plan.has_changes()) return std::nullopt;
  return c;
}

host::stmt* find_assign(host::program& p, std::string_view prefix) {
  std::vector<stmt_list*> ls;
  for (auto& f : p.functions) lists(f->body, ls);
  for (auto* l : ls)
    for (auto& s : *l)
      if (s->kind == host::stmt_kind::assign && s->target && s->target->name.starts_with(prefix)) return s.get();
  return nullptr;
}
/// The list holding `s` and its index there.
std::pair<stmt_list*, std::size_t> holder(host::program& p, const host::stmt* s) {
  std::vector<stmt_list*> ls;
  for (auto& f : p.functions) lists(f->body, ls);
  for (auto* l : ls)
    for (std::size_t i = 0; i < l->size(); ++i)
      if ((*l)[i].get() == s) return {l, i};
  return {nullptr, 0};
}
/// The allreduce call that got the synthesized signal `sig` as its last argument.
host::expr* signalled_call(host::program& p, const host::var* sig) {
  std::vector<stmt_list*> ls;
  for (auto& f : p.functions) lists(f->body, ls);
  for (auto* l : ls)
    for (auto& s : *l)
      if (s->value && s->value->kind == host::expr_kind::call && !s->value->args.empty() &&
          s->value->args.back()->kind == host::expr_kind::var_ref && s->value->args.back()->ref == sig)
        return s->value.get();
  return nullptr;
}

/// The variables of the synthesized signal views (`__allreduce_signal_N`), in program order.
std::vector<const host::var*> signal_views(host::program& p) {
  std::vector<stmt_list*> ls;
  for (auto& f : p.functions) lists(f->body, ls);
  std::vector<const host::var*> out;
  for (auto* l : ls)
    for (auto& x : *l)
      if (x->kind == host::stmt_kind::assign && x->target->name.starts_with("__allreduce_signal_") &&
          !x->target->name.starts_with("__allreduce_signal_buf_") &&
          !x->target->name.starts_with("__allreduce_signal_world_size_"))
        out.push_back(x->target.get());
  return out;
}

std::vector<fault_kind> allreduce_faults() {
  std::vector<fault_kind> ks;
  ks.push_back({"a synthesized statement dropped", rewrite_fault::statement_changed, [](host::program& p, const auto&) {
    auto* s = find_assign(p, "__allreduce_signal_world_size_");
    if (!s) return false;
    auto [l, i] = holder(p, s);
    p.loose_vars.push_back(std::move(s->target));  // no dangling references (see "drop a statement")
    l->erase(l->begin() + static_cast<std::ptrdiff_t>(i));
    return true;
  }});
  ks.push_back({"a synthesized statement moved", rewrite_fault::statement_changed, [](host::program& p, const auto&) {
    // The signal view moves to the start of its block, before the statements of the input there.
    auto* s = find_assign(p, "__allreduce_signal_buf_");
    if (!s) return false;
    auto [l, i] = holder(p, s);
    if (i == 0) return false;
    auto moved = std::move((*l)[i]);
    l->erase(l->begin() + static_cast<std::ptrdiff_t>(i));
    l->insert(l->begin(), std::move(moved));
    return true;
  }});
  ks.push_back({"the signal argument dropped", rewrite_fault::plan_not_realized, [](host::program& p, const auto&) {
    for (auto* sig : signal_views(p))
      if (auto* call = signalled_call(p, sig)) {
        call->args.pop_back();
        return true;
      }
    return false;
  }});
  ks.push_back({"the signal argument rewired", rewrite_fault::plan_not_realized, [](host::program& p, const auto&) {
    for (auto* sig : signal_views(p))
      if (auto* call = signalled_call(p, sig); call && call->args.size() >= 2) {
        call->args.back()->ref = call->args.front()->ref;  // the data for the signal
        return true;
      }
    return false;
  }});
  ks.push_back({"the returned result rewired", rewrite_fault::statement_changed, [](host::program& p, const auto&) {
    std::vector<stmt_list*> ls;
    for (auto& f : p.functions) lists(f->body, ls);
    for (auto* l : ls)
      for (auto& x : *l)
        if (x->kind == host::stmt_kind::ret)
          for (auto& v : x->values)
            if (v && v->kind == host::expr_kind::var_ref && v->ref->name.starts_with("__allreduce_result_")) {
              auto* first = find_assign(p, "buf");
              if (!first) return false;
              v->ref = first->target.get();
              return true;
            }
    return false;
  }});
  ks.push_back({"an input statement rewired", rewrite_fault::statement_changed, [](host::program& p, const auto&) {
    // The first chip dispatch reads the signal buffer's view instead of its data.
    auto* sig = find_assign(p, "sig");
    if (!sig) return false;
    std::vector<stmt_list*> ls;
    for (auto& f : p.functions) lists(f->body, ls);
    for (auto* l : ls)
      for (auto& x : *l)
        if (x->kind == host::stmt_kind::expr_stmt && x->value->kind == host::expr_kind::call &&
            x->value->callee == host::callee_kind::function && !x->value->args.empty() &&
            x->value->args.front()->kind == host::expr_kind::var_ref) {
          x->value->args.front()->ref = sig->target.get();
          return true;
        }
    return false;
  }});
  return ks;
}

TEST_CASE("SynthesizeAllReduceSignals: no alarm on correct runs; the checked apply is the apply and rolls back") {
  std::size_t runs = 0, rewrites = 0;
  for (const auto& t : allreduce_texts()) {
    INFO(t.first);
    auto c = load_allreduce(t);
    if (!c) continue;
    auto plain = load_allreduce(t);
    const std::string before = host::print_program(c->p);
    {  // in a transaction, rolled back: the program prints as before
      const auto token = host_traits<host::program>::begin_transaction(c->p);
      const auto r = apply_checked(c->p, c->plan);
      CHECK_MESSAGE(r.check.ok(), diags(c->p, r.check));
      host_traits<host::program>::rollback(c->p, token);
      CHECK(host::print_program(c->p) == before);
    }
    const auto r = apply_checked(c->p, c->plan);
    CHECK(r.applied);
    CHECK_MESSAGE(r.check.ok(), diags(c->p, r.check));
    apply_allreduce_signals(plain->p, plain->plan);
    CHECK(host::print_program(c->p) == host::print_program(plain->p));
    ++runs;
    rewrites += c->plan.rewrites.size();
  }
  std::printf("allreduce rewrite check: %zu correct runs, %zu rewrites, no alarm\n", runs, rewrites);
  CHECK(runs >= 50);
}

TEST_CASE("SynthesizeAllReduceSignals: every injected fault is caught") {
  std::map<std::string, std::pair<std::size_t, std::size_t>> counts;
  for (const auto& t : allreduce_texts()) {
    for (const auto& k : allreduce_faults()) {
      auto c = load_allreduce(t);
      if (!c) break;
      const auto snap = snapshot_allreduce_signals(std::as_const(c->p), c->plan);
      apply_allreduce_signals(c->p, c->plan);
      if (!k.inject(c->p, comm_domain_plan<host::program>{})) continue;
      const auto check = check_allreduce_signal_rewrite(std::as_const(c->p), c->plan, snap);
      auto& n = counts[k.name];
      ++n.first;
      INFO(t.first << ": " << k.name << "\n" << diags(c->p, check));
      CHECK(has_code(check, k.expect));
      if (has_code(check, k.expect)) ++n.second;
    }
  }
  std::size_t total = 0, caught = 0;
  for (const auto& [name, n] : counts) {
    std::printf("allreduce fault %-34s injected %4zu  caught %4zu\n", name.c_str(), n.first, n.second);
    CHECK(n.first > 0);
    CHECK(n.first == n.second);
    total += n.first;
    caught += n.second;
  }
  CHECK(counts.size() == allreduce_faults().size());
  std::printf("allreduce faults: %zu injected, %zu caught\n", total, caught);
}

}  // namespace
