// Randomized test of MaterializeCommDomainScopes and the pl._dump round trip: random host programs
// (allocations, views, aliases, dispatches with every device form, nested for / while loops, all
// collective kinds, unrelated ops) are generated as text together with an independent model of
// what the pass must infer — which devices use each allocation, whether it must fail, which
// scopes it must build. For each program:
//   - parse(print(p)) == p with the same hash, before the pass;
//   - the pass succeeds exactly when the model says so; on failure the program is unchanged;
//   - on success the scopes (names, devices, slots, nesting) match the model, the checker is
//     clean, the round trip holds again, and a second run changes nothing.
#include <neuronrw/ir/host/hash.hpp>
#include <neuronrw/ir/host/text.hpp>
#include <neuronrw/passes/comm_domain_scopes.hpp>
#include <neuronrw/ir/host/comm_domain_scopes.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace neuronrw;
using namespace neuronrw::host;

/// A device set: every device, or a finite set of ranks.
struct cover {
  bool all = false;
  std::set<std::int64_t> ranks;
  bool empty() const { return !all && ranks.empty(); }
  bool join(const cover& o) {  // returns whether it grew
    if (all) return false;
    if (o.all) {
      all = true;
      ranks.clear();
      return true;
    }
    const auto before = ranks.size();
    ranks.insert(o.ranks.begin(), o.ranks.end());
    return ranks.size() != before;
  }
  bool operator==(const cover& o) const { return all == o.all && ranks == o.ranks; }
  std::vector<std::int64_t> devices() const { return all ? std::vector<std::int64_t>{} : std::vector<std::int64_t>(ranks.begin(), ranks.end()); }
};

struct generator {
  std::mt19937_64 rng;
  std::string out;
  int counter = 0;
  bool expect_error = false;
  std::string why;  // the first reason the model expects an error
  void expect(const std::string& reason) {
    if (!expect_error) why = reason;
    expect_error = true;
  }

  struct alloc_model {
    std::string var, name;
    int views = 0;
    cover cov;
  };
  struct loop_model {
    std::string var;
    cover devices;
  };
  struct edge {
    int target;  // -1 for a barrier
    std::vector<int> inheritors;
  };
  std::vector<alloc_model> allocs;
  std::vector<edge> edges;
  std::vector<loop_model> loops;
  int repeat_depth = 0;
  // Visible names, one frame per block: views / aliases (with their allocation) and plain values.
  struct frame {
    std::vector<std::pair<std::string, int>> reach;  // variable → allocation it reaches
    std::vector<std::string> plain;                  // other variables
    std::vector<std::pair<std::string, cover>> bounds;  // `n = 4` / `n = world_size()` usable as loop stops
    std::vector<int> allocs;                            // allocations whose variable is visible
  };
  std::vector<frame> frames;

  explicit generator(std::uint64_t seed) : rng(seed) {}

  std::size_t below(std::size_t n) { return n ? static_cast<std::size_t>(rng() % n) : 0; }
  bool chance(int percent) { return static_cast<int>(below(100)) < percent; }
  std::string fresh(const char* prefix) { return prefix + std::to_string(counter++); }
  void line(int indent, const std::string& s) { out += std::string(static_cast<std::size_t>(indent) * 4, ' ') + s + "\n"; }

  std::vector<std::pair<std::string, int>> visible_reach() const {
    std::vector<std::pair<std::string, int>> v;
    for (auto& f : frames) v.insert(v.end(), f.reach.begin(), f.reach.end());
    return v;
  }
  std::vector<std::string> visible_plain() const {
    std::vector<std::string> v;
    for (auto& f : frames) v.insert(v.end(), f.plain.begin(), f.plain.end());
    return v;
  }
  std::vector<int> visible_allocs() const {
    std::vector<int> v;
    for (auto& f : frames) v.insert(v.end(), f.allocs.begin(), f.allocs.end());
    return v;
  }
  /// Any visible value; views only when `views` (a dispatch argument must be modeled, so it asks for
  /// plain values here and picks views itself).
  std::string any_value(bool views = true) {
    auto r = visible_reach();
    auto p = visible_plain();
    if (views && !r.empty() && chance(50)) return r[below(r.size())].first;
    if (!p.empty()) return p[below(p.size())];
    return std::to_string(below(9));
  }

  std::string dtype() {
    static const char* const d[] = {"FP32", "BF16", "INT32", "FP16"};
    return d[below(4)];
  }

  void alloc(int ind) {
    alloc_model a;
    a.var = fresh("buf");
    a.name = chance(3) && !allocs.empty() ? allocs[below(allocs.size())].name : a.var;  // a rare name clash
    line(ind, a.var + " = pld.tensor.alloc_window_buffer(" + std::to_string(16 * (1 + below(64))) + ", name=\"" +
                  a.name + "\")");
    allocs.push_back(a);
    frames.back().plain.push_back(a.var);
    frames.back().allocs.push_back(static_cast<int>(allocs.size()) - 1);
    if (!chance(4)) view(ind, static_cast<int>(allocs.size()) - 1);  // rarely a dead allocation
  }
  void view(int ind, int a) {
    const std::string v = fresh("v");
    std::string shape = "[" + std::to_string(1 + below(64));
    if (chance(30)) shape += ", " + std::to_string(1 + below(8));
    line(ind, v + " = pld.tensor.window(" + allocs[static_cast<std::size_t>(a)].var + ", " + shape + "], dtype=pl." +
                  dtype() + ")");
    ++allocs[static_cast<std::size_t>(a)].views;
    frames.back().reach.push_back({v, a});
  }

  /// A device expression and its descriptor.
  std::pair<std::string, cover> device() {
    if (!loops.empty() && chance(60)) {
      const loop_model& l = loops[below(loops.size())];
      return {l.var, l.devices};
    }
    if (chance(2)) {
      expect("negative device");
      return {"-1", {}};
    }
    const auto k = static_cast<std::int64_t>(below(10));
    return {std::to_string(k), cover{false, {k}}};
  }

  void dispatch(int ind) {
    auto reach = visible_reach();
    std::string args;
    std::vector<int> reached;
    const std::size_t n = 1 + below(3);
    for (std::size_t i = 0; i < n; ++i) {
      if (!args.empty()) args += ", ";
      if (!reach.empty() && chance(80)) {
        auto& [name, a] = reach[below(reach.size())];
        args += name;
        reached.push_back(a);
      } else {
        args += any_value(false);
      }
    }
    if (chance(10)) {  // without device=: ignored by the pass
      line(ind, "self.chip(" + args + ")");
      return;
    }
    auto [dev, cov] = device();
    const std::string call = "self.chip(" + args + ", device=" + dev + ")";
    line(ind, chance(10) ? "pl.host.log(" + call + ")" : call);
    for (int a : reached) allocs[static_cast<std::size_t>(a)].cov.join(cov);
  }

  void collective(int ind) {
    auto reach = visible_reach();
    if (reach.size() < 2) return dispatch(ind);
    auto pick = [&]() { return reach[below(reach.size())]; };
    const auto [t, ta] = pick();
    const auto [s, sa] = pick();
    const std::string res = fresh("y");
    switch (below(6)) {
      case 0:
      case 1: {
        static const char* const ops[] = {"allreduce", "broadcast", "reduce_scatter"};
        line(ind, res + " = pld.tensor." + ops[below(3)] + "(" + t + ", " + s + ")");
        break;
      }
      case 2:
      case 3: {
        static const char* const ops[] = {"allgather", "all_to_all"};
        line(ind, res + " = pld.tensor." + ops[below(2)] + "(" + any_value() + ", " + t + ", " + s + ")");
        break;
      }
      case 4: {
        if (repeat_depth > 0 && !chance(5)) return dispatch(ind);
        if (repeat_depth > 0) expect("all_to_all_v in a loop");
        const auto [rc, rca] = pick();
        line(ind, res + " = pld.tensor.all_to_all_v(" + any_value() + ", " + t + ", " + s + ", " + any_value() + ", " +
                      rc + ")");
        edges.push_back({ta, {sa, rca}});
        frames.back().reach.push_back({res, ta});
        return;
      }
      default:
        line(ind, "pld.tensor.barrier(" + s + ")");
        edges.push_back({-1, {sa}});
        return;
    }
    edges.push_back({ta, {sa}});
    frames.back().reach.push_back({res, ta});
  }

  void loop(int ind, int depth) {
    const std::string r = fresh("r");
    cover devs;
    std::string range;
    switch (below(6)) {
      case 0: range = "pld.system.world_size()", devs.all = true; break;
      case 1: {
        const auto n = static_cast<std::int64_t>(below(6));
        range = std::to_string(n);
        for (std::int64_t i = 0; i < n; ++i) devs.ranks.insert(i);
        break;
      }
      case 2: {
        const auto lo = static_cast<std::int64_t>(below(4));
        const auto hi = lo + static_cast<std::int64_t>(below(4));
        range = std::to_string(lo) + ", " + std::to_string(hi) + (chance(50) ? ", 1" : "");
        for (std::int64_t i = lo; i < hi; ++i) devs.ranks.insert(i);
        break;
      }
      case 3: {
        std::vector<std::pair<std::string, cover>> bounds;
        for (auto& f : frames) bounds.insert(bounds.end(), f.bounds.begin(), f.bounds.end());
        if (!bounds.empty()) {
          auto& b = bounds[below(bounds.size())];
          range = b.first;
          devs = b.second;
          break;
        }
        range = "pld.system.world_size()", devs.all = true;
        break;
      }
      case 4:
        if (chance(15)) {  // a step of 2: an error if a dispatch uses r
          range = "0, 4, 2";
          devs.ranks = {0, 1, 2, 3};
          line(ind, "for " + r + " in pl.range(" + range + "):");
          frames.emplace_back();
          ++repeat_depth;
          block(ind + 1, depth + 1, /*bad_loop_var=*/r);
          --repeat_depth;
          frames.pop_back();
          return;
        }
        [[fallthrough]];
      default: {
        const auto n = static_cast<std::int64_t>(1 + below(4));
        range = std::to_string(n);
        for (std::int64_t i = 0; i < n; ++i) devs.ranks.insert(i);
      }
    }
    line(ind, "for " + r + " in pl.range(" + range + "):");
    loops.push_back({r, devs});
    frames.emplace_back();
    frames.back().plain.push_back(r);
    ++repeat_depth;
    block(ind + 1, depth + 1);
    --repeat_depth;
    frames.pop_back();
    loops.pop_back();
  }

  void while_loop(int ind, int depth) {
    const std::string flag = fresh("flag");
    line(ind, flag + " = True");
    frames.back().plain.push_back(flag);
    line(ind, "while " + flag + ":");
    frames.emplace_back();
    ++repeat_depth;
    block(ind + 1, depth + 1);
    --repeat_depth;
    frames.pop_back();
  }

  void noise(int ind) {
    const std::string x = fresh("x");
    switch (below(5)) {
      case 0: line(ind, x + " = pl.misc.f(" + any_value() + ", [1, -2], k=\"s\", attrs={\"h\": True})"); break;
      case 1: line(ind, "pl.misc.g(pl.FP32, None, \"q\\\"uote\")"); return;
      case 2: line(ind, x + ": pl.Tensor[[4, 2], pl." + dtype() + "] = pl.misc.make()"); break;
      case 3: {
        auto reach = visible_reach();
        if (reach.empty()) return noise(ind);
        auto& [name, a] = reach[below(reach.size())];
        line(ind, x + " = " + name);  // an alias reaches the same allocation
        frames.back().reach.push_back({x, a});
        return;
      }
      default: {
        const bool world = chance(50);
        const auto n = static_cast<std::int64_t>(1 + below(5));
        line(ind, x + " = " + (world ? std::string("pld.system.world_size()") : std::to_string(n)));
        cover c;
        c.all = world;
        if (!world)
          for (std::int64_t i = 0; i < n; ++i) c.ranks.insert(i);
        frames.back().bounds.push_back({x, c});
        break;
      }
    }
    frames.back().plain.push_back(x);
  }

  void block(int ind, int depth, const std::string& bad_loop_var = {}) {
    const std::size_t n = 1 + below(depth > 1 ? 3 : 5);
    bool wrote = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (!bad_loop_var.empty() && i == 0 && chance(50)) {
        auto reach = visible_reach();
        if (!reach.empty()) {
          line(ind, "self.chip(" + reach[below(reach.size())].first + ", device=" + bad_loop_var + ")");
          expect("step 2");
          wrote = true;
          continue;
        }
      }
      const std::size_t k = below(100);
      if (k < 18) alloc(ind);
      else if (k < 30 && !visible_allocs().empty()) {
        const auto va = visible_allocs();
        view(ind, va[below(va.size())]);
      }
      else if (k < 55) dispatch(ind);
      else if (k < 68) collective(ind);
      else if (k < 78 && depth < 3) loop(ind, depth);
      else if (k < 82 && depth < 3) while_loop(ind, depth);
      else noise(ind);
      wrote = true;
    }
    if (!wrote) line(ind, "pass");
  }

  /// Finishes the model the way the pass must: dispatch coverage, inheritance to a fixpoint, then
  /// the checks. Returns the expected scopes (devices, allocation indices) when the pass succeeds.
  std::vector<std::pair<cover, std::vector<int>>> expected_scopes() {
    for (bool grew = true; grew;) {
      grew = false;
      for (auto& e : edges)
        if (e.target >= 0)
          for (int i : e.inheritors) grew |= allocs[static_cast<std::size_t>(i)].cov.join(allocs[static_cast<std::size_t>(e.target)].cov);
    }
    for (auto& e : edges) {
      const int need = e.target >= 0 ? e.target : e.inheritors.front();
      if (allocs[static_cast<std::size_t>(need)].cov.empty()) expect("collective without coverage");
    }
    std::vector<std::pair<cover, std::vector<int>>> scopes;
    std::vector<std::set<std::string>> names;
    for (std::size_t i = 0; i < allocs.size(); ++i) {
      const auto& a = allocs[i];
      if (a.views == 0) expect("dead " + a.var);
      if (a.cov.empty()) expect("unconsumed " + a.var);
      std::size_t s = 0;
      while (s < scopes.size() && !(scopes[s].first == a.cov)) ++s;
      if (s == scopes.size()) {
        scopes.push_back({a.cov, {}});
        names.emplace_back();
      }
      if (!names[s].insert(a.name).second) expect("duplicate name " + a.name);
      scopes[s].second.push_back(static_cast<int>(i));
    }
    return scopes;
  }

  std::string program_text() {
    out =
        "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n\n@pl.program\nclass Random:\n"
        "    @pl.function(level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
        "    def chip(self, a: pld.DistributedTensor[[16], pl.FP32]):\n"
        "        return a\n\n"
        "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
        "    def main(self):\n";
    frames.emplace_back();
    for (std::size_t i = below(3); i-- > 0;) alloc(2);
    block(2, 0);
    // Most allocations end up used: a dispatch on a constant device for those still unused (the
    // rest exercise the "not consumed" error).
    for (int a : std::vector<int>(frames[0].allocs)) {
      if (!allocs[static_cast<std::size_t>(a)].cov.empty() || chance(15)) continue;
      std::string v;
      for (auto& [name, target] : frames[0].reach)
        if (target == a) v = name;
      if (v.empty()) {
        view(2, a);
        v = frames[0].reach.back().first;
      }
      const auto k = static_cast<std::int64_t>(below(10));
      line(2, "self.chip(" + v + ", device=" + std::to_string(k) + ")");
      allocs[static_cast<std::size_t>(a)].cov.join(cover{false, {k}});
    }
    if (chance(30)) line(2, "return " + any_value());
    return out;
  }
};

/// The scopes the pass built: the chain of nested scopes at the top of main's body.
std::vector<const stmt*> scope_chain(const function& f) {
  std::vector<const stmt*> chain;
  const std::vector<stmt_ptr>* body = &f.body;
  while (body->size() == 1 && (*body)[0]->kind == stmt_kind::comm_domain_scope) {
    chain.push_back((*body)[0].get());
    body = &(*body)[0]->body;
  }
  return chain;
}

void check_roundtrip(const program& p, const std::string& when) {
  const std::string text = print_program(p);
  auto r = parse_program(text, "printed.py");
  INFO(when << "\n" << text);
  REQUIRE(r.ok());
  CHECK(structural_equal(p, *r.value));
  CHECK(structural_hash(p) == structural_hash(*r.value));
  CHECK(print_program(*r.value) == text);
}

TEST_CASE("random host programs: the pass matches the model; the round trip holds before and after") {
  int succeeded = 0, failed = 0, scopes_seen = 0;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    generator g(seed * 0x9e3779b97f4a7c15ull);
    const std::string text = g.program_text();
    const auto want = g.expected_scopes();
    INFO("seed " << seed << " expecting " << (g.expect_error ? g.why : "success") << "\n" << text);
    auto r = parse_program(text, "random.py");
    INFO(r.error.str());
    REQUIRE(r.ok());
    program& p = *r.value;
    check_roundtrip(p, "before the pass");
    const program before = clone(p);
    const diagnostics errs = materialize_comm_domain_scopes(p);
    std::string messages;
    for (auto& e : errs) messages += e.str() + "\n";
    INFO(messages);
    if (g.expect_error || g.allocs.empty()) {
      if (g.allocs.empty()) {
        CHECK(errs.empty());
        CHECK(structural_equal(before, p));
        continue;
      }
      CHECK_FALSE(errs.empty());
      CHECK(structural_equal(before, p));
      ++failed;
      continue;
    }
    REQUIRE(errs.empty());
    ++succeeded;
    const auto chain = scope_chain(*p.functions[1]);
    REQUIRE(chain.size() == want.size());
    scopes_seen += static_cast<int>(chain.size());
    for (std::size_t i = 0; i < chain.size(); ++i) {
      CHECK(chain[i]->scope->name == "comm_d" + std::to_string(i));
      CHECK(chain[i]->scope->devices == want[i].first.devices());
      REQUIRE(chain[i]->scope->slots.size() == want[i].second.size());
      for (std::size_t j = 0; j < chain[i]->scope->slots.size(); ++j) {
        REQUIRE(chain[i]->scope->slots[j]);
        CHECK(chain[i]->scope->slots[j]->base->name == g.allocs[static_cast<std::size_t>(want[i].second[j])].var);
      }
    }
    diagnostics check = check_comm_domain_scopes(p);
    CHECK(check.empty());
    check_roundtrip(p, "after the pass");
    const program once = clone(p);
    CHECK(materialize_comm_domain_scopes(p).empty());
    CHECK(structural_equal(once, p));
  }
  MESSAGE(succeeded << " programs materialized (" << scopes_seen << " scopes), " << failed << " rejected");
  CHECK(succeeded > 100);
  CHECK(failed > 20);
}

TEST_CASE("random IR built by hand: round trip and hash through clone, print and parse") {
  std::mt19937_64 rng(42);
  auto below = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  for (int round = 0; round < 200; ++round) {
    program p;
    p.name = "Built";
    auto f = std::make_unique<function>();
    f->name = "f";
    f->level = below(2) ? "HOST" : "";
    f->role = below(2) ? "Orchestrator" : "";
    std::vector<var*> vars;
    std::vector<window_ptr> windows;
    auto random_type = [&]() -> type {
      switch (below(6)) {
        case 0: return type::unknown();
        case 1: return type::scalar(below(2) ? "INDEX" : "INT8");
        case 2: return type::ptr();
        case 3: {
          std::vector<dim> shape{{static_cast<std::int64_t>(below(9)) - 2, nullptr}};
          if (!vars.empty() && below(2)) shape.push_back({0, vars[below(vars.size())]});
          return type::tensor(std::move(shape), "FP32");
        }
        default: {
          window_ptr w;
          if (!windows.empty() && below(3)) w = windows[below(windows.size())];
          return type::distributed({{4, nullptr}}, "BF16", w);
        }
      }
    };
    std::function<expr_ptr(int)> random_expr = [&](int depth) -> expr_ptr {
      switch (depth > 2 ? below(4) : below(8)) {
        case 0: return vars.empty() ? make_none() : make_var_ref(vars[below(vars.size())]);
        case 1: return make_int(static_cast<std::int64_t>(rng()));
        case 2: return make_str(std::string(below(5), static_cast<char>(below(256))));
        case 3: return make_symbol(below(2) ? "pl.FP32" : "odd symbol");
        case 4: return make_bool(below(2) == 0);
        case 5: {
          std::vector<expr_ptr> elems;
          for (std::size_t i = below(3); i-- > 0;) elems.push_back(random_expr(depth + 1));
          return make_list(std::move(elems));
        }
        default: {
          std::vector<expr_ptr> args;
          for (std::size_t i = below(3); i-- > 0;) args.push_back(random_expr(depth + 1));
          std::vector<keyword> kw, at;
          static const char* const keys[] = {"k", "device", "attrs", "dtype"};
          if (below(2)) kw.push_back(make_keyword(keys[below(4)], random_expr(depth + 1)));
          if (below(2)) at.push_back(make_keyword(keys[below(4)], random_expr(depth + 1)));
          const bool fn = below(4) == 0;
          auto c = make_call(fn ? callee_kind::function : callee_kind::op, fn ? "f" : (below(2) ? "pld.a.b" : "x y"),
                             std::move(args), std::move(kw), std::move(at));
          c->call->type = below(2) ? infer_call_type(*c) : random_type();
          return c;
        }
      }
    };
    const std::size_t nstmts = 1 + below(8);
    for (std::size_t i = 0; i < nstmts; ++i) {
      if (below(4) == 0) {
        auto w = std::make_shared<window_buffer>();
        w->base = vars.empty() ? nullptr : vars[below(vars.size())];
        w->size = below(4) ? random_expr(2) : nullptr;
        if (w->size && w->size->kind == expr_kind::none) w->size = make_int(1);  // None prints as "no size"
        w->load_from_host = below(2);
        w->store_to_host = below(2);
        windows.push_back(w);
      }
      auto v = make_var(below(3) ? "v" : "x", random_type());
      var* pv = v.get();
      f->body.push_back(make_assign(std::move(v), random_expr(0)));
      vars.push_back(pv);
    }
    if (!windows.empty()) {
      std::vector<window_ptr> slots;
      for (auto& w : windows)
        if (below(2)) slots.push_back(w);
      std::vector<keyword> attrs;
      if (below(2)) attrs.push_back(make_keyword("a", make_int(-1)));
      auto body = std::move(f->body);
      f->body.clear();
      f->body.push_back(make_scope("s", {static_cast<std::int64_t>(below(4))}, std::move(slots), std::move(attrs), std::move(body)));
    }
    p.functions.push_back(std::move(f));
    INFO("round " << round);
    check_roundtrip(p, "hand-built");
    CHECK(structural_equal(p, clone(p)));
    CHECK(structural_hash(p) == structural_hash(clone(p)));
  }
}

}  // namespace
